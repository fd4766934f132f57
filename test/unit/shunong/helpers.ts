/**
 * Helpers of the platform-client tests: an injectable scheduler, a fetch wrapper that observes
 * (never fakes) real loopback HTTP, and a tiny hand-written MCP server on 127.0.0.1 for the cases
 * the local endpoint cannot stage (a reply that never comes, progress, listChanged).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import type { Scheduler } from '../../../src/shunong';
import {
  DEFAULT_KNOWLEDGE_DIR,
  RetrievalEngine,
  startEmulator,
  type Emulator,
  type EmulatorOptions,
} from '../../emulator/server';

/** A distinctive key, so a leak is easy to find. */
export const SECRET_KEY = 'sk_test_SECRET_7f3a9c';

/**
 * A scheduler on a virtual clock. Sleeps shorter than `holdAtLeast` advance the clock and resolve at
 * once (backoff waits); longer ones (timeouts) stay pending until {@link fireHeld} or their abort.
 */
export class FakeScheduler implements Scheduler {
  t = 1_800_000_000_000;
  readonly slept: number[] = [];
  private held: { ms: number; resolve: () => void }[] = [];
  constructor(private readonly holdAtLeast = 60_000) {}
  now(): number {
    return this.t;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (ms < this.holdAtLeast) {
      this.slept.push(ms);
      this.t += ms;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = { ms, resolve };
      this.held.push(entry);
      signal?.addEventListener(
        'abort',
        () => {
          this.held = this.held.filter((h) => h !== entry);
          reject(signal.reason as Error);
        },
        { once: true },
      );
    });
  }
  /** Number of pending long sleeps. */
  get heldCount(): number {
    return this.held.length;
  }
  /** Fires every pending long sleep (a timeout elapsing). */
  fireHeld(): void {
    const h = this.held;
    this.held = [];
    for (const e of h) {
      this.t += e.ms;
      e.resolve();
    }
  }
}

/** What an observing fetch saw. */
export interface Seen {
  method: string;
  url: string;
  body: string | undefined;
  headers: Headers;
  status?: number;
}

/** Wraps the real fetch to record every request (never changes it unless `mutate` is given). */
export function observingFetch(
  opts: {
    mutate?: (headers: Headers, body: string | undefined) => void;
    after?: (s: Seen) => Promise<void> | void;
  } = {},
): {
  fetch: typeof fetch;
  seen: Seen[];
  inflight: () => number;
  maxInflight: () => number;
  resetMax: () => void;
} {
  const seen: Seen[] = [];
  let inflight = 0;
  let max = 0;
  const f = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? init.body : undefined;
    opts.mutate?.(headers, body);
    const s: Seen = {
      method: init?.method ?? 'GET',
      url: String(input instanceof Request ? input.url : input),
      body,
      headers,
    };
    seen.push(s);
    inflight++;
    max = Math.max(max, inflight);
    try {
      const res = await globalThis.fetch(input, { ...init, headers });
      s.status = res.status;
      await opts.after?.(s);
      return res;
    } finally {
      inflight--;
    }
  };
  return {
    fetch: f as typeof fetch,
    seen,
    inflight: () => inflight,
    maxInflight: () => max,
    resetMax: () => {
      max = inflight;
    },
  };
}

/** The JSON-RPC method of a recorded body. */
export function rpcMethod(s: Seen): string | undefined {
  if (!s.body) return undefined;
  return (JSON.parse(s.body) as { method?: string }).method;
}

/** Waits until `cond` holds (polling on the event loop; bounded by mocha's timeout). */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 2));
}

/** One JSON-RPC message received by the tiny server. */
export interface MiniMessage {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
}

/** What a tools/call handler of the tiny server may do with the reply. */
export interface MiniReply {
  /** Writes one SSE event carrying `message` (no end). */
  event(message: unknown): void;
  /** Writes the result event and ends the reply. */
  result(result: unknown): void;
  req: IncomingMessage;
  res: ServerResponse;
}

/** A hand-written Streamable-HTTP MCP server on 127.0.0.1 (for cases the emulator cannot stage). */
export interface MiniServer {
  url: string;
  received: MiniMessage[];
  /** Sockets of tools/call requests, with whether they were closed. */
  callSockets: { socket: Socket; closed: boolean }[];
  close(): Promise<void>;
}

/** The tools the tiny server advertises by default. */
export const MINI_TOOLS = [
  {
    name: 'knowledge_search',
    description: 'search',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
  {
    name: 'get_current_time',
    description: 'time',
    inputSchema: { type: 'object', properties: { format: { type: 'string' } } },
  },
];

/** Starts the tiny server; `onCall` handles tools/call (default: never answers). */
export async function startMiniServer(
  opts: { onCall?: (msg: MiniMessage, reply: MiniReply) => void; tools?: () => unknown[] } = {},
): Promise<MiniServer> {
  const received: MiniMessage[] = [];
  const callSockets: { socket: Socket; closed: boolean }[] = [];
  const sid = 'mini-session-1';
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(400).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as MiniMessage;
      received.push(msg);
      const sse = (m: unknown): string => `id:${sid}\nevent:message\ndata:${JSON.stringify(m)}\n\n`;
      if (msg.method === 'initialize') {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: msg.id,
          result: {
            protocolVersion: '2025-06-18',
            capabilities: { tools: { listChanged: true } },
            serverInfo: { name: 'mini', version: '1' },
          },
        });
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': sid });
        res.end(body);
        return;
      }
      if (msg.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (msg.method === 'tools/list') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(sse({ jsonrpc: '2.0', id: msg.id, result: { tools: opts.tools ? opts.tools() : MINI_TOOLS } }));
        return;
      }
      if (msg.method === 'tools/call') {
        const entry = { socket: req.socket, closed: false };
        callSockets.push(entry);
        const onClose = (): void => {
          entry.closed = true;
        };
        req.socket.once('close', onClose);
        res.once('finish', () => req.socket.off('close', onClose));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        const reply: MiniReply = {
          req,
          res,
          event: (m) => res.write(sse(m)),
          result: (r) => res.end(sse({ jsonrpc: '2.0', id: msg.id, result: r })),
        };
        opts.onCall?.(msg, reply);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: {} }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    callSockets,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A text tool result as the server sends it. */
export function textResult(
  payload: unknown,
  isError = false,
): { content: { type: 'text'; text: string }[]; isError: boolean } {
  return {
    content: [{ type: 'text', text: typeof payload === 'string' ? payload : JSON.stringify(payload) }],
    isError,
  };
}

let engine: RetrievalEngine | undefined;
/** Starts the local endpoint, sharing one knowledge index between the tests (building it is the slow part). */
export function startEmu(options: Omit<EmulatorOptions, 'engine'> = {}): Promise<Emulator> {
  engine ??= RetrievalEngine.fromDirectory(DEFAULT_KNOWLEDGE_DIR, 1);
  return startEmulator({ ...options, engine });
}
