/**
 * Entry of the lazily loaded `dist/imaging.js` bundle: jimp with two decoders compiled to
 * WebAssembly (./codecs) — mozjpeg's for JPEG (jimp's own JavaScript one is kept as the fallback
 * and for encoding) and libwebp's for WebP — and the shrinker. jimp still detects the format and
 * applies the EXIF orientation. Required by {@link loadShrinker} on the first image to shrink or
 * convert, never at activation.
 */
import { createJimp } from '@jimp/core';
import * as jimp from 'jimp';
import type { Shrinker } from './image';
import { shrinkWith, type Jimp } from './resize';
import { decodeJpeg, decodeWebp, type RgbaImage } from './codecs';

/** A jimp image format, as far as this file needs it. */
interface Format {
  mime: string;
  encode?: (...args: never[]) => unknown;
  decode: (data: Buffer) => Bitmap | Promise<Bitmap>;
}
type Bitmap = { data: Buffer; width: number; height: number };

const bitmap = (image: RgbaImage): Bitmap => ({
  data: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength),
  width: image.width,
  height: image.height,
});

const formats = jimp.defaultFormats as unknown as (() => Format)[];
const jsJpeg = formats.map((f) => f()).find((f) => f.mime === 'image/jpeg') as Format;

/** JPEG: decoded by mozjpeg, by jimp's decoder if mozjpeg refuses the file; encoded by jimp's. */
const jpeg = (): Format => ({
  ...jsJpeg,
  decode: async (data) => {
    try {
      return bitmap(await decodeJpeg(data));
    } catch {
      return jsJpeg.decode(data);
    }
  },
});

/** WebP: decoded only (the shrinker writes JPEG; jimp refuses to write a format without `encode`). */
const webp = (): Format => ({
  mime: 'image/webp',
  decode: async (data) => bitmap(await decodeWebp(data)),
});

const CustomJimp = createJimp({
  formats: [...formats.filter((f) => f().mime !== 'image/jpeg'), jpeg, webp] as unknown as typeof jimp.defaultFormats,
  plugins: jimp.defaultPlugins,
});

const library = { ...jimp, Jimp: CustomJimp } as unknown as Jimp;

/** Shrinks or converts an image under `maxBytes` (see {@link shrinkWith}). */
export const shrink: Shrinker = (bytes, format, maxBytes, signal) =>
  shrinkWith(library, bytes, format, maxBytes, signal);
