/** The real clock and timers. */
import type { Scheduler } from './types';

/** A {@link Scheduler} over `Date.now` and `setTimeout`; an aborted sleep rejects with the signal's reason. */
export const realScheduler: Scheduler = {
  now: () => Date.now(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, Math.min(ms, 2_147_483_647)),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};
