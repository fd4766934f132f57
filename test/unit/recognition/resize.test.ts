/** Shrinking with jimp: under 4 MB, aspect kept, EXIF orientation applied; webp refused clearly. */
import * as assert from 'node:assert/strict';
import * as jimp from 'jimp';
import { ImageRefusedError, MAX_UPLOAD_BYTES, imageSize, jpegOrientation, prepareForUpload } from '../../../src/features/recognition/image';
import { loadShrinker, shrinkWith } from '../../../src/features/recognition/resize';
import { jpg, noise, webpHeader, withOrientation } from './fixtures';

describe('recognition: resize', function () {
  this.timeout(60_000);

  it('shrinks a photo over 4 MB under the limit, keeping its aspect', async () => {
    const big = jpg(1500, 1000, noise(7), 100);
    assert.ok(big.length > MAX_UPLOAD_BYTES, `fixture is ${big.length} bytes`);
    const p = await prepareForUpload(big, { shrinker: loadShrinker });
    assert.ok(p.bytes.length <= MAX_UPLOAD_BYTES, `${p.bytes.length} bytes`);
    assert.equal(p.format, 'jpeg');
    const size = imageSize(p.bytes);
    assert.ok(size);
    assert.ok(Math.abs(size.width / size.height - 1.5) < 0.01, `aspect ${size.width}×${size.height}`);
    assert.equal(p.reencoded?.why, 'size');
    assert.deepEqual(p.original, big);
  });

  it('applies the EXIF orientation (a 6 turns 200×100 into 100×200, upright, without EXIF)', async () => {
    // left half red, right half blue: after a 90° clockwise turn, red is on top
    const src = withOrientation(jpg(200, 100, (x) => (x < 100 ? [220, 20, 20] : [20, 20, 220])), 6);
    const out = await shrinkWith(jimp, src, 'jpeg', MAX_UPLOAD_BYTES);
    assert.equal(out.width, 100);
    assert.equal(out.height, 200);
    assert.deepEqual(imageSize(out.bytes), { width: 100, height: 200 });
    assert.equal(jpegOrientation(out.bytes), 1);
    const img = await jimp.Jimp.fromBuffer(Buffer.from(out.bytes));
    const top = jimp.intToRGBA(img.getPixelColor(50, 20));
    const bottom = jimp.intToRGBA(img.getPixelColor(50, 180));
    assert.ok(top.r > 150 && top.b < 100, `top ${JSON.stringify(top)}`);
    assert.ok(bottom.b > 150 && bottom.r < 100, `bottom ${JSON.stringify(bottom)}`);
  });

  it('refuses a WebP over the limit with a clear reason (the library cannot decode it)', async () => {
    const fake = new Uint8Array(MAX_UPLOAD_BYTES + 10);
    fake.set(webpHeader(4000, 3000));
    await assert.rejects(prepareForUpload(fake, { shrinker: loadShrinker }), (e: unknown) => e instanceof ImageRefusedError && e.reason === 'cannot-shrink' && e.format === 'webp');
  });
});
