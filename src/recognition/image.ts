/**
 * Pure image helpers of the recognition feature (no `vscode`): the formats the platform takes,
 * base64 / data URI handling, and the upload preparation (size check, optional shrink) that
 * decides what goes to crop_growth_recognize. What the headers tell (format by magic bytes,
 * dimensions, EXIF orientation) is ./header's, re-exported here.
 */
import { sniffImageFormat, type ImageFormat } from './header';

export { imageSize, jpegOrientation, orientedSize, sniffImageFormat, type ImageFormat, type PixelSize } from './header';

/** The formats the platform accepts (the explorer menu offers .jpg/.jpeg/.png/.webp). */
export const UPLOADABLE_FORMATS: readonly ImageFormat[] = ['jpeg', 'png', 'webp'];
/**
 * The formats sent as they are. The vendor's page names JPEG (its data URI example) and the local
 * endpoint decodes JPEG and PNG; a WebP is converted to JPEG before upload.
 */
const SENT_AS_IS: readonly ImageFormat[] = ['jpeg', 'png'];

/** The platform's advice: one image at most 4 MB (decoded bytes, per the project's decision table). */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;

/** Largest image the extension reads or downloads at all (before any shrinking). */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

const MIME: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  bmp: 'image/bmp',
};

/** File extension (without dot) used when saving an image of this format. */
export function extensionOf(format: ImageFormat): string {
  return format === 'jpeg' ? 'jpg' : format;
}

/** The MIME type of a format. */
export function mimeOf(format: ImageFormat): string {
  return MIME[format];
}

/** Bare base64 of the bytes (no `data:` prefix), as the platform wants for `imageBase64`. */
export function toBareBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** A `data:` URI of the bytes. */
export function toDataUri(bytes: Uint8Array, mime: string): string {
  return `data:${mime};base64,${toBareBase64(bytes)}`;
}

/** A decoded data URI. */
export interface DataUri {
  mime: string;
  bytes: Uint8Array;
}

const DATA_URI = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[^;,]*)*)(;base64)?,(.*)$/is;

/** Decodes a `data:` URI (base64 or percent-encoded); undefined when `text` is not one. */
export function parseDataUri(text: string): DataUri | undefined {
  const m = DATA_URI.exec(text.trim());
  if (!m) return undefined;
  const mime = (m[1] ?? 'text/plain').toLowerCase();
  const payload = m[4] ?? '';
  if (m[3]) {
    const clean = payload.replace(/\s+/g, '');
    if (!isBase64(clean)) return undefined;
    return { mime, bytes: new Uint8Array(Buffer.from(clean, 'base64')) };
  }
  try {
    return { mime, bytes: new Uint8Array(Buffer.from(decodeURIComponent(payload), 'latin1')) };
  } catch {
    return undefined;
  }
}

/** True when `s` is well-formed standard base64 (padding optional). */
export function isBase64(s: string): boolean {
  return s.length > 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.replace(/=+$/, '').length % 4 !== 1;
}

/** Why an image cannot be sent. */
export type RefusalReason = 'empty' | 'not-image' | 'unsupported-format' | 'too-large' | 'cannot-shrink';

/** An image refused before any request. */
export class ImageRefusedError extends Error {
  readonly kind = 'image-refused' as const;
  constructor(
    readonly reason: RefusalReason,
    /** The sniffed format, when it is an image at all. */
    readonly format: ImageFormat | undefined,
    readonly byteLength: number,
    detail?: string,
  ) {
    super(`Image refused (${reason})${detail ? `: ${detail}` : ''}`);
    this.name = 'ImageRefusedError';
  }
}

/** What the shrinker returns: a JPEG (or the same format) under the limit, with its displayed size. */
export interface ShrunkImage {
  bytes: Uint8Array;
  format: ImageFormat;
  width: number;
  height: number;
}

/**
 * Shrinks an image under `maxBytes`, keeping its aspect and applying EXIF orientation; an aborted
 * `signal` stops it (rejecting with the signal's reason).
 */
export type Shrinker = (
  bytes: Uint8Array,
  format: ImageFormat,
  maxBytes: number,
  signal?: AbortSignal,
) => Promise<ShrunkImage>;

/** An image ready to be sent as `imageBase64`. */
export interface PreparedImage {
  /** Bare base64 of `bytes`. */
  base64: string;
  /** The bytes sent (the original, or the re-encoded copy). */
  bytes: Uint8Array;
  format: ImageFormat;
  /** The original bytes as read (kept to save a copy). */
  original: Uint8Array;
  originalFormat: ImageFormat;
  /** Set when the image was re-encoded: why, sizes before and after in bytes, and its new pixel size. */
  reencoded?: {
    why: 'size' | 'format' | 'orientation';
    fromBytes: number;
    toBytes: number;
    width: number;
    height: number;
  };
}

/** Options of {@link prepareForUpload}. */
export interface PrepareOptions {
  /** Loads the shrinker when (and only when) one is needed; undefined = none available. */
  shrinker?: () => Shrinker | undefined;
  /** Upload limit in bytes (default 4 MB). */
  maxBytes?: number;
  /** Re-encode even under the limit (e.g. to apply EXIF orientation); falls back to the original if that fails. */
  reencode?: boolean;
  /** Cancels the shrinking: the promise rejects with the signal's reason and nothing is prepared. */
  signal?: AbortSignal;
}

/**
 * Checks an image before upload: refuses non-images (by magic bytes) and formats the platform does
 * not take; shrinks images over the limit with the shrinker (refuses when it cannot); converts a
 * WebP to JPEG (sent as it is if that fails, when under the limit).
 */
export async function prepareForUpload(bytes: Uint8Array, options: PrepareOptions = {}): Promise<PreparedImage> {
  const maxBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;
  if (bytes.length === 0) throw new ImageRefusedError('empty', undefined, 0);
  const format = sniffImageFormat(bytes);
  if (!format) throw new ImageRefusedError('not-image', undefined, bytes.length);
  if (!UPLOADABLE_FORMATS.includes(format)) throw new ImageRefusedError('unsupported-format', format, bytes.length);
  if (bytes.length > MAX_INPUT_BYTES) throw new ImageRefusedError('too-large', format, bytes.length);
  const asIs: PreparedImage = { base64: '', bytes, format, original: bytes, originalFormat: format };
  const tooBig = bytes.length > maxBytes;
  const convert = !SENT_AS_IS.includes(format);
  if (!tooBig && !convert && !options.reencode) return { ...asIs, base64: toBareBase64(bytes) };
  let shrink: Shrinker | undefined;
  try {
    shrink = options.shrinker?.();
  } catch (err) {
    if (tooBig)
      throw new ImageRefusedError(
        'cannot-shrink',
        format,
        bytes.length,
        err instanceof Error ? err.message : String(err),
      );
  }
  let out: ShrunkImage | undefined;
  let problem: string | undefined;
  if (shrink) {
    try {
      out = await shrink(bytes, format, maxBytes, options.signal);
      if (out.bytes.length > maxBytes) problem = `still ${out.bytes.length} bytes`;
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      problem = err instanceof Error ? err.message : String(err);
    }
  } else {
    problem = 'no image library available';
  }
  options.signal?.throwIfAborted();
  if (!out || problem !== undefined) {
    if (tooBig) throw new ImageRefusedError('cannot-shrink', format, bytes.length, problem);
    return { ...asIs, base64: toBareBase64(bytes) };
  }
  return {
    base64: toBareBase64(out.bytes),
    bytes: out.bytes,
    format: out.format,
    original: bytes,
    originalFormat: format,
    reencoded: {
      why: tooBig ? 'size' : convert ? 'format' : 'orientation',
      fromBytes: bytes.length,
      toBytes: out.bytes.length,
      width: out.width,
      height: out.height,
    },
  };
}
