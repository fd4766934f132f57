/**
 * `ShunongClient`: the one place the extension, the CLI and the tests talk to the platform.
 *
 * One MCP session per client (endpoint + key), created on first use and kept; re-initialized once,
 * single-flight, when the server forgets it; 429 / 5xx retried with backoff; every call bounded by a
 * timeout and cancellable; every result parsed by `parse.ts`.
 */
import { randomUUID } from 'node:crypto';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import {
  AuthError,
  CancelledError,
  ConfigurationError,
  InsecureEndpointError,
  InvalidArgumentsError,
  NetworkError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  ShunongError,
  TimeoutError,
  ToolReportedError,
  UnknownToolError,
  redactSecret,
} from './errors';
import { isLoopbackHost, newRequestContext, type RequestContext } from './fetch';
import { parseToolResult, type RawToolResult } from './parse';
import { backoffDelay, retryPolicy, type RetryPolicy } from './retry';
import { resolveToolName, SERVICE_NAME } from './resolve';
import { realScheduler } from '../time/scheduler';
import {
  CurrentTimeSchema,
  KnowledgeResultSchema,
  RecognitionResultSchema,
  ToolInfoSchema,
  WeatherForecastSchema,
  WeatherNowSchema,
  type CurrentTime,
  type KnowledgeResult,
  type RecognitionResult,
  type RecognitionType,
  type WeatherForecast,
  type WeatherNow,
} from './schemas';
import { Session } from './session';
import type {
  BatchCall,
  CallEnvelope,
  CallMetadata,
  CallOptions,
  KeyProvider,
  ProgressInfo,
  Scheduler,
  ShunongClientOptions,
  ToolInfo,
  ToolListStore,
} from './types';

/** The reason a call's timeout timer is stopped with: a plain value, as abort() without one builds a DOMException (and its stack) per call. */
const DISARMED = Symbol('disarmed');

/** The platform's public endpoint. */
export const DEFAULT_ENDPOINT = 'https://ai.agriwis.com/mcp';
const DEFAULT_TIMEOUT_MS = 30_000;
/** The SDK's own request timer is only a backstop behind ours (which also aborts the HTTP request). */
const SDK_TIMEOUT_SLACK_MS = 60_000;

/** Arguments of {@link ShunongClient.knowledgeSearch}. */
export interface KnowledgeSearchArgs {
  query: string;
  kbCode?: string;
  topK?: number;
  scoreThreshold?: number;
  useRerank?: boolean;
  mode?: 'hybrid' | 'vector';
}

/** Arguments of {@link ShunongClient.recognizeCrop}: an image URL or base64 (bare or data URI), and the model. */
export type RecognizeCropArgs =
  { imageUrl: string; recognitionType: RecognitionType } | { imageBase64: string; recognitionType: RecognitionType };

/** Arguments of {@link ShunongClient.currentTime}. */
export interface CurrentTimeArgs {
  format?: string;
  withSolarTerms?: boolean;
}

/** The session expired on the server (404 `Session not found`, or a 400 about the session id). */
class SessionExpired extends Error {
  constructor(readonly status: number) {
    super(`session expired (HTTP ${status})`);
  }
}

/** A failure worth retrying with backoff (429, 5xx) or at once (a cut reply stream). */
class Retryable extends Error {
  constructor(
    readonly reason: 'rate-limited' | 'server' | 'cut',
    readonly status: number | undefined,
    readonly retryAfterMs: number | undefined,
    readonly detail: string,
  ) {
    super(detail);
  }
  /** The typed error to report once no retry is left. */
  toPublic(attempts: number): ShunongError {
    if (this.reason === 'rate-limited') return new RateLimitedError(this.retryAfterMs, attempts);
    if (this.reason === 'server') return new ServerError(this.status ?? 500, attempts, this.detail || undefined);
    return new NetworkError(
      `The reply stream from the endpoint was cut short (${this.detail}); ${attempts} attempt(s).`,
      'SSE_CUT',
    );
  }
}

type Classified = ShunongError | SessionExpired | Retryable;

const NETWORK_RETRYABLE = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED']);

function systemCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}

function parseArgs(args: Record<string, unknown> | string | undefined): Record<string, unknown> {
  if (args === undefined) return {};
  if (typeof args === 'string') {
    const t = args.trim();
    if (!t) return {};
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (e) {
      throw new InvalidArgumentsError(
        `The arguments are not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    if (!v || typeof v !== 'object' || Array.isArray(v))
      throw new InvalidArgumentsError('The arguments must be a JSON object.');
    return v as Record<string, unknown>;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new InvalidArgumentsError('The arguments must be an object.');
  return args;
}

function compact(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

/** The calendar date (YYYY-MM-DD) in China (UTC+8) at `ms`. */
function chinaDate(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
}

/**
 * The Shunong platform client. Never imports `vscode`.
 *
 * @example
 * const client = new ShunongClient({ endpoint, getKey: () => process.env.SHUNONG_API_KEY });
 * const hits = await client.knowledgeSearch({ query: '茶树修剪技术要点' });
 */
export class ShunongClient {
  /** The endpoint this client talks to. */
  readonly endpoint: string;
  private readonly url: URL | undefined;
  private readonly configError: ShunongError | undefined;
  private readonly getKey: KeyProvider;
  private readonly baseFetch: typeof fetch;
  private readonly store: ToolListStore | undefined;
  private readonly timeoutMs: number;
  private readonly policy: RetryPolicy;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  private readonly log: ((line: string) => void) | undefined;
  private readonly clientInfo: { name: string; version: string };

  private current: Session | undefined;
  private pending: { key: string; promise: Promise<Session> } | undefined;
  private readonly sessions = new Set<Session>();
  private everConnected = false;
  private tools: ToolInfo[] | undefined;
  /** True when `tools` came from the server in this process (not only from the store). */
  private toolsFresh = false;
  private storeLoaded = false;
  private refreshing: Promise<void> | undefined;
  private readonly listeners = new Set<(tools: ToolInfo[]) => void>();
  private lastKey: string | undefined;
  private closed = false;

  /** Builds a client; no request is made until the first call. */
  constructor(options: ShunongClientOptions) {
    this.endpoint = options.endpoint;
    this.getKey = options.getKey;
    this.baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.store = options.toolStore;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.policy = retryPolicy(options.retry);
    this.scheduler = options.scheduler ?? realScheduler;
    this.random = options.random ?? Math.random;
    this.log = options.log;
    this.clientInfo = options.clientInfo ?? { name: 'shunong-vscode', version: '0.1.0' };
    let url: URL | undefined;
    let configError: ShunongError | undefined;
    try {
      url = new URL(options.endpoint);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        configError = new ConfigurationError(`The endpoint must be an http(s) URL: ${options.endpoint}`);
      } else if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && options.allowInsecureHttp !== true) {
        configError = new InsecureEndpointError(options.endpoint);
      }
    } catch {
      configError = new ConfigurationError(`The endpoint is not a valid URL: ${options.endpoint}`);
    }
    this.url = url;
    this.configError = configError;
  }

  // ---------------------------------------------------------------- public API

  /**
   * Opens the session (initialize + notifications/initialized, + tools/list unless a tool list is
   * cached) and returns the tools. Use it to validate a key: a rejected key throws {@link AuthError}.
   */
  async connect(signal?: AbortSignal): Promise<ToolInfo[]> {
    return this.run({ signal }, async (sig, key, budget, started) =>
      this.withRetry(sig, started, budget, async () => {
        await this.acquire(key, sig);
        const cached = await this.cachedTools();
        if (cached) return cached;
        return this.attempt(key, sig, async (s, ctx) => this.fetchTools(s, ctx));
      }),
    );
  }

  /** The tools (from memory, then the store, then the server); `refresh` always asks the server. */
  async listTools(options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<ToolInfo[]> {
    if (!options.refresh) {
      this.assertConfigured();
      const cached = await this.cachedTools();
      if (cached) return cached;
      return this.connect(options.signal);
    }
    return this.run({ signal: options.signal }, async (sig, key, budget, started) =>
      this.withRetry(sig, started, budget, async () =>
        this.attempt(key, sig, async (s, ctx) => this.fetchTools(s, ctx)),
      ),
    );
  }

  /**
   * The generic call layer. `name` may be exact, service-prefixed (`shunong_knowledge_search`),
   * legacy dotted (`shunong.knowledge_search`), the server's method name (`knowledgeSearch`) or a
   * unique partial match (`knowledge`); `args` an object or a JSON string. Arguments the tool's
   * `inputSchema` does not declare are dropped (and logged).
   *
   * With `raiseOnError` (default true) failures throw typed {@link ShunongError}s; with false they
   * come back as an envelope with `success: false` and `message` = the reason.
   */
  async callTool(
    name: string,
    args?: Record<string, unknown> | string,
    options: CallOptions = {},
  ): Promise<CallEnvelope> {
    const started = this.scheduler.now();
    const traceId = randomUUID().replace(/-/g, '').slice(0, 16);
    let resolved: string | null = null;
    try {
      const input = parseArgs(args);
      const data = await this.invoke(name, input, undefined, options, (r) => {
        resolved = r;
      });
      const meta = this.meta(started, traceId, name, resolved);
      return {
        success: true,
        data,
        metadata: meta,
        message: `Tool '${resolved ?? name}' executed successfully in ${meta.executionTimeMs}ms`,
      };
    } catch (e) {
      if (options.raiseOnError !== false) throw e;
      const err = e instanceof ShunongError ? e : undefined;
      const message = redactSecret(
        err instanceof ToolReportedError ? err.reason : e instanceof Error ? e.message : String(e),
        this.lastKey,
      );
      return {
        success: false,
        data: { error: message, kind: err ? err.kind : 'internal', details: err ? err.details() : {} },
        metadata: this.meta(started, traceId, name, resolved),
        message,
      };
    }
  }

  /** Runs calls with at most `concurrency` (default 4) in flight; envelopes come back in call order, never thrown. */
  async callToolsBatch(calls: readonly BatchCall[], options: { concurrency?: number } = {}): Promise<CallEnvelope[]> {
    const limit = Math.max(1, Math.floor(options.concurrency ?? 4));
    const out: CallEnvelope[] = new Array<CallEnvelope>(calls.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < calls.length) {
        const i = next++;
        const c = calls[i];
        if (!c) continue;
        out[i] = await this.callTool(c.name, c.args, { ...c.options, raiseOnError: false });
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, calls.length) }, worker));
    return out;
  }

  /**
   * knowledge_search. A miss (every candidate filtered, or empty `sources`) throws {@link KnowledgeMissError}
   * with the candidate counts, threshold and best score. Typed calls always throw (`raiseOnError` is ignored).
   */
  async knowledgeSearch(args: KnowledgeSearchArgs, o: CallOptions = {}): Promise<KnowledgeResult> {
    const input = compact({
      query: args.query,
      kbCode: args.kbCode,
      topK: args.topK,
      scoreThreshold: args.scoreThreshold,
      useRerank: args.useRerank,
      mode: args.mode,
    });
    return this.invoke('knowledge_search', input, KnowledgeResultSchema, o);
  }

  /** weather_search in real-time mode (`date: "now"`; `city` is the internal city code). */
  async weatherNow(location: string, o: CallOptions = {}): Promise<WeatherNow> {
    return this.invoke('weather_search', { location, date: 'now' }, WeatherNowSchema, o);
  }

  /** weather_search in forecast mode: 7 days starting today (`city` echoes `location`). */
  async weatherForecast(location: string, o: CallOptions = {}): Promise<WeatherForecast> {
    return this.invoke('weather_search', { location, date: chinaDate(this.scheduler.now()) }, WeatherForecastSchema, o);
  }

  /** crop_growth_recognize with an explicit `recognitionType`. A failed image download throws {@link ImageDownloadError}. */
  async recognizeCrop(args: RecognizeCropArgs, o: CallOptions = {}): Promise<RecognitionResult> {
    const input: Record<string, unknown> =
      'imageUrl' in args
        ? { imageUrl: args.imageUrl, recognitionType: args.recognitionType }
        : { imageBase64: args.imageBase64, recognitionType: args.recognitionType };
    return this.invoke('crop_growth_recognize', input, RecognitionResultSchema, o);
  }

  /** get_current_time (China time, with the current and next solar terms). */
  async currentTime(args: CurrentTimeArgs = {}, o: CallOptions = {}): Promise<CurrentTime> {
    return this.invoke(
      'get_current_time',
      compact({ format: args.format, withSolarTerms: args.withSolarTerms }),
      CurrentTimeSchema,
      o,
    );
  }

  /** Subscribes to tool-list changes (listChanged, re-initialize, refresh); returns the unsubscribe function. */
  onDidChangeTools(listener: (tools: ToolInfo[]) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Closes every session. A later call opens a new one. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = this.pending?.promise;
    this.pending = undefined;
    this.current = undefined;
    if (pending)
      await pending.then(
        (s) => s.close(),
        () => undefined,
      );
    await Promise.all([...this.sessions].map((s) => s.close()));
    this.sessions.clear();
    this.closed = false;
  }

  // ---------------------------------------------------------------- internals

  private meta(started: number, traceId: string, toolName: string, resolved: string | null): CallMetadata {
    return {
      executionTimeMs: Math.max(0, Math.round(this.scheduler.now() - started)),
      traceId,
      toolName,
      resolvedToolName: resolved,
      serviceName: SERVICE_NAME,
    };
  }

  private assertConfigured(): void {
    if (this.configError) throw this.configError;
  }

  private async currentKey(): Promise<string> {
    let key: string | undefined;
    try {
      key = await this.getKey();
    } catch (e) {
      throw new AuthError('missing-key', `The API key could not be read (${e instanceof Error ? e.name : 'error'}).`);
    }
    key = key?.trim();
    if (!key) throw new AuthError('missing-key');
    this.lastKey = key;
    return key;
  }

  /** Checks the configuration and key, then runs `body` under the call's timeout and cancellation. */
  private async run<T>(
    options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined },
    body: (signal: AbortSignal, key: string, budgetMs: number, started: number) => Promise<T>,
  ): Promise<T> {
    this.assertConfigured();
    if (options.signal?.aborted) throw new CancelledError();
    const key = await this.currentKey();
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const started = this.scheduler.now();
    const ctl = new AbortController();
    const user = options.signal;
    const onUserAbort = (): void => ctl.abort(new CancelledError());
    user?.addEventListener('abort', onUserAbort, { once: true });
    const timer = new AbortController();
    this.scheduler.sleep(timeoutMs, timer.signal).then(
      () => ctl.abort(new TimeoutError(timeoutMs)),
      () => undefined,
    );
    try {
      return await body(ctl.signal, key, timeoutMs, started);
    } catch (e) {
      const reason: unknown = ctl.signal.reason;
      if (
        ctl.signal.aborted &&
        reason instanceof ShunongError &&
        !(e instanceof ToolReportedError) &&
        !(e instanceof AuthError)
      )
        throw reason;
      throw e;
    } finally {
      timer.abort(DISARMED);
      user?.removeEventListener('abort', onUserAbort);
    }
  }

  /** Retries {@link Retryable} failures with backoff, bounded in attempts and in total time. */
  private async withRetry<T>(signal: AbortSignal, started: number, budgetMs: number, op: () => Promise<T>): Promise<T> {
    let cutRetried = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await op();
      } catch (e) {
        if (!(e instanceof Retryable)) throw e;
        if (e.reason === 'cut') {
          // All four tools are documented as side-effect free: one immediate retry is safe.
          if (cutRetried) throw e.toPublic(attempt);
          cutRetried = true;
          this.log?.(`note: ${e.detail}; retrying once`);
          continue;
        }
        if (attempt >= this.policy.maxAttempts) throw e.toPublic(attempt);
        const delay = backoffDelay(this.policy, attempt, e.retryAfterMs, this.random);
        const elapsed = this.scheduler.now() - started;
        if (elapsed + delay > Math.min(this.policy.maxTotalMs, budgetMs)) throw e.toPublic(attempt);
        this.log?.(`note: HTTP ${e.status ?? '?'}; retry ${attempt + 1}/${this.policy.maxAttempts} in ${delay}ms`);
        await this.scheduler.sleep(delay, signal);
      }
    }
  }

  /**
   * Runs `fn` on the session for `key` with a fresh request context bound to the call's signal.
   * An expired session is re-initialized once (single flight, new transport and Client) and `fn` retried once.
   */
  private async attempt<T>(
    key: string,
    signal: AbortSignal,
    fn: (s: Session, ctx: RequestContext) => Promise<T>,
  ): Promise<T> {
    let session = await this.acquire(key, signal);
    for (let round = 0; ; round++) {
      const s = session;
      const ctl = new AbortController();
      const onAbort = (): void => ctl.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      const ctx = newRequestContext(ctl);
      let cut: string | undefined;
      ctx.onStreamCut = (why) => {
        if (ctl.signal.aborted) return; // our own abort (cancel / timeout) ends the stream too
        cut = why;
        ctl.abort(new NetworkError(why, 'SSE_CUT'));
      };
      s.enter();
      try {
        return await fn(s, ctx);
      } catch (e) {
        const err = this.classify(e, ctx, ctl.signal, cut, key);
        if (err instanceof SessionExpired) {
          if (round > 0)
            throw new ProtocolError('The session expired again right after it was re-initialized.', err.status);
          this.log?.(`note: session expired (HTTP ${err.status}); re-initializing`);
          session = await this.recover(s, key, signal);
          continue;
        }
        throw err;
      } finally {
        signal.removeEventListener('abort', onAbort);
        s.leave();
      }
    }
  }

  /** The live session for `key`: the current one, the one being created, or a new one. */
  private acquire(key: string, signal: AbortSignal): Promise<Session> {
    const cur = this.current;
    if (cur && cur.key === key && !cur.retired) return Promise.resolve(cur);
    return raceAbort(this.startSession(key), signal);
  }

  private startSession(key: string): Promise<Session> {
    if (this.pending && this.pending.key === key) return this.pending.promise;
    const cur = this.current;
    if (cur) {
      this.current = undefined;
      cur.retire();
    }
    const refreshList = this.everConnected;
    const promise: Promise<Session> = this.createSession(key, refreshList).then(
      (s) => {
        if (this.pending?.promise === promise) {
          this.pending = undefined;
          this.current = s;
          this.everConnected = true;
        } else {
          s.retire(); // superseded meanwhile (key changed or client closed)
        }
        return s;
      },
      (e: unknown) => {
        if (this.pending?.promise === promise) this.pending = undefined;
        throw e;
      },
    );
    this.pending = { key, promise };
    return promise;
  }

  /** Single-flight re-initialize after `stale` expired; calls still running on `stale` finish first. */
  private recover(stale: Session, key: string, signal: AbortSignal): Promise<Session> {
    if (this.current === stale) this.current = undefined;
    stale.retire();
    return this.acquire(key, signal);
  }

  /** initialize + initialized (+ tools/list when needed), re-done once with a new transport and Client if the session expires meanwhile. */
  private async createSession(key: string, refreshList: boolean): Promise<Session> {
    if (!this.url) throw this.configError ?? new ConfigurationError('No endpoint.');
    const needList = refreshList || !(await this.cachedTools());
    for (let round = 0; ; round++) {
      const session = new Session({
        url: this.url,
        key,
        baseFetch: this.baseFetch,
        log: this.log,
        now: () => this.scheduler.now(),
        clientInfo: this.clientInfo,
        onToolsChanged: (s) => this.onToolsChanged(s),
        onClosed: (s) => this.sessions.delete(s),
      });
      this.sessions.add(session);
      const ctl = new AbortController();
      const timer = new AbortController();
      this.scheduler.sleep(this.timeoutMs, timer.signal).then(
        () => ctl.abort(new TimeoutError(this.timeoutMs)),
        () => undefined,
      );
      const ctx = newRequestContext(ctl);
      try {
        await session.open(ctx, this.sdkTimeout(this.timeoutMs));
        if (needList) await this.fetchTools(session, ctx);
        return session;
      } catch (e) {
        const err = this.classify(e, ctx, ctl.signal, undefined, key);
        void session.close();
        if (err instanceof SessionExpired) {
          if (round === 0) {
            this.log?.(`note: session expired during initialization (HTTP ${err.status}); initializing again`);
            continue;
          }
          throw new ProtocolError('The session expired again while initializing.', err.status);
        }
        throw err;
      } finally {
        timer.abort(DISARMED);
      }
    }
  }

  private sdkTimeout(timeoutMs: number): number {
    return Math.min(timeoutMs + SDK_TIMEOUT_SLACK_MS, 2_147_483_647);
  }

  private async fetchTools(s: Session, ctx: RequestContext): Promise<ToolInfo[]> {
    const tools = await s.listTools(ctx, this.sdkTimeout(this.timeoutMs));
    this.setTools(tools);
    return tools;
  }

  private async cachedTools(): Promise<ToolInfo[] | undefined> {
    if (this.tools) return this.tools;
    if (!this.storeLoaded && this.store) {
      this.storeLoaded = true;
      try {
        const loaded = await this.store.load(this.endpoint);
        const parsed = ToolInfoSchema.array().min(1).safeParse(loaded);
        if (parsed.success && !this.tools) this.tools = parsed.data as ToolInfo[];
      } catch (e) {
        this.log?.(`note: the tool list store failed to load: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return this.tools;
  }

  private setTools(tools: ToolInfo[]): void {
    const changed = JSON.stringify(tools) !== JSON.stringify(this.tools);
    this.tools = tools;
    this.toolsFresh = true;
    if (!changed) return;
    if (this.store) {
      Promise.resolve()
        .then(() => this.store?.save(this.endpoint, tools))
        .catch((e: unknown) =>
          this.log?.(`note: the tool list store failed to save: ${e instanceof Error ? e.message : String(e)}`),
        );
    }
    for (const l of [...this.listeners]) {
      try {
        l(tools);
      } catch (e) {
        this.log?.(`note: a tool-list listener threw: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  private onToolsChanged(s: Session): void {
    if (s !== this.current || this.refreshing) return;
    this.log?.('note: the server says the tool list changed; refreshing');
    const ctx = newRequestContext();
    s.enter();
    this.refreshing = this.fetchTools(s, ctx)
      .then(
        () => undefined,
        (e: unknown) =>
          this.log?.(`note: refreshing the tool list failed: ${e instanceof Error ? e.message : String(e)}`),
      )
      .finally(() => {
        s.leave();
        this.refreshing = undefined;
      });
  }

  /** The tool's declared arguments only (undeclared ones are logged and not sent). */
  private filterArgs(tool: ToolInfo, args: Record<string, unknown>): Record<string, unknown> {
    const props = tool.inputSchema.properties;
    const out: Record<string, unknown> = {};
    const dropped: string[] = [];
    for (const [k, v] of Object.entries(args)) {
      if (v === undefined) continue;
      if (props && !Object.prototype.hasOwnProperty.call(props, k)) dropped.push(k);
      else out[k] = v;
    }
    if (dropped.length)
      this.log?.(`note: ${tool.name} does not declare ${dropped.map((d) => `"${d}"`).join(', ')}; not sent`);
    return out;
  }

  /** Resolves the name, calls the tool with retries, parses the result. */
  private async invoke<T>(
    name: string,
    args: Record<string, unknown>,
    schema: z.ZodType<T> | undefined,
    options: CallOptions,
    onResolved?: (name: string) => void,
  ): Promise<T> {
    const onProgress = options.onProgress;
    return this.run(options, async (sig, key, budget, started) =>
      this.withRetry(sig, started, budget, async () =>
        this.attempt(key, sig, async (s, ctx) => {
          const tool = await this.resolveTool(name, s, ctx);
          onResolved?.(tool.name);
          const input = this.filterArgs(tool, args);
          const result = await s.bind(ctx, () =>
            s.client.callTool({ name: tool.name, arguments: input }, undefined, {
              ...(ctx.signal ? { signal: ctx.signal } : {}),
              timeout: this.sdkTimeout(budget),
              ...(onProgress
                ? {
                    onprogress: (p: { progress: number; total?: number | undefined; message?: string | undefined }) => {
                      const info: ProgressInfo = { progress: p.progress };
                      if (p.total !== undefined) info.total = p.total;
                      if (p.message !== undefined) info.message = p.message;
                      onProgress(info);
                    },
                  }
                : {}),
            }),
          );
          return parseToolResult<T>(tool.name, result as RawToolResult, schema);
        }),
      ),
    );
  }

  private async resolveTool(name: string, s: Session, ctx: RequestContext): Promise<ToolInfo> {
    const tools = (await this.cachedTools()) ?? (await this.fetchTools(s, ctx));
    try {
      return this.pick(name, tools);
    } catch (e) {
      // A list from a previous run may be stale: ask the server once before calling the name unknown.
      if (!(e instanceof UnknownToolError) || this.toolsFresh) throw e;
      return this.pick(name, await this.fetchTools(s, ctx));
    }
  }

  private pick(name: string, tools: ToolInfo[]): ToolInfo {
    const r = resolveToolName(
      name,
      tools.map((t) => t.name),
    );
    const tool = tools.find((t) => t.name === r.name);
    if (!tool)
      throw new UnknownToolError(
        name,
        [],
        tools.map((t) => t.name),
      );
    return tool;
  }

  /** Maps whatever the SDK or fetch threw to a typed failure (key redacted), or an internal retry / expiry marker. */
  private classify(
    e: unknown,
    ctx: RequestContext,
    signal: AbortSignal | undefined,
    cut: string | undefined,
    key: string,
  ): Classified {
    if (e instanceof ShunongError || e instanceof SessionExpired || e instanceof Retryable) return e;
    if (cut !== undefined) return new Retryable('cut', undefined, undefined, cut);
    const reason: unknown = signal?.reason;
    if (signal?.aborted && reason instanceof ShunongError) return reason;
    const clean = (s: string): string => redactSecret(s, key);
    if (e instanceof StreamableHTTPError) {
      const status = e.code ?? -1;
      const body = clean(
        e.message.replace(/^Streamable HTTP error:\s*/, '').replace(/^Error POSTing to endpoint:\s*/, ''),
      );
      if (status === 401) return new AuthError(/missing/i.test(body) ? 'missing-key' : 'invalid-key');
      if ((status === 404 || status === 400) && /session/i.test(body)) return new SessionExpired(status);
      if (status === 429) return new Retryable('rate-limited', 429, ctx.retryAfterMs, body);
      if (status >= 500) return new Retryable('server', status, ctx.retryAfterMs, body);
      return new ProtocolError(`The endpoint answered HTTP ${status}: ${body}`, status);
    }
    if (e instanceof McpError) {
      if (e.code === ErrorCode.RequestTimeout) return new TimeoutError(this.timeoutMs);
      if (e.code === ErrorCode.ConnectionClosed) {
        return this.closed
          ? new CancelledError('The client was closed.')
          : new NetworkError('The connection to the endpoint was closed.', 'CLOSED');
      }
      return new ProtocolError(clean(e.message), undefined, e.code);
    }
    const code = systemCode(e);
    if (code && NETWORK_RETRYABLE.has(code))
      return new Retryable('cut', undefined, undefined, `connection lost (${code})`);
    if (e instanceof TypeError && /fetch failed|terminated/i.test(e.message)) {
      return new NetworkError(`Cannot reach ${this.endpoint}${code ? ` (${code})` : ''}.`, code ?? 'FETCH_FAILED');
    }
    if (e instanceof Error && e.name === 'AbortError')
      return new NetworkError('The request was aborted by the transport.', 'ABORTED');
    if (e instanceof Error && e.name === 'ZodError')
      return new ProtocolError(`The endpoint sent an invalid JSON-RPC message: ${clean(e.message).slice(0, 200)}`);
    return new ProtocolError(clean(e instanceof Error ? e.message : String(e)));
  }
}
