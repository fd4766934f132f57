/** Backoff policy for 429, 5xx and cut reply streams. */
import type { RetryOptions } from './types';

/** The retry policy with every default filled in. */
export interface RetryPolicy {
  maxAttempts: number;
  maxTotalMs: number;
  baseMs: number;
  maxDelayMs: number;
}

/** Fills in the defaults: 4 attempts, 30 s in all, 500 ms doubling, capped at 8 s. */
export function retryPolicy(o: RetryOptions | undefined): RetryPolicy {
  return {
    maxAttempts: Math.max(1, Math.floor(o?.maxAttempts ?? 4)),
    maxTotalMs: Math.max(0, o?.maxTotalMs ?? 30_000),
    baseMs: Math.max(0, o?.baseMs ?? 500),
    maxDelayMs: Math.max(0, o?.maxDelayMs ?? 8_000),
  };
}

/**
 * The wait before retry number `retry` (1 for the first retry).
 *
 * Without Retry-After: exponential backoff `min(maxDelayMs, baseMs·2^(retry-1))` with "equal jitter"
 * (a random point in its upper half). With Retry-After: at least the server's delay, jitter only added
 * on top of it (never shortens it), whatever the cap.
 */
export function backoffDelay(
  policy: RetryPolicy,
  retry: number,
  retryAfterMs: number | undefined,
  random: () => number,
): number {
  const r = Math.min(Math.max(random(), 0), 1);
  const cap = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  const jittered = cap / 2 + (cap / 2) * r;
  if (retryAfterMs === undefined) return Math.round(jittered);
  return Math.round(Math.max(retryAfterMs, jittered) + r * Math.min(policy.baseMs, cap / 2));
}
