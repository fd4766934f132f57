/**
 * A virtual clock for tests and benches: the one {@link Scheduler} of `src/time/scheduler.ts`
 * with time that moves only when the test says so.
 */
import type { Scheduler, Timer } from '../../src/time/scheduler';

interface Pending {
  readonly at: number;
  readonly seq: number;
  readonly callback: () => void;
}

/** Options of {@link ManualScheduler}. */
export interface ManualSchedulerOptions {
  /**
   * Sleeps shorter than this advance the clock and resolve at once (backoff waits: the code under
   * test never waits on them); longer sleeps (timeouts) are timers that fire only when time moves.
   * Default 0: every sleep waits for {@link ManualScheduler.advance}.
   */
  readonly autoAdvanceBelow?: number;
}

/**
 * Time moves only through {@link advance} / {@link advanceTo} / {@link fireAll}, which run due timers
 * in time order (ties in scheduling order), including timers those callbacks schedule, and let
 * promise callbacks settle after each one.
 */
export class ManualScheduler implements Scheduler {
  /** The lengths of the sleeps that advanced the clock at once (see `autoAdvanceBelow`), in order. */
  readonly slept: number[] = [];
  private time: number;
  private seq = 0;
  private timers: Pending[] = [];
  private readonly autoAdvanceBelow: number;

  /**
   * @param start the clock's first reading (ms).
   * @param options see {@link ManualSchedulerOptions}.
   */
  constructor(start = 0, options: ManualSchedulerOptions = {}) {
    this.time = start;
    this.autoAdvanceBelow = options.autoAdvanceBelow ?? 0;
  }

  /** @inheritdoc */
  now(): number {
    return this.time;
  }

  /** @inheritdoc */
  setTimer(ms: number, callback: () => void): Timer {
    const timer: Pending = { at: this.time + Math.max(0, ms), seq: this.seq++, callback };
    this.timers.push(timer);
    return {
      dispose: () => {
        this.timers = this.timers.filter((t) => t !== timer);
      },
    };
  }

  /** @inheritdoc */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (ms < this.autoAdvanceBelow) {
      this.slept.push(ms);
      this.time += Math.max(0, ms);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        timer.dispose();
        reject(signal?.reason as Error);
      };
      const timer = this.setTimer(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** How many timers (and waiting sleeps) are pending. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves the clock forward by `ms` (see {@link advanceTo}). */
  advance(ms: number): Promise<void> {
    return this.advanceTo(this.time + Math.max(0, ms));
  }

  /** Moves the clock to `until`, running every timer that falls due and settling promises after each. */
  async advanceTo(until: number): Promise<void> {
    await settle();
    for (;;) {
      const next = this.nextDue(until);
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.at;
      next.callback();
      await settle();
    }
    this.time = Math.max(this.time, until);
  }

  /** Moves the clock to the last pending timer, firing every pending timer (a timeout elapsing). */
  fireAll(): Promise<void> {
    return this.advanceTo(Math.max(this.time, ...this.timers.map((t) => t.at)));
  }

  private nextDue(until: number): Pending | undefined {
    let next: Pending | undefined;
    for (const t of this.timers) {
      if (t.at <= until && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
    }
    return next;
  }
}

/** Lets every queued promise callback run (a macrotask turn; no wall-clock wait). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
