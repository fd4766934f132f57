/** Test pictures made on the fly (pngjs / jpeg-js / libwebp), so the recognition tests need no binary fixtures. */
import { createRequire } from 'node:module';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { Shrinker } from '../../../src/recognition/image';
import { encodeRgbaAsWebp } from '../../emulator/make-sample-images';

/** A PNG of `w` × `h` filled by `pixel(x, y)` → [r, g, b]. */
export function png(
  w: number,
  h: number,
  pixel: (x: number, y: number) => [number, number, number] = () => [40, 160, 60],
): Uint8Array {
  const p = new PNG({ width: w, height: h });
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [r, g, b] = pixel(x, y);
      const i = (y * w + x) * 4;
      p.data[i] = r;
      p.data[i + 1] = g;
      p.data[i + 2] = b;
      p.data[i + 3] = 255;
    }
  }
  return new Uint8Array(PNG.sync.write(p));
}

/** A JPEG of `w` × `h` (quality `q`) filled by `pixel`. */
export function jpg(
  w: number,
  h: number,
  pixel: (x: number, y: number) => [number, number, number] = () => [40, 160, 60],
  q = 90,
): Uint8Array {
  const data = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [r, g, b] = pixel(x, y);
      const i = (y * w + x) * 4;
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
      data[i + 3] = 255;
    }
  }
  return new Uint8Array(jpeg.encode({ data, width: w, height: h }, q).data);
}

/** Deterministic noise (hard to compress: makes large JPEGs). */
export function noise(seed = 1): (x: number, y: number) => [number, number, number] {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s >>> 24;
  };
  return () => [next(), next(), next()];
}

/** A view of `bytes` in the middle of a larger buffer full of other bytes. */
export function inside(bytes: Uint8Array): Uint8Array {
  const big = new Uint8Array(bytes.length + 64).fill(0x5a);
  big.set(bytes, 32);
  return big.subarray(32, 32 + bytes.length);
}

/** Concatenates byte parts (numbers are single bytes, strings Latin-1). */
export function cat(...parts: (Uint8Array | readonly number[] | string)[]): Uint8Array {
  return new Uint8Array(
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p as Uint8Array)))),
  );
}
/** Big- and little-endian bytes of 16- and 32-bit numbers. */
export const be16 = (n: number): number[] => [(n >> 8) & 0xff, n & 0xff];
export const le16 = (n: number): number[] => [n & 0xff, (n >> 8) & 0xff];
export const be32 = (n: number): number[] => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
/** A JPEG marker segment: FF, the marker, the length (payload + 2), the payload. */
export function segment(marker: number, payload: Uint8Array | readonly number[] | string): Uint8Array {
  const body = cat(payload);
  return cat([0xff, marker], be16(body.length + 2), body);
}
/** A TIFF block (as in an EXIF APP1) with the given IFD entries (tag, value as SHORT). */
export function tiff(
  entries: readonly [number, number][],
  options: { little?: boolean; ifdOffset?: number } = {},
): Uint8Array {
  const little = options.little ?? false;
  const u16 = little ? le16 : be16;
  const u32 = (n: number): number[] => (little ? [...le16(n & 0xffff), ...le16(n >>> 16)] : be32(n));
  return cat(
    little ? 'II' : 'MM',
    u16(42),
    u32(options.ifdOffset ?? 8),
    u16(entries.length),
    ...entries.map(([tag, value]) => [...u16(tag), ...u16(3), ...u32(1), ...u16(value), 0, 0]),
    u32(0),
  );
}
/** An EXIF APP1 segment holding `block` (normally a {@link tiff}). */
export const exif = (block: Uint8Array, marker = 0xe1): Uint8Array => segment(marker, cat('Exif\0\0', block));

/** Inserts an EXIF APP1 segment with the given orientation right after the SOI marker of a JPEG. */
export function withOrientation(jpegBytes: Uint8Array, orientation: number, littleEndian = false): Uint8Array {
  const app1 = exif(tiff([[0x0112, orientation]], { little: littleEndian }));
  return cat(jpegBytes.subarray(0, 2), app1, jpegBytes.subarray(2));
}

/** A minimal lossless WebP header (VP8L) claiming `w` × `h`; enough for sniffing and sizing. */
export function webpHeader(w: number, h: number): Uint8Array {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBP', 8, 'latin1');
  b.write('VP8L', 12, 'latin1');
  b.writeUInt32LE(10, 16);
  b[20] = 0x2f;
  const bits = ((w - 1) & 0x3fff) | (((h - 1) & 0x3fff) << 14);
  b.writeUInt32LE(bits >>> 0, 21);
  return new Uint8Array(b);
}

/**
 * A WebP of `w` × `h` filled by `pixel(x, y)` → [r, g, b] or [r, g, b, a], encoded by libwebp
 * (the encoder of the package whose decoder the extension uses): lossy at `quality`, or lossless.
 */
export async function webp(
  w: number,
  h: number,
  pixel: (x: number, y: number) => readonly number[],
  options: { quality?: number; lossless?: boolean } = {},
): Promise<Uint8Array> {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [r = 0, g = 0, b = 0, a = 255] = pixel(x, y);
      data.set([r, g, b, a], (y * w + x) * 4);
    }
  }
  const out = await encodeRgbaAsWebp(
    data,
    w,
    h,
    options.lossless
      ? { lossless: 1, quality: 50, method: 0, exact: 1 }
      : { quality: options.quality ?? 90, method: 0 },
  );
  return new Uint8Array(out);
}

/** The pixels of a PNG as a pixel function (to re-encode a sample picture in another format). */
export function pngPixels(pngBytes: Uint8Array): {
  width: number;
  height: number;
  pixel: (x: number, y: number) => number[];
} {
  const p = PNG.sync.read(Buffer.from(pngBytes));
  return {
    width: p.width,
    height: p.height,
    pixel: (x, y) => [...p.data.subarray((y * p.width + x) * 4, (y * p.width + x) * 4 + 4)],
  };
}

/**
 * The module at `path` (written from this folder) evaluated anew, without the copy earlier tests
 * loaded: what it does when it loads (a decoder's first read of its `.wasm`, the shrinker's jimp)
 * is then done within the test that asks, a mutation tester's switched code included. Resolved
 * when called, not when this file loads: the integration suites bundle these fixtures elsewhere.
 */
export function freshModule<T>(path: string): T {
  const load = createRequire(__filename);
  const resolved = load.resolve(path);
  delete load.cache[resolved];
  return load(resolved) as T;
}

/** The shrinker of `src/recognition/imaging.ts` evaluated anew (what `loadShrinker` loads, without its cache). */
export function freshShrinker(): Shrinker {
  return freshModule<{ shrink: Shrinker }>('../../../src/recognition/imaging').shrink;
}
