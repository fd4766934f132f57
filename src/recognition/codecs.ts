/**
 * Image decoders compiled to WebAssembly, for the shrinker: mozjpeg's (four times faster than
 * jimp's JavaScript JPEG decoder on a phone photo) and libwebp's (jimp reads no WebP), both from
 * `@jsquash`. Each compiled module is read from its `.wasm` file beside the bundle (`dist/`) or,
 * in development, from the package, and handed to the codec, which then never looks for it
 * anywhere else. Bundled into `dist/imaging.js` only, loaded on the first image to shrink.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import decodeJpegWasm, { init as initJpeg } from '@jsquash/jpeg/decode.js';
import decodeWebpWasm, { init as initWebp } from '@jsquash/webp/decode.js';

/** Decoded pixels: RGBA, 4 bytes per pixel, rows top to bottom. */
export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

type Init = (
  module: WebAssembly.Module,
  options: { print(text: string): void; printErr(text: string): void },
) => Promise<void>;
type Decode = (buffer: ArrayBuffer) => Promise<unknown>;

/**
 * A decoder whose module is read and compiled on first use, again on the next call if the file
 * could not be read or compiled. (A file that compiles but is not the codec's fails inside the
 * codec's own module promise, which `init` does not return: that decoder keeps failing until the
 * host restarts, and JPEGs fall back to jimp's decoder. Only a broken package ships such a file.)
 */
function decoder(
  file: string,
  packaged: string,
  init: unknown,
  decode: unknown,
): (bytes: Uint8Array, dir?: string) => Promise<RgbaImage> {
  let ready: Promise<void> | undefined;
  return async (bytes, dir = __dirname) => {
    if (!ready) {
      const beside = path.join(dir, file);
      const wasm = existsSync(beside) ? beside : createRequire(__filename).resolve(packaged);
      // `init(module, options)` takes a compiled module at run time (its typings list only the
      // options); the codec's own messages (e.g. libjpeg's warnings) stay out of the host's console:
      // a failure is reported by the rejection.
      const quiet = (): void => undefined;
      ready = (init as Init)(new WebAssembly.Module(readFileSync(wasm)), { print: quiet, printErr: quiet });
    }
    await ready;
    // The codecs want an ArrayBuffer of the image alone, not a view into a larger one: a copy of
    // the view (`new Uint8Array(view)`; a Buffer's `slice()` would be another view, and jimp hands
    // its decoders Buffers), unless the view already is its whole buffer.
    const own =
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the shortcut only saves a copy; copying is always right
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? bytes.buffer
        : new Uint8Array(bytes).buffer;
    const image = (await (decode as Decode)(own as ArrayBuffer)) as RgbaImage;
    return { data: image.data, width: image.width, height: image.height };
  };
}

/** Decodes a JPEG into its stored pixels (EXIF orientation not applied). Rejects on bytes it cannot decode. */
export const decodeJpeg = decoder(
  'mozjpeg_dec.wasm',
  '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm',
  initJpeg,
  decodeJpegWasm,
);

/** Decodes a WebP (lossy, lossless or with alpha) into RGBA pixels. Rejects on bytes it cannot decode. */
export const decodeWebp = decoder('webp_dec.wasm', '@jsquash/webp/codec/dec/webp_dec.wasm', initWebp, decodeWebpWasm);
