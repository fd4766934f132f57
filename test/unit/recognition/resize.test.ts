/**
 * Shrinking with jimp (JPEG decoded by mozjpeg in the bundle): under 4 MB, aspect kept, EXIF
 * orientation applied. WebP decoded by libwebp:
 * shrunk when over 4 MB, converted to JPEG when under; an undecodable one refused clearly.
 */
import * as assert from 'node:assert/strict';
import * as jimp from 'jimp';
import {
  ImageRefusedError,
  MAX_UPLOAD_BYTES,
  imageSize,
  jpegOrientation,
  prepareForUpload,
} from '../../../src/recognition/image';
import { loadShrinker, shrinkWith } from '../../../src/recognition/resize';
import { JPEG_QUALITY, MAX_LONG_SIDE } from '../../../src/recognition/shrinkPlan';
import { freshShrinker, inside, jpg, noise, webp, webpHeader, withOrientation } from './fixtures';

describe('recognition: resize', function () {
  this.timeout(60_000);

  it('loadShrinker loads the imaging module once (its source here, as no imaging.js is beside it)', () => {
    const first = loadShrinker();
    assert.equal(typeof first, 'function');
    assert.equal(loadShrinker(), first);
  });

  it('shrinks a photo over 4 MB under the limit, keeping its aspect', async () => {
    const big = jpg(1500, 1000, noise(7), 100);
    assert.ok(big.length > MAX_UPLOAD_BYTES, `fixture is ${big.length} bytes`);
    const p = await prepareForUpload(big, { shrinker: freshShrinker });
    assert.ok(p.bytes.length <= MAX_UPLOAD_BYTES, `${p.bytes.length} bytes`);
    assert.equal(p.format, 'jpeg');
    const size = imageSize(p.bytes);
    assert.ok(size);
    assert.ok(Math.abs(size.width / size.height - 1.5) < 0.01, `aspect ${size.width}×${size.height}`);
    assert.equal(p.reencoded?.why, 'size');
    assert.deepEqual(p.original, big);
  });

  it('applies the EXIF orientation (a 6 turns 200×100 into 100×200, upright, without EXIF), with either JPEG decoder', async () => {
    // left half red, right half blue: after a 90° clockwise turn, red is on top
    const src = withOrientation(
      jpg(200, 100, (x) => (x < 100 ? [220, 20, 20] : [20, 20, 220])),
      6,
    );
    const shrinkers = { 'jimp alone': shrinkWith.bind(null, jimp), 'the bundle (mozjpeg)': loadShrinker() };
    for (const [which, shrink] of Object.entries(shrinkers)) {
      const out = await shrink(src, 'jpeg', MAX_UPLOAD_BYTES);
      assert.equal(out.width, 100, which);
      assert.equal(out.height, 200, which);
      assert.deepEqual(imageSize(out.bytes), { width: 100, height: 200 }, which);
      assert.equal(jpegOrientation(out.bytes), 1, which);
      const img = await jimp.Jimp.fromBuffer(Buffer.from(out.bytes));
      const top = jimp.intToRGBA(img.getPixelColor(50, 20));
      const bottom = jimp.intToRGBA(img.getPixelColor(50, 180));
      assert.ok(top.r > 150 && top.b < 100, `${which}: top ${JSON.stringify(top)}`);
      assert.ok(bottom.b > 150 && bottom.r < 100, `${which}: bottom ${JSON.stringify(bottom)}`);
    }
  });

  it('every attempt is written at the quality the plan assumes (JPEG_QUALITY, as the webview’s shrinker)', async () => {
    const out = await freshShrinker()(withOrientation(jpg(64, 48, noise(2)), 6), 'jpeg', MAX_UPLOAD_BYTES);
    // the first entry of the luminance table, as libjpeg's (and jpeg-js's) quality scaling makes it
    const scale = JPEG_QUALITY < 50 ? Math.floor(5000 / JPEG_QUALITY) : 200 - 2 * JPEG_QUALITY;
    assert.equal(lumaDc(out.bytes), Math.max(1, Math.floor((16 * scale + 50) / 100)));
  });

  it('a picture one pixel thin is brought to the longest side allowed along its one changing side', async () => {
    for (const [w, h] of [
      [8000, 1],
      [1, 8000],
    ] as const) {
      const thin = await webp(w, h, () => [10, 200, 30], { lossless: true });
      const p = await prepareForUpload(thin, { shrinker: freshShrinker });
      const want = w > h ? { width: MAX_LONG_SIDE, height: 1 } : { width: 1, height: MAX_LONG_SIDE };
      assert.deepEqual(imageSize(p.bytes), want, `${w} × ${h}`);
      assert.deepEqual({ width: p.reencoded?.width, height: p.reencoded?.height }, want, `${w} × ${h}: as told`);
    }
  });

  it('a picture that cannot be brought under the limit at any size is refused, naming the limit', async () => {
    await assert.rejects(
      freshShrinker()(jpg(64, 48, noise(4)), 'jpeg', 60),
      /could not bring the image under 60 bytes/,
    );
  });

  it('a JPEG neither decoder can read is refused over the limit with a clear reason', async () => {
    const broken = jpg(64, 64);
    const damaged = new Uint8Array(MAX_UPLOAD_BYTES + 10);
    damaged.set(broken.subarray(0, 200)); // the header, then nothing but zeros
    await assert.rejects(
      prepareForUpload(damaged, { shrinker: freshShrinker }),
      (e: unknown) => e instanceof ImageRefusedError && e.reason === 'cannot-shrink' && e.format === 'jpeg',
    );
  });

  it('shrinks a WebP over 4 MB (decoded by libwebp) to a JPEG under the limit, keeping its aspect', async () => {
    const big = await webp(1800, 1200, noise(11), { quality: 100 });
    assert.ok(big.length > MAX_UPLOAD_BYTES, `fixture is ${big.length} bytes`);
    const p = await prepareForUpload(big, { shrinker: freshShrinker });
    assert.equal(p.format, 'jpeg');
    assert.ok(p.bytes.length <= MAX_UPLOAD_BYTES, `${p.bytes.length} bytes`);
    const size = imageSize(p.bytes);
    assert.ok(size);
    assert.ok(Math.abs(size.width / size.height - 1.5) < 0.01, `aspect ${size.width}×${size.height}`);
    assert.equal(p.reencoded?.why, 'size');
    assert.equal(p.originalFormat, 'webp');
    assert.deepEqual(p.original, big);
  });

  it('converts a WebP under the limit to JPEG (the pixels kept; transparency on white)', async () => {
    // left half red, right half blue, bottom quarter transparent
    const small = await webp(200, 100, (x, y) => (y >= 75 ? [0, 0, 0, 0] : x < 100 ? [220, 20, 20] : [20, 20, 220]), {
      lossless: true,
    });
    // handed as a view into a larger buffer (jimp gives its decoders a Buffer over the same memory)
    const p = await prepareForUpload(inside(small), { shrinker: freshShrinker });
    assert.equal(p.format, 'jpeg');
    assert.equal(p.reencoded?.why, 'format');
    assert.deepEqual(imageSize(p.bytes), { width: 200, height: 100 });
    const img = await jimp.Jimp.fromBuffer(Buffer.from(p.bytes));
    const at = (x: number, y: number): { r: number; g: number; b: number } => jimp.intToRGBA(img.getPixelColor(x, y));
    assert.ok(at(50, 30).r > 180 && at(50, 30).b < 70, `left ${JSON.stringify(at(50, 30))}`);
    assert.ok(at(150, 30).b > 180 && at(150, 30).r < 70, `right ${JSON.stringify(at(150, 30))}`);
    const bottom = at(100, 92);
    assert.ok(bottom.r > 235 && bottom.g > 235 && bottom.b > 235, `transparent → white, got ${JSON.stringify(bottom)}`);
    // a picture with no opaque pixel at all is white too
    const clear = await webp(40, 20, () => [0, 0, 0, 0], { lossless: true });
    const blank = await jimp.Jimp.fromBuffer(
      Buffer.from((await prepareForUpload(clear, { shrinker: freshShrinker })).bytes),
    );
    const centre = jimp.intToRGBA(blank.getPixelColor(20, 10));
    assert.ok(
      centre.r > 235 && centre.g > 235 && centre.b > 235,
      `all transparent → white, got ${JSON.stringify(centre)}`,
    );
  });

  it('a WebP libwebp cannot decode: refused over the limit with a clear reason, sent as it is under it', async () => {
    const fake = new Uint8Array(MAX_UPLOAD_BYTES + 10);
    fake.set(webpHeader(4000, 3000));
    await assert.rejects(
      prepareForUpload(fake, { shrinker: freshShrinker }),
      (e: unknown) => e instanceof ImageRefusedError && e.reason === 'cannot-shrink' && e.format === 'webp',
    );
    const small = new Uint8Array(100);
    small.set(webpHeader(40, 30));
    const p = await prepareForUpload(small, { shrinker: freshShrinker });
    assert.equal(p.format, 'webp');
    assert.equal(p.reencoded, undefined);
    assert.equal(p.bytes, small);
  });
});

/** The first (DC) entry of a baseline JPEG's first quantization table. */
function lumaDc(bytes: Uint8Array): number {
  for (let i = 2; i + 5 < bytes.length; i++) if (bytes[i] === 0xff && bytes[i + 1] === 0xdb) return bytes[i + 5] ?? -1;
  return -1;
}
