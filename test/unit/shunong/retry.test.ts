import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  backoffDelay,
  parseRetryAfter,
  retryPolicy,
  type RateLimitedError,
  type ServerError,
} from '../../../src/shunong';
import { fakeScheduler, until, useEndpoint } from './helpers';
import type { ManualScheduler } from '../../support/manual-scheduler';

describe('shunong client: 429 and 5xx', () => {
  let sched: ManualScheduler;
  const ep = useEndpoint({ client: () => ({ scheduler: sched, timeoutMs: 600_000 }) });
  const make = ep.client;
  beforeEach(() => {
    sched = fakeScheduler(100_000);
  });

  it('429 with Retry-After: waits at least that long (on the injected scheduler), then succeeds', async () => {
    const c = make({ retry: { maxAttempts: 4, maxTotalMs: 60_000 } });
    await c.connect();
    await ep.emu.admin({ rateLimit: { next: 2, retryAfterSec: 3 } });
    const before = ep.emu.requests.length;
    const t = await c.currentTime();
    assert.ok(t.date);
    assert.deepEqual(
      ep.emu.requests.slice(before).map((x) => x.status),
      [429, 429, 200],
    );
    assert.equal(sched.slept.length, 2);
    for (const ms of sched.slept) assert.ok(ms >= 3000, `slept ${ms} < Retry-After`);
  });

  it('jitter never shortens Retry-After (random at both ends)', async () => {
    for (const r of [0, 0.999]) {
      sched = fakeScheduler(100_000);
      const c = make({ random: () => r, retry: { baseMs: 5000, maxDelayMs: 8000, maxTotalMs: 60_000 } });
      await c.connect();
      await ep.emu.admin({ rateLimit: { next: 1, retryAfterSec: 2 } });
      await c.currentTime();
      assert.equal(sched.slept.length, 1);
      assert.ok((sched.slept[0] ?? 0) >= 2000);
    }
  });

  it('429 on every attempt: RateLimitedError after maxAttempts, carrying Retry-After', async () => {
    const c = make({ retry: { maxAttempts: 3, maxTotalMs: 60_000 } });
    await c.connect();
    await ep.emu.admin({ rateLimit: { next: 10, retryAfterSec: 1 } });
    const before = ep.emu.requests.length;
    await assert.rejects(c.currentTime(), (e: RateLimitedError) => {
      assert.equal(e.kind, 'rate-limited');
      assert.equal(e.retryAfterMs, 1000);
      assert.equal(e.attempts, 3);
      return true;
    });
    assert.equal(ep.emu.requests.length - before, 3);
    assert.equal(sched.slept.length, 2);
  });

  it('a wait that ends exactly at the time budget is still waited for, and the log says so', async () => {
    // no jitter (random 0) and a backoff below Retry-After: the wait is Retry-After itself, 2 s
    const logs: string[] = [];
    const c = make({
      random: () => 0,
      log: (line) => logs.push(line),
      retry: { maxAttempts: 5, baseMs: 100, maxDelayMs: 100, maxTotalMs: 2000 },
    });
    await c.connect();
    await ep.emu.admin({ rateLimit: { next: 1, retryAfterSec: 2 } });
    assert.ok((await c.currentTime()).date);
    assert.deepEqual(sched.slept, [2000]);
    assert.ok(logs.includes('note: HTTP 429; retry 2/5 in 2000ms'), logs.join('\n'));
  });

  it('bounded in total time: a Retry-After beyond the budget gives up at once', async () => {
    const c = make({ retry: { maxAttempts: 5, maxTotalMs: 10_000 } });
    await c.connect();
    await ep.emu.admin({ rateLimit: { next: 5, retryAfterSec: 20 } });
    const before = ep.emu.requests.length;
    await assert.rejects(
      c.currentTime(),
      (e: RateLimitedError) => e.kind === 'rate-limited' && e.retryAfterMs === 20_000 && e.attempts === 1,
    );
    assert.equal(ep.emu.requests.length - before, 1);
    assert.equal(sched.slept.length, 0);
  });

  it('5xx: exponential backoff with jitter, then success', async () => {
    const c = make({ random: () => 0.5, retry: { baseMs: 100, maxDelayMs: 10_000, maxAttempts: 4 } });
    await c.connect();
    await ep.emu.admin({ fail5xx: { next: 3, status: 503 } });
    const before = ep.emu.requests.length;
    await c.currentTime();
    assert.deepEqual(
      ep.emu.requests.slice(before).map((x) => x.status),
      [503, 503, 503, 200],
    );
    assert.deepEqual(sched.slept, [75, 150, 300]);
  });

  it('5xx on every attempt: ServerError with the status', async () => {
    const c = make({ retry: { maxAttempts: 2, baseMs: 10 } });
    await c.connect();
    await ep.emu.admin({ fail5xx: { next: 5, status: 502 } });
    await assert.rejects(
      c.currentTime(),
      (e: ServerError) => e.kind === 'server' && e.status === 502 && e.attempts === 2,
    );
  });

  it('429 on initialize (the first call) is retried too', async () => {
    const c = make();
    await ep.emu.admin({ rateLimit: { next: 1, retryAfterSec: 1 } });
    const tools = await c.connect();
    assert.equal(tools.length, 4);
    assert.deepEqual(
      ep.emu.requests.map((x) => [x.rpcMethod ?? null, x.status]),
      [
        [null, 429],
        ['initialize', 200],
        ['notifications/initialized', 202],
        ['tools/list', 200],
      ],
    );
    assert.ok((sched.slept[0] ?? 0) >= 1000);
  });

  it('a cancelled backoff wait ends the call with CancelledError', async () => {
    const slow = fakeScheduler(0); // every sleep is held
    const c = make({ scheduler: slow });
    await c.connect();
    await ep.emu.admin({ rateLimit: { next: 1, retryAfterSec: 1 } });
    const ac = new AbortController();
    const p = c.currentTime({}, { signal: ac.signal });
    await until(() => slow.pending === 2); // the timeout and the backoff
    ac.abort();
    await assert.rejects(p, (e: Error & { kind?: string }) => e.kind === 'cancelled');
  });
});

describe('backoff policy', () => {
  it('never shortens Retry-After and never exceeds the cap without it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: undefined }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 1, max: 60_000 }),
        (retry, retryAfter, r, baseMs, maxDelayMs) => {
          const p = retryPolicy({ baseMs, maxDelayMs });
          const d = backoffDelay(p, retry, retryAfter, () => r);
          if (retryAfter !== undefined) return d >= retryAfter;
          return d >= 0 && d <= Math.min(maxDelayMs, baseMs * 2 ** (retry - 1)) + 1;
        },
      ),
    );
  });

  it('a Retry-After longer than the backoff: the jitter on top is the random share of one base step, at most half the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 1, max: 60_000 }),
        (retry, r, baseMs, maxDelayMs) => {
          const p = retryPolicy({ baseMs, maxDelayMs });
          const cap = Math.min(maxDelayMs, baseMs * 2 ** (retry - 1));
          const retryAfter = cap + 1000;
          const d = backoffDelay(p, retry, retryAfter, () => r);
          return Math.abs(d - (retryAfter + r * Math.min(baseMs, cap / 2))) <= 0.5;
        },
      ),
    );
    // base 500, cap 8 s, third retry (cap 2 s): 10 s from the server, then up to 500 ms more
    const p = retryPolicy({});
    assert.equal(
      backoffDelay(p, 3, 10_000, () => 1),
      10_500,
    );
    assert.equal(
      backoffDelay(p, 3, 10_000, () => 0),
      10_000,
    );
    // a cap below two base steps: at most half the cap on top (base 500, max delay 600, second retry → 300)
    assert.equal(
      backoffDelay(retryPolicy({ maxDelayMs: 600 }), 2, 10_000, () => 1),
      10_300,
    );
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(parseRetryAfter('3', 0), 3000);
    assert.equal(parseRetryAfter('0.5', 0), 500);
    const now = Date.parse('2026-10-25T00:00:00Z');
    assert.equal(parseRetryAfter('Sun, 25 Oct 2026 00:00:10 GMT', now), 10_000);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });
});
