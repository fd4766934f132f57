/**
 * The fetch the SDK transport is given. It is the one place that touches HTTP:
 * - sets `Authorization: Bearer <key>` at request time (the SDK's `authProvider` is an OAuth flow, not this);
 * - answers the SDK's standalone GET stream locally with 405 ("no stream"), so it is never sent;
 * - joins the calling request's AbortSignal to the HTTP request, so cancelling a call really aborts it;
 * - records Retry-After, which the SDK does not expose;
 * - notices an SSE reply that ends before carrying the reply (the SDK would wait until its timeout);
 * - logs one line per request with the key masked.
 */
/** Per-request state shared between the client and the wrapping fetch (found by JSON-RPC id). */
export interface RequestContext {
  /** Aborts the HTTP requests made for this call (cancel, timeout). */
  signal: AbortSignal | undefined;
  /** Retry-After of the last 429 / 503 reply, in ms. */
  retryAfterMs: number | undefined;
  /** Called when an SSE reply ends or breaks before the JSON-RPC reply arrived. */
  onStreamCut: ((why: string) => void) | undefined;
  /** Aborts the request(s) of this context (used when the session closes under them). */
  abort: ((reason: unknown) => void) | undefined;
  /** JSON-RPC ids bound to this context (bookkeeping of the session). */
  boundIds: (number | string)[];
}

/** Makes a fresh, empty call context. */
export function newRequestContext(controller?: AbortController): RequestContext {
  return {
    signal: controller?.signal,
    abort: controller ? (reason: unknown) => controller.abort(reason) : undefined,
    retryAfterMs: undefined,
    onStreamCut: undefined,
    boundIds: [],
  };
}

/** What {@link wrapFetch} needs. */
export interface WrapFetchOptions {
  base: typeof fetch;
  /** The key of the session this fetch belongs to. */
  key: string;
  /** The context of the JSON-RPC message being sent (by id for requests; notifications may have one too). */
  contextOf: (rpc: RpcInfo) => RequestContext | undefined;
  log: ((line: string) => void) | undefined;
  now: () => number;
}

const METHOD_RE = /"method"\s*:\s*"([^"]+)"/;
const ID_RE = /"id"\s*:\s*(\d+|"[^"]*")\s*\}\s*$/;

/** The JSON-RPC method and id of a request body. */
export interface RpcInfo {
  method?: string;
  id?: number | string;
}

function rpcOf(body: unknown): RpcInfo {
  if (typeof body !== 'string') return {};
  const out: RpcInfo = {};
  const m = METHOD_RE.exec(body);
  if (m?.[1] !== undefined) out.method = m[1];
  const i = ID_RE.exec(body);
  if (i?.[1] !== undefined) out.id = i[1].startsWith('"') ? i[1].slice(1, -1) : Number(i[1]);
  return out;
}

/** Parses a Retry-After header (seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

function headerList(h: Headers): string {
  const parts: string[] = [];
  h.forEach((value, name) => {
    parts.push(`${name}: ${name.toLowerCase() === 'authorization' ? '***' : value}`);
  });
  return parts.join(', ');
}

function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function errorCode(e: unknown): string {
  const cause = (e as { cause?: { code?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (e instanceof Error) return e.name;
  return 'error';
}

/**
 * Wraps `reader` so that `onCut` is called when the stream ends or fails before a complete SSE event
 * carrying the JSON-RPC reply with `id` has passed through.
 */
function watchSse(body: ReadableStream<Uint8Array>, id: number | string, onCut: (why: string) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let answered = false;
  const idText = typeof id === 'number' ? String(id) : JSON.stringify(id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const tailId = new RegExp(`"id"\\s*:\\s*${idText}\\s*\\}\\s*$`);
  const headId = new RegExp(`^\\s*\\{\\s*"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*"id"\\s*:\\s*${idText}\\s*,`);
  const scan = (): void => {
    for (;;) {
      const m = /\r?\n\r?\n/.exec(buffer);
      if (!m) return;
      const event = buffer.slice(0, m.index);
      buffer = buffer.slice(m.index + m[0].length);
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      if (!data) continue;
      // Cheap, exact checks first: `"id":N}` closing the whole message, or `{"jsonrpc":"2.0","id":N,` opening it.
      if ((tailId.test(data.slice(-64)) || headId.test(data.slice(0, 64))) && /"(?:result|error)"\s*:/.test(data)) {
        answered = true;
        buffer = '';
        return;
      }
      try {
        const msg = JSON.parse(data) as { id?: unknown; result?: unknown; error?: unknown };
        if (msg.id === id && ('result' in msg || 'error' in msg)) {
          answered = true;
          buffer = '';
          return;
        }
      } catch {
        // not JSON: the SDK reports it; nothing to watch
      }
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await reader.read();
      } catch (e) {
        if (!answered) onCut(`the reply stream broke (${errorCode(e)})`);
        controller.error(e);
        return;
      }
      if (r.done) {
        if (!answered) onCut('the reply stream ended before the reply');
        controller.close();
        return;
      }
      if (!answered) {
        buffer += decoder.decode(r.value, { stream: true });
        scan();
      }
      controller.enqueue(r.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Builds the fetch handed to one session's `StreamableHTTPClientTransport`. */
export function wrapFetch(opts: WrapFetchOptions): typeof fetch {
  const { base, key, log, now, contextOf } = opts;
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const url = urlOf(input);
    if (method === 'GET') {
      log?.(`GET ${url} (standalone SSE stream) 405 0ms answered locally, not sent`);
      return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
    }
    const rpc = rpcOf(init?.body);
    const ctx = contextOf(rpc);
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${key}`);
    // The call's signal replaces the transport's (which only fires on close: the session aborts its
    // contexts then). Not AbortSignal.any: on Node 20 it leaves a listener on the long-lived source per request.
    const signal = ctx?.signal ?? init?.signal ?? undefined;
    const started = log ? performance.now() : 0;
    const label = `${method} ${url} ${rpc.method ?? '-'}${rpc.id !== undefined ? `#${rpc.id}` : ''}`;
    let res: Response;
    try {
      const next: RequestInit = { ...init, headers };
      if (signal) next.signal = signal;
      else delete next.signal;
      res = await base(input, next);
    } catch (e) {
      log?.(`${label} failed ${errorCode(e)} ${Math.round(performance.now() - started)}ms [${headerList(headers)}]`);
      throw e;
    }
    log?.(`${label} ${res.status} ${Math.round(performance.now() - started)}ms [${headerList(headers)}]`);
    if (ctx && (res.status === 429 || res.status === 503)) {
      ctx.retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), now());
    }
    if (
      res.ok &&
      res.body &&
      rpc.id !== undefined &&
      ctx?.onStreamCut &&
      (res.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream')
    ) {
      const onCut = ctx.onStreamCut;
      return new Response(watchSse(res.body, rpc.id, onCut), {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    }
    return res;
  };
  return wrapped as typeof fetch;
}

/** True when `host` (from a URL) is a loopback name or address. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}
