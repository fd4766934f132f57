/**
 * The fetch the SDK's transport is given (shunong/fetch.ts), over real HTTP to a loopback server:
 * each rule of its header, one at a time.
 */
import { strict as assert } from 'node:assert';
import type * as http from 'node:http';
import { newRequestContext, parseRetryAfter, wrapFetch, type RequestContext } from '../../../src/shunong/fetch';
import { loopback } from '../../support/loopback';
import { tick } from './helpers';

const KEY = 'sk_fetch_test_key_42';
const base: typeof fetch = (input, init) => globalThis.fetch(input, init);
const rpcBody = (method: string, id?: number | string) =>
  JSON.stringify({ jsonrpc: '2.0', method, params: {}, ...(id === undefined ? {} : { id }) });

describe('shunong/fetch: the transport’s fetch', () => {
  let server: Awaited<ReturnType<typeof loopback>>;
  let url: string;
  beforeEach(async () => {
    server = await loopback();
    url = `${server.origin}/mcp`;
  });
  afterEach(() => server.close());

  function wrapped(ctx: RequestContext | undefined, log?: string[], now = () => 0) {
    return wrapFetch({ base, key: KEY, contextOf: () => ctx, log: log && ((l) => log.push(l)), now });
  }
  const answer =
    (
      status: number,
      headers: Record<string, string> = {},
      body = '{}',
    ): ((req: http.IncomingMessage, res: http.ServerResponse) => void) =>
    (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
    };

  it('the standalone GET stream is answered here with 405 and never sent', async () => {
    const log: string[] = [];
    const res = await wrapped(undefined, log)(url, { method: 'GET' });
    assert.equal(res.status, 405);
    assert.equal(res.statusText, 'Method Not Allowed');
    assert.equal(server.seen.length, 0);
    assert.deepEqual(log, [`GET ${url} (standalone SSE stream) 405 0ms answered locally, not sent`]);
    assert.equal((await wrapped(undefined)(new URL(url))).status, 405, 'no method is a GET too');
  });

  it('the key goes as a Bearer header set at request time, over any the SDK set; the log masks it', async () => {
    server.routes.set('/mcp', answer(200));
    const log: string[] = [];
    await wrapped(newRequestContext(), log)(new Request(url), {
      method: 'post',
      headers: { authorization: 'Bearer old', 'x-other': 'kept' },
      body: rpcBody('tools/call', 7),
    });
    assert.equal(server.seen[0]?.headers.authorization, `Bearer ${KEY}`);
    assert.equal(server.seen[0]?.headers['x-other'], 'kept');
    assert.deepEqual(log, [`POST ${url} tools/call#7 200 0ms [authorization: ***, x-other: kept]`]);
  });

  it('the log’s durations are taken on the client’s clock, for answers and failures', async () => {
    server.routes.set('/mcp', answer(200));
    let t = 1000;
    const slow: typeof fetch = async (input, init) => {
      t += 25;
      return globalThis.fetch(input, init);
    };
    const log: string[] = [];
    const f = wrapFetch({ base: slow, key: KEY, contextOf: () => undefined, log: (l) => log.push(l), now: () => t });
    await f(url, { method: 'POST', body: rpcBody('ping', 1) });
    const failing = wrapFetch({
      base: () => {
        t += 7;
        return Promise.reject('not an Error');
      },
      key: KEY,
      contextOf: () => undefined,
      log: (l) => log.push(l),
      now: () => t,
    });
    await assert.rejects(failing(url, { method: 'POST', body: rpcBody('ping', 2) }));
    assert.match(log[0]!, / 200 25ms \[/);
    assert.match(log[1]!, /#2 failed error 7ms \[/, 'a throw that is not an Error is named “error”');
  });

  it('the log names the JSON-RPC method and id (a string id too); a notification has no id', async () => {
    server.routes.set('/mcp', answer(202, {}, ''));
    const log: string[] = [];
    const f = wrapped(undefined, log);
    await f(url, { method: 'POST', body: rpcBody('tools/list', 'req-1') });
    await f(url, { method: 'POST', body: rpcBody('notifications/initialized') });
    await f(url, { method: 'POST', body: new Uint8Array([1]) });
    assert.match(log[0]!, new RegExp(`^POST ${url} tools/list#req-1 202 `));
    assert.match(log[1]!, new RegExp(`^POST ${url} notifications/initialized 202 `));
    assert.match(log[2]!, new RegExp(`^POST ${url} - 202 `), 'a body that is not text names no method');
  });

  it('the call’s context is found by the message’s method and id', async () => {
    server.routes.set('/mcp', answer(200));
    const asked: unknown[] = [];
    const f = wrapFetch({ base, key: KEY, contextOf: (rpc) => void asked.push(rpc), log: undefined, now: () => 0 });
    await f(url, { method: 'POST', body: rpcBody('tools/call', 12) });
    await f(url, { method: 'POST', body: rpcBody('ping', 'a"b') });
    assert.deepEqual(asked, [{ method: 'tools/call', id: 12 }, { method: 'ping' }]);
  });

  it('Retry-After of a 429 or a 503 is kept on the call’s context, in ms from now; of other statuses not', async () => {
    const now = () => Date.parse('2026-12-04T00:00:00Z');
    for (const [status, expected] of [
      [429, 3000],
      [503, 3000],
      [500, undefined],
    ] as const) {
      server.routes.set('/mcp', answer(status, { 'retry-after': '3' }));
      const ctx = newRequestContext();
      await wrapped(ctx, undefined, now)(url, { method: 'POST', body: rpcBody('tools/call', 1) });
      assert.equal(ctx.retryAfterMs, expected, String(status));
    }
    server.routes.set('/mcp', answer(429, { 'retry-after': 'Fri, 04 Dec 2026 00:00:05 GMT' }));
    const ctx = newRequestContext();
    await wrapped(ctx, undefined, now)(url, { method: 'POST', body: rpcBody('tools/call', 1) });
    assert.equal(ctx.retryAfterMs, 5000);
    assert.equal(parseRetryAfter(' 2 ', 0), 2000);
    assert.equal(parseRetryAfter('0.25', 0), 250);
    for (const v of ['x5', '5 s', '5x', '']) assert.equal(parseRetryAfter(v, 0), undefined, JSON.stringify(v));
    assert.equal(
      parseRetryAfter('Fri, 04 Dec 2026 00:00:05 GMT', Date.parse('2026-12-04T00:00:09Z')),
      0,
      'a past date: now',
    );
  });

  it('the call’s signal, not the transport’s, aborts the request; the transport’s serves when the call has none', async () => {
    server.routes.set('/mcp', () => undefined);
    const call = new AbortController();
    const transport = new AbortController();
    const f = wrapped(newRequestContext(call));
    const sent = f(url, { method: 'POST', body: rpcBody('tools/call', 1), signal: transport.signal });
    await tick();
    transport.abort(new Error('transport'));
    call.abort(new Error('the author cancelled'));
    await assert.rejects(sent, /the author cancelled/);
    const own = new AbortController();
    const second = wrapped(newRequestContext())(url, { method: 'POST', body: rpcBody('x', 2), signal: own.signal });
    own.abort(new Error('transport closed'));
    await assert.rejects(second, /transport closed/);
  });

  it('a failed request is logged with the system code and thrown as it is', async () => {
    const log: string[] = [];
    const dead = `${server.origin}/mcp`;
    await server.close();
    await assert.rejects(wrapped(undefined, log)(dead, { method: 'POST', body: rpcBody('initialize', 0) }), TypeError);
    assert.match(log[0]!, new RegExp(`^POST ${dead} initialize#0 failed ECONNREFUSED \\d+ms \\[`));
    server = await loopback();
  });

  describe('an SSE reply that ends before its JSON-RPC reply was handed over', () => {
    const sse = (body: string) => (_req: http.IncomingMessage, res: http.ServerResponse) =>
      res.writeHead(200, { 'content-type': 'Text/Event-Stream; charset=utf-8' }).end(body);

    async function read(ctx: RequestContext, body: RequestInit['body'] = rpcBody('tools/call', 3)) {
      const res = await wrapped(ctx)(url, { method: 'POST', body });
      // through `body`, as the SDK reads a stream (the watched body is an own property over the getter)
      const text = await new Response(res.body).text();
      await tick();
      await tick();
      return text;
    }

    it('is reported as cut, once, and its bytes pass through unchanged', async () => {
      server.routes.set('/mcp', sse('event: message\ndata: {"partial":'));
      const cuts: string[] = [];
      const ctx = { ...newRequestContext(), onStreamCut: (why: string) => void cuts.push(why) };
      assert.equal(await read(ctx), 'event: message\ndata: {"partial":');
      assert.deepEqual(cuts, ['the reply stream ended before the reply']);
    });

    it('is not reported when the reply was handed over, for a notification, or for a reply that is not a stream', async () => {
      const cuts: string[] = [];
      const onStreamCut = (why: string) => void cuts.push(why);
      server.routes.set('/mcp', sse('data: {}\n\n'));
      await read({ ...newRequestContext(), onStreamCut, answered: true });
      await read({ ...newRequestContext(), onStreamCut }, rpcBody('notifications/cancelled'));
      server.routes.set('/mcp', answer(200, {}, '{"jsonrpc":"2.0","id":3,"result":{}}'));
      await read({ ...newRequestContext(), onStreamCut });
      server.routes.set('/mcp', (_req, res) => res.writeHead(200).end('data: {}'));
      await read({ ...newRequestContext(), onStreamCut });
      assert.deepEqual(cuts, []);
    });

    it('a stream that breaks mid-way is reported with the reason', async () => {
      server.routes.set('/mcp', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"partial":');
        setImmediate(() => res.destroy());
      });
      const cuts: string[] = [];
      const ctx = { ...newRequestContext(), onStreamCut: (why: string) => void cuts.push(why) };
      const res = await wrapped(ctx)(url, { method: 'POST', body: rpcBody('tools/call', 4) });
      await assert.rejects(new Response(res.body).text());
      await tick();
      await tick();
      assert.equal(cuts.length, 1);
      assert.match(cuts[0]!, /^the reply stream broke \(\w+\)$/);
    });
  });
});
