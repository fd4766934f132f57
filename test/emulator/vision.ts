/**
 * Honest, deterministic pixel analysis for crop_growth_recognize (no model, no randomness).
 *
 * The picture is averaged onto a grid of at most 320 cells on its long side; each cell is classed
 * by HSV colour: `bud` (bright yellow-green, H 65–105°, S ≥ 0.35, V ≥ 0.6), `green` (H 60–170°,
 * S ≥ 0.2, V ≥ 0.12; buds included), `golden` (ripe straw, H 33–60°, S ≥ 0.35, V ≥ 0.55), others.
 *
 * - tea_count: 8-connected blobs of bud cells of at least max(4 cells, 0.05 % of the grid) →
 *   boxes in input-pixel coordinates; confidence = 0.5 + 0.45 × compactness (blob area over
 *   the ellipse inscribed in its box, capped at 1) × size factor (area over 4 × the minimum, capped at 1).
 * - wheat_stage: no conclusion (null) when green + golden cover < 25 % of the picture. Else by
 *   golden share of the vegetation: ≥ 0.75 成熟期, ≥ 0.45 灌浆期, ≥ 0.2 抽穗期; otherwise by green
 *   cover: dull green (mean V < 0.3) 越冬期, < 35 % 出苗期, < 60 % 分蘖期, else 拔节期.
 * - tea_stage: null when green covers < 40 %. Else by bud share of the green: ≥ 0.12 一芽二叶期,
 *   ≥ 0.04 一芽一叶期, ≥ 0.01 萌芽期; no buds: dull leaves (mean V < 0.3) 休眠期, else 驻芽期.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { ToolFailure } from './validation';

/** Decoded RGBA pixels. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
  contentType: 'image/png' | 'image/jpeg';
}

/** Decodes PNG or JPEG bytes; anything else is a ToolFailure. */
export function decodeImage(bytes: Buffer): RgbaImage {
  try {
    if (bytes.length > 8 && bytes.readUInt32BE(0) === 0x89504e47) {
      const png = PNG.sync.read(bytes);
      return { width: png.width, height: png.height, data: png.data, contentType: 'image/png' };
    }
    if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
      const img = jpeg.decode(bytes, { useTArray: true, maxMemoryUsageInMB: 256, formatAsRGBA: true });
      return { width: img.width, height: img.height, data: img.data, contentType: 'image/jpeg' };
    }
  } catch (e) {
    throw new ToolFailure(`图片解码失败: ${e instanceof Error ? e.message : String(e)}`);
  }
  throw new ToolFailure('图片解码失败: 不支持的图片格式(仅支持 JPEG、PNG)');
}

/** HSV of an RGB triple: h in degrees, s and v in 0–1. */
export function hsv(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let h = 0;
  if (d > 0) {
    if (max === r) h = ((g - b) / d) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
    h *= 60;
    if (h < 0) h += 360;
  }
  return [h, max === 0 ? 0 : d / max, max / 255];
}

const enum Cell {
  Other = 0,
  Green = 1,
  Bud = 2,
  Golden = 3,
  /** Bud hue but pale or dim: a blurred or washed-out bud (counted as green in the shares). */
  WeakBud = 4,
}

/** The classed grid. */
export interface Grid {
  cols: number;
  rows: number;
  /** input pixels per cell */
  step: number;
  cells: Uint8Array;
  /** brightness per cell */
  value: Float32Array;
}

/** Averages the picture onto a grid and classes every cell. */
export function classify(img: RgbaImage, maxCells = 320): Grid {
  const step = Math.max(1, Math.ceil(Math.max(img.width, img.height) / maxCells));
  const cols = Math.ceil(img.width / step);
  const rows = Math.ceil(img.height / step);
  const cells = new Uint8Array(cols * rows);
  const value = new Float32Array(cols * rows);
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < cols; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let y = cy * step; y < Math.min(img.height, (cy + 1) * step); y++) {
        for (let x = cx * step; x < Math.min(img.width, (cx + 1) * step); x++) {
          const i = (y * img.width + x) * 4;
          r += img.data[i] ?? 0;
          g += img.data[i + 1] ?? 0;
          b += img.data[i + 2] ?? 0;
          n++;
        }
      }
      const [h, s, v] = hsv(r / n, g / n, b / n);
      const k = cy * cols + cx;
      value[k] = v;
      if (h >= 65 && h <= 105 && s >= 0.35 && v >= 0.6) cells[k] = Cell.Bud;
      else if (h >= 65 && h <= 100 && s >= 0.22 && v >= 0.45) cells[k] = Cell.WeakBud;
      else if (h >= 60 && h <= 170 && s >= 0.2 && v >= 0.12) cells[k] = Cell.Green;
      else if (h >= 33 && h < 60 && s >= 0.35 && v >= 0.55) cells[k] = Cell.Golden;
      else cells[k] = Cell.Other;
    }
  }
  return { cols, rows, step, cells, value };
}

/** Colour shares of a grid. */
export interface Shares {
  bud: number;
  green: number;
  golden: number;
  greenValue: number;
}

/** Counts the classes (green includes buds) as fractions of the grid. */
export function shares(grid: Grid): Shares {
  let bud = 0;
  let green = 0;
  let golden = 0;
  let gv = 0;
  grid.cells.forEach((c, i) => {
    if (c === Cell.Bud) bud++;
    if (c === Cell.Bud || c === Cell.Green || c === Cell.WeakBud) {
      green++;
      gv += grid.value[i] ?? 0;
    }
    if (c === Cell.Golden) golden++;
  });
  const n = grid.cells.length || 1;
  return { bud: bud / n, green: green / n, golden: golden / n, greenValue: green ? gv / green : 0 };
}

/** One tea-bud detection. */
export interface Detection {
  class_id: number;
  confidence: number;
  bbox: [number, number, number, number];
  class_name: string;
}

/**
 * Connected blobs of bud colour → detections, in reading order of their top-left corners (clear
 * buds first, then weak ones). Clear buds score 0.5–0.95; blobs of pale or dim bud colour that do
 * not touch a clear bud (a blurred bud, not the soft edge of a sharp one) score 0.2–0.45: the
 * "retake the photo" case of the platform.
 */
export function detectBuds(grid: Grid, width: number, height: number): Detection[] {
  return [...blobs(grid, width, height, Cell.Bud), ...blobs(grid, width, height, Cell.WeakBud)];
}

function blobs(grid: Grid, width: number, height: number, kind: Cell): Detection[] {
  const { cols, rows, cells, step } = grid;
  const seen = new Uint8Array(cells.length);
  const minArea = Math.max(4, Math.ceil(cells.length * 0.0005));
  const out: Detection[] = [];
  const stack: number[] = [];
  for (let start = 0; start < cells.length; start++) {
    if (cells[start] !== kind || seen[start]) continue;
    let touchesBud = false;
    let area = 0;
    let x1 = cols;
    let y1 = rows;
    let x2 = -1;
    let y2 = -1;
    stack.push(start);
    seen[start] = 1;
    while (stack.length > 0) {
      const k = stack.pop() as number;
      const x = k % cols;
      const y = (k - x) / cols;
      area++;
      x1 = Math.min(x1, x);
      y1 = Math.min(y1, y);
      x2 = Math.max(x2, x);
      y2 = Math.max(y2, y);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue;
          const nk = ny * cols + nx;
          if (kind !== Cell.Bud && cells[nk] === Cell.Bud) touchesBud = true;
          if (cells[nk] === kind && !seen[nk]) {
            seen[nk] = 1;
            stack.push(nk);
          }
        }
      }
    }
    if (area < minArea || touchesBud) continue;
    const boxArea = (x2 - x1 + 1) * (y2 - y1 + 1);
    const compact = Math.min(1, area / (boxArea * (Math.PI / 4)));
    const size = Math.min(1, area / (4 * minArea));
    const score = kind === Cell.Bud ? 0.5 + 0.45 * compact * size : 0.2 + 0.25 * compact * size;
    const confidence = Math.round(score * 10_000) / 10_000;
    out.push({
      class_id: 0,
      confidence,
      bbox: [x1 * step, y1 * step, Math.min(width, (x2 + 1) * step), Math.min(height, (y2 + 1) * step)],
      class_name: 'tea',
    });
  }
  return out;
}

/** Wheat growth stage by the documented colour decision, or null. */
export function wheatStage(s: Shares): string | null {
  const veg = s.green + s.golden;
  if (veg < 0.25) return null;
  const goldenShare = s.golden / veg;
  if (goldenShare >= 0.75) return '成熟期';
  if (goldenShare >= 0.45) return '灌浆期';
  if (goldenShare >= 0.2) return '抽穗期';
  if (s.greenValue < 0.3) return '越冬期';
  if (s.green < 0.35) return '出苗期';
  if (s.green < 0.6) return '分蘖期';
  return '拔节期';
}

/** Tea growth stage by the documented colour decision, or null. */
export function teaStage(s: Shares): string | null {
  if (s.green < 0.4) return null;
  const budShare = s.bud / s.green;
  if (budShare >= 0.12) return '一芽二叶期';
  if (budShare >= 0.04) return '一芽一叶期';
  if (budShare >= 0.01) return '萌芽期';
  return s.greenValue < 0.3 ? '休眠期' : '驻芽期';
}
