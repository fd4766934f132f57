/**
 * Generates the sample pictures in test/emulator/images/ (deterministic: same bytes on every run):
 * `tea_buds.png` / `tea_buds.jpg` (7 light yellow-green buds on dark tea leaves),
 * `wheat_tillering.png` (green wheat rows on brown soil), `wheat_mature.png` (a golden ripe field),
 * `sky_bricks.png` (sky over a brick wall: not a crop), `tea_buds_blurry.png` (the tea picture with
 * three more buds, pale and soft as if out of focus: the endpoint scores them under 0.5),
 * `tea_buds.webp` (the tea picture as a lossy WebP, by libwebp: the endpoint refuses WebP, the
 * extension converts it to JPEG).
 *
 * It also writes the crop photos of the sample workspace (test/fixtures/workspace/photos/, see
 * WORKSPACE_PHOTOS): the same drawings as JPEG, as a camera would save them, for `npm run demo`.
 * Run: `npx tsx test/emulator/make-sample-images.ts`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import encodeWebp, { init as initWebpEncoder } from '@jsquash/webp/encode.js';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

type Rgb = [number, number, number];

let webpEncoder: Promise<void> | undefined;

/** Encodes RGBA pixels as WebP with libwebp's encoder (compiled to WebAssembly, loaded once). */
export async function encodeRgbaAsWebp(
  data: Uint8ClampedArray,
  width: number,
  height: number,
  options: Record<string, number>,
): Promise<Buffer> {
  webpEncoder ??= (initWebpEncoder as unknown as (m: WebAssembly.Module) => Promise<void>)(
    new WebAssembly.Module(readFileSync(createRequire(__filename).resolve('@jsquash/webp/codec/enc/webp_enc.wasm'))),
  );
  await webpEncoder;
  const image = { data, width, height, colorSpace: 'srgb' } as unknown as Parameters<typeof encodeWebp>[0];
  return Buffer.from(await encodeWebp(image, options));
}

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A simple RGB canvas. */
export class Canvas {
  readonly data: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Uint8Array(width * height * 4).fill(255);
  }
  /** Sets a pixel (clipped). */
  set(x: number, y: number, c: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.data[i] = Math.max(0, Math.min(255, Math.round(c[0])));
    this.data[i + 1] = Math.max(0, Math.min(255, Math.round(c[1])));
    this.data[i + 2] = Math.max(0, Math.min(255, Math.round(c[2])));
    this.data[i + 3] = 255;
  }
  /** Fills every pixel from a function. */
  fill(f: (x: number, y: number) => Rgb): void {
    for (let y = 0; y < this.height; y++) for (let x = 0; x < this.width; x++) this.set(x, y, f(x, y));
  }
  /** Fills a rotated ellipse, colour from a function of the normalised radius (0 centre … 1 edge). */
  ellipse(cx: number, cy: number, rx: number, ry: number, angle: number, color: (r: number) => Rgb): void {
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const R = Math.ceil(Math.max(rx, ry));
    for (let y = Math.floor(cy - R); y <= cy + R; y++) {
      for (let x = Math.floor(cx - R); x <= cx + R; x++) {
        const dx = x - cx;
        const dy = y - cy;
        const u = (dx * cos + dy * sin) / rx;
        const v = (-dx * sin + dy * cos) / ry;
        const r = Math.sqrt(u * u + v * v);
        if (r <= 1) this.set(x, y, color(r));
      }
    }
  }
  /** PNG bytes. */
  png(): Buffer {
    const png = new PNG({ width: this.width, height: this.height });
    png.data = Buffer.from(this.data);
    return PNG.sync.write(png, { colorType: 2 });
  }
  /** JPEG bytes. */
  jpeg(quality = 90): Buffer {
    return jpeg.encode({ data: Buffer.from(this.data), width: this.width, height: this.height }, quality).data;
  }
  /** Lossy WebP bytes (libwebp, compiled to WebAssembly: the same bytes on every machine). */
  async webp(quality = 90): Promise<Buffer> {
    return encodeRgbaAsWebp(new Uint8ClampedArray(this.data), this.width, this.height, { quality });
  }
}

/** Smooth value noise in [0, 1) on a lattice of `cell` pixels. */
function valueNoise(seed: number, cell: number): (x: number, y: number) => number {
  const lattice = new Map<string, number>();
  const at = (i: number, j: number): number => {
    const k = `${i},${j}`;
    let v = lattice.get(k);
    if (v === undefined) {
      // deterministic lattice value from the coordinates and the seed
      v = Math.abs(Math.sin(i * 127.1 + j * 311.7 + seed * 0.013) * 43758.5453) % 1;
      lattice.set(k, v);
    }
    return v;
  };
  return (x, y) => {
    const fx = x / cell;
    const fy = y / cell;
    const i = Math.floor(fx);
    const j = Math.floor(fy);
    const tx = fx - i;
    const ty = fy - j;
    const sx = tx * tx * (3 - 2 * tx);
    const sy = ty * ty * (3 - 2 * ty);
    const a = at(i, j) + (at(i + 1, j) - at(i, j)) * sx;
    const b = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * sx;
    return a + (b - a) * sy;
  };
}

/** The tea bud centres drawn into tea_buds (x, y, angle). */
export const TEA_BUDS: [number, number, number][] = [
  [48, 52, 0.3],
  [150, 40, -0.2],
  [262, 58, 0.5],
  [84, 150, -0.4],
  [196, 128, 0.1],
  [282, 182, -0.3],
  [140, 204, 0.6],
];

/** Tea buds on dark leaves (320×240). */
export function teaBuds(): Canvas {
  const c = new Canvas(320, 240);
  const n = valueNoise(11, 24);
  const r = rng(7);
  c.fill((x, y) => {
    const v = n(x, y);
    return [18 + 20 * v, 58 + 40 * v, 24 + 18 * v];
  });
  for (let i = 0; i < 70; i++) {
    const cx = r() * 320;
    const cy = r() * 240;
    const shade = 0.6 + r() * 0.5;
    c.ellipse(cx, cy, 18 + r() * 14, 8 + r() * 6, r() * Math.PI, (t) => [
      (24 + 10 * t) * shade,
      (78 + 30 * (1 - t)) * shade,
      (30 + 8 * t) * shade,
    ]);
  }
  for (const [x, y, a] of TEA_BUDS) {
    c.ellipse(x, y, 7, 14, a, (t) => [150 + 40 * (1 - t), 200 + 30 * (1 - t), 60 + 30 * (1 - t)]);
  }
  return c;
}

/** The blurred buds added to tea_buds_blurry (x, y, angle): pale, low-contrast, out of focus. */
export const BLURRED_BUDS: [number, number, number][] = [
  [216, 84, -0.5],
  [40, 206, 0.2],
  [300, 120, 0.4],
];

/** tea_buds with three blurred buds added (320×240). */
export function teaBudsBlurry(): Canvas {
  const c = teaBuds();
  for (const [x, y, a] of BLURRED_BUDS) {
    // Washed-out bud colour, fading into the leaves towards the edge (no sharp outline).
    c.ellipse(x, y, 8, 15, a, (t) => {
      const k = Math.min(1, Math.max(0, (1 - t) * 1.6));
      return [40 + (165 - 40) * k, 90 + (185 - 90) * k, 36 + (140 - 36) * k];
    });
  }
  return c;
}

/** Young green wheat rows on brown soil (320×240): tillering. */
export function wheatTillering(): Canvas {
  const c = new Canvas(320, 240);
  const n = valueNoise(23, 16);
  const r = rng(5);
  c.fill((x, y) => {
    const v = n(x, y);
    return [104 + 30 * v, 76 + 22 * v, 48 + 14 * v];
  });
  for (let row = 0; row < 8; row++) {
    const y0 = 14 + row * 30;
    for (let i = 0; i < 60; i++) {
      const x = r() * 320;
      const y = y0 + (r() - 0.5) * 12;
      c.ellipse(x, y, 2 + r() * 2, 9 + r() * 5, (r() - 0.5) * 0.8, (t) => [
        60 + 20 * t,
        140 + 30 * (1 - t),
        50 + 10 * t,
      ]);
    }
  }
  return c;
}

/** A golden ripe wheat field (320×240): maturity. */
export function wheatMature(): Canvas {
  const c = new Canvas(320, 240);
  const n = valueNoise(31, 10);
  const r = rng(9);
  c.fill((x, y) => {
    const v = n(x, y);
    return [150 + 50 * v, 118 + 42 * v, 48 + 20 * v];
  });
  for (let i = 0; i < 600; i++) {
    const x = r() * 320;
    const y = r() * 240;
    c.ellipse(x, y, 2.5, 7, (r() - 0.5) * 0.6, (t) => [215 - 25 * t, 178 - 25 * t, 80 - 10 * t]);
  }
  return c;
}

/** Sky over a brick wall (320×240): not a crop. */
export function skyBricks(): Canvas {
  const c = new Canvas(320, 240);
  const n = valueNoise(41, 20);
  c.fill((x, y) => {
    if (y < 110) {
      const t = y / 110;
      const cloud = Math.max(0, n(x, y) - 0.6) * 2.2;
      return [110 + 70 * t + 120 * cloud, 160 + 50 * t + 80 * cloud, 225 + 15 * t + 20 * cloud];
    }
    const row = Math.floor((y - 110) / 16);
    const offset = row % 2 === 0 ? 0 : 20;
    const mortar = (y - 110) % 16 < 2 || (x + offset) % 40 < 2;
    const v = n(x * 3, y * 3);
    return mortar ? [196, 192, 182] : [150 + 30 * v, 62 + 16 * v, 46 + 12 * v];
  });
  return c;
}

/** Writes every sample into `dir`; answers the file names and sizes. */
export async function writeSamples(dir: string): Promise<{ file: string; bytes: number }[]> {
  mkdirSync(dir, { recursive: true });
  const tea = teaBuds();
  const files: [string, Buffer][] = [
    ['tea_buds.png', tea.png()],
    ['tea_buds.jpg', tea.jpeg(90)],
    ['wheat_tillering.png', wheatTillering().png()],
    ['wheat_mature.png', wheatMature().png()],
    ['sky_bricks.png', skyBricks().png()],
    ['tea_buds_blurry.png', teaBudsBlurry().png()],
    ['tea_buds.webp', await tea.webp(90)],
  ];
  return files.map(([file, bytes]) => {
    writeFileSync(join(dir, file), bytes);
    return { file, bytes: bytes.length };
  });
}

/** The sample workspace's crop photos: file name → drawing. */
export const WORKSPACE_PHOTOS: { file: string; draw: () => Canvas }[] = [
  { file: 'tea-buds.jpg', draw: teaBuds },
  { file: 'tea-buds-blurry.jpg', draw: teaBudsBlurry },
  { file: 'wheat-tillering.jpg', draw: wheatTillering },
  { file: 'wheat-ripe.jpg', draw: wheatMature },
];

/** Where the sample workspace keeps its photos. */
export const WORKSPACE_PHOTOS_DIR = join(__dirname, '..', 'fixtures', 'workspace', 'photos');

/** Writes the sample workspace's photos into `dir` (JPEG, quality 85); answers the file names and sizes. */
export function writeWorkspacePhotos(dir: string): { file: string; bytes: number }[] {
  mkdirSync(dir, { recursive: true });
  return WORKSPACE_PHOTOS.map(({ file, draw }) => {
    const bytes = draw().jpeg(85);
    writeFileSync(join(dir, file), bytes);
    return { file, bytes: bytes.length };
  });
}

if (require.main === module) {
  void writeSamples(join(__dirname, 'images')).then((files) => {
    for (const { file, bytes } of [...files, ...writeWorkspacePhotos(WORKSPACE_PHOTOS_DIR)])
      process.stdout.write(`${file} ${bytes} bytes\n`);
  });
}
