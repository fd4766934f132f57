/**
 * One MCP session's own rules (shunong/session.ts) against the tiny loopback MCP server of the
 * helpers: the tool list as the client keeps it, a retired session closing once its last call
 * settles, close aborting the calls bound to it, and the log with the key masked.
 */
import { strict as assert } from 'node:assert';
import { CancelledError } from '../../../src/shunong';
import { newRequestContext } from '../../../src/shunong/fetch';
import { Session } from '../../../src/shunong/session';
import { SECRET_KEY, startMiniServer, tick, until, type MiniServer } from './helpers';

describe('shunong/session: one MCP session', () => {
  let server: MiniServer;
  let closed: Session[];
  let log: string[];
  afterEach(() => server.close());

  /** A session of a tiny server started with `options`, not yet opened. */
  async function unopened(
    options: Parameters<typeof startMiniServer>[0] = {},
    urlOf = (u: string) => u,
  ): Promise<Session> {
    server = await startMiniServer(options);
    closed = [];
    log = [];
    return new Session({
      url: new URL(urlOf(server.url)),
      key: SECRET_KEY,
      baseFetch: (input, init) => globalThis.fetch(input, init),
      log: (l) => log.push(l),
      now: () => 0,
      clientInfo: { name: 'session-test', version: '0' },
      onToolsChanged: () => undefined,
      onClosed: (x) => closed.push(x),
    });
  }

  async function opened(
    tools?: NonNullable<Parameters<typeof startMiniServer>[0]>['tools'],
    urlOf = (u: string) => u,
  ): Promise<Session> {
    const s = await unopened(tools ? { tools } : {}, urlOf);
    await s.open(newRequestContext(), 60_000);
    return s;
  }

  /** A knowledge search bound to `s` that the tiny server has received and never answers. */
  async function callInFlight(s: Session) {
    const ctl = new AbortController();
    const ctx = newRequestContext(ctl);
    const call = s.bind(ctx, () =>
      s.client.callTool({ name: 'knowledge_search', arguments: { query: 'q' } }, undefined, { signal: ctl.signal }),
    );
    await until(() => server.callSockets.length > 0);
    return { ctl, ctx, call };
  }

  it('opens with the server’s session id; the tool list keeps a name, a description and the declared properties and required ones', async () => {
    const s = await opened(() => [
      {
        name: 'knowledge_search',
        description: 'search',
        inputSchema: {
          type: 'object',
          properties: { query: { type: 'string' } },
          required: ['query'],
          additionalProperties: false,
        },
      },
      { name: 'get_current_time', inputSchema: { type: 'object' } },
    ]);
    assert.equal(s.sessionId, 'mini-session-1');
    assert.deepEqual(await s.listTools(newRequestContext(), 60_000), [
      {
        name: 'knowledge_search',
        description: 'search',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      },
      { name: 'get_current_time', inputSchema: { type: 'object' } },
    ]);
    await s.close();
  });

  it('the tool list is read page by page to the end, and twenty pages at most from a server whose cursor never ends', async () => {
    const page = (n: number) => ({ name: `tool_${n}`, inputSchema: { type: 'object' } });
    let s = await opened((cursor) => {
      const n = cursor === undefined ? 1 : Number(cursor);
      return n < 3 ? { tools: [page(n)], nextCursor: String(n + 1) } : { tools: [page(n)] };
    });
    const three = await s.listTools(newRequestContext(), 60_000);
    assert.deepEqual(
      three.map((t) => t.name),
      ['tool_1', 'tool_2', 'tool_3'],
    );
    assert.deepEqual(
      server.received.filter((m) => m.method === 'tools/list').map((m) => m.params),
      [undefined, { cursor: '2' }, { cursor: '3' }],
      'the first page is asked for without any cursor',
    );
    await s.close();
    await server.close();
    s = await opened((cursor) => ({ tools: [page(Number(cursor ?? 0))], nextCursor: String(Number(cursor ?? 0) + 1) }));
    assert.equal((await s.listTools(newRequestContext(), 60_000)).length, 20);
    await s.close();
  });

  it('a retired session closes once its last call settles, and only then; closing twice closes once', async () => {
    const s = await opened();
    s.enter();
    s.enter();
    s.retire();
    assert.equal(s.retired, true);
    s.leave();
    await tick();
    assert.deepEqual(closed, [], 'a call still runs');
    s.leave();
    await until(() => closed.length > 0);
    await s.close();
    assert.deepEqual(closed, [s], 'closed by its last call, once');
  });

  it('a session retired with no call running closes at once', async () => {
    const s = await opened();
    s.retire();
    await until(() => closed.length > 0);
    assert.deepEqual(closed, [s]);
  });

  it('closing aborts each call bound to the session with “The session was closed.”', async () => {
    const s = await opened();
    const { ctl, ctx, call } = await callInFlight(s);
    assert.equal(ctx.boundIds.length, 1, 'the call’s id is bound to its context');
    await s.close();
    await assert.rejects(call);
    assert.ok(ctl.signal.reason instanceof CancelledError);
    assert.equal((ctl.signal.reason as Error).message, 'The session was closed.');
    assert.equal(ctx.boundIds.length, 0, 'settled: the id is let go');
  });

  it('a cancelled call’s notifications/cancelled still goes out, although the call’s own signal has fired', async () => {
    const s = await opened();
    const { ctl, call } = await callInFlight(s);
    ctl.abort(new Error('the author cancelled'));
    await assert.rejects(call);
    await until(() => server.received.some((m) => m.method === 'notifications/cancelled'));
    await s.close();
  });

  it('a cancelled initialize ends at once with the reason of the cancel, although its reply had begun', async () => {
    const s = await unopened({ unanswered: ['initialize'] });
    const ctl = new AbortController();
    const open = s.open(newRequestContext(ctl), 60_000);
    await until(() => server.received.some((m) => m.method === 'initialize'));
    ctl.abort(new Error('the author cancelled'));
    await assert.rejects(open, /the author cancelled/);
  });

  it('a cancelled tools/list ends at once with the reason of the cancel, and the server is told which request was dropped', async () => {
    const s = await unopened({ unanswered: ['tools/list'] });
    await s.open(newRequestContext(), 60_000);
    const ctl = new AbortController();
    const list = s.listTools(newRequestContext(ctl), 60_000);
    await until(() => server.received.some((m) => m.method === 'tools/list'));
    ctl.abort(new Error('the author cancelled'));
    await assert.rejects(list, /the author cancelled/);
    await until(() => server.received.some((m) => m.method === 'notifications/cancelled'));
    const asked = server.received.find((m) => m.method === 'tools/list');
    const dropped = server.received.find((m) => m.method === 'notifications/cancelled');
    assert.equal(dropped?.params?.['requestId'], asked?.id);
    await s.close();
  });

  for (const withSignal of [true, false]) {
    it(`initialize and tools/list left unanswered give up after the SDK timeout they are given (${withSignal ? 'a call with a signal' : 'no signal'})`, async () => {
      const ctx = () => newRequestContext(withSignal ? new AbortController() : undefined);
      let s = await unopened({ unanswered: ['initialize'] });
      await assert.rejects(s.open(ctx(), 50), /Request timed out/);
      await server.close();
      s = await unopened({ unanswered: ['tools/list'] });
      await s.open(ctx(), 60_000);
      await assert.rejects(s.listTools(ctx(), 50), /Request timed out/);
      await s.close();
    });
  }

  it('what the transport reports is one note in the log: the first line of its message', async () => {
    const s = await unopened({ unanswered: ['tools/list'] });
    await s.open(newRequestContext(), 60_000);
    const ctl = new AbortController();
    const list = s.listTools(newRequestContext(ctl), 60_000);
    await until(() => log.some((l) => l.includes('tools/list') && l.includes(' 200 '))); // its reply has begun
    ctl.abort(new Error('the author cancelled\nat the second line'));
    await assert.rejects(list);
    await until(() => log.some((l) => l.startsWith('note: ')));
    const notes = log.filter((l) => l.startsWith('note: '));
    assert.equal(notes.length, 1);
    assert.match(notes[0] ?? '', /^note: transport reported: .*the author cancelled$/);
    await s.close();
  });

  it('closing a session while it opens ends the open with “The session was closed.”', async () => {
    const s = await unopened({ unanswered: ['initialize'] });
    const ctl = new AbortController();
    const open = s.open(newRequestContext(ctl), 60_000);
    await until(() => server.received.some((m) => m.method === 'initialize'));
    await s.close();
    await assert.rejects(open, /The session was closed\./);
    assert.ok(ctl.signal.reason instanceof CancelledError);
  });

  it('once open, the context of the open is let go: closing the session later leaves it alone', async () => {
    const s = await unopened();
    const ctl = new AbortController();
    await s.open(newRequestContext(ctl), 60_000);
    await s.close();
    assert.equal(ctl.signal.aborted, false);
  });

  it('a start that hands no request over leaves nothing bound: the next request is not tied to its call', async () => {
    const s = await unopened();
    const cancelled = new AbortController();
    cancelled.abort(new Error('that call was cancelled'));
    assert.throws(
      () =>
        s.bind(newRequestContext(cancelled), () => {
          throw new Error('no request');
        }),
      /no request/,
    );
    await s.open(newRequestContext(), 60_000); // its initialize would go out under the cancelled signal
    assert.equal(s.sessionId, 'mini-session-1');
    await s.close();
  });

  /** A call bound to `s` with its own context, and what its reply stream reported as cut. */
  function boundCall(s: Session) {
    const ctl = new AbortController();
    const ctx = newRequestContext(ctl);
    const cuts: string[] = [];
    ctx.onStreamCut = (why) => cuts.push(why);
    const call = s.bind(ctx, () =>
      s.client.callTool({ name: 'get_current_time', arguments: {} }, undefined, { signal: ctl.signal }),
    );
    return { ctl, ctx, cuts, call };
  }

  it('a JSON-RPC error in a reply stream is the call’s answer: the stream ending after it is no cut', async () => {
    const s = await unopened({
      onCall: (msg, reply) => {
        reply.event({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'bad arguments' } });
        reply.res.end();
      },
    });
    await s.open(newRequestContext(), 60_000);
    const { ctx, cuts, call } = boundCall(s);
    await assert.rejects(call, /bad arguments/);
    assert.equal(ctx.answered, true, 'the reply was handed over');
    await tick();
    await tick();
    assert.deepEqual(cuts, []);
    await s.close();
  });

  it('a request of the server in a reply stream is no answer: the stream ending after it is a cut', async () => {
    const s = await unopened({
      onCall: (msg, reply) => {
        reply.event({ jsonrpc: '2.0', id: msg.id, method: 'ping' }); // the server's own request, with the call's id
        reply.res.end();
      },
    });
    await s.open(newRequestContext(), 60_000);
    const { ctl, ctx, cuts, call } = boundCall(s);
    await until(() => cuts.length > 0);
    assert.equal(ctx.answered, false);
    ctl.abort(new Error('done'));
    await assert.rejects(call);
    await s.close();
  });

  it('results are checked by the client’s own schemas only: structured content a tool’s outputSchema refuses is no failure', async () => {
    const s = await unopened({
      tools: () => [
        {
          name: 'get_current_time',
          inputSchema: { type: 'object' },
          outputSchema: { type: 'object', properties: { unix: { type: 'number' } }, required: ['unix'] },
        },
      ],
      onCall: (_msg, reply) =>
        reply.result({ content: [{ type: 'text', text: '{}' }], structuredContent: { unix: 'soon' } }),
    });
    await s.open(newRequestContext(), 60_000);
    await s.listTools(newRequestContext(), 60_000); // the SDK keeps the outputSchema of each listed tool
    const { call } = boundCall(s);
    const result = await call;
    assert.deepEqual(result.structuredContent, { unix: 'soon' });
    await s.close();
  });

  it('the log never shows the key, wherever it appears', async () => {
    const s = await opened(undefined, (u) => `${u}?key=${SECRET_KEY}`);
    await s.close();
    assert.ok(log.length > 0);
    for (const line of log) assert.ok(!line.includes(SECRET_KEY), line);
    assert.ok(log.some((l) => l.includes('key=***')));
  });
});
