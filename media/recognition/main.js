// @ts-check
/**
 * Webview side of the recognition preview. Speaks only the protocol of
 * src/recognition/protocol.ts (type-checked: `npx tsc -p media/recognition`).
 * Builds the page with DOM calls and textContent only: server text never becomes markup. The boxes
 * are painted on one <canvas> (one DOM overlay marks the highlighted box) and the detections table
 * renders only the rows in view, so 1,000 detections cost about what the picture alone does.
 */
(function () {
  /** @typedef {import('../../src/recognition/protocol').HostMessage} HostMessage */
  /** @typedef {import('../../src/recognition/protocol').WebviewMessage} WebviewMessage */
  /** @typedef {import('../../src/recognition/protocol').WebviewStrings} WebviewStrings */
  /** @typedef {import('../../src/recognition/protocol').ResultView} ResultView */
  /** @typedef {import('../../src/recognition/protocol').TypeOption} TypeOption */
  /** @typedef {import('../../src/recognition/protocol').BoxView} BoxView */

  /** @type {{ postMessage(m: WebviewMessage): void }} */
  // @ts-ignore acquireVsCodeApi is provided by VS Code
  const vscode = acquireVsCodeApi();
  /** Above this many boxes, labels are painted only for the highlighted box. */
  const LABEL_LIMIT = 150;

  /** @type {WebviewStrings | undefined} */
  let S;
  /** @type {TypeOption[]} */
  let types = [];
  /** @type {ResultView | undefined} */
  let view;
  /** @typedef {import('../../src/recognition/protocol').ImageView} ImageView */
  /** The picture on screen (during loading, or of the result). @type {ImageView | undefined} */
  let pic;
  /** @type {BoxView[]} */
  let boxes = [];
  let currentType = '';
  let scale = 1;
  let fit = true;
  let highlighted = -1;
  /** The table row that takes the focus (roving tabindex). */
  let active = 0;
  /** The picture element, kept across loading → result when the source is the same (no second load). @type {HTMLImageElement | undefined} */
  let imgEl;
  /** @type {HTMLCanvasElement | undefined} */
  let canvas;
  /** @type {HTMLElement | undefined} */
  let stageEl;
  /** @type {HTMLElement | undefined} */
  let viewportEl;
  /** The DOM overlay of the highlighted box (boxes themselves are painted on the canvas). @type {HTMLElement | undefined} */
  let hlEl;
  /** Box colours and width, read from the theme's CSS variables. */
  let colors = { box: '#3794ff', low: '#d18616', text: '#1e1e1e', width: 2, font: 'sans-serif' };

  /** Virtualised detections table: only the rows in view (plus a margin) exist in the DOM. */
  const table = {
    /** @type {HTMLElement | undefined} */ wrap: undefined,
    /** @type {HTMLTableSectionElement | undefined} */ tbody: undefined,
    /** @type {HTMLTableRowElement | undefined} */ top: undefined,
    /** @type {HTMLTableRowElement | undefined} */ bottom: undefined,
    /** @type {Map<number, HTMLTableRowElement>} */ rows: new Map(),
    first: 0,
    end: 0,
    rowH: 0,
  };
  /** Rows rendered beyond the visible ones, above and below. */
  const OVERSCAN = 8;

  const app = /** @type {HTMLElement} */ (document.getElementById('app'));

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Record<string, string>} [attrs]
   * @param {(Node | string)[]} [children]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function h(tag, attrs, children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
    for (const c of children || []) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
    return el;
  }

  /** @param {WebviewMessage} m */
  function post(m) {
    vscode.postMessage(m);
  }

  /** The header: title, type choice and re-run, actions. */
  function header(/** @type {string} */ title, /** @type {boolean} */ withActions) {
    const s = /** @type {WebviewStrings} */ (S);
    const select = h('select', { id: 'type', 'aria-label': s.recognitionType });
    for (const t of types) {
      const o = h('option', { value: t.id }, [t.label]);
      if (t.id === currentType) o.selected = true;
      select.append(o);
    }
    const rerun = h('button', { id: 'rerun', type: 'button' }, [s.rerun]);
    rerun.addEventListener('click', () => post({ type: 'rerun', recognitionType: /** @type {any} */ (select.value) }));
    const bar = h('div', { class: 'bar' }, [h('label', { for: 'type' }, [s.recognitionType]), select, rerun]);
    if (withActions) {
      const insert = h('button', { id: 'insert', type: 'button', class: 'primary' }, [s.insert]);
      insert.addEventListener('click', () => post({ type: 'insert' }));
      const save = h('button', { id: 'save', type: 'button' }, [s.save]);
      save.addEventListener('click', () => post({ type: 'save' }));
      bar.append(h('span', { class: 'spacer' }), insert, save);
    }
    return h('header', {}, [
      h('h1', {}, [title]),
      bar,
      h('p', { id: 'status', role: 'status', 'aria-live': 'polite' }),
    ]);
  }

  /** Forgets the figure and table of the previous view (the picture element is kept for reuse). */
  function reset() {
    view = undefined;
    pic = undefined;
    boxes = [];
    highlighted = -1;
    active = 0;
    canvas = undefined;
    stageEl = undefined;
    viewportEl = undefined;
    hlEl = undefined;
    table.wrap = table.tbody = table.top = table.bottom = undefined;
    table.rows = new Map();
    table.first = table.end = 0;
  }

  function showLoading(
    /** @type {string} */ title,
    /** @type {string} */ message,
    /** @type {ImageView | undefined} */ image,
  ) {
    reset();
    const loading = h('p', { class: 'loading', 'aria-busy': 'true' }, [message]);
    if (!image) {
      imgEl = undefined;
      app.replaceChildren(header(title, false), loading);
      return;
    }
    // The picture being analysed, shown (and decoded) while the platform works.
    pic = image;
    const figure = makeFigure(image, title, undefined);
    app.replaceChildren(header(title, false), h('main', {}, [figure, h('section', { class: 'side' }, [loading])]));
    applyScale();
  }

  function showError(/** @type {string} */ title, /** @type {string} */ message, /** @type {boolean} */ retryable) {
    const s = /** @type {WebviewStrings} */ (S);
    reset();
    imgEl = undefined;
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

  /** Calls `ok` once the picture is loaded (now, if it already is), `fail` if it cannot be. */
  function whenLoaded(
    /** @type {HTMLImageElement} */ img,
    /** @type {() => void} */ ok,
    /** @type {() => void} */ fail,
  ) {
    if (img.complete && img.naturalWidth > 0) {
      ok();
      return;
    }
    img.addEventListener('load', ok, { once: true });
    img.addEventListener('error', fail, { once: true });
  }

  /**
   * The figure: zoom toolbar, and the viewport with the stage (picture, the canvas the boxes are
   * painted on, the overlay of the highlighted box). Reuses the picture element of the same source.
   */
  function makeFigure(
    /** @type {ImageView} */ image,
    /** @type {string} */ label,
    /** @type {ResultView | undefined} */ v,
  ) {
    const s = /** @type {WebviewStrings} */ (S);
    const figure = h('figure', { class: 'figure' });
    const toolbar = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': s.zoomToolbar });
    const mk = (
      /** @type {string} */ id,
      /** @type {string} */ text,
      /** @type {string} */ aria,
      /** @type {() => void} */ fn,
    ) => {
      const b = h('button', { id, type: 'button', 'aria-label': aria, title: aria }, [text]);
      b.addEventListener('click', fn);
      toolbar.append(b);
    };
    mk('zoom-fit', s.zoomFit, s.zoomFit, () => setFit());
    mk('zoom-100', '100%', s.zoomActual, () => setScale(1));
    mk('zoom-out', '−', s.zoomOut, () => setScale(scale / 1.25));
    mk('zoom-in', '+', s.zoomIn, () => setScale(scale * 1.25));
    toolbar.append(h('span', { id: 'zoom-level', 'aria-live': 'polite', 'aria-label': s.zoomLevel }));
    const viewport = h('div', { class: 'viewport', id: 'viewport', tabindex: '0', 'aria-label': label });
    viewportEl = viewport;
    figure.append(toolbar, viewport);
    if (v) figure.append(h('figcaption', { class: 'sr-only' }, [label]));

    const stage = h('div', { class: 'stage', id: 'stage' });
    stageEl = stage;
    let img = imgEl;
    if (!img || img.getAttribute('src') !== image.src) {
      img = h('img', { id: 'image', alt: s.imageAlt, draggable: 'false', decoding: 'async' });
      // Webview resources are served with CORS headers: a CORS load keeps the canvas of
      // "Save Images" untainted.
      if (!image.src.startsWith('data:')) img.crossOrigin = 'anonymous';
      img.src = image.src;
    }
    imgEl = img;
    const c = h('canvas', { class: 'boxes', 'aria-hidden': 'true' });
    canvas = c;
    const hl = h('div', { class: 'box-hl', id: 'box-hl', 'aria-hidden': 'true', hidden: '' }, [
      h('span', { class: 'label' }),
    ]);
    hlEl = hl;
    stage.append(img, c, hl);
    viewport.append(stage);
    viewport.addEventListener('wheel', onWheel, { passive: false });
    viewport.addEventListener('keydown', onKey);
    viewport.addEventListener('scroll', scheduleDraw, { passive: true });
    stage.addEventListener('mousemove', onStageMove);
    stage.addEventListener('mouseleave', () => highlight(-1, false));
    return figure;
  }

  /** @param {ResultView} v */
  function showResult(v) {
    const s = /** @type {WebviewStrings} */ (S);
    const started = performance.now();
    reset();
    view = v;
    pic = v.image;
    boxes = v.boxes;
    currentType = v.recognitionType;

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
    let figure;
    if (v.image) {
      figure = makeFigure(v.image, v.figureLabel, v);
    } else {
      imgEl = undefined;
      figure = h('figure', { class: 'figure' }, [
        h('p', { class: 'note' }, [s.imageUnavailable]),
        h('figcaption', { class: 'sr-only' }, [v.figureLabel]),
      ]);
    }

    app.replaceChildren(header(v.title, true), h('main', {}, [figure, side]));
    renderRows();
    applyScale();
    const done = (/** @type {number} */ n) =>
      post({ type: 'rendered', run: v.run, boxes: n, ms: performance.now() - started });
    if (!v.image || !imgEl) {
      done(0);
      return;
    }
    whenLoaded(
      imgEl,
      () => {
        if (view !== v) return;
        applyScale();
        // Drawn = the picture decoded (it decodes off the main thread) and two frames painted.
        const img = /** @type {HTMLImageElement} */ (imgEl);
        img
          .decode()
          .catch(() => undefined)
          .then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(view === v ? v.boxes.length : 0))));
      },
      () => done(0),
    );
  }

  /** The detections table: real HTML, with only the visible rows in the DOM (aria-rowcount / aria-rowindex tell the rest). */
  function makeTable(/** @type {ResultView} */ v) {
    const s = /** @type {WebviewStrings} */ (S);
    const t = h('table', { id: 'detections', 'aria-rowcount': String(v.boxes.length + 1) }, [
      h('caption', {}, [s.detections]),
    ]);
    t.append(
      h('thead', {}, [
        h('tr', { 'aria-rowindex': '1' }, [
          h('th', { scope: 'col' }, [s.colIndex]),
          h('th', { scope: 'col' }, [s.colClass]),
          h('th', { scope: 'col' }, [s.colConfidence]),
          h('th', { scope: 'col' }, [s.colBox]),
        ]),
      ]),
    );
    const tbody = h('tbody');
    t.append(tbody);
    const wrap = h('div', { class: 'table-wrap', id: 'table-wrap' }, [t]);
    if (!v.boxes.length) {
      t.setAttribute('aria-rowcount', '2');
      tbody.append(h('tr', { 'aria-rowindex': '2' }, [h('td', { colspan: '4' }, [s.noDetections])]));
      return wrap;
    }
    const spacer = () => h('tr', { class: 'spacer', 'aria-hidden': 'true' }, [h('td', { colspan: '4' })]);
    table.top = spacer();
    table.bottom = spacer();
    tbody.append(table.top, table.bottom);
    table.wrap = wrap;
    table.tbody = tbody;
    // One listener per kind for all rows.
    const rowIndex = (/** @type {Event} */ e) => {
      const tr = /** @type {Element} */ (e.target).closest('tr[data-index]');
      return tr ? Number(tr.getAttribute('data-index')) : -1;
    };
    tbody.addEventListener('mouseover', (e) => {
      const i = rowIndex(e);
      if (i >= 0) highlight(i, false);
    });
    tbody.addEventListener('mouseleave', () => highlight(-1, false));
    tbody.addEventListener('focusin', (e) => {
      const i = rowIndex(e);
      if (i < 0) return;
      setActive(i);
      highlight(i, false);
    });
    // (A row scrolled out of the table loses its focus too: only its own highlight goes.)
    tbody.addEventListener('focusout', (e) => {
      if (rowIndex(e) === highlighted) highlight(-1, false);
    });
    tbody.addEventListener('keydown', onRowKey);
    wrap.addEventListener('scroll', () => renderRows(), { passive: true });
    return wrap;
  }

  /** One table row. */
  function makeRow(/** @type {number} */ i) {
    const s = /** @type {WebviewStrings} */ (S);
    const b = /** @type {BoxView} */ (boxes[i]);
    const conf = b.confidence.toFixed(2) + (b.low ? ` ${s.lowConfidenceMark}` : '');
    const cls = [b.low ? 'low' : '', i === highlighted ? 'hl' : ''].filter(Boolean).join(' ');
    return h(
      'tr',
      { tabindex: i === active ? '0' : '-1', 'data-index': String(i), 'aria-rowindex': String(i + 2), class: cls },
      [
        h('td', {}, [String(i + 1)]),
        h('td', {}, [b.className]),
        h('td', {}, [conf]),
        h('td', { class: 'mono' }, [
          `${Math.round(b.x1)}, ${Math.round(b.y1)}, ${Math.round(b.x2)}, ${Math.round(b.y2)}`,
        ]),
      ],
    );
  }

  /**
   * Puts the rows in view (plus OVERSCAN above and below) in the table, keeping the rows that stay
   * (a focused row keeps its focus); spacer rows keep the scroll height of all the others.
   */
  function renderRows() {
    const { wrap, tbody, top, bottom } = table;
    if (!wrap || !tbody || !top || !bottom || !boxes.length) return;
    const n = boxes.length;
    if (!table.rowH) {
      // Measure one row (fixed row height in the style sheet).
      const probe = makeRow(0);
      tbody.insertBefore(probe, bottom);
      table.rowH = probe.getBoundingClientRect().height || 22;
      probe.remove();
    }
    const rowH = table.rowH;
    const head = /** @type {HTMLElement} */ (tbody.previousElementSibling);
    const bodyStart = head.getBoundingClientRect().bottom - wrap.getBoundingClientRect().top + wrap.scrollTop;
    const visible = Math.ceil((wrap.clientHeight || 400) / rowH);
    const first = Math.max(0, Math.min(n, Math.floor((wrap.scrollTop - bodyStart) / rowH) - OVERSCAN));
    const end = Math.min(n, first + visible + 2 * OVERSCAN);
    // Drop the rows leaving the window, add the new ones at either end.
    for (const [i, tr] of table.rows) {
      if (i < first || i >= end) {
        tr.remove();
        table.rows.delete(i);
      }
    }
    const before = document.createDocumentFragment();
    for (let i = first; i < Math.min(end, table.rows.size ? table.first : end); i++) {
      if (table.rows.has(i)) continue;
      const tr = makeRow(i);
      table.rows.set(i, tr);
      before.append(tr);
    }
    top.after(before);
    const after = document.createDocumentFragment();
    for (let i = first; i < end; i++) {
      if (table.rows.has(i)) continue;
      const tr = makeRow(i);
      table.rows.set(i, tr);
      after.append(tr);
    }
    bottom.before(after);
    table.first = first;
    table.end = end;
    /** @type {HTMLElement} */ (top.firstElementChild).style.height = `${first * rowH}px`;
    /** @type {HTMLElement} */ (bottom.firstElementChild).style.height = `${(n - end) * rowH}px`;
    top.hidden = first === 0;
    bottom.hidden = end === n;
    // Roving tabindex: the active row, or the first one in view when the active row is not rendered.
    const tabbable = table.rows.has(active) ? active : first;
    for (const [i, tr] of table.rows) tr.tabIndex = i === tabbable ? 0 : -1;
  }

  function setActive(/** @type {number} */ i) {
    active = i;
    for (const [k, tr] of table.rows) tr.tabIndex = k === i ? 0 : -1;
  }

  /** Scrolls the table so that row `i` is in view. */
  function revealRow(/** @type {number} */ i) {
    const { wrap, tbody } = table;
    if (!wrap || !tbody || !table.rowH) return;
    const head = /** @type {HTMLElement} */ (tbody.previousElementSibling);
    const headH = head.getBoundingClientRect().height;
    const bodyStart = head.getBoundingClientRect().bottom - wrap.getBoundingClientRect().top + wrap.scrollTop;
    const y = bodyStart + i * table.rowH;
    if (y - headH < wrap.scrollTop) wrap.scrollTop = y - headH;
    else if (y + table.rowH > wrap.scrollTop + wrap.clientHeight) wrap.scrollTop = y + table.rowH - wrap.clientHeight;
    renderRows();
  }

  /** Arrow keys, Page Up / Down, Home / End move between rows (the rows not rendered included). @param {KeyboardEvent} e */
  function onRowKey(e) {
    const page = Math.max(1, Math.floor((table.wrap?.clientHeight || 200) / (table.rowH || 22)) - 1);
    const moves = /** @type {Record<string, number>} */ ({
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + page,
      PageUp: active - page,
      Home: 0,
      End: boxes.length - 1,
    });
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const i = Math.max(0, Math.min(boxes.length - 1, to));
    setActive(i);
    revealRow(i);
    table.rows.get(i)?.focus();
  }

  /** Highlights box `i` and its row (-1: none): the box by its overlay element, the row by a class. */
  function highlight(/** @type {number} */ i, /** @type {boolean} */ fromBox) {
    if (highlighted === i) return;
    table.rows.get(highlighted)?.classList.remove('hl');
    highlighted = i;
    const b = i >= 0 ? boxes[i] : undefined;
    if (hlEl && pic) {
      if (!b) {
        hlEl.hidden = true;
        hlEl.removeAttribute('data-index');
      } else {
        const s = /** @type {WebviewStrings} */ (S);
        hlEl.hidden = false;
        hlEl.setAttribute('data-index', String(i));
        hlEl.classList.toggle('low', b.low);
        hlEl.classList.toggle('inside', !!stageEl && (b.y1 / pic.height) * stageEl.clientHeight < 16);
        hlEl.style.left = `${(b.x1 / pic.width) * 100}%`;
        hlEl.style.top = `${(b.y1 / pic.height) * 100}%`;
        hlEl.style.width = `${(Math.max(0, b.x2 - b.x1) / pic.width) * 100}%`;
        hlEl.style.height = `${(Math.max(0, b.y2 - b.y1) / pic.height) * 100}%`;
        /** @type {HTMLElement} */ (hlEl.firstElementChild).textContent =
          `${b.className} ${b.confidence.toFixed(2)}${b.low ? ' ' + s.lowConfidenceMark : ''}`;
      }
    }
    if (i < 0) return;
    if (fromBox) revealRow(i); // new rows are made with the class of the highlighted one
    if (highlighted === i) table.rows.get(i)?.classList.add('hl');
  }

  /** The box under the pointer (the smallest one containing it). @param {MouseEvent} e */
  function onStageMove(e) {
    if (!stageEl || !pic || !boxes.length) return;
    const r = stageEl.getBoundingClientRect();
    const x = ((e.clientX - r.left) / r.width) * pic.width;
    const y = ((e.clientY - r.top) / r.height) * pic.height;
    let best = -1;
    let area = Infinity;
    for (let i = 0; i < boxes.length; i++) {
      const b = /** @type {BoxView} */ (boxes[i]);
      if (x < b.x1 || x > b.x2 || y < b.y1 || y > b.y2) continue;
      const a = (b.x2 - b.x1) * (b.y2 - b.y1);
      if (a < area) {
        area = a;
        best = i;
      }
    }
    highlight(best, best >= 0);
  }

  /** Reads the box colours of the current theme. */
  function readColors() {
    const cs = getComputedStyle(document.body);
    const v = (/** @type {string} */ name, /** @type {string} */ dflt) => cs.getPropertyValue(name).trim() || dflt;
    colors = {
      box: v('--box', '#3794ff'),
      low: v('--box-low', '#d18616'),
      text: v('--vscode-editor-background', '#1e1e1e'),
      width: parseFloat(v('--box-width', '2')) || 2,
      font: cs.fontFamily || 'sans-serif',
    };
  }

  let drawPending = false;
  function scheduleDraw() {
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
  function draw() {
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
    /** @type {{ b: BoxView, x: number, y: number, bw: number, bh: number }[]} */
    const shown = [];
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
    const s = /** @type {WebviewStrings} */ (S);
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

  function fitScale() {
    const vp = document.getElementById('viewport');
    if (!vp || !pic) return 1;
    const w = vp.clientWidth - 2;
    const hgt = vp.clientHeight - 2;
    return Math.max(0.01, Math.min(w / pic.width, hgt / pic.height));
  }

  function applyScale() {
    if (!pic) return;
    if (fit) scale = fitScale();
    if (stageEl) {
      stageEl.style.width = `${Math.round(pic.width * scale)}px`;
      stageEl.style.height = `${Math.round(pic.height * scale)}px`;
    }
    const lvl = document.getElementById('zoom-level');
    if (lvl) lvl.textContent = `${Math.round(scale * 100)}%`;
    document.getElementById('zoom-fit')?.setAttribute('aria-pressed', String(fit));
    draw();
  }

  function setFit() {
    fit = true;
    applyScale();
  }

  function setScale(/** @type {number} */ s) {
    fit = false;
    scale = Math.min(16, Math.max(0.05, s));
    applyScale();
  }

  /** Wheel zooms around the pointer. @param {WheelEvent} e */
  function onWheel(e) {
    if (!pic) return;
    e.preventDefault();
    const vp = /** @type {HTMLElement} */ (e.currentTarget);
    const rect = vp.getBoundingClientRect();
    const px = e.clientX - rect.left + vp.scrollLeft;
    const py = e.clientY - rect.top + vp.scrollTop;
    const old = scale;
    setScale(scale * Math.exp(-e.deltaY * 0.0015));
    const k = scale / old;
    vp.scrollLeft = px * k - (e.clientX - rect.left);
    vp.scrollTop = py * k - (e.clientY - rect.top);
    draw();
  }

  /** Keyboard zoom: + / - / 0 (fit) / 1 (100%). @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.key === '+' || e.key === '=') setScale(scale * 1.25);
    else if (e.key === '-') setScale(scale / 1.25);
    else if (e.key === '0') setFit();
    else if (e.key === '1') setScale(1);
    else return;
    e.preventDefault();
  }

  /** Draws the picture and its boxes at full resolution; answers a bare base64 PNG. */
  function renderAnnotated(/** @type {number} */ requestId) {
    try {
      if (!view || !view.image || !imgEl || !imgEl.complete) throw new Error('no image');
      const W = view.image.width;
      const H = view.image.height;
      const canvas = document.createElement('canvas');
      canvas.width = W;
      canvas.height = H;
      const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
      ctx.drawImage(imgEl, 0, 0, W, H);
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

  function setStatus(/** @type {string} */ message, /** @type {boolean} */ error) {
    const el = document.getElementById('status');
    if (!el) return;
    el.textContent = message;
    el.classList.toggle('error', error);
  }

  window.addEventListener('message', (event) => {
    /** @type {HostMessage} */
    const m = event.data;
    switch (m.type) {
      case 'init':
        S = m.strings;
        types = m.types;
        break;
      case 'loading':
        currentType = m.recognitionType;
        showLoading(m.title, m.message, m.image);
        break;
      case 'result':
        showResult(m.view);
        break;
      case 'error':
        currentType = m.recognitionType;
        showError(m.title, m.message, m.retryable);
        break;
      case 'status':
        setStatus(m.message, m.error);
        break;
      case 'renderAnnotated':
        renderAnnotated(m.requestId);
        break;
    }
  });
  window.addEventListener('resize', () => {
    if (fit) applyScale();
    else draw();
    renderRows();
  });
  // Theme changes (VS Code swaps the body's class and the variables on <html>): repaint in the new colours.
  const recolor = () => {
    readColors();
    draw();
  };
  new MutationObserver(recolor).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  new MutationObserver(recolor).observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
  readColors();
  post({ type: 'ready' });
})();
