/**
 * Helpers of the platform-client tests: the local endpoint and its clients per test or per block
 * ({@link useEndpoint}), a virtual clock, a fetch wrapper that observes (never fakes) real loopback
 * HTTP, and a tiny hand-written MCP server on 127.0.0.1 for the cases
 * the local endpoint cannot stage (a reply that never comes, progress, listChanged).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { ShunongClient, ShunongRestClient, type ShunongClientOptions } from '../../../src/shunong';
import { ManualScheduler } from '../../support/manual-scheduler';
import type { Emulator, EmulatorOptions } from '../../emulator/server';
import { KEY, start } from '../emulator/helpers';

/** A distinctive key, so a leak is easy to find. */
export const SECRET_KEY = 'sk_test_SECRET_7f3a9c';

/**
 * A virtual clock for the client: sleeps shorter than `autoAdvanceBelow` (backoff waits) advance the
 * clock and resolve at once, longer ones (timeouts) stay pending until `fireAll()` or their abort.
 */
export function fakeScheduler(autoAdvanceBelow = 60_000): ManualScheduler {
  return new ManualScheduler(1_800_000_000_000, { autoAdvanceBelow });
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

/** One turn of the event loop: what work queued with setImmediate has run after. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
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
  opts: {
    onCall?: (msg: MiniMessage, reply: MiniReply) => void;
    /** The tools/list answer for the request's cursor: the tools, or a page of them with the next cursor. */
    tools?: (cursor?: string) => unknown[] | { tools: unknown[]; nextCursor?: string };
    /** Requests of these methods are answered with an event stream that never carries their reply. */
    unanswered?: readonly string[];
  } = {},
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
      if (msg.method !== undefined && opts.unanswered?.includes(msg.method)) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': sid });
        res.flushHeaders();
        return;
      }
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
        const listed = opts.tools ? opts.tools(msg.params?.['cursor'] as string | undefined) : MINI_TOOLS;
        res.end(sse({ jsonrpc: '2.0', id: msg.id, result: Array.isArray(listed) ? { tools: listed } : listed }));
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

/** Starts the local endpoint on the knowledge index every unit suite shares (building it is the slow part). */
export function startEmu(options: Omit<EmulatorOptions, 'engine'> = {}): Promise<Emulator> {
  return start(options);
}

/** The key the local endpoint accepts by default. */
export const LOCAL_KEY = KEY;

/** Options of {@link useEndpoint}: the endpoint's own, plus the clients' defaults. */
export interface EndpointOptions extends Omit<EmulatorOptions, 'engine'> {
  /** One endpoint per test (default) or one for the whole `describe` block. */
  per?: 'test' | 'block';
  /** The key every client sends (default: the first of `keys`, else {@link LOCAL_KEY}). */
  key?: string;
  /** Options every MCP client gets (a function is read when the client is made). */
  client?: Partial<ShunongClientOptions> | (() => Partial<ShunongClientOptions>);
}

/** The local endpoint of a `describe` block and the clients made against it. */
export interface EndpointFixture {
  /** The running endpoint (inside tests and hooks). */
  readonly emu: Emulator;
  /** An MCP client of the endpoint over real loopback HTTP; closed when its test (or block) ends. */
  client(options?: Partial<ShunongClientOptions>): ShunongClient;
  /** A REST client of the endpoint (stateless: nothing to close). */
  rest(options?: Partial<ConstructorParameters<typeof ShunongRestClient>[0]>): ShunongRestClient;
  /** Closes the endpoint and starts another with these options instead (closed like the first). */
  restart(options: Omit<EmulatorOptions, 'engine'>): Promise<Emulator>;
}

/**
 * Starts the local endpoint on 127.0.0.1 before each test (or once for the block, `per: 'block'`)
 * and closes it and every client made through the fixture afterwards. Call it at the top of a
 * `describe`; the hooks it registers run before the block's own.
 */
export function useEndpoint(options: EndpointOptions = {}): EndpointFixture {
  const { per = 'test', key, client: clientDefaults, ...emulatorOptions } = options;
  const apiKey = key ?? emulatorOptions.keys?.[0] ?? LOCAL_KEY;
  let emu: Emulator | undefined;
  const clients: ShunongClient[] = [];
  const start = async (): Promise<void> => {
    emu = await startEmu(emulatorOptions);
  };
  const stop = async (): Promise<void> => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await emu?.close();
    emu = undefined;
  };
  if (per === 'block') {
    before(start);
    after(stop);
  } else {
    beforeEach(start);
    afterEach(stop);
  }
  const running = (): Emulator => {
    if (!emu) throw new Error('the local endpoint runs only inside tests and hooks of its block');
    return emu;
  };
  return {
    get emu() {
      return running();
    },
    client(o = {}) {
      const defaults = typeof clientDefaults === 'function' ? clientDefaults() : (clientDefaults ?? {});
      const c = new ShunongClient({ endpoint: running().url, getKey: () => apiKey, ...defaults, ...o });
      clients.push(c);
      return c;
    },
    rest(o = {}) {
      return new ShunongRestClient({ endpoint: running().url, getKey: () => apiKey, ...o });
    },
    async restart(o) {
      await emu?.close();
      emu = await startEmu(o);
      return emu;
    },
  };
}
