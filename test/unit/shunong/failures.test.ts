/**
 * classify(): what the MCP SDK or fetch threw, mapped to the client's typed failures. The errors
 * are the SDK's own classes and Node's own shapes (undici's `fetch failed` with a `cause`), built
 * here as the SDK and fetch build them; the client's tests against the local endpoint meet them
 * for real.
 */
import { strict as assert } from 'node:assert';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  AuthError,
  CancelledError,
  NetworkError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  TimeoutError,
} from '../../../src/shunong';
import { newRequestContext } from '../../../src/shunong/fetch';
import { Retryable, SessionExpired, classify, type Classified } from '../../../src/shunong/failures';

const KEY = 'sk-test-0123456789';
const scope = { endpoint: 'http://127.0.0.1:1/mcp', timeoutMs: 20_000, closed: false };

function run(e: unknown, o: { cut?: string; signal?: AbortSignal; retryAfterMs?: number; closed?: boolean } = {}) {
  const ctx = newRequestContext();
  ctx.retryAfterMs = o.retryAfterMs;
  return classify(e, ctx, o.signal, o.cut, KEY, { ...scope, closed: o.closed ?? false });
}

function as<T>(c: Classified, type: abstract new (...args: never[]) => T): T {
  assert.ok(c instanceof type, `${c.constructor.name}: ${c.message}`);
  return c as T;
}

/** The error the SDK throws for a POST answered with `status` and `body`. */
const posted = (status: number, body: string) => new StreamableHTTPError(status, `Error POSTing to endpoint: ${body}`);

describe('shunong/failures: classify', () => {
  it('a typed failure or a marker already made is passed on as it is', () => {
    for (const e of [new TimeoutError(5), new SessionExpired(404), new Retryable('server', 502, undefined, 'x')]) {
      assert.equal(run(e, { cut: 'ended early' }), e);
    }
  });

  it('a cut reply stream is retried at once, whatever the transport then threw', () => {
    const r = as(run(posted(500, 'boom'), { cut: 'the stream ended before the reply' }), Retryable);
    assert.equal(r.reason, 'cut');
    assert.equal(r.detail, 'the stream ended before the reply');
    assert.equal(r.status, undefined);
  });

  it('an abort with a typed reason (the timeout, a cancel) reports that reason; any other abort reason does not', () => {
    const timeout = new TimeoutError(20_000);
    assert.equal(run(new Error('aborted'), { signal: AbortSignal.abort(timeout) }), timeout);
    const other = run(new Error('aborted'), { signal: AbortSignal.abort(new Error('why')) });
    assert.equal(as(other, ProtocolError).message, 'aborted');
    assert.equal(as(run(new Error('x'), { signal: new AbortController().signal }), ProtocolError).message, 'x');
  });

  it('HTTP 401: a missing key when the body says so, a rejected key otherwise', () => {
    assert.equal(as(run(posted(401, '{"error":"Missing API key"}')), AuthError).reason, 'missing-key');
    assert.equal(as(run(posted(401, '{"error":"Invalid API key"}')), AuthError).reason, 'invalid-key');
  });

  it('HTTP 404 or 400 about the session: the session expired; about anything else: a protocol error with the status and body', () => {
    const expired = as(run(posted(404, 'Session not found')), SessionExpired);
    assert.equal(expired.status, 404);
    assert.equal(expired.message, 'session expired (HTTP 404)');
    assert.equal(as(run(posted(400, 'Bad Request: No valid session ID provided')), SessionExpired).status, 400);
    const other = as(run(posted(404, 'Not Found')), ProtocolError);
    assert.equal(other.message, 'The endpoint answered HTTP 404: Not Found');
    assert.equal(other.status, 404);
    assert.ok(!(run(posted(403, 'session forbidden')) instanceof SessionExpired), '403 is not an expiry');
    // only the SDK's own prefixes go: the body stays as the server wrote it
    const echoed = as(run(posted(418, ' Error POSTing to endpoint: teapot')), ProtocolError);
    assert.equal(echoed.message, 'The endpoint answered HTTP 418:  Error POSTing to endpoint: teapot');
  });

  it('HTTP 429 and 5xx are retried with backoff, carrying the reply’s Retry-After and body; 499 is not', () => {
    const limited = as(run(posted(429, 'slow down'), { retryAfterMs: 3000 }), Retryable);
    assert.deepEqual(
      [limited.reason, limited.status, limited.retryAfterMs, limited.detail],
      ['rate-limited', 429, 3000, 'slow down'],
    );
    for (const status of [500, 503]) {
      const server = as(run(posted(status, 'down'), { retryAfterMs: 1000 }), Retryable);
      assert.deepEqual(
        [server.reason, server.status, server.retryAfterMs, server.detail],
        ['server', status, 1000, 'down'],
      );
    }
    assert.equal(as(run(posted(499, 'closed')), ProtocolError).status, 499);
  });

  it('the SDK’s -1 (a reply it cannot read), or no status at all: a reply that is not MCP, with no HTTP status', () => {
    for (const code of [-1, undefined]) {
      const e = as(run(new StreamableHTTPError(code, 'Unexpected content type: text/html')), ProtocolError);
      assert.equal(e.message, 'The endpoint sent a reply that is not MCP: Unexpected content type: text/html');
      assert.equal(e.status, undefined);
    }
  });

  it('the API key never appears in what a reply’s body becomes: each occurrence reads ***', () => {
    assert.equal(
      as(run(posted(418, `bad key ${KEY}, again ${KEY}`)), ProtocolError).message,
      'The endpoint answered HTTP 418: bad key ***, again ***',
    );
    for (const status of [401, 404, 418, 429, 500]) {
      const c = run(posted(status, `bad key ${KEY} Session ${KEY}`));
      const text = c instanceof Retryable ? c.detail : c.message;
      assert.ok(!text.includes(KEY), `${status}: ${text}`);
    }
    assert.ok(!run(new McpError(-32602, `key ${KEY}`)).message.includes(KEY));
    assert.ok(!run(new Error(`key ${KEY}`)).message.includes(KEY));
    const zod = Object.assign(new Error(`bad ${KEY}`), { name: 'ZodError' });
    assert.ok(!run(zod).message.includes(KEY));
  });

  it('MCP errors: the request timeout, a closed connection (a cancel while the client closes), and the rest with their code', () => {
    assert.equal(as(run(new McpError(ErrorCode.RequestTimeout, 'Request timed out')), TimeoutError).timeoutMs, 20_000);
    const closed = new McpError(ErrorCode.ConnectionClosed, 'Connection closed');
    const lost = as(run(closed), NetworkError);
    assert.equal(lost.code, 'CLOSED');
    assert.equal(lost.message, 'The connection to the endpoint was closed.');
    assert.equal(as(run(closed, { closed: true }), CancelledError).message, 'The client was closed.');
    const invalid = as(run(new McpError(ErrorCode.InvalidParams, 'Invalid params')), ProtocolError);
    assert.equal(invalid.rpcCode, ErrorCode.InvalidParams);
    assert.equal(invalid.message, 'MCP error -32602: Invalid params');
  });

  it('a connection lost mid-reply (reset, socket closed, broken pipe), found down a chain of causes, is retried at once', () => {
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED']) {
      const deep = new TypeError('fetch failed', { cause: new Error('other side closed', { cause: { code } }) });
      const r = as(run(deep), Retryable);
      assert.equal(r.reason, 'cut');
      assert.equal(r.detail, `connection lost (${code})`);
    }
  });

  it('the cause chain is read four levels deep at most', () => {
    let e: unknown = { code: 'ECONNRESET' };
    for (let i = 0; i < 3; i++) e = { cause: e };
    assert.ok(run(Object.assign(new TypeError('fetch failed'), e)) instanceof Retryable, 'fourth level');
    e = { cause: e };
    assert.ok(!(run(Object.assign(new TypeError('fetch failed'), e)) instanceof Retryable), 'fifth level');
    const ended = new TypeError('fetch failed', { cause: null });
    assert.equal(as(run(ended), NetworkError).code, 'FETCH_FAILED', 'a chain that ends in null');
  });

  it('a host that cannot be reached: a network failure naming the endpoint and the system code', () => {
    const refused = as(run(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })), NetworkError);
    assert.equal(refused.message, 'Cannot reach http://127.0.0.1:1/mcp (ECONNREFUSED).');
    assert.equal(refused.code, 'ECONNREFUSED');
    const bare = as(run(new TypeError('terminated')), NetworkError);
    assert.equal(bare.message, 'Cannot reach http://127.0.0.1:1/mcp.');
    assert.equal(bare.code, 'FETCH_FAILED');
    assert.ok(
      run(new TypeError('x is not a function')) instanceof ProtocolError,
      'a TypeError of ours is not the network',
    );
  });

  it('the transport’s own abort, an invalid JSON-RPC message (cut to 200 characters), and anything else', () => {
    const abort = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    const aborted = as(run(abort), NetworkError);
    assert.equal(aborted.code, 'ABORTED');
    assert.equal(aborted.message, 'The request was aborted by the transport.');
    const zod = as(run(Object.assign(new Error('x'.repeat(300)), { name: 'ZodError' })), ProtocolError);
    assert.equal(zod.message, `The endpoint sent an invalid JSON-RPC message: ${'x'.repeat(200)}`);
    assert.equal(as(run('a thrown string'), ProtocolError).message, 'a thrown string');
  });
});

describe('shunong/failures: Retryable.toPublic, once no retry is left', () => {
  it('rate limited: the last Retry-After and the attempts', () => {
    const e = as(new Retryable('rate-limited', 429, 4000, 'slow').toPublic(4), RateLimitedError);
    assert.deepEqual([e.retryAfterMs, e.attempts], [4000, 4]);
  });

  it('a server error: its status, the attempts and the body (none when empty; 500 when the status is unknown)', () => {
    const e = as(new Retryable('server', 503, undefined, 'down').toPublic(3), ServerError);
    assert.deepEqual([e.status, e.attempts, e.body], [503, 3, 'down']);
    assert.equal(as(new Retryable('server', 502, undefined, '').toPublic(1), ServerError).body, undefined);
    assert.equal(as(new Retryable('server', undefined, undefined, 'x').toPublic(1), ServerError).status, 500);
  });

  it('a cut stream: a network failure saying why and after how many attempts', () => {
    const e = as(new Retryable('cut', undefined, undefined, 'connection lost (ECONNRESET)').toPublic(2), NetworkError);
    assert.equal(e.code, 'SSE_CUT');
    assert.equal(
      e.message,
      'The reply stream from the endpoint was cut short (connection lost (ECONNRESET)); 2 attempt(s).',
    );
  });
});
