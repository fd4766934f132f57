/**
 * Shrinking a photo under the upload limit with jimp: EXIF orientation applied (jimp's `fromBuffer`
 * does it), aspect kept, re-encoded as JPEG. The jimp given by `dist/imaging.js` decodes JPEG
 * with mozjpeg and WebP with libwebp (see ./imaging, ./codecs). Only a TYPE import of jimp here:
 * the libraries are loaded lazily by {@link loadShrinker}, never at activation.
 */
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as JimpModule from 'jimp';
import type { ImageFormat, ShrunkImage, Shrinker } from './image';

/** The jimp module (its public surface as imported by `import * as jimp from 'jimp'`). */
export type Jimp = typeof JimpModule;

/** Longest side of the first attempt: phone photos are reduced to this before the quality steps. */
export const FIRST_LONG_SIDE = 4096;
const QUALITY = 85;

/**
 * Decodes `bytes` with jimp (applying EXIF orientation), flattens transparency onto white, and
 * re-encodes smaller JPEGs until one fits `maxBytes` (at most 8 attempts).
 */
export async function shrinkWith(
  jimp: Jimp,
  bytes: Uint8Array,
  format: ImageFormat,
  maxBytes: number,
): Promise<ShrunkImage> {
  const source = await jimp.Jimp.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const width = source.width;
  const height = source.height;
  // Encoded size grows roughly with the pixel count: start near the target instead of at full size.
  let scale = Math.min(1, FIRST_LONG_SIDE / Math.max(width, height), Math.sqrt(maxBytes / bytes.length) * 0.95);
  const flatten = format !== 'jpeg' && hasTransparency(source.bitmap.data);
  for (let attempt = 0; attempt < 8; attempt++) {
    const w = Math.max(1, Math.round(width * scale));
    const h = Math.max(1, Math.round(height * scale));
    let img = source.clone();
    if (w !== width || h !== height) img.resize({ w, h });
    if (flatten) {
      // JPEG has no alpha: put transparent pixels on white rather than black.
      const flat = new jimp.Jimp({ width: w, height: h, color: 0xffffffff });
      flat.composite(img, 0, 0);
      img = flat as typeof img;
    }
    const out = await img.getBuffer('image/jpeg', { quality: QUALITY });
    if (out.length <= maxBytes) return { bytes: new Uint8Array(out), format: 'jpeg', width: w, height: h };
    scale *= Math.min(0.9, Math.sqrt(maxBytes / out.length) * 0.95);
  }
  throw new Error(`could not bring the image under ${maxBytes} bytes`);
}

/** True when some pixel of an RGBA buffer is not opaque. */
function hasTransparency(rgba: Uint8Array | Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return true;
  return false;
}

let cached: Shrinker | undefined;

/**
 * Loads the shrinker on first use: `dist/imaging.js` (jimp and the decoders, bundled on their
 * own) beside this bundle, or its source under tsx in development. The computed path keeps esbuild
 * from inlining the libraries into the activation bundle.
 */
export function loadShrinker(): Shrinker {
  if (cached) return cached;
  const bundled = path.join(__dirname, 'imaging.js');
  const mod = createRequire(__filename)(existsSync(bundled) ? bundled : path.join(__dirname, 'imaging.ts')) as {
    shrink: Shrinker;
  };
  cached = mod.shrink;
  return cached;
}
