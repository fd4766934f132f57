/**
 * The verdicts both shrinkers must give (the webview's in the integration suite, jimp's here in the
 * unit tests): field photos of 6, 12 and 20 MB as JPEG (each EXIF orientation), PNG and WebP, four
 * coloured quadrants under noise, so that a shrunk picture can be checked for being under 4 MB, a
 * JPEG, upright and of the same aspect within one pixel.
 */
import * as assert from 'node:assert/strict';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { imageSize, jpegOrientation, MAX_UPLOAD_BYTES, sniffImageFormat } from '../../../src/recognition/image';
import { encodeRgbaAsWebp } from '../../emulator/make-sample-images';
import { withOrientation } from './fixtures';

/** Quadrant colours as stored: top-left, top-right, bottom-left, bottom-right. */
const QUADS: readonly (readonly [number, number, number])[] = [
  [210, 40, 40],
  [40, 200, 60],
  [40, 60, 210],
  [220, 210, 40],
];

/** A test photo: its bytes and the upright size the shrunk copy must keep the aspect of. */
export interface Photo {
  name: string;
  bytes: Uint8Array;
  orientation: number;
  stored: { width: number; height: number };
}

function pixels(w: number, h: number, seed: number): Uint8ClampedArray {
  const data = new Uint8ClampedArray(w * h * 4);
  let s = seed >>> 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const q = QUADS[(y < h / 2 ? 0 : 2) + (x < w / 2 ? 0 : 1)] ?? [0, 0, 0];
      const i = (y * w + x) * 4;
      for (let c = 0; c < 3; c++) {
        s = (s * 1664525 + 1013904223) >>> 0;
        data[i + c] = (q[c] ?? 0) + ((s >>> 24) % 61) - 30;
      }
      data[i + 3] = 255;
    }
  }
  return data;
}

/** Bytes per pixel of each kind of test photo (measured on these pixels), to aim at a file size. */
const BYTES_PER_PIXEL = { jpeg: 2.78, png: 2.83, webp: 2.66 } as const;

/** A photo of about `mb` MB (3 : 4 for a turning orientation, 4 : 3 otherwise). */
export async function photo(kind: 'jpeg' | 'png' | 'webp', mb: number, orientation = 1): Promise<Photo> {
  const px = (mb * 1048576) / BYTES_PER_PIXEL[kind];
  const width = Math.round(Math.sqrt((px * 4) / 3));
  const height = Math.round((width * 3) / 4);
  const data = pixels(width, height, mb * 100 + orientation);
  let bytes: Uint8Array;
  if (kind === 'jpeg') {
    const raw = jpeg.encode({ data: Buffer.from(data.buffer), width, height }, 100).data;
    bytes = orientation === 1 ? new Uint8Array(raw) : withOrientation(new Uint8Array(raw), orientation);
  } else if (kind === 'png') {
    const p = new PNG({ width, height });
    p.data.set(data);
    bytes = new Uint8Array(PNG.sync.write(p, { deflateLevel: 1 }));
  } else {
    bytes = new Uint8Array(await encodeRgbaAsWebp(data, width, height, { lossless: 1, method: 0, quality: 0 }));
  }
  return {
    name: `${kind} ${mb} MB${orientation !== 1 ? ` orientation ${orientation}` : ''}`,
    bytes,
    orientation,
    stored: { width, height },
  };
}

/**
 * JPEGs `width` pixels wide (4 : 3 as stored) at a lower quality, so that a picture larger than
 * the plan's 4096-pixel long side stays a file of moderate size (the webview decodes it at a
 * reduced scale): one encoding, given each of `orientations` in its EXIF tag.
 */
export function wideJpegs(width: number, orientations: number[], quality = 80): Photo[] {
  const height = Math.round((width * 3) / 4);
  const raw = new Uint8Array(
    jpeg.encode({ data: Buffer.from(pixels(width, height, width).buffer), width, height }, quality).data,
  );
  return orientations.map((orientation) => ({
    name: `jpeg ${width} px wide${orientation !== 1 ? ` orientation ${orientation}` : ''}`,
    bytes: orientation === 1 ? raw : withOrientation(raw, orientation),
    orientation,
    stored: { width, height },
  }));
}

/** A small JPEG with orientation `o` (re-encoded upright even under the limit). */
export function smallOriented(orientation: number): Photo {
  const width = 240;
  const height = 160;
  const raw = jpeg.encode({ data: Buffer.from(pixels(width, height, orientation).buffer), width, height }, 92).data;
  return {
    name: `small JPEG orientation ${orientation}`,
    bytes: withOrientation(new Uint8Array(raw), orientation),
    orientation,
    stored: { width, height },
  };
}

/** Which stored quadrant is shown at upright quadrant (qx, qy) ∈ {0, 1}² for an EXIF orientation. */
function storedQuadrant(orientation: number, qx: number, qy: number): number {
  const [sx, sy] = (
    {
      1: [qx, qy],
      2: [1 - qx, qy],
      3: [1 - qx, 1 - qy],
      4: [qx, 1 - qy],
      5: [qy, qx],
      6: [qy, 1 - qx],
      7: [1 - qy, 1 - qx],
      8: [1 - qy, qx],
    } as Record<number, [number, number]>
  )[orientation] ?? [qx, qy];
  return sy * 2 + sx;
}

/**
 * Asserts the verdict on a shrunk (or re-encoded) copy of `photo`: a JPEG without orientation,
 * at most 4 MB, of the upright aspect within one pixel, each quadrant showing the colour it should.
 */
export function assertVerdict(photo: Photo, out: Uint8Array, limit = MAX_UPLOAD_BYTES): void {
  const what = photo.name;
  assert.equal(sniffImageFormat(out), 'jpeg', `${what}: a JPEG`);
  assert.ok(out.length <= limit, `${what}: ${out.length} bytes, at most ${limit}`);
  assert.equal(jpegOrientation(out), 1, `${what}: no orientation left to apply`);
  const size = imageSize(out);
  assert.ok(size, `${what}: a readable size`);
  const turns = photo.orientation >= 5;
  const up = turns ? { width: photo.stored.height, height: photo.stored.width } : photo.stored;
  const expectedHeight = (size.width * up.height) / up.width;
  assert.ok(
    Math.abs(expectedHeight - size.height) <= 1,
    `${what}: ${size.width} × ${size.height} keeps ${up.width} × ${up.height}`,
  );
  assertUpright(photo, jpeg.decode(out, { useTArray: true, maxMemoryUsageInMB: 1024 }), what);
}

/** Asserts that each quadrant of decoded `img` (RGBA) shows the colour it should once `photo` is upright. */
export function assertUpright(
  photo: Photo,
  img: { width: number; height: number; data: Uint8Array | Uint8ClampedArray },
  what: string,
): void {
  for (const [qx, qy] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ] as const) {
    const want = QUADS[storedQuadrant(photo.orientation, qx, qy)] ?? [0, 0, 0];
    // The mean of a patch in the middle of the quadrant (the noise averages out).
    const cx = Math.round(img.width * (0.25 + qx / 2));
    const cy = Math.round(img.height * (0.25 + qy / 2));
    const sum = [0, 0, 0];
    let n = 0;
    for (let y = cy - 8; y <= cy + 8; y++)
      for (let x = cx - 8; x <= cx + 8; x++, n++)
        for (let c = 0; c < 3; c++) sum[c] = (sum[c] ?? 0) + (img.data[(y * img.width + x) * 4 + c] ?? 0);
    const mean = sum.map((v) => v / n);
    for (let c = 0; c < 3; c++)
      assert.ok(
        Math.abs((mean[c] ?? 0) - (want[c] ?? 0)) < 30,
        `${what}: quadrant ${qx},${qy} is ${mean.map(Math.round)}, want ${want}`,
      );
  }
}
