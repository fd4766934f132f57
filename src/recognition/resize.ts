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
import { JIMP_BYTES_PER_INPUT_BYTE, JPEG_QUALITY, ShrinkPlan } from './shrinkPlan';

/** The jimp module (its public surface as imported by `import * as jimp from 'jimp'`). */
export type Jimp = typeof JimpModule;

/**
 * Decodes `bytes` with jimp (applying EXIF orientation), flattens transparency onto white, and
 * re-encodes JPEGs until the largest that fits `maxBytes` is found (the plan of ./shrinkPlan). An aborted
 * `signal` stops it between steps (rejecting with the signal's reason).
 */
export async function shrinkWith(
  jimp: Jimp,
  bytes: Uint8Array,
  format: ImageFormat,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<ShrunkImage> {
  await checkpoint(signal);
  const source = await jimp.Jimp.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const width = source.width;
  const height = source.height;
  const plan = new ShrinkPlan(width, height, bytes.length, maxBytes, JIMP_BYTES_PER_INPUT_BYTE);
  // Only a picture with transparent pixels is flattened: flattening an opaque one on white changes
  // no pixel, so this check (and hasTransparency's scan) only saves a copy of every attempt.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, an opaque picture flattened is the same picture
  const flatten = format !== 'jpeg' && hasTransparency(source.bitmap.data);
  let kept: ShrunkImage | undefined;
  for (let size: { width: number; height: number } | undefined = plan.size; size;) {
    await checkpoint(signal);
    const { width: w, height: h } = size;
    let img = source.clone();
    if (w !== width || h !== height) img.resize({ w, h });
    // Stryker disable next-line ConditionalExpression: equivalent, see `flatten`
    if (flatten) {
      // JPEG has no alpha: put transparent pixels on white rather than black.
      const flat = new jimp.Jimp({ width: w, height: h, color: 0xffffffff });
      flat.composite(img, 0, 0);
      img = flat as typeof img;
    }
    const out = await img.getBuffer('image/jpeg', { quality: JPEG_QUALITY });
    await checkpoint(signal);
    const verdict = plan.report(out.length);
    if (verdict.keep) kept = { bytes: new Uint8Array(out), format: 'jpeg', width: w, height: h };
    size = verdict.next?.size;
  }
  if (kept) return kept;
  throw new Error(`could not bring the image under ${maxBytes} bytes`);
}

/**
 * Between two steps of the work (each holds the thread for a while): lets the event loop run, so a
 * cancellation can arrive, then stops if it did.
 */
async function checkpoint(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return;
  await new Promise((resolve) => setImmediate(resolve));
  signal.throwIfAborted();
}

/**
 * True when some pixel of an RGBA buffer is not opaque. A wrong true only flattens an opaque
 * picture, which changes nothing (see `flatten`); a wrong false is caught by the transparency tests.
 */
function hasTransparency(rgba: Uint8Array | Buffer): boolean {
  // Stryker disable next-line AssignmentOperator: equivalent, `i -= 4` reads rgba[-1] (undefined): true
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return true;
  // Stryker disable next-line BooleanLiteral: equivalent, true only flattens an opaque picture
  return false;
}

/**
 * The shrinker, loaded on first use: `dist/imaging.js` (jimp and the decoders, bundled on their
 * own) beside this bundle, or its source under tsx in development. The computed path keeps esbuild
 * from inlining the libraries into the activation bundle. Node's module cache loads it once, so
 * this module keeps no state of its own (part of it is in the features bundle, part in imaging's).
 */
export function loadShrinker(): Shrinker {
  const bundled = path.join(__dirname, 'imaging.js');
  const mod = createRequire(__filename)(existsSync(bundled) ? bundled : path.join(__dirname, 'imaging.ts')) as {
    shrink: Shrinker;
  };
  return mod.shrink;
}
