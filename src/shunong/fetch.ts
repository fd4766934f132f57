/**
 * The fetch the SDK transport is given. It is the one place that touches HTTP:
 * - sets `Authorization: Bearer <key>` at request time (the SDK's `authProvider` is an OAuth flow, not this);
 * - answers the SDK's standalone GET stream locally with 405 ("no stream"), so it is never sent;
 * - joins the calling request's AbortSignal to the HTTP request, so cancelling a call really aborts it;
 * - records Retry-After, which the SDK does not expose;
 * - notices an SSE reply that ends before its reply was delivered (the SDK would wait until its timeout);
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
  /** Set when the transport has handed the reply (result or error) to the SDK. */
  answered: boolean;
}

/** Makes a fresh, empty call context. */
export function newRequestContext(controller?: AbortController): RequestContext {
  return {
    signal: controller?.signal,
    abort: controller ? (reason: unknown) => controller.abort(reason) : undefined,
    retryAfterMs: undefined,
    onStreamCut: undefined,
    boundIds: [],
    answered: false,
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
  /** The client's clock: Retry-After dates are read against it, and the log's durations taken on it. */
  now: () => number;
}

const METHOD_RE = /"method"\s*:\s*"([^"]+)"/;
// Stryker disable next-line Regex: the SDK writes its bodies with JSON.stringify, never a blank between a key and its colon
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
  // Stryker disable next-line MethodExpression: the id read is digits or a quoted string, which starts with a quote exactly when it ends with one
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
 * Passes an SSE reply through unchanged and calls `onCut` when it ends or breaks before the
 * JSON-RPC reply was delivered to the SDK (`ctx.answered`, set by the session as the transport hands
 * the reply over). The SDK reads the last events through its own stream pipeline after this stream
 * closes, so the check waits for that pipeline (promise jobs only) to drain first.
 */
function watchSse(
  body: ReadableStream<Uint8Array>,
  ctx: RequestContext,
  onCut: (why: string) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const check = (why: string): void => {
    setImmediate(() => ctx.answered || onCut(why));
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await reader.read();
      } catch (e) {
        check(`the reply stream broke (${errorCode(e)})`);
        controller.error(e);
        return;
      }
      if (r.done) {
        check('the reply stream ended before the reply');
        controller.close();
      } else {
        controller.enqueue(r.value);
      }
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
    const started = now();
    const label = `${method} ${url} ${rpc.method ?? '-'}${rpc.id !== undefined ? `#${rpc.id}` : ''}`;
    let res: Response;
    try {
      const next: RequestInit = { ...init, headers };
      if (signal) next.signal = signal;
      else delete next.signal;
      res = await base(input, next);
    } catch (e) {
      log?.(`${label} failed ${errorCode(e)} ${Math.round(now() - started)}ms [${headerList(headers)}]`);
      throw e;
    }
    log?.(`${label} ${res.status} ${Math.round(now() - started)}ms [${headerList(headers)}]`);
    if (ctx && (res.status === 429 || res.status === 503)) {
      ctx.retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), now());
    }
    // Stryker disable next-line StringLiteral: a reply without a content type is no stream, whatever stands in for it
    const type = (res.headers.get('content-type') ?? '').toLowerCase();
    if (res.ok && res.body && rpc.id !== undefined && ctx?.onStreamCut && type.startsWith('text/event-stream')) {
      // The watched body replaces the reply's own on this Response object (an own property over the
      // prototype's getter): cheaper than building a second Response and copying its headers. The
      // SDK reads an SSE reply only through `response.body` (a later SDK reading it with text() would
      // find the original stream locked and fail loudly, not silently).
      Object.defineProperty(res, 'body', { value: watchSse(res.body, ctx, ctx.onStreamCut) });
    }
    return res;
  };
  return wrapped as typeof fetch;
}
