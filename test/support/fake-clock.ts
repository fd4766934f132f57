import type { Clock } from '../../src/bulletin/daily';

/** A fake clock: timers fire only when the test advances time. */
export class FakeClock implements Clock {
  private timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private next = 0;
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  setTimer(ms: number, fn: () => void): { dispose(): void } {
    const id = this.next++;
    this.timers.push({ at: this.t + ms, fn, id });
    return { dispose: () => (this.timers = this.timers.filter((x) => x.id !== id)) };
  }
  /** Advances time to `until`, firing due timers in order and letting promises settle. */
  async advanceTo(until: number): Promise<void> {
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const due = this.timers[0];
      if (!due || due.at > until) break;
      this.timers.shift();
      this.t = due.at;
      due.fn();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
    this.t = until;
  }
}
