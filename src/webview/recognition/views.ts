/** The three states of the page (loading, result, error) and the status line, built with DOM calls. */
import type { ImageView, RecognitionType, ResultView } from '../../recognition/protocol';
import { post } from './api';
import { h } from './dom';
import { makeFigure, whenLoaded } from './figure';
import { renderRows } from './rows';
import { reset, st, strings } from './state';
import { makeTable } from './table';
import { applyScale } from './zoom';

const app = document.getElementById('app') as HTMLElement;

/** The header: title, type choice and re-run, actions. */
function header(title: string, withActions: boolean): HTMLElement {
  const s = strings();
  const select = h('select', { id: 'type', 'aria-label': s.recognitionType });
  for (const t of st.types) {
    const o = h('option', { value: t.id }, [t.label]);
    if (t.id === st.currentType) o.selected = true;
    select.append(o);
  }
  const rerun = h('button', { id: 'rerun', type: 'button' }, [s.rerun]);
  // The options are the host's own types: the host validates the answer again.
  rerun.addEventListener('click', () => post({ type: 'rerun', recognitionType: select.value as RecognitionType }));
  const bar = h('div', { class: 'bar' }, [h('label', { for: 'type' }, [s.recognitionType]), select, rerun]);
  if (withActions) {
    const insert = h('button', { id: 'insert', type: 'button', class: 'primary' }, [s.insert]);
    insert.addEventListener('click', () => post({ type: 'insert' }));
    const save = h('button', { id: 'save', type: 'button' }, [s.save]);
    save.addEventListener('click', () => post({ type: 'save' }));
    bar.append(h('span', { class: 'spacer' }), insert, save);
  }
  return h('header', {}, [h('h1', {}, [title]), bar, h('p', { id: 'status', role: 'status', 'aria-live': 'polite' })]);
}

/** A run started: the message, and the picture being analysed once it is known. */
export function showLoading(title: string, message: string, image: ImageView | undefined): void {
  reset();
  const loading = h('p', { class: 'loading', 'aria-busy': 'true' }, [message]);
  if (!image) {
    st.pictureEl = undefined;
    app.replaceChildren(header(title, false), loading);
    return;
  }
  // The picture being analysed, shown (and decoded) while the platform works.
  st.pic = image;
  const figure = makeFigure(image, title, undefined);
  app.replaceChildren(header(title, false), h('main', {}, [figure, h('section', { class: 'side' }, [loading])]));
  applyScale();
}

/** A failed run: the message, and a retry when it may help. */
export function showError(title: string, message: string, retryable: boolean): void {
  const s = strings();
  reset();
  st.pictureEl = undefined;
  const box = h('div', { class: 'error', role: 'alert' }, [h('p', {}, [message])]);
  if (retryable) {
    const retry = h('button', { id: 'retry', type: 'button', class: 'primary' }, [s.retry]);
    retry.addEventListener('click', () => post({ type: 'retry' }));
    box.append(retry);
  }
  app.replaceChildren(header(title, false), box);
  const r = document.getElementById('retry');
  if (r) r.focus();
}

/** A result: summary, warnings, advice, notes, the table, and the figure; tells the host once drawn. */
export function showResult(v: ResultView): void {
  const s = strings();
  const started = performance.now();
  reset();
  st.view = v;
  st.pic = v.image;
  st.boxes = v.boxes;
  st.currentType = v.recognitionType;

  // Summary
  const dl = h('dl', { class: 'summary' });
  for (const r of v.summary) dl.append(h('dt', {}, [r.label]), h('dd', {}, [r.value]));
  const side = h('section', { class: 'side', 'aria-label': s.summary }, [
    h('h2', { class: v.noConclusion ? 'headline none' : 'headline', id: 'headline' }, [v.headline]),
    dl,
  ]);
  for (const w of v.warnings) side.append(h('p', { class: 'warning', role: 'note' }, [w]));
  if (v.advice.length) {
    const ul = h(
      'ul',
      {},
      v.advice.map((a) => h('li', {}, [a])),
    );
    side.append(h('div', { class: 'advice' }, [h('h3', {}, [s.adviceTitle]), ul]));
  }
  for (const n of v.notes) side.append(h('p', { class: 'note' }, [n]));
  side.append(makeTable(v));

  // Figure
  let figure: HTMLElement;
  if (v.image) {
    figure = makeFigure(v.image, v.figureLabel, v);
  } else {
    st.pictureEl = undefined;
    figure = h('figure', { class: 'figure' }, [
      h('p', { class: 'note' }, [s.imageUnavailable]),
      h('figcaption', { class: 'sr-only' }, [v.figureLabel]),
    ]);
  }

  app.replaceChildren(header(v.title, true), h('main', {}, [figure, side]));
  renderRows();
  applyScale();
  const done = (n: number): void => post({ type: 'rendered', run: v.run, boxes: n, ms: performance.now() - started });
  const img = st.pictureEl;
  if (!v.image || !img) {
    done(0);
    return;
  }
  whenLoaded(
    img,
    () => {
      if (st.view !== v) return;
      applyScale();
      // Drawn = the picture decoded (it decodes off the main thread; a canvas already is) and two
      // frames painted.
      void (img instanceof HTMLImageElement ? img.decode() : Promise.resolve())
        .catch(() => undefined)
        .then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(st.view === v ? v.boxes.length : 0))));
    },
    () => done(0),
  );
}

/** The status line under the header (after save or insert). */
export function setStatus(message: string, error: boolean): void {
  const el = document.getElementById('status');
  if (!el) return;
  el.textContent = message;
  el.classList.toggle('error', error);
}
