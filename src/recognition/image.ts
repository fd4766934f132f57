/**
 * Pure image helpers of the recognition feature (no `vscode`): format sniffing by magic bytes,
 * dimensions and EXIF orientation read from the headers, base64 / data URI handling, and the
 * upload preparation (size check, optional shrink) that decides what goes to crop_growth_recognize.
 */

/** Image formats we can recognise by their first bytes. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'bmp';

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

/** Tells the image format from the magic bytes, or undefined when the bytes are not an image we know. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const b = bytes;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return 'png';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'webp';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 14 && b[0] === 0x42 && b[1] === 0x4d) return 'bmp';
  return undefined;
}

function ascii(b: Uint8Array, start: number, length: number): string {
  let s = '';
  for (let i = start; i < start + length && i < b.length; i++) s += String.fromCharCode(b[i] ?? 0);
  return s;
}

function u16be(b: Uint8Array, i: number): number {
  return ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
}
function u16le(b: Uint8Array, i: number): number {
  return (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
}
function u32be(b: Uint8Array, i: number): number {
  return (((b[i] ?? 0) << 24) >>> 0) + (((b[i + 1] ?? 0) << 16) | ((b[i + 2] ?? 0) << 8) | (b[i + 3] ?? 0));
}
function u24le(b: Uint8Array, i: number): number {
  return (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8) | ((b[i + 2] ?? 0) << 16);
}

/** Pixel size as stored in the file (before any EXIF rotation). */
export interface PixelSize {
  width: number;
  height: number;
}

/** Reads the stored pixel size from the header of a JPEG, PNG, WebP, GIF or BMP; undefined if unreadable. */
export function imageSize(bytes: Uint8Array): PixelSize | undefined {
  const format = sniffImageFormat(bytes);
  const b = bytes;
  switch (format) {
    case 'png':
      return b.length >= 24 ? { width: u32be(b, 16), height: u32be(b, 20) } : undefined;
    case 'gif':
      return b.length >= 10 ? { width: u16le(b, 6), height: u16le(b, 8) } : undefined;
    case 'bmp':
      return b.length >= 26
        ? {
            width: Math.abs(new DataView(b.buffer, b.byteOffset).getInt32(18, true)),
            height: Math.abs(new DataView(b.buffer, b.byteOffset).getInt32(22, true)),
          }
        : undefined;
    case 'webp':
      return webpSize(b);
    case 'jpeg':
      return jpegSize(b);
    default:
      return undefined;
  }
}

function webpSize(b: Uint8Array): PixelSize | undefined {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X' && b.length >= 30) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (chunk === 'VP8 ' && b.length >= 30) return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

/** Walks the JPEG markers; calls `visit` for each segment (marker, payload start, payload length) until it returns true. */
function walkJpeg(b: Uint8Array, visit: (marker: number, start: number, length: number) => boolean): void {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return;
    const length = u16be(b, i + 2);
    if (length < 2) return;
    if (visit(marker, i + 4, length - 2)) return;
    i += 2 + length;
  }
}

function jpegSize(b: Uint8Array): PixelSize | undefined {
  let size: PixelSize | undefined;
  walkJpeg(b, (marker, start) => {
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (!isSof || start + 5 > b.length) return false;
    size = { height: u16be(b, start + 1), width: u16be(b, start + 3) };
    return true;
  });
  return size;
}

/** The EXIF orientation (1–8) of a JPEG; 1 when absent or unreadable. */
export function jpegOrientation(bytes: Uint8Array): number {
  if (sniffImageFormat(bytes) !== 'jpeg') return 1;
  let orientation = 1;
  walkJpeg(bytes, (marker, start, length) => {
    if (marker !== 0xe1 || ascii(bytes, start, 4) !== 'Exif') return false;
    const tiff = start + 6;
    const little = ascii(bytes, tiff, 2) === 'II';
    const r16 = (i: number): number => (little ? u16le(bytes, i) : u16be(bytes, i));
    const r32 = (i: number): number => (little ? u16le(bytes, i) + u16le(bytes, i + 2) * 65536 : u32be(bytes, i));
    const ifd = tiff + r32(tiff + 4);
    const end = start + length;
    if (ifd + 2 > end) return true;
    const entries = r16(ifd);
    for (let k = 0; k < entries; k++) {
      const e = ifd + 2 + k * 12;
      if (e + 12 > end) break;
      if (r16(e) === 0x0112) {
        const v = r16(e + 8);
        if (v >= 1 && v <= 8) orientation = v;
        break;
      }
    }
    return true;
  });
  return orientation;
}

/** The size the image is displayed at once its EXIF orientation is applied (5–8 swap the sides). */
export function orientedSize(size: PixelSize, orientation: number): PixelSize {
  return orientation >= 5 && orientation <= 8 ? { width: size.height, height: size.width } : size;
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
