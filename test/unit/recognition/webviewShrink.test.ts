/**
 * The webview-first shrinker (src/recognition/webviewShrink.ts) and its side of the protocol
 * (PreviewHost.shrink): the request is sent at once and again after a reload, its bytes follow in
 * parts once the webview has it, the answer is checked before it is used, jimp takes over when the
 * webview cannot, and a cancel stops both.
 */
import * as assert from 'node:assert/strict';
import { PreviewHost, shrinkParts } from '../../../src/recognition/panelHost';
import { SHRINK_PART_BYTES, parseWebviewMessage, type HostMessage } from '../../../src/recognition/protocol';
import { checkShrunk, webviewFirst, type ShrunkBy } from '../../../src/recognition/webviewShrink';
import type { Shrinker } from '../../../src/recognition/image';
import { ManualScheduler } from '../../support/manual-scheduler';
import { jpg, withOrientation } from './fixtures';

const init = (): HostMessage => ({ type: 'init', strings: {} as never, types: [] });

describe('recognition: shrinking in the webview', () => {
  it('a shrunk answer is parsed with its bytes (a typed array or its buffer); a malformed one as an error', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    assert.deepEqual(parseWebviewMessage({ type: 'shrunk', requestId: 1, bytes, width: 3, height: 2 }), {
      type: 'shrunk',
      requestId: 1,
      bytes,
      width: 3,
      height: 2,
    });
    const fromBuffer = parseWebviewMessage({ type: 'shrunk', requestId: 2, bytes: bytes.buffer, width: 3, height: 2 });
    assert.deepEqual(fromBuffer && 'bytes' in fromBuffer ? [...(fromBuffer.bytes ?? [])] : [], [1, 2, 3]);
    assert.deepEqual(parseWebviewMessage({ type: 'shrunk', requestId: 3, bytes: 'AAAA', width: 3, height: 2 }), {
      type: 'shrunk',
      requestId: 3,
      error: 'no picture in the answer',
    });
    assert.equal(parseWebviewMessage({ type: 'shrunk' }), undefined);
  });

  it('the request is posted at once, even while the webview loads; its bytes once the webview has it; all again after a reload', async () => {
    const sent: HostMessage[] = [];
    const host = new PreviewHost({ postMessage: (m) => sent.push(m), load: () => true }, init, async () => undefined);
    const request = {
      bytes: new Uint8Array([9]),
      mime: 'image/jpeg',
      width: 4,
      height: 3,
      orientation: 1,
      maxBytes: 10,
    };
    const answer = host.shrink(request);
    const shrink = sent.find((m) => m.type === 'shrink');
    assert.ok(shrink && shrink.type === 'shrink', 'posted before the handshake');
    assert.deepEqual(
      { ...shrink, requestId: 0 },
      {
        type: 'shrink',
        requestId: 0,
        delivery: 1,
        mime: 'image/jpeg',
        width: 4,
        height: 3,
        orientation: 1,
        maxBytes: 10,
        byteLength: 1,
        parts: 1,
      },
      'the request without its bytes',
    );
    assert.equal(sent.length, 1, 'no bytes for a webview that has not said it has the request');
    await host.receive({ type: 'ready' });
    await host.receive({ type: 'shrinking', requestId: shrink.requestId, delivery: 1 });
    const part = sent.find((m) => m.type === 'shrinkPart');
    assert.ok(part && part.type === 'shrinkPart', 'then the bytes');
    assert.deepEqual([part.requestId, part.delivery, part.index, [...part.bytes]], [shrink.requestId, 1, 0, [9]]);
    // A plain Uint8Array (a Node Buffer would be posted as JSON).
    assert.equal(Object.getPrototypeOf(part.bytes), Uint8Array.prototype);
    await host.receive({ type: 'shrinking', requestId: shrink.requestId, delivery: 1 });
    await host.receive({ type: 'shrinking', requestId: shrink.requestId, delivery: 7 });
    assert.deepEqual(
      sent.map((m) => m.type).filter((t) => t !== 'init'),
      ['shrink', 'shrinkPart'],
      'acknowledged: neither the request nor its bytes sent twice; an unknown delivery gets nothing',
    );
    await host.receive({ type: 'ready' }); // the webview reloaded: its work was lost
    await host.receive({ type: 'shrinking', requestId: shrink.requestId, delivery: 2 });
    const again = sent.filter((m) => m.type === 'shrink' || m.type === 'shrinkPart').slice(2);
    assert.deepEqual(
      again.map((m) => [m.type, 'delivery' in m ? m.delivery : 0]),
      [
        ['shrink', 2],
        ['shrinkPart', 2],
      ],
      'sent again as a second delivery, its bytes once that one is taken',
    );
    const out = new Uint8Array([0xff, 0xd8, 0xff]);
    assert.equal(host.pixelsOf(out), undefined, 'no answer yet');
    await host.receive({ type: 'shrunk', requestId: shrink.requestId, bytes: out, width: 4, height: 3 });
    const got = await answer;
    assert.deepEqual(got, { bytes: out, width: 4, height: 3 });
    // A preview of exactly these bytes names the webview's pixels; of any other bytes, none.
    assert.equal(host.pixelsOf(got.bytes), shrink.requestId);
    assert.equal(host.pixelsOf(new Uint8Array(out)), undefined);
    await host.receive({ type: 'shrinking', requestId: shrink.requestId, delivery: 3 });
    assert.equal(sent.filter((m) => m.type === 'shrinkPart').length, 2, 'an answered request sends nothing more');
  });

  it('the bytes go in parts of their own buffers, in order, the last one shorter; none for no bytes', () => {
    const pooled = new Uint8Array(100).map((_, i) => i);
    const bytes = pooled.subarray(10, 35); // a view into a larger buffer, as a pooled Node Buffer is
    const parts = shrinkParts(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 10);
    assert.deepEqual(
      parts.map((p) => [...p]),
      [
        Array.from({ length: 10 }, (_, i) => 10 + i),
        Array.from({ length: 10 }, (_, i) => 20 + i),
        [30, 31, 32, 33, 34],
      ],
    );
    for (const p of parts) {
      // VS Code posts the whole buffer under a typed array: each part must own exactly its bytes.
      assert.equal(p.buffer.byteLength, p.byteLength);
      assert.equal(Object.getPrototypeOf(p), Uint8Array.prototype);
    }
    assert.deepEqual(shrinkParts(new Uint8Array(0)), []);
    assert.equal(shrinkParts(new Uint8Array(SHRINK_PART_BYTES * 2 + 1)).length, 3);
  });

  it('a request posted while the webview loaded and not acknowledged after ready is sent again', async () => {
    const sent: HostMessage[] = [];
    const clock = new ManualScheduler();
    const host = new PreviewHost(
      { postMessage: (m) => sent.push(m), load: () => true },
      init,
      async () => undefined,
      clock,
    );
    const answer = host.shrink({
      bytes: new Uint8Array([9]),
      mime: 'image/jpeg',
      width: 4,
      height: 3,
      orientation: 1,
      maxBytes: 10,
    });
    await host.receive({ type: 'ready' });
    assert.equal(sent.filter((m) => m.type === 'shrink').length, 1, 'not at once: it may still arrive');
    await clock.advance(999);
    assert.equal(sent.filter((m) => m.type === 'shrink').length, 1, 'not within the second it has to say so');
    await clock.advance(1);
    const shrinks = sent.filter((m) => m.type === 'shrink');
    assert.equal(shrinks.length, 2, 'sent again');
    const id = shrinks[0] && 'requestId' in shrinks[0] ? shrinks[0].requestId : -1;
    await host.receive({ type: 'shrunk', requestId: id, error: 'refused' });
    await assert.rejects(answer, /refused/);
  });

  it('a webview that neither loads nor takes the request in time is not waited for, and told to stop', async () => {
    const sent: HostMessage[] = [];
    const clock = new ManualScheduler();
    const host = new PreviewHost(
      { postMessage: (m) => sent.push(m), load: () => true },
      init,
      async () => undefined,
      clock,
    );
    const request = { bytes: Buffer.from([9]), mime: 'image/jpeg', width: 4, height: 3, orientation: 1, maxBytes: 10 };
    const unloaded = assert.rejects(host.shrink(request, undefined, 1000, 20), /did not load/);
    await clock.advance(20);
    await unloaded;
    assert.equal(sent.at(-1)?.type, 'cancelShrink');
    // One that said it has the request is waited for, though the handshake never came.
    const answer = host.shrink(request, undefined, 1000, 20);
    const shrink = sent.at(-1);
    const id = shrink && 'requestId' in shrink ? shrink.requestId : -1;
    await host.receive({ type: 'shrinking', requestId: id, delivery: 1 });
    await clock.advance(40); // past the 20 ms the webview had to load
    const out = new Uint8Array([0xff, 0xd8, 0xff]);
    await host.receive({ type: 'shrunk', requestId: id, bytes: out, width: 4, height: 3 });
    assert.deepEqual(await answer, { bytes: out, width: 4, height: 3 });
  });

  it('cancel: the promise rejects with the reason at once and the webview is told to stop', async () => {
    const sent: HostMessage[] = [];
    const host = new PreviewHost({ postMessage: (m) => sent.push(m), load: () => true }, init, async () => undefined);
    await host.receive({ type: 'ready' });
    const abort = new AbortController();
    const answer = host.shrink(
      { bytes: new Uint8Array([9]), mime: 'image/png', width: 4, height: 3, orientation: 1, maxBytes: 10 },
      abort.signal,
    );
    abort.abort(new Error('cancelled'));
    await assert.rejects(answer, /cancelled/);
    const shrink = sent.find((m) => m.type === 'shrink');
    const requestId = shrink && 'requestId' in shrink ? shrink.requestId : -1;
    assert.deepEqual(sent.at(-1), { type: 'cancelShrink', requestId });
    // The webview's word that it had the request, arriving after the cancel, sends no bytes.
    await host.receive({ type: 'shrinking', requestId, delivery: 1 });
    assert.equal(sent.at(-1)?.type, 'cancelShrink');
    assert.ok(!sent.some((m) => m.type === 'shrinkPart'), 'no bytes sent');
  });

  it('checks the answer: a JPEG of the size it claims, under the limit, of the upright aspect within one pixel', () => {
    const ok = jpg(150, 100);
    assert.equal(checkShrunk({ bytes: ok, width: 150, height: 100 }, { width: 3000, height: 2000 }, 1e6), undefined);
    assert.equal(checkShrunk({ bytes: ok, width: 150, height: 100 }, { width: 3000, height: 2010 }, 1e6), undefined);
    assert.match(
      checkShrunk({ bytes: ok, width: 150, height: 100 }, { width: 2000, height: 3000 }, 1e6) ?? '',
      /aspect/,
    );
    assert.match(
      checkShrunk({ bytes: ok, width: 150, height: 101 }, { width: 3000, height: 2000 }, 1e6) ?? '',
      /claims/,
    );
    assert.match(checkShrunk({ bytes: ok, width: 150, height: 100 }, { width: 3000, height: 2000 }, 10) ?? '', /over/);
    // the boundaries: exactly the limit, exactly one pixel off the aspect
    assert.equal(
      checkShrunk({ bytes: ok, width: 150, height: 100 }, { width: 3000, height: 2000 }, ok.length),
      undefined,
    );
    assert.match(
      checkShrunk({ bytes: ok, width: 150, height: 100 }, { width: 3000, height: 2000 }, ok.length - 1) ?? '',
      /over/,
    );
    assert.equal(checkShrunk({ bytes: ok, width: 150, height: 100 }, { width: 3000, height: 2020 }, 1e6), undefined);
    assert.match(
      checkShrunk({ bytes: ok, width: 150, height: 100 }, { width: 3000, height: 2022 }, 1e6) ?? '',
      /aspect/,
    );
    // a width it does not have, and a JPEG with no frame to read a size from
    assert.match(
      checkShrunk({ bytes: ok, width: 151, height: 100 }, { width: 3020, height: 2000 }, 1e6) ?? '',
      /claims/,
    );
    assert.match(
      checkShrunk(
        { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), width: 1, height: 1 },
        { width: 1, height: 1 },
        1e6,
      ) ?? '',
      /not the 1 × 1 it claims/,
    );
    assert.match(
      checkShrunk({ bytes: new Uint8Array([1, 2, 3]), width: 1, height: 1 }, { width: 1, height: 1 }, 10) ?? '',
      /not a JPEG/,
    );
  });

  it('asks with the upright size; falls back to jimp on a refusal or a bad answer; never on a cancel', async () => {
    const photo = withOrientation(jpg(60, 40), 6);
    const asked: { width: number; height: number; orientation: number }[] = [];
    const fallbackOut = { bytes: jpg(40, 60), format: 'jpeg' as const, width: 40, height: 60 };
    let fallbacks = 0;
    const fallback: Shrinker = async () => {
      fallbacks++;
      return fallbackOut;
    };
    const by: ShrunkBy[] = [];
    const good = webviewFirst(
      async (r) => {
        asked.push({ width: r.width, height: r.height, orientation: r.orientation });
        return { bytes: jpg(20, 30), width: 20, height: 30 };
      },
      () => fallback,
      { onShrunk: (b) => by.push(b) },
    );
    const out = await good(photo, 'jpeg', 1e6);
    assert.deepEqual(asked, [{ width: 40, height: 60, orientation: 6 }], 'the size once upright, and the orientation');
    assert.equal(out.width, 20);
    assert.equal(fallbacks, 0);
    const reasons: string[] = [];
    const bad = webviewFirst(
      async () => ({ bytes: jpg(30, 30), width: 30, height: 30 }),
      () => fallback,
      {
        onShrunk: (b) => by.push(b),
        onFallback: (r) => reasons.push(r),
      },
    );
    assert.equal(await bad(photo, 'jpeg', 1e6), fallbackOut);
    const refusing = webviewFirst(
      async () => Promise.reject(new Error('no OffscreenCanvas')),
      () => fallback,
      {
        onShrunk: (b) => by.push(b),
        onFallback: (r) => reasons.push(r),
      },
    );
    assert.equal(await refusing(photo, 'jpeg', 1e6), fallbackOut);
    assert.equal(await webviewFirst(undefined, () => fallback)(photo, 'jpeg', 1e6), fallbackOut);
    assert.deepEqual(by, ['webview', 'fallback', 'fallback']);
    assert.match(reasons[0] ?? '', /aspect/);
    assert.equal(reasons[1], 'no OffscreenCanvas');
    const abort = new AbortController();
    const cancelled = webviewFirst(
      (_r, signal) =>
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true })),
      () => fallback,
    );
    const run = cancelled(photo, 'jpeg', 1e6, abort.signal);
    abort.abort(new Error('cancelled'));
    await assert.rejects(run, /cancelled/);
    assert.equal(fallbacks, 3, 'no fallback after a cancel');
  });
});
