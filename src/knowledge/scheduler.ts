/**
 * Time as a dependency: the debouncer asks a {@link Scheduler} for timers, so tests and benches
 * drive typing with a {@link ManualScheduler} instead of the wall clock.
 */

/** Cancels a scheduled callback (no effect once it ran). */
export type CancelTimer = () => void;

/** Timers and the current time. */
export interface Scheduler {
  /** Runs `callback` once after `delayMs` milliseconds. */
  schedule(callback: () => void, delayMs: number): CancelTimer;
  /** The current time in milliseconds. */
  now(): number;
}

/** The real clock (`setTimeout`, `Date.now`). */
export const realScheduler: Scheduler = {
  schedule(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    return () => clearTimeout(handle);
  },
  now: () => Date.now(),
};

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly callback: () => void;
}

/**
 * A virtual clock: time moves only through {@link ManualScheduler.advance}, which runs due timers in
 * time order (ties in scheduling order) and lets promise callbacks settle after each one.
 */
export class ManualScheduler implements Scheduler {
  private time = 0;
  private seq = 0;
  private timers: Timer[] = [];

  /** @inheritdoc */
  schedule(callback: () => void, delayMs: number): CancelTimer {
    const timer: Timer = { at: this.time + Math.max(0, delayMs), seq: this.seq++, callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** @inheritdoc */
  now(): number {
    return this.time;
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /**
   * Moves the clock forward by `ms`, running every timer that falls due (including timers those
   * callbacks schedule) and settling pending promise callbacks after each.
   */
  async advance(ms: number): Promise<void> {
    const until = this.time + Math.max(0, ms);
    await settle();
    for (;;) {
      const next = this.nextDue(until);
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.at;
      next.callback();
      await settle();
    }
    this.time = until;
  }

  private nextDue(until: number): Timer | undefined {
    let next: Timer | undefined;
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
