/** Image checks before upload: magic bytes, sizes, EXIF orientation, base64 / data URIs, the 4 MB rule. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ImageRefusedError,
  MAX_INPUT_BYTES,
  MAX_UPLOAD_BYTES,
  UPLOADABLE_FORMATS,
  extensionOf,
  imageSize,
  isBase64,
  jpegOrientation,
  mimeOf,
  orientedSize,
  parseDataUri,
  prepareForUpload,
  sniffImageFormat,
  toBareBase64,
  toDataUri,
  type ImageFormat,
  type PixelSize,
  type Shrinker,
} from '../../../src/recognition/image';
import {
  be16,
  be32,
  cat,
  exif,
  inside,
  jpg,
  le16,
  noise,
  png,
  segment,
  tiff,
  webpHeader,
  withOrientation,
} from './fixtures';

const SAMPLES = join(__dirname, '..', '..', 'emulator', 'images');

describe('recognition: image checks', () => {
  it('tells formats by magic bytes, not by name', () => {
    assert.equal(sniffImageFormat(png(2, 2)), 'png');
    assert.equal(sniffImageFormat(jpg(2, 2)), 'jpeg');
    assert.equal(sniffImageFormat(webpHeader(10, 10)), 'webp');
    assert.equal(sniffImageFormat(new TextEncoder().encode('GIF89a......')), 'gif');
    assert.equal(sniffImageFormat(new TextEncoder().encode('# Bulletin\n\nnot a picture')), undefined);
    assert.equal(sniffImageFormat(new Uint8Array([0x25, 0x50, 0x44, 0x46])), undefined); // %PDF
    assert.equal(sniffImageFormat(new Uint8Array(0)), undefined);
  });

  it('reads the pixel size from PNG, JPEG and WebP headers (and the sample pictures)', () => {
    assert.deepEqual(imageSize(png(31, 17)), { width: 31, height: 17 });
    assert.deepEqual(imageSize(jpg(64, 40)), { width: 64, height: 40 });
    assert.deepEqual(imageSize(webpHeader(1200, 900)), { width: 1200, height: 900 });
    const teaJpg = new Uint8Array(readFileSync(join(SAMPLES, 'tea_buds.jpg')));
    const teaPng = new Uint8Array(readFileSync(join(SAMPLES, 'tea_buds.png')));
    assert.deepEqual(imageSize(teaJpg), imageSize(teaPng));
  });

  it('reads the EXIF orientation of a JPEG (big- and little-endian), 1 when absent', () => {
    const base = jpg(20, 10);
    assert.equal(jpegOrientation(base), 1);
    assert.equal(jpegOrientation(withOrientation(base, 6)), 6);
    assert.equal(jpegOrientation(withOrientation(base, 8, true)), 8);
    assert.deepEqual(imageSize(withOrientation(base, 6)), { width: 20, height: 10 }, 'the stored size is unchanged');
    assert.deepEqual(orientedSize({ width: 20, height: 10 }, 6), { width: 10, height: 20 });
    assert.deepEqual(orientedSize({ width: 20, height: 10 }, 3), { width: 20, height: 10 });
  });

  it('encodes bare base64 (no data: prefix) and decodes data URIs', () => {
    const bytes = png(3, 3);
    const b64 = toBareBase64(bytes);
    assert.ok(!b64.startsWith('data:'));
    assert.ok(isBase64(b64));
    assert.deepEqual(new Uint8Array(Buffer.from(b64, 'base64')), bytes);
    const uri = toDataUri(bytes, 'image/png');
    assert.ok(uri.startsWith('data:image/png;base64,'));
    const parsed = parseDataUri(uri);
    assert.equal(parsed?.mime, 'image/png');
    assert.deepEqual(parsed?.bytes, bytes);
    // whitespace inside the payload (pasted, wrapped) is tolerated
    const wrapped = `data:image/png;base64,${b64.slice(0, 10)}\n${b64.slice(10)}`;
    assert.deepEqual(parseDataUri(wrapped)?.bytes, bytes);
    assert.equal(parseDataUri('data:image/png;base64,@@@'), undefined);
    assert.equal(parseDataUri('https://example.invalid/a.png'), undefined);
    assert.equal(isBase64('abc'), true);
    assert.equal(isBase64('a'), false);
    assert.equal(isBase64('ab$c'), false);
  });

  it('refuses non-images and unsupported formats before anything else (the shrinker is never loaded)', async () => {
    let loaded = 0;
    const shrinker = (): Shrinker => {
      loaded++;
      throw new Error('must not load');
    };
    for (const [bytes, reason] of [
      [new TextEncoder().encode('%PDF-1.7 not an image'), 'not-image'],
      [new TextEncoder().encode('GIF89a' + 'x'.repeat(20)), 'unsupported-format'],
      [new Uint8Array(0), 'empty'],
    ] as const) {
      await assert.rejects(
        prepareForUpload(bytes, { shrinker }),
        (e: unknown) => e instanceof ImageRefusedError && e.reason === reason,
      );
    }
    assert.equal(loaded, 0);
  });

  it('sends images up to 4 MB as they are, as bare base64, without loading the shrinker', async () => {
    let loaded = 0;
    const bytes = png(50, 40);
    const p = await prepareForUpload(bytes, { shrinker: () => (loaded++, undefined) });
    assert.equal(loaded, 0);
    assert.equal(p.base64, toBareBase64(bytes));
    assert.equal(p.reencoded, undefined);
    assert.equal(p.format, 'png');
  });

  it('shrinks images over the limit with the shrinker, keeps the original for the saved copy', async () => {
    const big = png(200, 200, noise());
    const small = jpg(100, 100);
    const calls: number[] = [];
    const shrink: Shrinker = async (_b, _f, max) => {
      calls.push(max);
      return { bytes: small, format: 'jpeg', width: 100, height: 100 };
    };
    const p = await prepareForUpload(big, { shrinker: () => shrink, maxBytes: 1000 });
    assert.deepEqual(calls, [1000]);
    assert.equal(p.format, 'jpeg');
    assert.equal(p.base64, toBareBase64(small));
    assert.deepEqual(p.original, big);
    assert.equal(p.originalFormat, 'png');
    assert.equal(p.reencoded?.why, 'size');
  });

  it('refuses clearly when an image over the limit cannot be shrunk (no library, library failure, still too big)', async () => {
    const big = png(200, 200, noise());
    const isCannot = (e: unknown): boolean =>
      e instanceof ImageRefusedError && e.reason === 'cannot-shrink' && e.format === 'png';
    await assert.rejects(prepareForUpload(big, { maxBytes: 100 }), isCannot);
    await assert.rejects(
      prepareForUpload(big, {
        maxBytes: 100,
        shrinker: () => async () => {
          throw new Error('boom');
        },
      }),
      isCannot,
    );
    await assert.rejects(
      prepareForUpload(big, {
        maxBytes: 100,
        shrinker: () => async () => ({ bytes: big, format: 'png', width: 1, height: 1 }),
      }),
      isCannot,
    );
  });

  it('re-encodes for orientation on request, falling back to the original when that fails', async () => {
    const bytes = jpg(10, 10);
    const failing = await prepareForUpload(bytes, {
      reencode: true,
      shrinker: () => async () => {
        throw new Error('no');
      },
    });
    assert.equal(failing.base64, toBareBase64(bytes));
    const ok = await prepareForUpload(bytes, {
      reencode: true,
      shrinker: () => async () => ({ bytes: png(1, 1), format: 'png', width: 1, height: 1 }),
    });
    assert.equal(ok.reencoded?.why, 'orientation');
  });

  it('uses 4 MB of decoded bytes as the limit', () => {
    assert.equal(MAX_UPLOAD_BYTES, 4 * 1024 * 1024);
  });
});

const le24 = (n: number): number[] => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];

const SOI = [0xff, 0xd8];
const EOI = [0xff, 0xd9];
/** A frame header (SOFn) of `width` × `height`, 8 bits, one component. */
function frame(width: number, height: number, marker = 0xc0): Uint8Array {
  return segment(marker, [8, ...be16(height), ...be16(width), 1, 1, 0x11, 0]);
}

/** The 24 bytes of a PNG up to the IHDR's width and height. */
const pngHeader = (width: number, height: number): Uint8Array =>
  cat([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], be32(13), 'IHDR', be32(width), be32(height));
/** A GIF's logical screen descriptor start. */
const gifHeader = (width: number, height: number, version = '89a'): Uint8Array =>
  cat(`GIF${version}`, le16(width), le16(height));
/** The first 26 bytes of a BMP (BITMAPINFOHEADER): a negative height is a top-down bitmap. */
function bmpHeader(width: number, height: number): Uint8Array {
  const b = Buffer.alloc(26);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(26, 2);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  return new Uint8Array(b);
}
/** A RIFF/WEBP container start with the first chunk `fourcc` and its payload. */
const riff = (fourcc: string, payload: Uint8Array | readonly number[]): Uint8Array =>
  cat('RIFF', [0, 0, 0, 0], 'WEBP', fourcc, [0, 0, 0, 0], payload);
/** An extended WebP (VP8X): the canvas size minus one, 24 bits each. */
const webpVp8x = (width: number, height: number): Uint8Array =>
  riff('VP8X', [0x10, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)]);
/** A lossy WebP (VP8): frame tag, start code, 14-bit sizes with 2-bit scale on top. */
const webpVp8 = (width: number, height: number, scale = 0): Uint8Array =>
  riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(width | (scale << 14)), ...le16(height | (scale << 14))]);

const refusal =
  (reason: string, check: (e: ImageRefusedError) => boolean = () => true) =>
  (e: unknown): boolean =>
    e instanceof ImageRefusedError && e.reason === reason && check(e);

describe('recognition: image headers', () => {
  it('saves a JPEG as .jpg and every other format under its own name, with its MIME type', () => {
    for (const [format, extension, mime] of [
      ['jpeg', 'jpg', 'image/jpeg'],
      ['png', 'png', 'image/png'],
      ['webp', 'webp', 'image/webp'],
      ['gif', 'gif', 'image/gif'],
      ['bmp', 'bmp', 'image/bmp'],
    ] as const) {
      assert.equal(extensionOf(format), extension);
      assert.equal(mimeOf(format), mime);
    }
  });

  it('the signature alone is enough to tell a format; one byte short of it or one byte off, it is not an image', () => {
    const cases: [Uint8Array, ImageFormat | undefined][] = [
      [cat([0xff, 0xd8, 0xff]), 'jpeg'],
      [cat([0xff, 0xd8]), undefined],
      [cat([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'png'],
      [cat([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a]), undefined],
      [cat('RIFF', [1, 2, 3, 4], 'WEBP'), 'webp'],
      [cat('RIFF', [1, 2, 3, 4], 'WEB'), undefined],
      [cat('RIFF', [1, 2, 3, 4], 'WAVE'), undefined],
      [cat('RIFX', [1, 2, 3, 4], 'WEBP'), undefined],
      [cat('GIF87a'), 'gif'],
      [cat('GIF89a'), 'gif'],
      [cat('GIF88a'), undefined],
      [cat('GIF89'), undefined],
      [cat('BM', new Uint8Array(12)), 'bmp'],
      [cat('BM', new Uint8Array(11)), undefined],
      [cat('BN', new Uint8Array(12)), undefined],
      [cat('CM', new Uint8Array(12)), undefined],
    ];
    // Each byte of the JPEG and PNG signatures counts.
    for (const [sig, format] of [
      [[0xff, 0xd8, 0xff], 'jpeg'],
      [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'png'],
    ] as const) {
      const whole = cat(sig, new Uint8Array(20));
      cases.push([whole, format]);
      for (let i = 0; i < sig.length; i++) {
        const off = whole.slice();
        off[i] = (off[i] ?? 0) ^ 0x20;
        cases.push([off, undefined]);
      }
    }
    for (const [bytes, format] of cases)
      assert.equal(sniffImageFormat(bytes), format, Buffer.from(bytes).toString('hex'));
  });

  it('reads the stored size of each format from its header alone, up to the largest the header can hold', () => {
    const cases: [string, Uint8Array, PixelSize][] = [
      ['PNG', pngHeader(31, 17), { width: 31, height: 17 }],
      ['PNG, 32-bit sizes (unsigned)', pngHeader(0x81020304, 0x01ff0102), { width: 0x81020304, height: 0x01ff0102 }],
      ['GIF87a', gifHeader(0x0102, 0x0304, '87a'), { width: 0x0102, height: 0x0304 }],
      ['GIF89a', gifHeader(640, 480), { width: 640, height: 480 }],
      ['BMP', bmpHeader(0x01020304, 0x00030201), { width: 0x01020304, height: 0x00030201 }],
      ['BMP stored top-down (negative height)', bmpHeader(300, -200), { width: 300, height: 200 }],
      ['WebP VP8X', webpVp8x(0x123456, 0x0abcde), { width: 0x123456, height: 0x0abcde }],
      ['WebP VP8X smallest', webpVp8x(1, 1), { width: 1, height: 1 }],
      ['WebP VP8 (lossy)', webpVp8(0x3ffe, 0x2345), { width: 0x3ffe, height: 0x2345 }],
      ['WebP VP8 with upscaling bits (not part of the size)', webpVp8(1200, 900, 3), { width: 1200, height: 900 }],
      ['WebP VP8L (lossless), largest', webpHeader(16384, 16384), { width: 16384, height: 16384 }],
      ['WebP VP8L', webpHeader(1201, 3001), { width: 1201, height: 3001 }],
      ['JPEG baseline', cat(SOI, frame(0x0102, 0x0304), EOI), { width: 0x0102, height: 0x0304 }],
      ['JPEG, largest', cat(SOI, frame(65535, 65535), EOI), { width: 65535, height: 65535 }],
    ];
    for (const [what, bytes, size] of cases) assert.deepEqual(imageSize(bytes), size, what);
  });

  it('reads the size of an image handed as a view into a larger buffer', () => {
    assert.deepEqual(imageSize(inside(bmpHeader(640, -480))), { width: 640, height: 480 });
    assert.deepEqual(imageSize(inside(pngHeader(5, 6))), { width: 5, height: 6 });
  });

  it('an image truncated before its size has none', () => {
    for (const [what, bytes] of [
      ['PNG', pngHeader(31, 17).subarray(0, 23)],
      ['GIF', gifHeader(31, 17).subarray(0, 9)],
      ['BMP', bmpHeader(31, 17).subarray(0, 25)],
      ['WebP VP8X', webpVp8x(31, 17).subarray(0, 29)],
      ['WebP VP8', webpVp8(31, 17).subarray(0, 29)],
      ['WebP VP8L', webpHeader(31, 17).subarray(0, 24)],
      ['WebP with an unknown first chunk', riff('ALPH', new Uint8Array(20))],
      ['JPEG cut inside its frame header', cat(SOI, frame(31, 17).subarray(0, 8))],
      ['JPEG without a frame header', cat(SOI, segment(0xe0, 'JFIF\0......'), EOI)],
      ['not an image', cat('%PDF-1.7', new Uint8Array(40))],
    ] as const)
      assert.equal(imageSize(bytes), undefined, what);
  });

  it('a JPEG frame header needs only its first five bytes for the size', () => {
    const sof = frame(40, 30).subarray(0, 4 + 5);
    assert.deepEqual(imageSize(cat(SOI, sof)), { width: 40, height: 30 });
  });

  it('a JPEG’s size comes from its frame header, whichever of the thirteen SOF markers it is, past any other segment', () => {
    const misleading = [8, ...be16(999), ...be16(888), 0];
    for (const marker of [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]) {
      const bytes = cat(
        SOI,
        segment(0xe0, misleading), // APP0
        segment(0xdb, misleading), // DQT
        segment(0xc4, misleading), // DHT
        segment(0xc8, misleading), // JPG (reserved)
        segment(0xcc, misleading), // DAC
        segment(0xfe, misleading), // COM
        frame(64, 48, marker),
        EOI,
      );
      assert.deepEqual(imageSize(bytes), { width: 64, height: 48 }, marker.toString(16));
    }
  });

  it('a JPEG’s fill bytes and stand-alone markers (SOI, RST0–RST7, TEM) between segments are skipped', () => {
    for (const standalone of [[0xff, 0xff, 0xff], SOI, [0xff, 0xd0], [0xff, 0xd3], [0xff, 0xd7], [0xff, 0x01]]) {
      const bytes = cat(SOI, standalone, frame(12, 34), EOI);
      assert.deepEqual(imageSize(bytes), { width: 12, height: 34 }, Buffer.from(standalone).toString('hex'));
    }
    assert.deepEqual(imageSize(cat(SOI, segment(0xe0, []), frame(12, 34))), { width: 12, height: 34 }, 'empty segment');
  });

  it('nothing after a JPEG’s end, its start of scan, a broken segment length or stray bytes is read as its size', () => {
    for (const [what, before] of [
      ['end of image', [0xff, 0xd9, 0x00, 0x02]],
      ['start of scan', [0xff, 0xda, 0x00, 0x02]],
      ['segment length 0', [0xff, 0xe0, 0x00, 0x00]],
      ['segment length 1', [0xff, 0xe0, 0x00, 0x01]],
      ['a byte that is no marker', [0x00]],
    ] as const) {
      assert.equal(imageSize(cat(SOI, before, frame(12, 34), EOI)), undefined, what);
    }
    // A frame header whose length is broken is not read either.
    assert.equal(imageSize(cat(SOI, [0xff, 0xc0, 0x00, 0x00, 8, 0, 34, 0, 12, 1], EOI)), undefined);
  });
});

describe('recognition: EXIF orientation', () => {
  const base = (): Uint8Array => cat(SOI, frame(20, 10));
  const withExif = (app1: Uint8Array, ...rest: Uint8Array[]): Uint8Array => cat(SOI, app1, ...rest, frame(20, 10), EOI);

  it('each orientation 1–8 is read, in either byte order; 0 and 9 are not orientations (upright)', () => {
    for (const little of [false, true])
      for (const [value, read] of [
        [0, 1],
        [1, 1],
        [2, 2],
        [3, 3],
        [4, 4],
        [5, 5],
        [6, 6],
        [7, 7],
        [8, 8],
        [9, 1],
        [0x0106, 1],
      ] as const)
        assert.equal(jpegOrientation(withExif(exif(tiff([[0x0112, value]], { little })))), read, `${value} ${little}`);
  });

  it('the orientation is found among the other tags of the first IFD', () => {
    for (const little of [false, true]) {
      const entries: [number, number][] = [
        [0x010f, 6],
        [0x0110, 7],
        [0x0112, 3],
        [0x011a, 8],
      ];
      assert.equal(jpegOrientation(withExif(exif(tiff(entries, { little })))), 3);
      const skipped = exif(tiff(entries, { little, ifdOffset: 8 }));
      assert.equal(jpegOrientation(withExif(segment(0xe0, 'JFIF\0\x01\x02'), skipped)), 3, 'after an APP0');
    }
  });

  it('an IFD placed further into the TIFF block is found through its offset', () => {
    for (const little of [false, true]) {
      const block = tiff([[0x0112, 6]], { little, ifdOffset: 16 });
      // Eight bytes of padding between the header and the IFD.
      const padded = cat(block.subarray(0, 8), new Uint8Array(8), block.subarray(8));
      assert.equal(jpegOrientation(withExif(exif(padded))), 6, `little ${little}`);
    }
  });

  it('only an APP1 segment marked Exif carries the orientation; an XMP APP1 before it is passed over', () => {
    assert.equal(jpegOrientation(withExif(exif(tiff([[0x0112, 6]]), 0xe2))), 1, 'APP2');
    assert.equal(jpegOrientation(withExif(segment(0xe1, cat('Exig\0\0', tiff([[0x0112, 6]]))))), 1, 'not Exif');
    const xmp = segment(0xe1, 'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>');
    assert.equal(jpegOrientation(cat(SOI, xmp, exif(tiff([[0x0112, 6]])), frame(20, 10))), 6);
  });

  it('only the first EXIF block counts (without an orientation, or damaged, the picture is upright)', () => {
    const later = exif(tiff([[0x0112, 6]]));
    assert.equal(jpegOrientation(withExif(exif(tiff([[0x0110, 6]])), later)), 1, 'no orientation tag');
    assert.equal(jpegOrientation(withExif(exif(tiff([[0x0112, 6]], { ifdOffset: 4000 })), later)), 1, 'IFD outside');
  });

  it('nothing outside the EXIF block is read: entries past its end or past the IFD’s count', () => {
    // The orientation entry cut off by the end of the segment (its value is there, its padding is not).
    const whole = tiff([
      [0x0110, 1],
      [0x0112, 6],
    ]);
    const cut = whole.subarray(0, 8 + 2 + 12 + 10);
    assert.equal(jpegOrientation(withExif(exif(cut))), 1, 'cut');
    // Ending exactly after the entry (no next-IFD offset) is fine.
    assert.equal(jpegOrientation(withExif(exif(whole.subarray(0, 8 + 2 + 24)))), 6, 'exact');
    // The IFD says one entry; the bytes after it look like an orientation entry.
    const counted = cat(tiff([[0x0110, 1]]).subarray(0, 8 + 2 + 12), [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]);
    assert.equal(jpegOrientation(withExif(exif(counted))), 1, 'past the count');
    // An IFD offset past the block.
    assert.equal(jpegOrientation(withExif(exif(tiff([[0x0112, 6]], { ifdOffset: 200 })))), 1, 'offset');
  });

  it('the orientation is read from JPEGs only', () => {
    const app1 = exif(tiff([[0x0112, 6]]));
    assert.equal(jpegOrientation(cat([0x00, 0x00], app1, frame(20, 10))), 1);
    assert.equal(jpegOrientation(base()), 1);
  });

  it('orientations 5–8 swap width and height for display; 1–4 and unknown values keep them', () => {
    for (let o = 0; o <= 9; o++) {
      const swaps = o >= 5 && o <= 8;
      assert.deepEqual(
        orientedSize({ width: 20, height: 10 }, o),
        swaps ? { width: 10, height: 20 } : { width: 20, height: 10 },
        `${o}`,
      );
    }
  });
});

describe('recognition: base64 and data URIs', () => {
  it('base64 of a view into a larger buffer encodes the view only', () => {
    const big = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(toBareBase64(big.subarray(2, 5)), Buffer.from([3, 4, 5]).toString('base64'));
    assert.equal(
      toDataUri(big.subarray(2, 5), 'image/png'),
      `data:image/png;base64,${Buffer.from([3, 4, 5]).toString('base64')}`,
    );
  });

  it('standard base64 with at most two pad characters is well-formed; URL-safe, misplaced pads or a lone sixth bit are not', () => {
    for (const [text, ok] of [
      ['', false],
      ['abcd', true],
      ['abc=', true],
      ['ab==', true],
      ['abc', true],
      ['ab', true],
      ['+/9Z', true],
      ['a===', false],
      ['a==', false],
      ['a=', false],
      ['abcde', false],
      ['ab=c', false],
      ['ab-_', false],
      ['ab c', false],
      ['ab$c', false],
      ['$abc', false],
      ['abc$', false],
    ] as const)
      assert.equal(isBase64(text), ok, JSON.stringify(text));
  });

  it('decodes data URIs: any MIME type (lower-cased, text/plain when absent), parameters, base64 or percent-encoded', () => {
    const hello = [...Buffer.from('Hello, World')];
    for (const [uri, mime, bytes] of [
      ['data:text/plain;base64,SGVsbG8sIFdvcmxk', 'text/plain', hello],
      ['data:,Hello%2C%20World', 'text/plain', hello],
      ['data:;base64,SGVsbG8sIFdvcmxk', 'text/plain', hello],
      ['DATA:IMAGE/PNG;BASE64,SGVsbG8sIFdvcmxk', 'image/png', hello],
      ['data:image/svg+xml;charset=utf-8;base64,SGVsbG8sIFdvcmxk', 'image/svg+xml', hello],
      ['data:application/vnd.ms-excel;name=a.xls;base64,SGVsbG8sIFdvcmxk', 'application/vnd.ms-excel', hello],
      ['data:image/x-icon;v=;base64,SGVsbG8sIFdvcmxk', 'image/x-icon', hello],
      ['data:text/plain;charset=US-ASCII,Hello, World', 'text/plain', hello],
      ['  data:text/plain;base64,SGVsbG8s\r\n  IFdvcmxk \n', 'text/plain', hello],
      ['data:text/plain,two\nlines', 'text/plain', [...Buffer.from('two\nlines')]],
    ] as const) {
      const d = parseDataUri(uri);
      assert.ok(d, uri);
      assert.equal(d.mime, mime, uri);
      assert.deepEqual([...d.bytes], bytes, uri);
    }
  });

  it('text that is not a data URI, or whose payload does not decode, gives nothing', () => {
    for (const text of [
      'see data:text/plain;base64,SGVsbG8=',
      'data:text/plain;base64',
      'data:text/plain;base64,',
      'data:text/plain;base64,SGVsbG8=@',
      'data:image/png;base64;x=1,SGVsbG8=',
      'data:image png;base64,SGVsbG8=',
      'data:image/;base64,SGVsbG8=',
      'data:/png;base64,SGVsbG8=',
      'data:text/plain;charset,abc',
      'data:text/plain,%E0%A4%A',
      'https://example.invalid/a.png',
    ])
      assert.equal(parseDataUri(text), undefined, text);
  });
});

describe('recognition: the upload rules', () => {
  /** A PNG header padded with zeros to `length` bytes (enough for the size rules, nothing decodes it). */
  const pngOf = (length: number): Uint8Array => {
    const b = new Uint8Array(length);
    b.set(pngHeader(100, 80));
    return b;
  };
  const shrunkTo =
    (bytes: Uint8Array, width = 10, height = 8): Shrinker =>
    async () => ({
      bytes,
      format: 'jpeg',
      width,
      height,
    });

  it('JPEG, PNG and WebP are uploadable; GIF and BMP are refused as unsupported, with their format and size', async () => {
    assert.deepEqual([...UPLOADABLE_FORMATS], ['jpeg', 'png', 'webp']);
    for (const [bytes, format] of [
      [cat(gifHeader(2, 2), new Uint8Array(20)), 'gif'],
      [cat(bmpHeader(2, 2), new Uint8Array(20)), 'bmp'],
    ] as const)
      await assert.rejects(
        prepareForUpload(bytes),
        refusal('unsupported-format', (e) => e.format === format && e.byteLength === bytes.length),
      );
  });

  it('JPEG and PNG under the limit are sent as they are; a WebP is converted to JPEG', async () => {
    for (const bytes of [jpg(8, 8), png(8, 8)]) {
      const p = await prepareForUpload(bytes, {
        shrinker: () => {
          throw new Error('must not load');
        },
      });
      assert.equal(p.bytes, bytes);
      assert.equal(p.base64, toBareBase64(bytes));
      assert.equal(p.reencoded, undefined);
    }
    const converted = jpg(4, 4);
    const calls: unknown[][] = [];
    const w = webpHeader(16, 12);
    const p = await prepareForUpload(w, {
      shrinker:
        () =>
        async (...args) => {
          calls.push(args);
          return { bytes: converted, format: 'jpeg', width: 16, height: 12 };
        },
    });
    assert.deepEqual(calls, [[w, 'webp', MAX_UPLOAD_BYTES, undefined]]);
    assert.deepEqual(p, {
      base64: toBareBase64(converted),
      bytes: converted,
      format: 'jpeg',
      original: w,
      originalFormat: 'webp',
      reencoded: { why: 'format', fromBytes: w.length, toBytes: converted.length, width: 16, height: 12 },
    });
  });

  it('a WebP that cannot be converted is sent as it is when under the limit (no library, loader failure, failure)', async () => {
    const w = webpHeader(16, 12);
    for (const shrinker of [
      undefined,
      () => undefined,
      () => {
        throw new Error('cannot load');
      },
      () => async () => {
        throw new Error('cannot decode');
      },
      () => shrunkTo(new Uint8Array(MAX_UPLOAD_BYTES + 1)),
    ]) {
      const p = await prepareForUpload(w, shrinker ? { shrinker } : {});
      assert.deepEqual(p, { base64: toBareBase64(w), bytes: w, format: 'webp', original: w, originalFormat: 'webp' });
    }
  });

  it('the limit is 4 MB by default: exactly 4 MB is sent as it is, one byte more must be shrunk', async () => {
    const exact = pngOf(MAX_UPLOAD_BYTES);
    assert.equal((await prepareForUpload(exact)).bytes, exact);
    const over = pngOf(MAX_UPLOAD_BYTES + 1);
    await assert.rejects(prepareForUpload(over), refusal('cannot-shrink'));
    const small = jpg(4, 4);
    const p = await prepareForUpload(over, { shrinker: () => shrunkTo(small) });
    assert.equal(p.bytes, small);
    assert.equal(p.reencoded?.why, 'size');
  });

  it('a given limit replaces 4 MB, for the check and for the shrinker', async () => {
    const bytes = pngOf(1000);
    assert.equal((await prepareForUpload(bytes, { maxBytes: 1000 })).bytes, bytes);
    const limits: number[] = [];
    const small = new Uint8Array(999);
    const p = await prepareForUpload(bytes, {
      maxBytes: 999,
      shrinker: () => async (_b, _f, max) => (limits.push(max), { bytes: small, format: 'jpeg', width: 3, height: 2 }),
    });
    assert.deepEqual(limits, [999]);
    assert.deepEqual(p.reencoded, { why: 'size', fromBytes: 1000, toBytes: 999, width: 3, height: 2 });
  });

  it('a shrunk copy of exactly the limit is sent; one byte more is refused, saying how big it still is', async () => {
    const bytes = pngOf(5000);
    const fits = await prepareForUpload(bytes, { maxBytes: 2000, shrinker: () => shrunkTo(new Uint8Array(2000)) });
    assert.equal(fits.bytes.length, 2000);
    await assert.rejects(
      prepareForUpload(bytes, { maxBytes: 2000, shrinker: () => shrunkTo(new Uint8Array(2001)) }),
      refusal(
        'cannot-shrink',
        (e) =>
          e.format === 'png' &&
          e.byteLength === 5000 &&
          e.message === 'Image refused (cannot-shrink): still 2001 bytes',
      ),
    );
  });

  it('an image over the limit that cannot be shrunk is refused with the reason in the message', async () => {
    const bytes = pngOf(5000);
    for (const [shrinker, detail] of [
      [undefined, 'no image library available'],
      [() => undefined, 'no image library available'],
      [
        () => {
          throw new Error('cannot load');
        },
        'cannot load',
      ],
      [
        () => {
          throw 'not an Error';
        },
        'not an Error',
      ],
      [
        () => async () => {
          throw new Error('cannot decode');
        },
        'cannot decode',
      ],
      [
        () => async () => {
          throw 42;
        },
        '42',
      ],
    ] as const) {
      await assert.rejects(
        prepareForUpload(bytes, shrinker ? { maxBytes: 1000, shrinker } : { maxBytes: 1000 }),
        refusal(
          'cannot-shrink',
          (e) =>
            e.message === `Image refused (cannot-shrink): ${detail}` &&
            e.name === 'ImageRefusedError' &&
            e.kind === 'image-refused' &&
            e.format === 'png' &&
            e.byteLength === 5000,
        ),
        detail,
      );
    }
  });

  it('refusals before any shrinking name the reason alone: empty, not an image, too large to read (over 64 MB)', async () => {
    await assert.rejects(
      prepareForUpload(new Uint8Array(0)),
      refusal('empty', (e) => e.message === 'Image refused (empty)' && e.format === undefined && e.byteLength === 0),
    );
    const text = new TextEncoder().encode('not a picture at all');
    await assert.rejects(
      prepareForUpload(text),
      refusal('not-image', (e) => e.format === undefined && e.byteLength === text.length),
    );
    let loaded = 0;
    const huge = pngOf(MAX_INPUT_BYTES + 1);
    await assert.rejects(
      prepareForUpload(huge, { shrinker: () => (loaded++, shrunkTo(jpg(2, 2))) }),
      refusal('too-large', (e) => e.format === 'png' && e.byteLength === MAX_INPUT_BYTES + 1),
    );
    assert.equal(loaded, 0);
    assert.equal(MAX_INPUT_BYTES, 64 * 1024 * 1024);
    // Exactly 64 MB is read and shrunk.
    const p = await prepareForUpload(huge.subarray(0, MAX_INPUT_BYTES), { shrinker: () => shrunkTo(jpg(2, 2)) });
    assert.equal(p.reencoded?.fromBytes, MAX_INPUT_BYTES);
  });

  it('re-encoding on request: a JPEG under the limit comes back upright (why: orientation); a WebP is still a conversion', async () => {
    const jpeg = jpg(6, 4);
    const upright = jpg(4, 6);
    const p = await prepareForUpload(jpeg, { reencode: true, shrinker: () => shrunkTo(upright, 4, 6) });
    assert.deepEqual(p.reencoded, {
      why: 'orientation',
      fromBytes: jpeg.length,
      toBytes: upright.length,
      width: 4,
      height: 6,
    });
    assert.equal(p.bytes, upright);
    assert.equal(p.original, jpeg);
    const w = webpHeader(4, 6);
    const q = await prepareForUpload(w, { reencode: true, shrinker: () => shrunkTo(upright, 4, 6) });
    assert.equal(q.reencoded?.why, 'format');
    const none = await prepareForUpload(jpeg, { reencode: true });
    assert.equal(none.bytes, jpeg);
    assert.equal(none.reencoded, undefined);
  });

  it('a cancelled shrink rejects with the signal’s reason, whether the shrinker fails or finishes', async () => {
    const bytes = pngOf(5000);
    const reason = new Error('cancelled by the user');
    for (const finishes of [false, true]) {
      const abort = new AbortController();
      const signals: (AbortSignal | undefined)[] = [];
      const shrinker = (): Shrinker => async (_b, _f, _m, signal) => {
        signals.push(signal);
        abort.abort(reason);
        if (!finishes) throw new Error('stopped');
        return { bytes: new Uint8Array(10), format: 'jpeg', width: 1, height: 1 };
      };
      await assert.rejects(
        prepareForUpload(bytes, { maxBytes: 1000, shrinker, signal: abort.signal }),
        (e) => e === reason,
      );
      assert.deepEqual(signals, [abort.signal]);
    }
    // Not cancelled: a signal passed along changes nothing.
    const abort = new AbortController();
    const p = await prepareForUpload(bytes, {
      maxBytes: 1000,
      shrinker: () => shrunkTo(new Uint8Array(10)),
      signal: abort.signal,
    });
    assert.equal(p.bytes.length, 10);
  });
});
