/** The WebAssembly decoders of the shrinker: pixels of tiny JPEGs and WebPs, views, which `.wasm` is read, and when. */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Codecs from '../../../src/recognition/codecs';
import { freshModule, inside, jpg, noise, webp } from './fixtures';

/** A fresh copy of the module: decoders that have not read their `.wasm` yet. */
const fresh = (): typeof Codecs => freshModule<typeof Codecs>('../../../src/recognition/codecs');

const RED: [number, number, number] = [220, 20, 20];
const BLUE: [number, number, number] = [20, 20, 220];
/** Left half red, right half blue. */
const halves = (x: number): [number, number, number] => (x < 8 ? RED : BLUE);

/** The RGB of pixel (x, y) of a decoded image. */
function rgb(image: Codecs.RgbaImage, x: number, y: number): number[] {
  const i = (y * image.width + x) * 4;
  return [...image.data.subarray(i, i + 3)];
}
const near = (actual: number[], want: readonly number[], what: string): void =>
  assert.ok(
    actual.every((v, c) => Math.abs(v - (want[c] ?? 0)) < 40),
    `${what}: ${actual} is not near ${want}`,
  );

describe('recognition: the WebAssembly decoders', function () {
  this.timeout(20_000);
  const dirs: string[] = [];
  /** A directory holding the given files (e.g. a `.wasm` beside the bundle). */
  const dirWith = (files: Record<string, string | Uint8Array> = {}): string => {
    const dir = mkdtempSync(join(tmpdir(), 'shunong-codecs-'));
    dirs.push(dir);
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a JPEG decodes into its stored RGBA pixels, rows top to bottom', async () => {
    const image = await fresh().decodeJpeg(jpg(16, 6, halves));
    assert.equal(image.width, 16);
    assert.equal(image.height, 6);
    assert.ok(image.data instanceof Uint8ClampedArray);
    assert.equal(image.data.length, 16 * 6 * 4);
    near(rgb(image, 2, 3), RED, 'left');
    near(rgb(image, 13, 3), BLUE, 'right');
    assert.equal(image.data[3], 255, 'opaque');
  });

  it('a WebP decodes into RGBA pixels, lossy or lossless, transparency kept', async () => {
    const { decodeWebp } = fresh();
    const lossy = await decodeWebp(await webp(16, 6, halves));
    assert.deepEqual([lossy.width, lossy.height, lossy.data.length], [16, 6, 16 * 6 * 4]);
    near(rgb(lossy, 2, 3), RED, 'lossy left');
    near(rgb(lossy, 13, 3), BLUE, 'lossy right');
    const lossless = await decodeWebp(
      await webp(16, 6, (x, y) => (y < 3 ? [...halves(x), 255] : [0, 0, 0, 0]), { lossless: true }),
    );
    assert.deepEqual(rgb(lossless, 2, 1), RED);
    assert.deepEqual(rgb(lossless, 13, 1), BLUE);
    assert.equal(lossless.data[(1 * 16 + 2) * 4 + 3], 255, 'opaque row');
    assert.equal(lossless.data[(4 * 16 + 2) * 4 + 3], 0, 'transparent row');
  });

  it('bytes a decoder cannot read are rejected', async () => {
    const { decodeJpeg, decodeWebp } = fresh();
    await assert.rejects(decodeJpeg(new Uint8Array([0xff, 0xd8, 0xff, 0, 1, 2, 3])));
    await assert.rejects(decodeWebp(new TextEncoder().encode('RIFF....WEBPVP8 not really')));
  });

  it('an image handed as a view into a larger buffer is decoded from the view’s bytes alone', async () => {
    const { decodeJpeg, decodeWebp } = fresh();
    const j = await decodeJpeg(inside(jpg(16, 6, halves)));
    assert.deepEqual([j.width, j.height], [16, 6]);
    near(rgb(j, 13, 3), BLUE, 'JPEG');
    const w = await decodeWebp(inside(await webp(16, 6, halves)));
    assert.deepEqual([w.width, w.height], [16, 6]);
    near(rgb(w, 2, 3), RED, 'WebP');
    // A Node Buffer's slice() is another view into the same memory, and jimp hands its decoders
    // Buffers: such a view is decoded from its own bytes as well.
    const j2 = await decodeJpeg(Buffer.from(inside(jpg(16, 6, halves))));
    assert.equal(j2.width, 16);
    const pooled = inside(jpg(16, 6, halves));
    const asBuffer = Buffer.from(pooled.buffer, pooled.byteOffset, pooled.byteLength);
    assert.deepEqual([(await decodeJpeg(asBuffer)).width, asBuffer.byteOffset], [16, 32]);
    const wpooled = inside(await webp(16, 6, halves));
    assert.equal((await decodeWebp(Buffer.from(wpooled.buffer, wpooled.byteOffset, wpooled.byteLength))).height, 6);
    // A view of the start of a buffer is the view too: cut short of its end, the WebP is incomplete.
    const whole = await webp(16, 6, halves);
    await assert.rejects(decodeWebp(whole.subarray(0, whole.length - 10)));
    assert.equal((await decodeWebp(whole)).width, 16, 'the buffer itself is fine');
  });

  it('a `.wasm` beside the bundle is preferred over the package’s; without one the package’s is used', async () => {
    await assert.rejects(fresh().decodeJpeg(jpg(4, 4), dirWith({ 'mozjpeg_dec.wasm': 'not WebAssembly' })));
    await assert.rejects(fresh().decodeWebp(await webp(4, 4, halves), dirWith({ 'webp_dec.wasm': 'not WebAssembly' })));
    // Another codec's file beside the bundle is not taken for this one.
    const other = dirWith({ 'webp_dec.wasm': 'not WebAssembly' });
    assert.equal((await fresh().decodeJpeg(jpg(4, 4), other)).width, 4);
    assert.equal((await fresh().decodeWebp(await webp(4, 4, halves), dirWith())).width, 4);
  });

  it('the module is read once: later calls do not look for a `.wasm` again', async () => {
    const { decodeJpeg, decodeWebp } = fresh();
    assert.equal((await decodeJpeg(jpg(4, 4))).width, 4);
    assert.equal((await decodeWebp(await webp(4, 4, halves))).width, 4);
    const broken = dirWith({ 'mozjpeg_dec.wasm': 'not WebAssembly', 'webp_dec.wasm': 'not WebAssembly' });
    assert.equal((await decodeJpeg(jpg(6, 4), broken)).width, 6);
    assert.equal((await decodeWebp(await webp(6, 4, halves), broken)).width, 6);
  });

  it('a module that failed to load is read again on the next call', async () => {
    const { decodeJpeg, decodeWebp } = fresh();
    const broken = dirWith({ 'mozjpeg_dec.wasm': 'not WebAssembly', 'webp_dec.wasm': 'not WebAssembly' });
    await assert.rejects(decodeJpeg(jpg(4, 4), broken));
    await assert.rejects(decodeWebp(await webp(4, 4, halves), broken));
    assert.equal((await decodeJpeg(jpg(4, 4))).width, 4);
    assert.equal((await decodeWebp(await webp(4, 4, halves))).width, 4);
  });

  it('the codec’s own messages (libjpeg’s warnings on a cut JPEG) stay out of the console', async () => {
    const cut = jpg(64, 48, noise(3)).slice(0, 900);
    const printed: unknown[][] = [];
    const saved = { log: console.log, warn: console.warn, error: console.error, info: console.info };
    const stdout = process.stdout.write;
    const stderr = process.stderr.write;
    const capture =
      (what: string) =>
      (...args: unknown[]): boolean => (printed.push([what, ...args]), true);
    Object.assign(console, {
      log: capture('log'),
      warn: capture('warn'),
      error: capture('error'),
      info: capture('info'),
    });
    process.stdout.write = capture('stdout') as typeof process.stdout.write;
    process.stderr.write = capture('stderr') as typeof process.stderr.write;
    try {
      const image = await fresh().decodeJpeg(cut);
      assert.equal(image.width, 64, 'a cut JPEG still decodes (its missing rows grey)');
    } finally {
      Object.assign(console, saved);
      process.stdout.write = stdout;
      process.stderr.write = stderr;
    }
    assert.deepEqual(printed, []);
  });
});
