/**
 * Time as a dependency: the current time, sleeps and timers, behind one interface, so the platform
 * client's backoff and timeouts, the search-as-you-type debounce and the daily refresh run on a
 * virtual clock in tests and benches instead of the wall clock. Pure (no vscode import).
 */

/** A pending timer; disposing it cancels the callback (no effect once it ran). */
export interface Timer {
  dispose(): void;
}

/** The clock and timers the code asks for time. */
export interface Scheduler {
  /** Milliseconds since the epoch (or any monotonic origin). */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Runs `callback` once after `ms` milliseconds. */
  setTimer(ms: number, callback: () => void): Timer;
}

/** The longest delay `setTimeout` honours (longer ones fire at once). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** The real clock and timers (`Date.now`, `setTimeout`); an aborted sleep rejects with the signal's reason. */
export const realScheduler: Scheduler = {
  now: () => Date.now(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(handle);
        reject(signal?.reason);
      };
      const handle = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, Math.min(ms, MAX_TIMEOUT_MS)),
      );
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, a signal fires 'abort' once only.
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
  setTimer(ms: number, callback: () => void): Timer {
    const handle = setTimeout(callback, Math.max(0, Math.min(ms, MAX_TIMEOUT_MS)));
    return { dispose: () => clearTimeout(handle) };
  },
};
