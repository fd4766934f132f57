/**
 * Search-as-you-type: debounce the calls and keep only the latest. A newer call supersedes every
 * older one at once: a call still waiting is never sent, a request in flight is aborted through its
 * AbortSignal, and neither ever resolves with a (stale) value.
 */
import { realScheduler, type Scheduler, type Timer } from '../time/scheduler';

/** How a call ended: with the value, or replaced by a newer call, or cancelled. */
export type LatestResult<R> =
  { readonly status: 'ok'; readonly value: R } | { readonly status: 'superseded' } | { readonly status: 'cancelled' };

/** Options of {@link createLatestOnly}. */
export interface LatestOnlyOptions {
  /** Quiet time after the last call before the request is sent. */
  readonly delayMs: number;
  /** Timers (default the real clock); tests inject a virtual clock. */
  readonly scheduler?: Scheduler;
}

/** A latest-only, debounced wrapper of an abortable async function. */
export interface LatestOnly<I, R> {
  /** Debounced call: sent after `delayMs` without a newer call. */
  (input: I): Promise<LatestResult<R>>;
  /** Sends at once (e.g. on Enter), superseding anything older. */
  now(input: I): Promise<LatestResult<R>>;
  /** Drops the waiting call and aborts the request in flight; both end as `cancelled`. */
  cancel(): void;
}

/** The reason given to the AbortSignal of a superseded or cancelled request. */
export class SupersededError extends Error {
  override readonly name = 'SupersededError';
}

/**
 * Wraps `fn` (which must honour its AbortSignal) for search-as-you-type. A call's promise resolves
 * `{ status: 'ok', value }` only if no newer call came before `fn` settled; it rejects only with
 * `fn`'s own error, and only for the latest call.
 */
export function createLatestOnly<I, R>(
  fn: (input: I, signal: AbortSignal) => Promise<R>,
  options: LatestOnlyOptions,
): LatestOnly<I, R> {
  const { delayMs } = options;
  if (!Number.isFinite(delayMs) || delayMs < 0) throw new RangeError(`delayMs must be ≥ 0, got ${delayMs}`);
  const scheduler = options.scheduler ?? realScheduler;
  type Settle = { resolve: (r: LatestResult<R>) => void; reject: (e: unknown) => void };
  let waiting: (Settle & { timer: Timer | undefined }) | undefined;
  let inFlight: (Settle & { controller: AbortController }) | undefined;

  const endOlder = (status: 'superseded' | 'cancelled'): void => {
    if (waiting) {
      waiting.timer?.dispose();
      waiting.resolve({ status });
      waiting = undefined;
    }
    if (inFlight) {
      const old = inFlight;
      inFlight = undefined;
      old.controller.abort(new SupersededError(status));
      old.resolve({ status });
    }
  };

  const send = (input: I, settle: Settle): void => {
    const entry = { ...settle, controller: new AbortController() };
    inFlight = entry;
    let request: Promise<R>;
    try {
      request = fn(input, entry.controller.signal);
    } catch (error) {
      request = Promise.reject(error);
    }
    request.then(
      (value) => {
        if (inFlight !== entry) return;
        inFlight = undefined;
        entry.resolve({ status: 'ok', value });
      },
      (error: unknown) => {
        if (inFlight !== entry) return;
        inFlight = undefined;
        entry.reject(error);
      },
    );
  };

  const call = (input: I): Promise<LatestResult<R>> => {
    endOlder('superseded');
    return new Promise<LatestResult<R>>((resolve, reject) => {
      const entry: Settle & { timer: Timer | undefined } = { resolve, reject, timer: undefined };
      entry.timer = scheduler.setTimer(delayMs, () => {
        if (waiting !== entry) return;
        waiting = undefined;
        send(input, { resolve, reject });
      });
      waiting = entry;
    });
  };

  return Object.assign(call, {
    now(input: I): Promise<LatestResult<R>> {
      endOlder('superseded');
      return new Promise<LatestResult<R>>((resolve, reject) => send(input, { resolve, reject }));
    },
    cancel(): void {
      endOlder('cancelled');
    },
  });
}
