/**
 * A value fetched at most once per Beijing day (Asia/Shanghai, UTC+8, no DST): the status bar's
 * solar term. Pure (no vscode import); the clock and timers are injected so tests and the bench
 * can simulate a whole idle day without waiting.
 */

import { beijingDate, msToBeijingMidnight } from '../time/beijing';
import type { Scheduler } from '../time/scheduler';

/** What a daily value needs of the scheduler: the time and timers. */
export type Clock = Pick<Scheduler, 'now' | 'setTimer'>;

/** Keeps one value per Beijing day and refreshes it just after midnight. */
export class DailyValue<T> {
  private day: string | undefined;
  private value: T | undefined;
  private pending: Promise<T> | undefined;
  private timer: { dispose(): void } | undefined;
  private disposed = false;

  /**
   * @param load fetches the value (one request).
   * @param clock the time source.
   * @param onChange called with each new day's value.
   * @param retryMs delay before retrying after a failed load.
   */
  constructor(
    private readonly load: () => Promise<T>,
    private readonly clock: Clock,
    private readonly onChange: (value: T) => void = () => undefined,
    private readonly retryMs = 15 * 60_000,
  ) {}

  /** Today's value: cached for the Beijing day; concurrent callers share one load. */
  get(): Promise<T> {
    const today = beijingDate(this.clock.now());
    if (this.day === today && this.value !== undefined) return Promise.resolve(this.value);
    if (this.pending) return this.pending;
    this.pending = this.load().then(
      (v) => {
        this.pending = undefined;
        this.day = today;
        this.value = v;
        this.onChange(v);
        return v;
      },
      (err: unknown) => {
        this.pending = undefined;
        throw err;
      },
    );
    return this.pending;
  }

  /** Forgets the cached value: the next `get()` loads again (used when the endpoint's clock is set). */
  invalidate(): void {
    this.day = undefined;
    this.value = undefined;
  }

  /** Loads now and keeps refreshing after each Beijing midnight (or after `retryMs` on failure). */
  start(): void {
    if (this.disposed) return;
    this.get().then(
      () => this.schedule(msToBeijingMidnight(this.clock.now()) + 1_000),
      () => this.schedule(this.retryMs),
    );
  }

  private schedule(ms: number): void {
    this.timer?.dispose();
    if (this.disposed) return;
    this.timer = this.clock.setTimer(ms, () => this.start());
  }

  /** Stops the refresh timer. */
  dispose(): void {
    this.disposed = true;
    this.timer?.dispose();
  }
}
