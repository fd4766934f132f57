import { strict as assert } from 'node:assert';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ShunongClient, type NetworkError, type ToolInfo } from '../../../src/shunong';
import {
  MINI_TOOLS,
  fakeScheduler,
  startMiniServer,
  textResult,
  until,
  useEndpoint,
  type MiniMessage,
  type MiniReply,
  type MiniServer,
} from './helpers';
import { PAGE_TIME } from '../../support/pageExamples';

const KEY = 'sk_local_demo';

describe('shunong client: timeouts, cancellation, progress, listChanged (loopback server that never answers)', () => {
  let mini: MiniServer;
  const clients: ShunongClient[] = [];
  const make = (o: Partial<ConstructorParameters<typeof ShunongClient>[0]> = {}): ShunongClient => {
    const c = new ShunongClient({ endpoint: mini.url, getKey: () => KEY, ...o });
    clients.push(c);
    return c;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await mini.close();
  });

  it('cancel: the HTTP request is really aborted (socket closed) and the server is told (notifications/cancelled)', async () => {
    mini = await startMiniServer();
    const c = make();
    const ac = new AbortController();
    const p = c.currentTime({}, { signal: ac.signal });
    await until(() => mini.callSockets.length === 1);
    ac.abort();
    await assert.rejects(p, (e: Error & { kind?: string }) => e.kind === 'cancelled');
    await until(() => mini.callSockets[0]?.closed === true);
    await until(() => mini.received.some((m) => m.method === 'notifications/cancelled'));
    const call = mini.received.find((m) => m.method === 'tools/call');
    const cancelled = mini.received.find((m) => m.method === 'notifications/cancelled');
    assert.equal(cancelled?.params?.['requestId'], call?.id);
  });

  it('a signal aborted before the call: CancelledError without any request', async () => {
    mini = await startMiniServer();
    const c = make();
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      c.currentTime({}, { signal: ac.signal }),
      (e: Error & { kind?: string }) => e.kind === 'cancelled',
    );
    assert.equal(mini.received.length, 0);
  });

  it('timeout (injected scheduler): TimeoutError, the request aborted and the server told', async () => {
    mini = await startMiniServer();
    const sched = fakeScheduler(1000);
    const c = make({ scheduler: sched, timeoutMs: 5000 });
    await c.connect();
    const p = c.currentTime();
    await until(() => mini.callSockets.length === 1);
    assert.equal(sched.pending, 1);
    await sched.fireAll();
    await assert.rejects(
      p,
      (e: Error & { kind?: string; timeoutMs?: number }) => e.kind === 'timeout' && e.timeoutMs === 5000,
    );
    await until(() => mini.callSockets[0]?.closed === true);
    await until(() => mini.received.some((m) => m.method === 'notifications/cancelled'));
  });

  it('timeout with the real clock (a short per-call timeout)', async () => {
    mini = await startMiniServer();
    const c = make();
    await c.connect();
    await assert.rejects(c.currentTime({}, { timeoutMs: 50 }), (e: Error & { kind?: string }) => e.kind === 'timeout');
    await until(() => mini.callSockets[0]?.closed === true);
  });

  describe('weather(): both weather_search modes side by side', () => {
    const WEATHER_TOOLS = [
      ...MINI_TOOLS,
      {
        name: 'weather_search',
        description: 'weather',
        inputSchema: { type: 'object', properties: { location: {}, date: {} } },
      },
    ];
    const dateOf = (m: MiniMessage): unknown => (m.params?.['arguments'] as { date?: unknown } | undefined)?.date;

    it('the first failure is thrown and aborts the other call: no request of a failed brief is left in flight', async () => {
      // "now" never answers; the forecast fails the way the platform fails: plain text behind isError.
      mini = await startMiniServer({
        tools: () => WEATHER_TOOLS,
        onCall: (msg, reply) => {
          if (dateOf(msg) !== 'now') reply.result(textResult('未找到城市：火星城', true));
        },
      });
      const c = make();
      await assert.rejects(c.weather('火星城'), (e: Error & { kind?: string; reason?: string }) => {
        assert.equal(e.kind, 'tool-failure');
        assert.equal(e.reason, '未找到城市：火星城');
        return true;
      });
      // settled only once the other request was aborted and the server told
      const nowCall = mini.received.find((m) => m.method === 'tools/call' && dateOf(m) === 'now');
      assert.ok(nowCall, 'both modes were asked');
      const index = mini.received.filter((m) => m.method === 'tools/call').indexOf(nowCall);
      await until(() => mini.callSockets[index]?.closed === true);
      await until(() =>
        mini.received.some((m) => m.method === 'notifications/cancelled' && m.params?.['requestId'] === nowCall.id),
      );
    });

    it("the caller's abort cancels both calls", async () => {
      mini = await startMiniServer({ tools: () => WEATHER_TOOLS });
      const c = make();
      const ac = new AbortController();
      const p = c.weather('成都', { signal: ac.signal });
      await until(() => mini.callSockets.length === 2);
      ac.abort();
      await assert.rejects(p, (e: Error & { kind?: string }) => e.kind === 'cancelled');
      await until(() => mini.callSockets.every((s) => s.closed));
      await until(() => mini.received.filter((m) => m.method === 'notifications/cancelled').length === 2);
    });
  });

  it('progress notifications reach onProgress before the result', async () => {
    mini = await startMiniServer({
      onCall: (msg, reply) => {
        const token = (msg.params?.['_meta'] as { progressToken?: number } | undefined)?.progressToken;
        reply.event({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1, total: 2, message: 'half' },
        });
        reply.event({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: 2, total: 2 },
        });
        reply.result(textResult(PAGE_TIME));
      },
    });
    const c = make();
    const seen: unknown[] = [];
    const t = await c.currentTime({}, { onProgress: (p) => seen.push(p) });
    assert.equal(t.solar_term, '霜降');
    assert.deepEqual(seen, [
      { progress: 1, total: 2, message: 'half' },
      { progress: 2, total: 2 },
    ]);
  });

  it('listChanged (inline on a reply): the tool list is refreshed and listeners told', async () => {
    let version = 1;
    const v2 = [
      ...MINI_TOOLS,
      {
        name: 'weather_search',
        description: 'weather',
        inputSchema: { type: 'object', properties: { location: {}, date: {} } },
      },
    ];
    mini = await startMiniServer({
      tools: () => (version === 1 ? MINI_TOOLS : v2),
      onCall: (_msg, reply) => {
        version = 2;
        reply.event({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
        reply.result(textResult(PAGE_TIME));
      },
    });
    const c = make();
    const heard: ToolInfo[][] = [];
    await c.connect();
    c.onDidChangeTools((t) => heard.push(t));
    await c.currentTime();
    await until(() => heard.length === 1);
    assert.deepEqual(
      heard[0]?.map((t) => t.name),
      ['knowledge_search', 'get_current_time', 'weather_search'],
    );
    assert.equal((await c.listTools()).length, 3);
  });

  it('listChanged from a session no longer current (the key changed meanwhile) is not read: the list is the current session’s', async () => {
    let held: MiniReply | undefined;
    mini = await startMiniServer({
      onCall: (_msg, reply) => {
        if (held) reply.result(textResult(PAGE_TIME));
        else held = reply;
      },
    });
    let key = KEY;
    const logs: string[] = [];
    const c = make({ getKey: () => key, log: (l) => logs.push(l) });
    await c.connect();
    const old = c.currentTime();
    await until(() => held !== undefined);
    key = 'sk_mini_other';
    await c.currentTime();
    const lists = mini.received.filter((m) => m.method === 'tools/list').length;
    held!.event({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    held!.result(textResult(PAGE_TIME));
    await old;
    assert.deepEqual(
      logs.filter((l) => l.includes('tool list changed')),
      [],
    );
    assert.equal(mini.received.filter((m) => m.method === 'tools/list').length, lists);
  });

  it('a result of the wrong shape is a ResultShapeError naming the tool and the field', async () => {
    mini = await startMiniServer({ onCall: (_m, reply) => reply.result(textResult({ ...PAGE_TIME, unix: 'soon' })) });
    const c = make();
    await assert.rejects(c.currentTime(), (e: Error & { kind?: string; tool?: string; field?: string }) => {
      assert.equal(e.kind, 'result-shape');
      assert.equal(e.tool, 'get_current_time');
      assert.equal(e.field, 'unix');
      assert.match(e.message, /get_current_time/);
      assert.match(e.message, /unix/);
      return true;
    });
  });

  it('empty sources without isError is a knowledge miss', async () => {
    mini = await startMiniServer({
      onCall: (_m, reply) =>
        reply.result(
          textResult({
            kb_code: 'A',
            kb_name: 'a',
            query: 'q',
            mode: 'hybrid',
            score_type: 'rrf',
            total: 0,
            counts: { vector: 3, fulltext: 1, hybrid: 0, rerank: 0 },
            sources: [],
            warnings: [],
          }),
        ),
    });
    const c = make();
    await assert.rejects(
      c.knowledgeSearch({ query: 'q' }),
      (e: Error & { kind?: string; vectorCandidates?: number }) =>
        e.kind === 'knowledge-miss' && e.vectorCandidates === 3,
    );
  });
});

describe('shunong client: cut SSE replies and an endpoint that is down', () => {
  // the timeout is held by the virtual clock: a hang would fail the test by mocha's timeout
  const ep = useEndpoint({ client: () => ({ scheduler: fakeScheduler(1000), timeoutMs: 600_000 }) });
  const make = (): ShunongClient => ep.client();

  it('a reply stream cut once is retried once (the tools are side-effect free) and succeeds', async () => {
    const c = make();
    await c.connect();
    await ep.emu.admin({ cutSse: { next: 1 } });
    const before = ep.emu.requests.length;
    const r = await c.knowledgeSearch({ query: '茶树修剪技术要点' });
    assert.ok(r.sources.length > 0);
    const calls = ep.emu.requests.slice(before).filter((x) => x.rpcMethod === 'tools/call');
    assert.equal(calls.length, 2);
  });

  it('a reply stream cut twice is a clear NetworkError, never a hang', async () => {
    const c = make();
    await c.connect();
    await ep.emu.admin({ cutSse: { next: 2 } });
    await assert.rejects(
      c.knowledgeSearch({ query: '茶树修剪技术要点' }),
      (e: NetworkError) => e.kind === 'network' && e.code === 'SSE_CUT' && /cut short/.test(e.message),
    );
  });

  it('a reply stream that ends cleanly before its reply: retried once, then a clear NetworkError, never a hang', async () => {
    const c = make();
    await c.connect();
    await ep.emu.admin({ cutSse: { next: 1, how: 'end' } });
    assert.ok(
      (await c.knowledgeSearch({ query: '茶树修剪技术要点' })).sources.length > 0,
      'one clean early end is retried',
    );
    await ep.emu.admin({ cutSse: { next: 2, how: 'end' } });
    await assert.rejects(
      c.knowledgeSearch({ query: '茶树修剪技术要点' }),
      (e: NetworkError) => e.kind === 'network' && e.code === 'SSE_CUT' && /ended before the reply/.test(e.message),
    );
  });

  it('a reply frame the SDK cannot read (not JSON) counts as no reply: a clear NetworkError, never a hang', async () => {
    const c = make();
    await c.connect();
    await ep.emu.admin({ cutSse: { next: 2, how: 'garbage' } });
    await assert.rejects(
      c.knowledgeSearch({ query: '茶树修剪技术要点' }),
      (e: NetworkError) => e.kind === 'network' && e.code === 'SSE_CUT' && /ended before the reply/.test(e.message),
    );
  });

  it('ECONNREFUSED: NetworkError naming the endpoint', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const c = ep.client({ endpoint: `http://127.0.0.1:${port}/mcp` });
    await assert.rejects(
      c.connect(),
      (e: NetworkError) => e.kind === 'network' && e.code === 'ECONNREFUSED' && e.message.includes(String(port)),
    );
  });
});
