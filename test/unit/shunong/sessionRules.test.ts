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

  async function opened(
    tools?: NonNullable<Parameters<typeof startMiniServer>[0]>['tools'],
    urlOf = (u: string) => u,
  ): Promise<Session> {
    server = await startMiniServer(tools ? { tools } : {});
    closed = [];
    log = [];
    const s = new Session({
      url: new URL(urlOf(server.url)),
      key: SECRET_KEY,
      baseFetch: (input, init) => globalThis.fetch(input, init),
      log: (l) => log.push(l),
      now: () => 0,
      clientInfo: { name: 'session-test', version: '0' },
      onToolsChanged: () => undefined,
      onClosed: (x) => closed.push(x),
    });
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

  it('the log never shows the key, wherever it appears', async () => {
    const s = await opened(undefined, (u) => `${u}?key=${SECRET_KEY}`);
    await s.close();
    assert.ok(log.length > 0);
    for (const line of log) assert.ok(!line.includes(SECRET_KEY), line);
    assert.ok(log.some((l) => l.includes('key=***')));
  });
});
