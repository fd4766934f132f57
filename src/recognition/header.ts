/**
 * What an image's first bytes tell, read without decoding it: its format (magic bytes), its stored
 * pixel size and its EXIF orientation. Pure; apart from src/recognition/image.ts (which re-exports
 * it) so that the export, which reads these, takes no copy of the recognition's refusal class.
 */

/** Image formats we can recognise by their first bytes. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'bmp';

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
