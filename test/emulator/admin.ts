/** The local endpoint's controls (`POST /__admin`), kept as plain mutable state. */
import type { EmulatorClock } from './clock';

/** Control fields; every one optional. `now: null` returns to the real clock. */
/**
 * How a forced SSE cut looks: `destroy` (default) sends headers and half the frame, then destroys
 * the socket; `end` ends the reply cleanly before its frame; `garbage` sends one complete frame whose
 * data is not JSON, then ends.
 */
export type SseCut = 'destroy' | 'end' | 'garbage';

export interface AdminState {
  expireSessions?: boolean;
  rateLimit?: { next: number; retryAfterSec: number } | null;
  latencyMs?: number;
  fail5xx?: { next: number; status: number } | null;
  cutSse?: { next: number; how?: SseCut } | null;
  now?: string | null;
}

/** The controls' current values. */
export class AdminControls {
  rateLimit: { next: number; retryAfterSec: number } | null = null;
  latencyMs = 0;
  fail5xx: { next: number; status: number } | null = null;
  cutSse: { next: number; how?: SseCut } | null = null;

  constructor(
    private readonly clock: EmulatorClock,
    private readonly expire: () => void,
  ) {}

  /** Applies a change (validated; throws Error with a message on bad input) and answers the current state. */
  apply(change: AdminState): Required<AdminState> {
    if (change.rateLimit !== undefined && change.rateLimit !== null) {
      const { next, retryAfterSec } = change.rateLimit;
      if (!Number.isInteger(next) || next < 0 || !Number.isFinite(retryAfterSec) || retryAfterSec < 0)
        throw new Error('rateLimit needs integer next >= 0 and retryAfterSec >= 0');
    }
    if (change.fail5xx !== undefined && change.fail5xx !== null) {
      const { next, status } = change.fail5xx;
      if (!Number.isInteger(next) || next < 0 || !Number.isInteger(status) || status < 500 || status > 599)
        throw new Error('fail5xx needs integer next >= 0 and a status 500-599');
    }
    if (change.cutSse !== undefined && change.cutSse !== null) {
      const { next, how } = change.cutSse;
      if (!Number.isInteger(next) || next < 0) throw new Error('cutSse needs integer next >= 0');
      if (how !== undefined && !['destroy', 'end', 'garbage'].includes(how))
        throw new Error('cutSse.how must be "destroy", "end" or "garbage"');
    }
    if (change.latencyMs !== undefined && (!Number.isFinite(change.latencyMs) || change.latencyMs < 0))
      throw new Error('latencyMs must be >= 0');
    if (change.now !== undefined) this.clock.set(change.now);
    if (change.rateLimit !== undefined)
      this.rateLimit = change.rateLimit && change.rateLimit.next > 0 ? { ...change.rateLimit } : null;
    if (change.fail5xx !== undefined)
      this.fail5xx = change.fail5xx && change.fail5xx.next > 0 ? { ...change.fail5xx } : null;
    if (change.cutSse !== undefined)
      this.cutSse = change.cutSse && change.cutSse.next > 0 ? { ...change.cutSse } : null;
    if (change.latencyMs !== undefined) this.latencyMs = change.latencyMs;
    if (change.expireSessions === true) this.expire();
    return this.state();
  }

  /** The current state (`expireSessions` is an action and always reads false). */
  state(): Required<AdminState> {
    return {
      expireSessions: false,
      rateLimit: this.rateLimit ? { ...this.rateLimit } : null,
      latencyMs: this.latencyMs,
      fail5xx: this.fail5xx ? { ...this.fail5xx } : null,
      cutSse: this.cutSse ? { ...this.cutSse } : null,
      now: this.clock.frozenIso(),
    };
  }

  /** Consumes one forced 429, answering its Retry-After seconds, or null. */
  takeRateLimit(): number | null {
    if (!this.rateLimit) return null;
    const r = this.rateLimit.retryAfterSec;
    if (--this.rateLimit.next <= 0) this.rateLimit = null;
    return r;
  }

  /** Consumes one forced 5xx, answering its status, or null. */
  takeFail5xx(): number | null {
    if (!this.fail5xx) return null;
    const s = this.fail5xx.status;
    if (--this.fail5xx.next <= 0) this.fail5xx = null;
    return s;
  }

  /** Consumes one forced SSE cut: how to cut, or undefined for none. */
  takeCutSse(): SseCut | undefined {
    if (!this.cutSse) return undefined;
    const how = this.cutSse.how ?? 'destroy';
    if (--this.cutSse.next <= 0) this.cutSse = null;
    return how;
  }
}

/** A token bucket of `perSec` tokens (capacity `perSec`) over a monotonic millisecond clock. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSec: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = perSec;
    this.last = now();
  }

  /** Takes a token: null when granted, else the whole seconds to wait (≥ 1). */
  take(): number | null {
    const t = this.now();
    this.tokens = Math.min(this.perSec, this.tokens + ((t - this.last) / 1000) * this.perSec);
    this.last = t;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perSec));
  }
}
