import assert from 'node:assert/strict';
import { withSignal } from '../../../src/features/shared/signal';

/** A CancellationToken's shape: cancel() fires the listeners still subscribed; `live` counts them. */
function fakeToken(cancelled = false) {
  const listeners = new Set<(e: unknown) => unknown>();
  return {
    isCancellationRequested: cancelled,
    onCancellationRequested(listener: (e: unknown) => unknown) {
      listeners.add(listener);
      return { dispose: () => void listeners.delete(listener) };
    },
    cancel() {
      this.isCancellationRequested = true;
      for (const l of [...listeners]) l(undefined);
    },
    get live() {
      return listeners.size;
    },
  };
}

describe('withSignal (a CancellationToken as an AbortSignal for the length of some work)', () => {
  it('aborts the signal when the token is cancelled during the work', async () => {
    const token = fakeToken();
    const seen = await withSignal(token, async (signal) => {
      token.cancel();
      return signal.aborted;
    });
    assert.equal(seen, true);
  });

  it('starts aborted when the token already is', async () => {
    assert.equal(await withSignal(fakeToken(true), async (signal) => signal.aborted), true);
  });

  it('disposes its listener when the work ends, as when it fails', async () => {
    const token = fakeToken();
    let signal: AbortSignal | undefined;
    await withSignal(token, async (s) => void (signal = s));
    assert.equal(token.live, 0);
    token.cancel();
    assert.equal(signal?.aborted, false, 'a later cancel does not reach finished work');
    const failing = fakeToken();
    await assert.rejects(
      withSignal(failing, async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(failing.live, 0);
  });

  it('aborts the controller it is given (one another cause may abort too)', async () => {
    const token = fakeToken();
    const abort = new AbortController();
    await withSignal(token, async () => token.cancel(), abort);
    assert.equal(abort.signal.aborted, true);
  });
});
