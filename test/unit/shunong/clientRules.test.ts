/**
 * The MCP client's own rules (shunong/client.ts) that the other suites leave open: how it introduces
 * itself, its default timeout, what an envelope says, the batch's bound, the call's budget over the
 * retries, and the notes it logs. Against the tiny loopback MCP server of the helpers, or the local
 * endpoint where a 429 or a cut stream is needed.
 */
import { strict as assert } from 'node:assert';
import { ShunongClient, realScheduler, type RateLimitedError, type ShunongClientOptions } from '../../../src/shunong';
import { ManualScheduler } from '../../support/manual-scheduler';
import {
  MINI_TOOLS,
  SECRET_KEY,
  fakeScheduler,
  startMiniServer,
  textResult,
  until,
  useEndpoint,
  type MiniReply,
  type MiniServer,
} from './helpers';

const TIME = {
  timezone: 'Asia/Shanghai',
  datetime: '2026-10-25 21:06:13',
  date: '2026-10-25',
  time: '21:06:13',
  weekday: '星期日',
  unix: 1792933573,
  solar_term: '霜降',
  solar_term_date: '2026-10-23',
  next_solar_term: '立冬',
  next_solar_term_date: '2026-11-07',
  days_to_next_solar_term: 13,
  solar_term_year: 2026,
};

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

  it('an endpoint with blanks around it is that endpoint', async () => {
    mini = await startMiniServer();
    const tools = await make({ endpoint: `  ${mini.url}\n` }).connect();
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
    mini = await startMiniServer({ onCall: (_m, reply) => reply.result(textResult(TIME)) });
    let now = 1_000;
    const c = make({ scheduler: { ...realScheduler, now: () => now } });
    await c.connect();
    now = 2_000;
    const env = await c.callTool('time');
    assert.ok(env.success);
    assert.equal(env.message, "Tool 'get_current_time' executed successfully in 0ms");
    assert.deepEqual(env.data, TIME);
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

  describe('a batch', () => {
    /** A server that holds each tools/call until `release`; `held` are the calls it holds. */
    async function holding(): Promise<{ held: MiniReply[]; release: () => void }> {
      const held: MiniReply[] = [];
      let open = false;
      mini = await startMiniServer({
        onCall: (_m, reply) => {
          if (open) reply.result(textResult(TIME));
          else held.push(reply);
        },
      });
      return {
        held,
        release: () => {
          open = true;
          for (const r of held) r.result(textResult(TIME));
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
