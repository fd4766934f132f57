/**
 * The fallback shrinker (jimp + WebAssembly, what the CLI and a run without the panel use) gives the
 * verdicts of test/unit/recognition/verdicts.ts — the same the integration suite asks of the
 * webview's: under 4 MB, a JPEG, upright, the aspect within one pixel — for JPEG (each EXIF
 * orientation), PNG and WebP of 6, 12 and 20 MB; and a cancelled shrink stops and sends nothing.
 */
import * as assert from 'node:assert/strict';
import { recognize } from '../../../src/recognition/flow';
import { imageSize, prepareForUpload } from '../../../src/recognition/image';
import { assertVerdict, photo, smallOriented } from './verdicts';
import { freshShrinker } from './fixtures';

describe('recognition: the fallback shrinker’s verdicts', function () {
  this.timeout(180_000);

  for (const [kind, mb] of [
    ['jpeg', 6],
    ['jpeg', 12],
    ['jpeg', 20],
    ['png', 6],
    ['png', 12],
    ['png', 20],
    ['webp', 6],
  ] as const) {
    it(`${kind} of ${mb} MB: under 4 MB, upright, the aspect kept`, async () => {
      const p = await photo(kind, mb, kind === 'jpeg' && mb === 12 ? 6 : 1);
      assert.ok(p.bytes.length > mb * 1048576 * 0.9, `${p.name} is ${p.bytes.length} bytes`);
      const prepared = await prepareForUpload(p.bytes, { shrinker: freshShrinker });
      assert.equal(prepared.reencoded?.why, 'size');
      assertVerdict(p, prepared.bytes);
      // the size the user is told is the size sent
      assert.deepEqual(imageSize(prepared.bytes), {
        width: prepared.reencoded.width,
        height: prepared.reencoded.height,
      });
    });
  }

  it('each EXIF orientation 1–8 of a JPEG is applied', async () => {
    for (let o = 1; o <= 8; o++) {
      const p = smallOriented(o);
      const out = await freshShrinker()(p.bytes, 'jpeg', 4 * 1048576);
      assertVerdict(p, out.bytes);
    }
  });

  it('cancelled during the shrink: it stops, the flow rejects with the reason, nothing is sent', async () => {
    const p = await photo('jpeg', 6);
    const abort = new AbortController();
    let calls = 0;
    let shrinking = false;
    const shrink = freshShrinker();
    const run = recognize(
      { kind: 'bytes', bytes: p.bytes, name: 'p.jpg' },
      'tea_count',
      {
        call: async () => {
          calls++;
          throw new Error('must not be called');
        },
        download: async () => {
          throw new Error('no download');
        },
        shrinker: () => (bytes, format, max, signal) => {
          shrinking = true;
          setTimeout(() => abort.abort(new Error('cancelled by the user')), 50);
          return shrink(bytes, format, max, signal);
        },
      },
      abort.signal,
    );
    await assert.rejects(run, /cancelled by the user/);
    assert.ok(shrinking, 'the shrink had started');
    assert.equal(calls, 0, 'nothing sent');
  });
});
