/**
 * One MCP session: an SDK `Client` over a `StreamableHTTPClientTransport` whose fetch is the
 * wrapping fetch of `fetch.ts`, for one endpoint and one key. A session that expires, or whose key
 * is replaced, is retired: it takes no new calls and is closed once its in-flight calls settle.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { CancelledError, redactSecret } from './errors';
import { type RequestContext, type RpcInfo, wrapFetch } from './fetch';
import type { ToolInfo } from './types';

/** The SDK's output-schema validator is not needed (results are checked with zod): skip building Ajv per session. */
const noValidation: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/**
 * A transport that reports each message synchronously as the SDK hands it over, before any await,
 * and each message it receives as it hands it to the SDK.
 */
class ObservedTransport extends StreamableHTTPClientTransport {
  constructor(
    url: URL,
    opts: ConstructorParameters<typeof StreamableHTTPClientTransport>[1],
    private readonly observe: (message: JSONRPCMessage | JSONRPCMessage[]) => void,
    received: (message: JSONRPCMessage) => void,
  ) {
    super(url, opts);
    // The SDK's Protocol assigns `onmessage` when it connects; observe what it is handed.
    type Handler = (message: JSONRPCMessage, ...rest: unknown[]) => void;
    let handler: Handler | undefined;
    Object.defineProperty(this, 'onmessage', {
      get: () => handler,
      set: (h: Handler | undefined) => {
        handler = h
          ? (message, ...rest) => {
              received(message);
              h(message, ...rest);
            }
          : h;
      },
    });
  }
  override send(
    message: JSONRPCMessage | JSONRPCMessage[],
    options?: Parameters<StreamableHTTPClientTransport['send']>[1],
  ): Promise<void> {
    this.observe(message);
    return super.send(message, options);
  }
}

/** What a session needs from its client. */
export interface SessionOptions {
  url: URL;
  key: string;
  baseFetch: typeof fetch;
  log: ((line: string) => void) | undefined;
  now: () => number;
  clientInfo: { name: string; version: string };
  /** Called when the server says the tool list changed (`notifications/tools/list_changed`). */
  onToolsChanged: (session: Session) => void;
  /** Called once the session is closed. */
  onClosed: (session: Session) => void;
}

/** Converts an SDK tool to the client's {@link ToolInfo}. */
function toToolInfo(t: {
  name: string;
  description?: string | undefined;
  inputSchema: { properties?: Record<string, unknown> | undefined; required?: string[] | undefined };
}): ToolInfo {
  const inputSchema: ToolInfo['inputSchema'] = { type: 'object' };
  if (t.inputSchema.properties) inputSchema.properties = t.inputSchema.properties;
  if (t.inputSchema.required) inputSchema.required = t.inputSchema.required;
  const info: ToolInfo = { name: t.name, inputSchema };
  if (t.description !== undefined) info.description = t.description;
  return info;
}

/** One MCP session (see the module comment). */
export class Session {
  readonly key: string;
  readonly client: Client;
  private readonly transport: ObservedTransport;
  private readonly contexts = new Map<number | string, RequestContext>();
  private nextContext: RequestContext | undefined;
  /** The context of messages sent outside {@link bind} (initialize and `notifications/initialized`). */
  defaultContext: RequestContext | undefined;
  private inflight = 0;
  private retiredFlag = false;
  private closing: Promise<void> | undefined;
  private readonly onClosed: (session: Session) => void;

  constructor(opts: SessionOptions) {
    this.key = opts.key;
    this.onClosed = opts.onClosed;
    const key = opts.key;
    const log = opts.log ? (line: string): void => opts.log?.(redactSecret(line, key)) : undefined;
    const fetchFn = wrapFetch({
      base: opts.baseFetch,
      key: opts.key,
      log,
      now: opts.now,
      // A request is found by its id. A notification has none: outside open it takes the transport's
      // signal, so a call's notifications/cancelled goes out although the call's own signal fired.
      contextOf: (rpc: RpcInfo) =>
        (rpc.id !== undefined ? this.contexts.get(rpc.id) : undefined) ?? this.defaultContext,
    });
    this.transport = new ObservedTransport(
      opts.url,
      {
        fetch: fetchFn,
        // The endpoint has no GET stream and its POST streams are never resumable: never reconnect.
        reconnectionOptions: {
          maxRetries: 0,
          initialReconnectionDelay: 1000,
          maxReconnectionDelay: 1000,
          reconnectionDelayGrowFactor: 1,
        },
      },
      (message) => {
        const ctx = this.nextContext;
        if (!ctx || Array.isArray(message) || !('id' in message) || !('method' in message)) return;
        this.nextContext = undefined;
        this.contexts.set(message.id, ctx);
        ctx.boundIds.push(message.id);
      },
      (message) => {
        if ('id' in message && ('result' in message || 'error' in message)) {
          const ctx = message.id === undefined ? undefined : this.contexts.get(message.id);
          if (ctx) ctx.answered = true;
        }
      },
    );
    this.client = new Client(opts.clientInfo, { capabilities: {}, jsonSchemaValidator: noValidation });
    this.client.onerror = (e: Error) => {
      // Transport noise the client already handles (HTTP errors surface on the call, aborts are ours).
      log?.(`note: transport reported: ${e.message.split('\n')[0]}`);
    };
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      opts.onToolsChanged(this);
    });
  }

  /** The session id the server assigned (after {@link open}). */
  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  /** True once the session takes no new calls. */
  get retired(): boolean {
    return this.retiredFlag;
  }

  /** initialize + notifications/initialized, with `ctx` for both requests. */
  async open(ctx: RequestContext, sdkTimeoutMs: number): Promise<void> {
    this.defaultContext = ctx;
    try {
      await this.client.connect(
        this.transport,
        ctx.signal ? { signal: ctx.signal, timeout: sdkTimeoutMs } : { timeout: sdkTimeoutMs },
      );
    } finally {
      this.defaultContext = undefined;
    }
  }

  /**
   * Runs `start`, which must hand exactly one request to the SDK synchronously (as `client.callTool`
   * and `client.listTools` do), with `ctx` bound to that request's JSON-RPC id, so the wrapping fetch
   * uses the call's signal and reports to the call.
   */
  bind<T>(ctx: RequestContext, start: () => Promise<T>): Promise<T> {
    this.nextContext = ctx;
    let p: Promise<T>;
    try {
      p = start();
    } finally {
      this.nextContext = undefined;
    }
    return p.finally(() => {
      for (const id of ctx.boundIds) this.contexts.delete(id);
      ctx.boundIds.length = 0;
    });
  }

  /** `tools/list` (all pages). */
  async listTools(ctx: RequestContext, sdkTimeoutMs: number): Promise<ToolInfo[]> {
    const out: ToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const params = cursor !== undefined ? { cursor } : undefined;
      const res = await this.bind(ctx, () =>
        this.client.listTools(
          params,
          ctx.signal ? { signal: ctx.signal, timeout: sdkTimeoutMs } : { timeout: sdkTimeoutMs },
        ),
      );
      for (const t of res.tools) out.push(toToolInfo(t));
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return out;
  }

  /** Marks a call as running on this session. */
  enter(): void {
    this.inflight++;
  }

  /** Marks a call as settled; closes a retired session when it was the last. */
  leave(): void {
    this.inflight--;
    if (this.retiredFlag && this.inflight <= 0) void this.close();
  }

  /** Takes the session out of service; it closes as soon as no call is running on it. */
  retire(): void {
    this.retiredFlag = true;
    if (this.inflight <= 0) void this.close();
  }

  /** Closes the SDK client and transport (in-flight calls are rejected by the SDK). */
  close(): Promise<void> {
    this.retiredFlag = true;
    // A second close aborts the same contexts again, which does nothing (abort is idempotent).
    for (const ctx of new Set(this.contexts.values())) ctx.abort?.(new CancelledError('The session was closed.'));
    if (this.defaultContext) this.defaultContext.abort?.(new CancelledError('The session was closed.'));
    this.closing ??= this.client
      .close()
      .catch(() => undefined)
      .finally(() => this.onClosed(this));
    return this.closing;
  }
}
