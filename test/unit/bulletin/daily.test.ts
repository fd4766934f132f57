import * as assert from 'node:assert/strict';
import { DailyValue } from '../../../src/bulletin/daily';
import { beijingDate } from '../../../src/time/beijing';
import { ManualScheduler } from '../../support/manual-scheduler';

const at = (iso: string): number => Date.parse(iso);

describe('DailyValue (one request per Beijing day)', () => {
  it('makes at most two requests over an idle day: the first and the one after midnight', async () => {
    const clock = new ManualScheduler(at('2026-10-25T13:06:13Z')); // 21:06 in Beijing
    let loads = 0;
    const seen: string[] = [];
    const v = new DailyValue(
      async () => {
        loads++;
        return beijingDate(clock.now());
      },
      clock,
      (d) => seen.push(d),
    );
    v.start();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    // an idle day: the tooltip and commands read the cached value many times
    for (let h = 0; h < 24 * 6; h++) {
      await clock.advanceTo(clock.now() + 10 * 60_000);
      assert.equal(await v.get(), beijingDate(clock.now()));
    }
    v.dispose();
    assert.equal(loads, 2);
    assert.deepEqual(seen, ['2026-10-25', '2026-10-26']);
  });

  it('shares one load between concurrent callers and retries later after a failure', async () => {
    const clock = new ManualScheduler(at('2026-10-25T01:00:00Z'));
    let loads = 0;
    let fail = true;
    const v = new DailyValue(
      async () => {
        loads++;
        if (fail) throw new Error('offline');
        return 'ok';
      },
      clock,
      () => undefined,
      60_000,
    );
    v.start();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    assert.equal(loads, 1);
    fail = false;
    await clock.advanceTo(clock.now() + 60_000);
    assert.equal(loads, 2);
    const [a, b] = await Promise.all([v.get(), v.get()]);
    assert.equal(a, 'ok');
    assert.equal(b, 'ok');
    assert.equal(loads, 2);
    v.dispose();
  });
});

describe('DailyValue: the refresh, the retry and the end', () => {
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it("refreshes just after Beijing midnight with nobody asking, so the status bar shows the new day's value", async () => {
    const clock = new ManualScheduler(at('2026-10-25T15:50:00Z')); // 23:50 in Beijing
    const seen: string[] = [];
    const v = new DailyValue(
      async () => beijingDate(clock.now()),
      clock,
      (d) => seen.push(d),
    );
    v.start();
    await settle();
    await clock.advanceTo(at('2026-10-25T15:59:59Z'));
    assert.deepEqual(seen, ['2026-10-25']);
    await clock.advanceTo(at('2026-10-25T16:00:01Z'));
    await settle();
    assert.deepEqual(seen, ['2026-10-25', '2026-10-26']);
    v.dispose();
  });

  /** A daily value whose every load fails, with the default retry; `loads()` counts the attempts. */
  const offline = (): { clock: ManualScheduler; v: DailyValue<never>; loads: () => number } => {
    const clock = new ManualScheduler(at('2026-10-25T01:00:00Z'));
    let loads = 0;
    const v = new DailyValue<never>(async () => {
      loads++;
      throw new Error('offline');
    }, clock);
    return { clock, v, loads: () => loads };
  };

  it('retries a failed load after 15 minutes unless told otherwise', async () => {
    const { clock, v, loads } = offline();
    v.start();
    await settle();
    await clock.advanceTo(clock.now() + 15 * 60_000 - 1);
    assert.equal(loads(), 1, 'not before 15 minutes');
    await clock.advanceTo(clock.now() + 1);
    await settle();
    assert.equal(loads(), 2);
    v.dispose();
  });

  it('loads again after invalidate(), and keeps the day cached otherwise', async () => {
    const clock = new ManualScheduler(at('2026-10-25T01:00:00Z'));
    let loads = 0;
    const v = new DailyValue(async () => ++loads, clock);
    assert.equal(await v.get(), 1);
    assert.equal(await v.get(), 1);
    v.invalidate();
    assert.equal(await v.get(), 2);
  });

  it('after dispose: no timer left, no refresh at midnight, and start() does nothing', async () => {
    const clock = new ManualScheduler(at('2026-10-25T15:50:00Z'));
    let loads = 0;
    let release: (() => void) | undefined;
    const v = new DailyValue(
      () =>
        new Promise<number>((resolve) => {
          loads++;
          release = () => resolve(loads);
        }),
      clock,
    );
    v.start();
    v.dispose(); // while the first load is in flight
    release?.();
    await settle();
    assert.equal(clock.pending, 0, 'the load that ends after dispose schedules nothing');
    v.start();
    await clock.advanceTo(at('2026-10-26T17:00:00Z'));
    assert.equal(loads, 1);
    assert.equal(clock.pending, 0);
  });

  it('after dispose, start() does not load again, even when the last load failed', async () => {
    const { v, loads } = offline();
    v.start();
    await settle();
    v.dispose();
    v.start();
    await settle();
    assert.equal(loads(), 1);
  });
});
