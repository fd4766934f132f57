/**
 * The figure: zoom toolbar, and the viewport with the stage (picture, the canvas the boxes are
 * painted on, the overlay of the highlighted box).
 */
import type { ImageView, ResultView } from '../../recognition/protocol';
import { scheduleDraw } from './canvas';
import { takePixels } from './shrink';
import { h } from './dom';
import { highlight, onStageMove } from './highlight';
import { st, strings } from './state';
import { onKey, onWheel, setFit, setScale } from './zoom';

/** The figure of `image`; reuses the picture element of the same source (no second load). */
export function makeFigure(image: ImageView, label: string, v: ResultView | undefined): HTMLElement {
  const s = strings();
  const figure = h('figure', { class: 'figure' });
  const toolbar = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': s.zoomToolbar });
  const mk = (id: string, text: string, aria: string, fn: () => void): void => {
    const b = h('button', { id, type: 'button', 'aria-label': aria, title: aria }, [text]);
    b.addEventListener('click', fn);
    toolbar.append(b);
  };
  mk('zoom-fit', s.zoomFit, s.zoomFit, () => setFit());
  mk('zoom-100', '100%', s.zoomActual, () => setScale(1));
  mk('zoom-out', '−', s.zoomOut, () => setScale(st.scale / 1.25));
  mk('zoom-in', '+', s.zoomIn, () => setScale(st.scale * 1.25));
  toolbar.append(h('span', { id: 'zoom-level', 'aria-live': 'polite', 'aria-label': s.zoomLevel }));
  const viewport = h('div', { class: 'viewport', id: 'viewport', tabindex: '0', 'aria-label': label });
  st.viewportEl = viewport;
  figure.append(toolbar, viewport);
  if (v) figure.append(h('figcaption', { class: 'sr-only' }, [label]));

  const stage = h('div', { class: 'stage', id: 'stage' });
  st.stageEl = stage;
  let picture = st.pictureEl;
  if (!picture || picture.dataset['src'] !== image.src) picture = pictureElement(image, s.imageAlt);
  st.pictureEl = picture;
  const c = h('canvas', { class: 'boxes', 'aria-hidden': 'true' });
  st.canvas = c;
  const hl = h('div', { class: 'box-hl', id: 'box-hl', 'aria-hidden': 'true', hidden: '' }, [
    h('span', { class: 'label' }),
  ]);
  st.hlEl = hl;
  stage.append(picture, c, hl);
  viewport.append(stage);
  viewport.addEventListener('wheel', onWheel, { passive: false });
  viewport.addEventListener('keydown', onKey);
  viewport.addEventListener('scroll', scheduleDraw, { passive: true });
  stage.addEventListener('mousemove', onStageMove);
  stage.addEventListener('mouseleave', () => highlight(-1, false));
  return figure;
}

/**
 * The element showing `image`: a canvas of the pixels this webview shrank for it (`image.pixels`),
 * handed over without a copy, when it still has them at the picture's size; else an `<img>` of
 * `image.src`.
 */
function pictureElement(image: ImageView, alt: string): HTMLImageElement | HTMLCanvasElement {
  const bitmap = image.pixels === undefined ? undefined : takePixels(image.pixels);
  if (bitmap && bitmap.width === image.width && bitmap.height === image.height) {
    const canvas = h('canvas', { id: 'image', class: 'picture', role: 'img', 'aria-label': alt });
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const ctx = canvas.getContext('bitmaprenderer');
    if (ctx) {
      ctx.transferFromImageBitmap(bitmap);
      canvas.dataset['src'] = image.src;
      return canvas;
    }
  }
  bitmap?.close();
  const img = h('img', { id: 'image', alt, draggable: 'false', decoding: 'async' });
  // Webview resources are served with CORS headers: a CORS load keeps the canvas of
  // "Save Images" untainted.
  if (!image.src.startsWith('data:')) img.crossOrigin = 'anonymous';
  img.src = image.src;
  img.dataset['src'] = image.src;
  return img;
}

/** Calls `ok` once the picture is loaded (now, if it already is, or is a canvas), `fail` if it cannot be. */
export function whenLoaded(img: HTMLImageElement | HTMLCanvasElement, ok: () => void, fail: () => void): void {
  if (img instanceof HTMLCanvasElement || (img.complete && img.naturalWidth > 0)) {
    ok();
    return;
  }
  img.addEventListener('load', ok, { once: true });
  img.addEventListener('error', fail, { once: true });
}
