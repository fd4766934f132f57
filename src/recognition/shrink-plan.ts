/**
 * The shrinking plan shared by both shrinkers — the preview webview's (the browser's own decoder,
 * resizer and JPEG encoder, src/webview/recognition/shrink.ts) and jimp's (./resize): where to
 * start, how much smaller each next attempt is, and the JPEG quality. Pure: the webview bundle
 * imports it too.
 */

/** Longest side of the first attempt: phone photos are reduced to this before the quality steps. */
export const FIRST_LONG_SIDE = 4096;
/** JPEG quality of every attempt (0–100). */
export const JPEG_QUALITY = 85;
/** Attempts before giving up. */
export const MAX_ATTEMPTS = 8;

/**
 * The scale of the first attempt for an upright `width` × `height` picture of `inputBytes`: the
 * encoded size grows roughly with the pixel count, so start near the target instead of at full size.
 */
export function firstScale(width: number, height: number, inputBytes: number, maxBytes: number): number {
  return Math.min(1, FIRST_LONG_SIDE / Math.max(width, height), Math.sqrt(maxBytes / inputBytes) * 0.95);
}

/** The scale of the next attempt, after one at `scale` came out at `outBytes`. */
export function nextScale(scale: number, outBytes: number, maxBytes: number): number {
  return scale * Math.min(0.9, Math.sqrt(maxBytes / outBytes) * 0.95);
}

/** The pixel size at `scale` (each side rounded, at least 1): the aspect is kept within one pixel. */
export function scaledSize(width: number, height: number, scale: number): { width: number; height: number } {
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
