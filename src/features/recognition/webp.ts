/**
 * WebP decoding for the shrinker: libwebp's decoder compiled to WebAssembly (`@jsquash/webp`). The
 * compiled module is handed to it from a file on disk (`dist/webp_dec.wasm` beside the bundle, or
 * the package's own file in development), so it never looks for the module anywhere else. Bundled
 * into `dist/imaging.js` only, loaded on the first WebP over the upload limit.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import decode, { init } from '@jsquash/webp/decode.js';

/** Decoded pixels: RGBA, 4 bytes per pixel, rows top to bottom. */
export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** The decoder module's file: beside this bundle when packaged, else the package's own. */
export function webpWasmPath(dir = __dirname): string {
  const beside = path.join(dir, 'webp_dec.wasm');
  return existsSync(beside) ? beside : createRequire(__filename).resolve('@jsquash/webp/codec/dec/webp_dec.wasm');
}

let ready: Promise<void> | undefined;

/** Decodes a WebP (lossy, lossless or with alpha) into RGBA pixels. Rejects on bytes it cannot decode. */
export async function decodeWebp(bytes: Uint8Array, wasmPath = webpWasmPath()): Promise<RgbaImage> {
  if (!ready) {
    // `init(module)` takes a compiled module at run time; its typings only list the options form.
    const start = init as unknown as (module: WebAssembly.Module) => Promise<void>;
    ready = start(new WebAssembly.Module(readFileSync(wasmPath)));
    ready.catch(() => (ready = undefined));
  }
  await ready;
  // The decoder wants an ArrayBuffer of the image alone, not a view into a larger one.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
  const image = (await decode(own as ArrayBuffer)) as unknown as RgbaImage;
  return { data: image.data, width: image.width, height: image.height };
}
