/**
 * The MCP client's own rules (shunong/client.ts) that the other suites leave open: how it introduces
 * itself, its default timeout, what an envelope says, the batch's bound, the call's budget over the
 * retries, and the notes it logs. Against the tiny loopback MCP server of the helpers, or the local
 * endpoint where a 429 or a cut stream is needed.
 */
import { strict as assert } from 'node:assert';
import { getEventListeners } from 'node:events';
import {
  ShunongClient,
  realScheduler,
  type RateLimitedError,
  type ShunongClientOptions,
  type ToolInfo,
  type ToolListStore,
} from '../../../src/shunong';
import { ManualScheduler } from '../../support/manual-scheduler';
import {
  MINI_TOOLS,
  SECRET_KEY,
  fakeScheduler,
  observingFetch,
  startMiniServer,
  textResult,
  until,
  useEndpoint,
  type MiniReply,
  type MiniServer,
} from './helpers';
import { PAGE_TIME } from '../../support/pageExamples';

describe('shunong client: its own rules against the tiny loopback server', () => {
  let mini: MiniServer;
  const clients: ShunongClient[] = [];
  const make = (o: Partial<ShunongClientOptions> = {}): ShunongClient => {
    const c = new ShunongClient({ endpoint: mini.url, getKey: () => SECRET_KEY, ...o });
    clients.push(c);
    return c;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await mini.close();
  });

  /** A tool list kept from an earlier session: connect needs no tools/list. */
  const STORED: ToolListStore = { load: () => MINI_TOOLS as ToolInfo[], save: () => undefined };

  const initializeParams = (): Record<string, unknown> | undefined =>
    mini.received.find((m) => m.method === 'initialize')?.params;

  it('introduces itself as shunong-vscode 0.1.0 unless told another name', async () => {
    mini = await startMiniServer();
    await make().connect();
    assert.deepEqual(initializeParams()?.['clientInfo'], { name: 'shunong-vscode', version: '0.1.0' });
    await mini.close();
    mini = await startMiniServer();
    await make({ clientInfo: { name: 'shunong-cli', version: '9' } }).connect();
    assert.deepEqual(initializeParams()?.['clientInfo'], { name: 'shunong-cli', version: '9' });
  });

  it('an endpoint with blanks around it is that endpoint (an ideographic space pasted with it too)', async () => {
    mini = await startMiniServer();
    const tools = await make({ endpoint: `\u3000 ${mini.url}\n` }).connect();
    assert.deepEqual(
      tools.map((t) => t.name),
      MINI_TOOLS.map((t) => t.name),
    );
  });

  it('a call’s default timeout is 30 s on the client’s clock', async () => {
    mini = await startMiniServer(); // never answers a tools/call
    const sched = new ManualScheduler(0, { autoAdvanceBelow: 1000 });
    const c = make({ scheduler: sched });
    await c.connect();
    let settled = false;
    const call = assert.rejects(
      c.currentTime(),
      (e: Error & { kind?: string; timeoutMs?: number }) => e.kind === 'timeout' && e.timeoutMs === 30_000,
    );
    void call.finally(() => (settled = true));
    await until(() => mini.callSockets.length === 1);
    await sched.advance(29_999);
    assert.equal(settled, false);
    await sched.advance(1);
    await call;
  });

  it('a success envelope says which tool ran and how long it took on the client’s clock', async () => {
    mini = await startMiniServer({ onCall: (_m, reply) => reply.result(textResult(PAGE_TIME)) });
    let now = 1_000;
    const c = make({ scheduler: { ...realScheduler, now: () => now } });
    await c.connect();
    now = 2_000;
    const env = await c.callTool('time');
    assert.ok(env.success);
    assert.equal(env.message, "Tool 'get_current_time' executed successfully in 0ms");
    assert.deepEqual(env.data, PAGE_TIME);
  });

  it('a failure envelope: the tool’s reason as the message, the key masked; its kind and details', async () => {
    mini = await startMiniServer({
      onCall: (_m, reply) =>
        reply.result(textResult(`Error invoking method: getCurrentTime\nno clock for ${SECRET_KEY}`, true)),
    });
    const c = make();
    const env = await c.callTool('get_current_time', {}, { raiseOnError: false });
    assert.ok(!env.success);
    assert.equal(env.message, 'no clock for ***');
    assert.deepEqual(env.data, {
      error: 'no clock for ***',
      kind: 'tool-failure',
      details: { method: 'getCurrentTime' },
    });
    const unknown = await c.callTool('nothing_like_it', {}, { raiseOnError: false });
    assert.ok(!unknown.success);
    assert.equal(unknown.data.kind, 'unknown-tool');
    assert.match(unknown.message, /^No tool named "nothing_like_it"\./);
  });

  it('arguments: JSON text is read with the parser’s own message for what is not JSON; null is no object', async () => {
    mini = await startMiniServer({ onCall: (_m, reply) => reply.result(textResult(PAGE_TIME)) });
    const c = make();
    let parserSays = '';
    try {
      JSON.parse('{nope');
    } catch (e) {
      parserSays = (e as Error).message;
    }
    const bad = await c.callTool('get_current_time', '{nope', { raiseOnError: false });
    assert.equal(bad.message, `The arguments are not valid JSON: ${parserSays}`);
    const none = await c.callTool('get_current_time', null as unknown as string, { raiseOnError: false });
    assert.equal(none.message, 'The arguments must be an object.');
    assert.equal(mini.received.filter((m) => m.method === 'tools/call').length, 0);
  });

  it('any other failure in an envelope: kind internal, its message or its text, no details', async () => {
    mini = await startMiniServer();
    for (const [thrown, said] of [
      [new Error('no timers here'), 'no timers here'],
      ['no timers at all', 'no timers at all'],
    ] as const) {
      const c = make({
        scheduler: {
          ...realScheduler,
          sleep: () => {
            throw thrown;
          },
        },
      });
      const env = await c.callTool('get_current_time', {}, { raiseOnError: false });
      assert.ok(!env.success);
      assert.equal(env.message, said);
      assert.deepEqual(env.data, { error: said, kind: 'internal', details: {} });
    }
  });

  it('an envelope’s time is whole milliseconds on the client’s clock, and never below 0', async () => {
    mini = await startMiniServer({ onCall: (_m, reply) => reply.result(textResult(PAGE_TIME)) });
    let now = 1_000;
    let step = 0;
    // the clock moves by `step` while the tool call is out
    const moving = observingFetch({
      mutate: (_headers, body) => {
        if (body?.includes('"tools/call"')) now += step;
      },
    });
    const c = make({ fetch: moving.fetch, scheduler: { ...realScheduler, now: () => now } });
    step = 1.6;
    assert.equal((await c.callTool('time')).metadata.executionTimeMs, 2);
    step = -1_000; // a clock set back meanwhile
    assert.equal((await c.callTool('time')).metadata.executionTimeMs, 0);
  });

  it('a stored tool list: connect opens the session without asking for the list', async () => {
    mini = await startMiniServer();
    const tools = await make({ toolStore: STORED }).connect();
    assert.equal(tools.length, MINI_TOOLS.length);
    assert.deepEqual(
      mini.received.map((m) => m.method),
      ['initialize', 'notifications/initialized'],
    );
  });

  it('a client that cannot work says so even when a tool list is stored', async () => {
    mini = await startMiniServer();
    const c = make({ endpoint: 'not a url', toolStore: STORED });
    await assert.rejects(c.listTools(), (e: Error & { kind?: string }) => e.kind === 'config');
  });

  it('plain http to a host that is not loopback: refused, unless allowed (a stored tool list, so nothing is sent)', async () => {
    mini = await startMiniServer();
    const far = 'http://example.com/mcp';
    await assert.rejects(
      make({ endpoint: far, toolStore: STORED }).listTools(),
      (e: Error & { kind?: string }) => e.kind === 'insecure',
    );
    const allowed = await make({ endpoint: far, toolStore: STORED, allowInsecureHttp: true }).listTools();
    assert.equal(allowed.length, MINI_TOOLS.length);
  });

  it('a signal already aborted: connect and a refreshed tool list send nothing and never read the key', async () => {
    mini = await startMiniServer();
    let reads = 0;
    const c = make({
      getKey: () => {
        reads++;
        return SECRET_KEY;
      },
    });
    const signal = AbortSignal.abort();
    const cancelled = (e: Error & { kind?: string }): boolean => e.kind === 'cancelled';
    await assert.rejects(c.connect(signal), cancelled);
    await assert.rejects(c.listTools({ refresh: true, signal }), cancelled);
    await assert.rejects(c.currentTime({}, { signal }), cancelled);
    assert.equal(reads, 0, 'the key is not read');
    assert.equal(mini.received.length, 0);
  });

  it('a signal aborted while the key is read: CancelledError, and nothing is sent', async () => {
    mini = await startMiniServer();
    const ac = new AbortController();
    const c = make({
      getKey: () => {
        ac.abort();
        return SECRET_KEY;
      },
    });
    await assert.rejects(
      c.currentTime({}, { signal: ac.signal }),
      (e: Error & { kind?: string }) => e.kind === 'cancelled',
    );
    assert.deepEqual(mini.received, []);
  });

  it('a settled call leaves no timer on the client’s clock and no listener on the caller’s signal', async () => {
    mini = await startMiniServer({ onCall: (_m, reply) => reply.result(textResult(PAGE_TIME)) });
    const sched = new ManualScheduler();
    const c = make({ scheduler: sched });
    const ac = new AbortController();
    await c.currentTime({}, { signal: ac.signal });
    assert.equal(sched.pending, 0);
    assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
  });

  it('a cancelled call is not retried as a cut reply: one tools/call, then CancelledError', async () => {
    mini = await startMiniServer();
    const c = make();
    await c.connect();
    const ac = new AbortController();
    const p = c.currentTime({}, { signal: ac.signal });
    await until(() => mini.callSockets.length === 1);
    ac.abort();
    await assert.rejects(p, (e: Error & { kind?: string }) => e.kind === 'cancelled');
    await until(() => mini.received.some((m) => m.method === 'notifications/cancelled'));
    assert.equal(mini.received.filter((m) => m.method === 'tools/call').length, 1);
  });

  it('progress: only what the server said (no total, no message when it gave none); no progress asked for without a listener', async () => {
    mini = await startMiniServer({
      onCall: (msg, reply) => {
        const token = (msg.params?.['_meta'] as { progressToken?: number } | undefined)?.progressToken;
        if (token !== undefined)
          reply.event({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: token, progress: 1 },
          });
        reply.result(textResult(PAGE_TIME));
      },
    });
    const c = make();
    const seen: unknown[] = [];
    await c.currentTime({}, { onProgress: (p) => seen.push(p) });
    assert.deepEqual(seen, [{ progress: 1 }]);
    await c.currentTime();
    const [withListener, without] = mini.received.filter((m) => m.method === 'tools/call');
    assert.ok(withListener?.params?.['_meta']);
    assert.equal(without?.params?.['_meta'], undefined);
  });

  it('weather(): a signal already aborted sends nothing; a settled brief leaves no listener on the caller’s signal', async () => {
    mini = await startMiniServer({
      tools: () => [
        ...MINI_TOOLS,
        { name: 'weather_search', inputSchema: { type: 'object', properties: { location: {}, date: {} } } },
      ],
      onCall: (_m, reply) => reply.result(textResult('城市不存在', true)),
    });
    const c = make();
    await assert.rejects(
      c.weather('成都', { signal: AbortSignal.abort() }),
      (e: Error & { kind?: string }) => e.kind === 'cancelled',
    );
    assert.deepEqual(mini.received, []);
    const ac = new AbortController();
    await assert.rejects(
      c.weather('成都', { signal: ac.signal }),
      (e: Error & { kind?: string }) => e.kind === 'tool-failure',
    );
    assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
  });

  describe('a batch', () => {
    /** A server that holds each tools/call until `release`; `held` are the calls it holds. */
    async function holding(): Promise<{ held: MiniReply[]; release: () => void }> {
      const held: MiniReply[] = [];
      let open = false;
      mini = await startMiniServer({
        onCall: (_m, reply) => {
          if (open) reply.result(textResult(PAGE_TIME));
          else held.push(reply);
        },
      });
      return {
        held,
        release: () => {
          open = true;
          for (const r of held) r.result(textResult(PAGE_TIME));
        },
      };
    }

    const calls = Array.from({ length: 6 }, () => ({ name: 'get_current_time' }));

    for (const [concurrency, bound] of [
      [undefined, 4],
      [2.9, 2],
      [0, 1],
    ] as const) {
      it(`runs at most ${bound} calls at once when asked for ${String(concurrency)}`, async () => {
        const { held, release } = await holding();
        const c = make();
        await c.connect();
        const batch = c.callToolsBatch(calls, concurrency === undefined ? {} : { concurrency });
        await until(() => held.length === bound);
        await new Promise((r) => setTimeout(r, 50)); // room for a call beyond the bound to arrive
        assert.equal(held.length, bound);
        release();
        const out = await batch;
        assert.equal(out.length, 6);
        assert.ok(out.every((e) => e.success));
      });
    }

    it('a hole in the list is skipped: no call for it, and the batch still answers the others', async () => {
      mini = await startMiniServer({ onCall: (_m, reply) => reply.result(textResult(PAGE_TIME)) });
      const holed: { name: string }[] = [{ name: 'get_current_time' }];
      holed[2] = { name: 'get_current_time' };
      holed.length = 4; // and one at the end
      const out = await make().callToolsBatch(holed);
      assert.equal(out.length, 4, 'an envelope place for every call place');
      assert.ok(out[0]?.success && out[2]?.success);
      assert.equal(1 in out || 3 in out, false);
      assert.equal(mini.received.filter((m) => m.method === 'tools/call').length, 2);
    });

    it('an empty batch is no call', async () => {
      mini = await startMiniServer();
      assert.deepEqual(await make().callToolsBatch([]), []);
      assert.equal(mini.received.length, 0);
    });
  });
});

describe('shunong client: the call’s budget and the notes of its retries (local endpoint)', () => {
  const ep = useEndpoint();

  it('a Retry-After beyond the call’s own timeout gives up at once, however long the retry budget', async () => {
    const sched = fakeScheduler(5_000); // the call's timeout is held, a backoff of less is not
    const c = ep.client({ scheduler: sched, timeoutMs: 5_000, retry: { maxTotalMs: 60_000 } });
    await c.connect();
    await ep.emu.admin({ rateLimit: { next: 1, retryAfterSec: 6 } });
    await assert.rejects(
      c.currentTime(),
      (e: RateLimitedError) => e.kind === 'rate-limited' && e.attempts === 1 && e.retryAfterMs === 6_000,
    );
    assert.deepEqual(sched.slept, []);
  });

  it('an expired session is a note in the log before it is made again', async () => {
    const log: string[] = [];
    const c = ep.client({ log: (l) => log.push(l) });
    await c.connect();
    await ep.emu.admin({ expireSessions: true });
    await c.currentTime();
    assert.ok(log.includes('note: session expired (HTTP 404); re-initializing'), log.join('\n'));
  });

  it('each retry is a note in the log: the status and the wait, or the cut stream retried once', async () => {
    const sched = fakeScheduler(100_000);
    const log: string[] = [];
    const c = ep.client({ scheduler: sched, random: () => 0, timeoutMs: 600_000, log: (l) => log.push(l) });
    await c.connect();
    await ep.emu.admin({ rateLimit: { next: 1, retryAfterSec: 1 } });
    await c.currentTime();
    await ep.emu.admin({ cutSse: { next: 1, how: 'end' } });
    await c.knowledgeSearch({ query: '茶树修剪技术要点' });
    assert.deepEqual(
      log.filter((l) => l.startsWith('note: ') && !l.startsWith('note: transport reported')),
      [
        `note: HTTP 429; retry 2/4 in ${sched.slept[0]}ms`,
        'note: the reply stream ended before the reply; retrying once',
      ],
    );
  });
});
