/**
 * The boxes painted on one <canvas> over the visible part of the stage, and the annotated picture
 * drawn at full resolution for "Save Images".
 */
import { post } from './api';
import { LABEL_LIMIT, st, strings } from './state';
import type { BoxView } from '../../recognition/protocol';

/** Box colours and width, read from the theme's CSS variables. */
let colors = { box: '#3794ff', low: '#d18616', text: '#1e1e1e', width: 2, font: 'sans-serif' };

/** Reads the box colours of the current theme. */
export function readColors(): void {
  const cs = getComputedStyle(document.body);
  const v = (name: string, dflt: string): string => cs.getPropertyValue(name).trim() || dflt;
  colors = {
    box: v('--box', '#3794ff'),
    low: v('--box-low', '#d18616'),
    text: v('--vscode-editor-background', '#1e1e1e'),
    width: parseFloat(v('--box-width', '2')) || 2,
    font: cs.fontFamily || 'sans-serif',
  };
}

let drawPending = false;

/** Paints on the next frame (once, however often it is asked). */
export function scheduleDraw(): void {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    draw();
  });
}

/**
 * Paints the boxes (and, up to LABEL_LIMIT boxes, their labels) on the canvas. The canvas covers
 * only the visible part of the stage, at device resolution, so any zoom stays sharp and cheap:
 * two strokes (confident, low) for all the boxes.
 */
export function draw(): void {
  const { canvas, stageEl, viewportEl, pic, boxes } = st;
  if (!canvas || !stageEl || !viewportEl || !pic) return;
  const vr = viewportEl.getBoundingClientRect();
  const sr = stageEl.getBoundingClientRect();
  const vx = vr.left + viewportEl.clientLeft;
  const vy = vr.top + viewportEl.clientTop;
  const left = Math.max(0, Math.floor(vx - sr.left));
  const top = Math.max(0, Math.floor(vy - sr.top));
  const right = Math.min(sr.width, Math.ceil(vx + viewportEl.clientWidth - sr.left));
  const bottom = Math.min(sr.height, Math.ceil(vy + viewportEl.clientHeight - sr.top));
  const w = Math.max(0, right - left);
  const hh = Math.max(0, bottom - top);
  const dpr = window.devicePixelRatio || 1;
  canvas.style.left = `${left}px`;
  canvas.style.top = `${top}px`;
  canvas.style.width = `${w}px`;
  canvas.style.height = `${hh}px`;
  canvas.width = Math.max(1, Math.round(w * dpr));
  canvas.height = Math.max(1, Math.round(hh * dpr));
  const ctx = canvas.getContext('2d');
  if (!ctx || !boxes.length) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const k = sr.width / pic.width;
  const shown: { b: BoxView; x: number; y: number; bw: number; bh: number }[] = [];
  const normal = new Path2D();
  const low = new Path2D();
  const half = colors.width / 2;
  for (const b of boxes) {
    const x = b.x1 * k - left;
    const y = b.y1 * k - top;
    const bw = Math.max(0, b.x2 - b.x1) * k;
    const bh = Math.max(0, b.y2 - b.y1) * k;
    if (x > w || y > hh || x + bw < 0 || y + bh < 0) continue;
    (b.low ? low : normal).rect(x + half, y + half, Math.max(0, bw - colors.width), Math.max(0, bh - colors.width));
    shown.push({ b, x, y, bw, bh });
  }
  ctx.lineWidth = colors.width;
  ctx.strokeStyle = colors.box;
  ctx.stroke(normal);
  ctx.strokeStyle = colors.low;
  ctx.setLineDash([6, 4]);
  ctx.stroke(low);
  ctx.setLineDash([]);
  if (boxes.length > LABEL_LIMIT) return;
  const s = strings();
  ctx.font = `11px ${colors.font}`;
  ctx.textBaseline = 'bottom';
  for (const { b, x, y } of shown) {
    const text = `${b.className} ${b.confidence.toFixed(2)}${b.low ? ' ' + s.lowConfidenceMark : ''}`;
    const tw = ctx.measureText(text).width + 6;
    // Above the box, or inside it when there is no room above (top of the picture).
    const ly = b.y1 * k >= 14 ? y - 14 : y;
    ctx.fillStyle = b.low ? colors.low : colors.box;
    ctx.fillRect(x, ly, tw, 14);
    ctx.fillStyle = colors.text;
    ctx.fillText(text, x + 3, ly + 13);
  }
}

/** Draws the picture and its boxes at full resolution; answers a bare base64 PNG. */
export function renderAnnotated(requestId: number): void {
  try {
    const { view, pictureEl } = st;
    if (!view || !view.image || !pictureEl || (pictureEl instanceof HTMLImageElement && !pictureEl.complete))
      throw new Error('no image');
    const W = view.image.width;
    const H = view.image.height;
    const canvas = document.createElement('canvas');
    canvas.width = W;
    canvas.height = H;
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
    ctx.drawImage(pictureEl, 0, 0, W, H);
    const lw = Math.max(2, Math.round(Math.max(W, H) / 400));
    const font = Math.max(12, Math.round(Math.max(W, H) / 60));
    ctx.font = `${font}px sans-serif`;
    ctx.textBaseline = 'top';
    for (const b of view.boxes) {
      const color = b.low ? '#ff9100' : '#00b0ff';
      ctx.lineWidth = lw;
      ctx.strokeStyle = color;
      ctx.setLineDash(b.low ? [lw * 3, lw * 2] : []);
      ctx.strokeRect(b.x1, b.y1, b.x2 - b.x1, b.y2 - b.y1);
      const text = `${b.className} ${b.confidence.toFixed(2)}`;
      const tw = ctx.measureText(text).width + 6;
      const ty = b.y1 - font - 4 >= 0 ? b.y1 - font - 4 : b.y1;
      ctx.setLineDash([]);
      ctx.fillStyle = color;
      ctx.fillRect(b.x1, ty, tw, font + 4);
      ctx.fillStyle = '#000';
      ctx.fillText(text, b.x1 + 3, ty + 2);
    }
    const url = canvas.toDataURL('image/png');
    post({ type: 'annotated', requestId, png: url.slice(url.indexOf(',') + 1) });
  } catch (err) {
    post({ type: 'annotated', requestId, error: String(err) });
  }
}
