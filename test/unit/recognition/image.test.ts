/** Image checks before upload: magic bytes, sizes, EXIF orientation, base64 / data URIs, the 4 MB rule. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ImageRefusedError,
  MAX_UPLOAD_BYTES,
  imageSize,
  isBase64,
  jpegOrientation,
  orientedSize,
  parseDataUri,
  prepareForUpload,
  sniffImageFormat,
  toBareBase64,
  toDataUri,
  type Shrinker,
} from '../../../src/recognition/image';
import { jpg, noise, png, webpHeader, withOrientation } from './fixtures';

const SAMPLES = join(__dirname, '..', '..', 'emulator', 'images');

describe('recognition: image checks', () => {
  it('tells formats by magic bytes, not by name', () => {
    assert.equal(sniffImageFormat(png(2, 2)), 'png');
    assert.equal(sniffImageFormat(jpg(2, 2)), 'jpeg');
    assert.equal(sniffImageFormat(webpHeader(10, 10)), 'webp');
    assert.equal(sniffImageFormat(new TextEncoder().encode('GIF89a......')), 'gif');
    assert.equal(sniffImageFormat(new TextEncoder().encode('# Bulletin\n\nnot a picture')), undefined);
    assert.equal(sniffImageFormat(new Uint8Array([0x25, 0x50, 0x44, 0x46])), undefined); // %PDF
    assert.equal(sniffImageFormat(new Uint8Array(0)), undefined);
  });

  it('reads the pixel size from PNG, JPEG and WebP headers (and the sample pictures)', () => {
    assert.deepEqual(imageSize(png(31, 17)), { width: 31, height: 17 });
    assert.deepEqual(imageSize(jpg(64, 40)), { width: 64, height: 40 });
    assert.deepEqual(imageSize(webpHeader(1200, 900)), { width: 1200, height: 900 });
    const teaJpg = new Uint8Array(readFileSync(join(SAMPLES, 'tea_buds.jpg')));
    const teaPng = new Uint8Array(readFileSync(join(SAMPLES, 'tea_buds.png')));
    assert.deepEqual(imageSize(teaJpg), imageSize(teaPng));
  });

  it('reads the EXIF orientation of a JPEG (big- and little-endian), 1 when absent', () => {
    const base = jpg(20, 10);
    assert.equal(jpegOrientation(base), 1);
    assert.equal(jpegOrientation(withOrientation(base, 6)), 6);
    assert.equal(jpegOrientation(withOrientation(base, 8, true)), 8);
    assert.deepEqual(imageSize(withOrientation(base, 6)), { width: 20, height: 10 }, 'the stored size is unchanged');
    assert.deepEqual(orientedSize({ width: 20, height: 10 }, 6), { width: 10, height: 20 });
    assert.deepEqual(orientedSize({ width: 20, height: 10 }, 3), { width: 20, height: 10 });
  });

  it('encodes bare base64 (no data: prefix) and decodes data URIs', () => {
    const bytes = png(3, 3);
    const b64 = toBareBase64(bytes);
    assert.ok(!b64.startsWith('data:'));
    assert.ok(isBase64(b64));
    assert.deepEqual(new Uint8Array(Buffer.from(b64, 'base64')), bytes);
    const uri = toDataUri(bytes, 'image/png');
    assert.ok(uri.startsWith('data:image/png;base64,'));
    const parsed = parseDataUri(uri);
    assert.equal(parsed?.mime, 'image/png');
    assert.deepEqual(parsed?.bytes, bytes);
    // whitespace inside the payload (pasted, wrapped) is tolerated
    const wrapped = `data:image/png;base64,${b64.slice(0, 10)}\n${b64.slice(10)}`;
    assert.deepEqual(parseDataUri(wrapped)?.bytes, bytes);
    assert.equal(parseDataUri('data:image/png;base64,@@@'), undefined);
    assert.equal(parseDataUri('https://example.invalid/a.png'), undefined);
    assert.equal(isBase64('abc'), true);
    assert.equal(isBase64('a'), false);
    assert.equal(isBase64('ab$c'), false);
  });

  it('refuses non-images and unsupported formats before anything else (the shrinker is never loaded)', async () => {
    let loaded = 0;
    const shrinker = (): Shrinker => {
      loaded++;
      throw new Error('must not load');
    };
    for (const [bytes, reason] of [
      [new TextEncoder().encode('%PDF-1.7 not an image'), 'not-image'],
      [new TextEncoder().encode('GIF89a' + 'x'.repeat(20)), 'unsupported-format'],
      [new Uint8Array(0), 'empty'],
    ] as const) {
      await assert.rejects(
        prepareForUpload(bytes, { shrinker }),
        (e: unknown) => e instanceof ImageRefusedError && e.reason === reason,
      );
    }
    assert.equal(loaded, 0);
  });

  it('sends images up to 4 MB as they are, as bare base64, without loading the shrinker', async () => {
    let loaded = 0;
    const bytes = png(50, 40);
    const p = await prepareForUpload(bytes, { shrinker: () => (loaded++, undefined) });
    assert.equal(loaded, 0);
    assert.equal(p.base64, toBareBase64(bytes));
    assert.equal(p.reencoded, undefined);
    assert.equal(p.format, 'png');
  });

  it('shrinks images over the limit with the shrinker, keeps the original for the saved copy', async () => {
    const big = png(200, 200, noise());
    const small = jpg(100, 100);
    const calls: number[] = [];
    const shrink: Shrinker = async (_b, _f, max) => {
      calls.push(max);
      return { bytes: small, format: 'jpeg', width: 100, height: 100 };
    };
    const p = await prepareForUpload(big, { shrinker: () => shrink, maxBytes: 1000 });
    assert.deepEqual(calls, [1000]);
    assert.equal(p.format, 'jpeg');
    assert.equal(p.base64, toBareBase64(small));
    assert.deepEqual(p.original, big);
    assert.equal(p.originalFormat, 'png');
    assert.equal(p.reencoded?.why, 'size');
  });

  it('refuses clearly when an image over the limit cannot be shrunk (no library, library failure, still too big)', async () => {
    const big = png(200, 200, noise());
    const isCannot = (e: unknown): boolean =>
      e instanceof ImageRefusedError && e.reason === 'cannot-shrink' && e.format === 'png';
    await assert.rejects(prepareForUpload(big, { maxBytes: 100 }), isCannot);
    await assert.rejects(
      prepareForUpload(big, {
        maxBytes: 100,
        shrinker: () => async () => {
          throw new Error('boom');
        },
      }),
      isCannot,
    );
    await assert.rejects(
      prepareForUpload(big, {
        maxBytes: 100,
        shrinker: () => async () => ({ bytes: big, format: 'png', width: 1, height: 1 }),
      }),
      isCannot,
    );
  });

  it('re-encodes for orientation on request, falling back to the original when that fails', async () => {
    const bytes = jpg(10, 10);
    const failing = await prepareForUpload(bytes, {
      reencode: true,
      shrinker: () => async () => {
        throw new Error('no');
      },
    });
    assert.equal(failing.base64, toBareBase64(bytes));
    const ok = await prepareForUpload(bytes, {
      reencode: true,
      shrinker: () => async () => ({ bytes: png(1, 1), format: 'png', width: 1, height: 1 }),
    });
    assert.equal(ok.reencoded?.why, 'orientation');
  });

  it('uses 4 MB of decoded bytes as the limit', () => {
    assert.equal(MAX_UPLOAD_BYTES, 4 * 1024 * 1024);
  });
});
