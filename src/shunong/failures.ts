/**
 * What the SDK or fetch threw, mapped to the client's typed failures ({@link classify}), plus the
 * two internal markers the client acts on before anything is reported: an expired session
 * (re-initialize) and a retryable failure (backoff, or one immediate retry for a cut stream).
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  AuthError,
  CancelledError,
  NetworkError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  ShunongError,
  TimeoutError,
  redactSecret,
} from './errors';
import type { RequestContext } from './fetch';

/** The session expired on the server (404 `Session not found`, or a 400 about the session id). */
export class SessionExpired extends Error {
  constructor(readonly status: number) {
    super(`session expired (HTTP ${status})`);
  }
}

/** A failure worth retrying with backoff (429, 5xx) or at once (a cut reply stream). */
export class Retryable extends Error {
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

/** A typed failure, or one of the internal markers. */
export type Classified = ShunongError | SessionExpired | Retryable;

/** What {@link classify} needs to know about the client. */
export interface ClassifyScope {
  readonly endpoint: string;
  readonly timeoutMs: number;
  /** True while the client is closing (a closed connection is then a cancellation, not a network failure). */
  readonly closed: boolean;
}

/** What the SDK writes before the reply's body in a StreamableHTTPError's message, in this order. */
const SDK_PREFIXES = ['Streamable HTTP error: ', 'Error POSTing to endpoint: '];

/** The first string `code` down the chain of `cause`s, four levels at most (fetch's TypeError → undici's error → the socket's). */
function systemCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur != null; i++) {
    const { code, cause } = cur as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    cur = cause;
  }
  return undefined;
}

/** Maps whatever the SDK or fetch threw to a typed failure (key redacted), or an internal retry / expiry marker. */
export function classify(
  e: unknown,
  ctx: RequestContext,
  signal: AbortSignal | undefined,
  cut: string | undefined,
  key: string,
  scope: ClassifyScope,
): Classified {
  if (e instanceof ShunongError || e instanceof SessionExpired || e instanceof Retryable) return e;
  if (cut !== undefined) return new Retryable('cut', undefined, undefined, cut);
  const reason: unknown = signal?.reason;
  if (signal?.aborted && reason instanceof ShunongError) return reason;
  const clean = (s: string): string => redactSecret(s, key);
  if (e instanceof StreamableHTTPError) {
    // -1 is the SDK's status for a reply it could not read (an unexpected content type)
    const status = e.code ?? -1;
    const body = clean(SDK_PREFIXES.reduce((s, p) => (s.startsWith(p) ? s.slice(p.length) : s), e.message));
    if (status === 401) return new AuthError(/missing/i.test(body) ? 'missing-key' : 'invalid-key');
    if ((status === 404 || status === 400) && /session/i.test(body)) return new SessionExpired(status);
    if (status === 429) return new Retryable('rate-limited', 429, ctx.retryAfterMs, body);
    if (status >= 500) return new Retryable('server', status, ctx.retryAfterMs, body);
    if (status === -1) return new ProtocolError(`The endpoint sent a reply that is not MCP: ${body}`);
    return new ProtocolError(`The endpoint answered HTTP ${status}: ${body}`, status);
  }
  if (e instanceof McpError) {
    if (e.code === ErrorCode.RequestTimeout) return new TimeoutError(scope.timeoutMs);
    if (e.code === ErrorCode.ConnectionClosed) {
      return scope.closed
        ? new CancelledError('The client was closed.')
        : new NetworkError('The connection to the endpoint was closed.', 'CLOSED');
    }
    return new ProtocolError(clean(e.message), undefined, e.code);
  }
  const code = systemCode(e);
  // a connection lost mid-reply (reset, socket closed, broken pipe), worth one immediate retry
  if (code && ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED'].includes(code))
    return new Retryable('cut', undefined, undefined, `connection lost (${code})`);
  if (e instanceof TypeError && /fetch failed|terminated/i.test(e.message)) {
    return new NetworkError(`Cannot reach ${scope.endpoint}${code ? ` (${code})` : ''}.`, code ?? 'FETCH_FAILED');
  }
  if (e instanceof Error && e.name === 'AbortError')
    return new NetworkError('The request was aborted by the transport.', 'ABORTED');
  if (e instanceof Error && e.name === 'ZodError')
    return new ProtocolError(`The endpoint sent an invalid JSON-RPC message: ${clean(e.message).slice(0, 200)}`);
  return new ProtocolError(clean(e instanceof Error ? e.message : String(e)));
}
