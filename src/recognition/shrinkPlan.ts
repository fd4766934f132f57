/**
 * The shrinking plan shared by both shrinkers — the preview webview's (the browser's own decoder,
 * resizer and JPEG encoder, src/webview/recognition/shrink.ts) and jimp's (./resize): which pixel
 * size to try first, what to do with each result, and the JPEG quality. Pure: the webview bundle
 * imports it too.
 *
 * What it aims at: the largest picture that fits, not the smallest that surely does.
 * The recognizer counts buds and reads stages from detail, so a photo is never made smaller than
 * the limit asks: a 4.8-megapixel photo of 6 MB whose JPEG at quality 85 is 2 MB is sent at its
 * full resolution. The target is {@link TARGET_SHARE} of the limit (3.6 of 4 MB), close to it but
 * with room for the few per cent a JPEG's size varies with its content at one pixel size, so the
 * first attempt usually fits. The long side is capped at {@link MAX_LONG_SIDE} (12.6 megapixels at
 * 4 : 3, a phone's usual photo): a larger picture does not fit under 4 MB at this quality anyway
 * (a 24-megapixel photo at 4096 × 3072 came out at 4.3 MB in Chromium). A first result under
 * {@link GROW_BELOW} of the limit earns one larger attempt; the best result under the limit is kept.
 */

/** Longest side of any attempt: larger photos are reduced to this at least. */
export const MAX_LONG_SIDE = 4096;
/** JPEG quality of every attempt (0–100). */
export const JPEG_QUALITY = 85;
/** Attempts before giving up. */
export const MAX_ATTEMPTS = 8;
/** The share of the limit the plan aims at. */
export const TARGET_SHARE = 0.9;
/** A first result under this share of the limit is tried once more, larger. */
export const GROW_BELOW = 0.45;
/**
 * The expected size of the quality-85 JPEG of a picture against its input's bytes at the same pixel
 * count, for Chromium's encoder: 0.27–0.36 measured on the bench's generated photos (quality 92,
 * noisy). jimp's encoder writes larger files: {@link JIMP_BYTES_PER_INPUT_BYTE}.
 */
const BYTES_PER_INPUT_BYTE = 0.3;
/** The same for jimp's JPEG encoder (its files of the bench photos are 1.2–1.7 times Chromium's). */
export const JIMP_BYTES_PER_INPUT_BYTE = 0.45;

/** A pixel size. */
export interface Size {
  width: number;
  height: number;
}

/** The largest scale of an upright `width` × `height` picture the plan may try. */
export function maxScale(width: number, height: number): number {
  return Math.min(1, MAX_LONG_SIDE / Math.max(width, height));
}

/**
 * The scale of the first attempt for an upright `width` × `height` picture of `inputBytes`: the
 * encoded size grows roughly with the pixel count, so aim at the target from the input's bytes.
 */
export function firstScale(
  width: number,
  height: number,
  inputBytes: number,
  maxBytes: number,
  bytesPerInputByte = BYTES_PER_INPUT_BYTE,
): number {
  const expected = inputBytes * bytesPerInputByte;
  return Math.min(maxScale(width, height), Math.sqrt((maxBytes * TARGET_SHARE) / expected));
}

/** The pixel size at `scale` (each side rounded, at least 1): the aspect is kept within one pixel. */
function scaledSize(width: number, height: number, scale: number): Size {
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** What to do after an attempt: keep its bytes (the best so far under the limit) or not, and what to try next. */
export interface Verdict {
  keep: boolean;
  /** The next attempt; undefined when done (then the last kept bytes are the answer, if any). */
  next: { scale: number; size: Size } | undefined;
}

/** One shrink's plan: call {@link ShrinkPlan.report} with each attempt's encoded size. */
export class ShrinkPlan {
  /** The scale of the attempt being made. */
  scale: number;
  private readonly top: number;
  private best: number | undefined;
  private attempts = 0;
  private grew = false;

  constructor(
    private readonly width: number,
    private readonly height: number,
    inputBytes: number,
    private readonly maxBytes: number,
    /** The encoder's expected output per input byte at the same pixel count. */
    bytesPerInputByte = BYTES_PER_INPUT_BYTE,
  ) {
    this.top = maxScale(width, height);
    this.scale = firstScale(width, height, inputBytes, maxBytes, bytesPerInputByte);
  }

  /** The pixel size of the attempt being made. */
  get size(): Size {
    return scaledSize(this.width, this.height, this.scale);
  }

  /** The attempt at {@link scale} came out at `outBytes`: keep it or not, and what next. */
  report(outBytes: number): Verdict {
    this.attempts++;
    const fits = outBytes <= this.maxBytes;
    const keep = fits && (this.best === undefined || outBytes > this.best);
    if (keep) this.best = outBytes;
    const last = this.attempts >= MAX_ATTEMPTS;
    let scale: number | undefined;
    if (!fits) {
      // Over: smaller, unless a kept one exists (the larger try failed: keep the one that fit).
      if (this.best === undefined && !last)
        scale = this.scale * Math.min(0.9, Math.sqrt((this.maxBytes * TARGET_SHARE) / outBytes));
    } else if (!this.grew && !last && outBytes < this.maxBytes * GROW_BELOW && this.scale < this.top * 0.99) {
      // Far under the limit at a reduced size: once, larger.
      this.grew = true;
      scale = Math.min(this.top, this.scale * Math.sqrt((this.maxBytes * TARGET_SHARE) / outBytes));
    }
    if (scale === undefined) return { keep, next: undefined };
    this.scale = scale;
    return { keep, next: { scale, size: this.size } };
  }
}
