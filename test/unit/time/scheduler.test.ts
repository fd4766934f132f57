import assert from 'node:assert/strict';
import { realScheduler } from '../../../src/time/scheduler';
import { ManualScheduler } from '../../support/manual-scheduler';

describe('time/scheduler: ManualScheduler (the virtual clock of tests and benches)', () => {
  it('runs due timers in time order, ties in scheduling order, including timers they schedule', async () => {
    const clock = new ManualScheduler();
    const log: string[] = [];
    clock.setTimer(20, () => log.push('b@20'));
    clock.setTimer(10, () => {
      log.push('a@10');
      clock.setTimer(5, () => log.push('c@15'));
    });
    clock.setTimer(20, () => log.push('d@20'));
    clock.setTimer(5, () => log.push('never')).dispose();
    clock.setTimer(100, () => log.push('late@100'));
    await clock.advance(20);
    assert.deepEqual(log, ['a@10', 'c@15', 'b@20', 'd@20']);
    assert.equal(clock.now(), 20);
    assert.equal(clock.pending, 1);
  });

  it('sleeps are timers: resolved when time reaches them, rejected with the reason when aborted first', async () => {
    const clock = new ManualScheduler(1000);
    const log: string[] = [];
    const ac = new AbortController();
    const long = clock.sleep(500).then(() => log.push(`long@${clock.now()}`));
    const aborted = clock.sleep(200, ac.signal).then(
      () => log.push('aborted sleep resolved'),
      (e: Error) => log.push(`aborted: ${e.message}`),
    );
    assert.equal(clock.pending, 2);
    ac.abort(new Error('stop'));
    await aborted;
    assert.equal(clock.pending, 1);
    await clock.advance(499);
    assert.deepEqual(log, ['aborted: stop']);
    await clock.advance(1);
    await long;
    assert.deepEqual(log, ['aborted: stop', 'long@1500']);
    const before = new AbortController();
    before.abort(new Error('already'));
    await assert.rejects(clock.sleep(10, before.signal), /already/);
  });

  it('autoAdvanceBelow: shorter sleeps move the clock at once and are recorded; fireAll fires the rest', async () => {
    const clock = new ManualScheduler(0, { autoAdvanceBelow: 1000 });
    await clock.sleep(300);
    await clock.sleep(999);
    assert.deepEqual(clock.slept, [300, 999]);
    assert.equal(clock.now(), 1299);
    let fired = false;
    const timeout = clock.sleep(5000).then(() => (fired = true));
    assert.equal(clock.pending, 1);
    await clock.fireAll();
    await timeout;
    assert.equal(fired, true);
    assert.equal(clock.now(), 6299);
    assert.equal(clock.pending, 0);
  });
});

describe('time/scheduler: realScheduler', () => {
  it('sleeps on the wall clock, cancels timers, and rejects an aborted sleep with its reason', async () => {
    const t0 = realScheduler.now();
    await realScheduler.sleep(20);
    assert.ok(realScheduler.now() - t0 >= 15, `slept ${realScheduler.now() - t0} ms`);
    let ran = false;
    realScheduler.setTimer(5, () => (ran = true)).dispose();
    const ac = new AbortController();
    const p = realScheduler.sleep(60_000, ac.signal);
    ac.abort(new Error('stop'));
    await assert.rejects(p, /stop/);
    await realScheduler.sleep(15);
    assert.equal(ran, false);
    let fired = 0;
    realScheduler.setTimer(1, () => fired++);
    await realScheduler.sleep(15);
    assert.equal(fired, 1);
  });

  it('an already aborted signal rejects the sleep at once with its reason', async () => {
    const ac = new AbortController();
    ac.abort(new Error('gone'));
    await assert.rejects(realScheduler.sleep(60_000, ac.signal), /gone/);
  });

  it('a finished sleep takes its listener off the signal, so a long-lived signal does not collect them', async () => {
    const ac = new AbortController();
    const added: unknown[] = [];
    const removed: unknown[] = [];
    const signal = ac.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, fn: EventListener, o?: AddEventListenerOptions) => {
      if (type === 'abort') added.push(fn);
      add(type, fn, o);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, fn: EventListener) => {
      if (type === 'abort') removed.push(fn);
      remove(type, fn);
    }) as typeof signal.removeEventListener;
    await realScheduler.sleep(1, signal);
    assert.equal(added.length, 1);
    assert.deepEqual(removed, added);
  });

  it('a timer of a minute has not fired when a short sleep is over', async () => {
    let fired = false;
    const t = realScheduler.setTimer(60_000, () => (fired = true));
    await realScheduler.sleep(10);
    t.dispose();
    assert.equal(fired, false);
  });
});
