// @ts-check
/**
 * Webview side of the recognition preview. Speaks only the protocol of
 * src/features/recognition/protocol.ts (type-checked: `npx tsc -p media/recognition`).
 * Builds the page with DOM calls and textContent only: server text never becomes markup.
 */
(function () {
  /** @typedef {import('../../src/features/recognition/protocol').HostMessage} HostMessage */
  /** @typedef {import('../../src/features/recognition/protocol').WebviewMessage} WebviewMessage */
  /** @typedef {import('../../src/features/recognition/protocol').WebviewStrings} WebviewStrings */
  /** @typedef {import('../../src/features/recognition/protocol').ResultView} ResultView */
  /** @typedef {import('../../src/features/recognition/protocol').TypeOption} TypeOption */
  /** @typedef {import('../../src/features/recognition/protocol').BoxView} BoxView */

  /** @type {{ postMessage(m: WebviewMessage): void }} */
  // @ts-ignore acquireVsCodeApi is provided by VS Code
  const vscode = acquireVsCodeApi();
  const SVG = 'http://www.w3.org/2000/svg';
  /** Above this many boxes, labels are shown only for the highlighted box. */
  const LABEL_LIMIT = 150;

  /** @type {WebviewStrings | undefined} */
  let S;
  /** @type {TypeOption[]} */
  let types = [];
  /** @type {ResultView | undefined} */
  let view;
  let currentType = '';
  let scale = 1;
  let fit = true;
  let highlighted = -1;
  /** @type {HTMLImageElement | undefined} */
  let imgEl;
  /** @type {SVGRectElement[]} */
  let rects = [];
  /** @type {HTMLElement[]} */
  let labels = [];
  /** @type {HTMLTableRowElement[]} */
  let rows = [];

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
    return h('header', {}, [h('h1', {}, [title]), bar, h('p', { id: 'status', role: 'status', 'aria-live': 'polite' })]);
  }

  function showLoading(/** @type {string} */ title, /** @type {string} */ message) {
    app.replaceChildren(header(title, false), h('p', { class: 'loading', 'aria-busy': 'true' }, [message]));
  }

  function showError(/** @type {string} */ title, /** @type {string} */ message, /** @type {boolean} */ retryable) {
    const s = /** @type {WebviewStrings} */ (S);
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

  /** @param {ResultView} v */
  function showResult(v) {
    const s = /** @type {WebviewStrings} */ (S);
    const started = performance.now();
    view = v;
    currentType = v.recognitionType;
    highlighted = -1;
    rects = [];
    labels = [];
    rows = [];
    imgEl = undefined;

    // Summary
    const dl = h('dl', { class: 'summary' });
    for (const r of v.summary) dl.append(h('dt', {}, [r.label]), h('dd', {}, [r.value]));
    const side = h('section', { class: 'side', 'aria-label': s.summary }, [
      h('h2', { class: v.noConclusion ? 'headline none' : 'headline', id: 'headline' }, [v.headline]),
      dl,
    ]);
    for (const w of v.warnings) side.append(h('p', { class: 'warning', role: 'note' }, [w]));
    if (v.advice.length) {
      const ul = h('ul', {}, v.advice.map((a) => h('li', {}, [a])));
      side.append(h('div', { class: 'advice' }, [h('h3', {}, [s.adviceTitle]), ul]));
    }
    for (const n of v.notes) side.append(h('p', { class: 'note' }, [n]));

    // Detections table
    const table = h('table', { id: 'detections' }, [h('caption', {}, [s.detections])]);
    table.append(
      h('thead', {}, [
        h('tr', {}, [
          h('th', { scope: 'col' }, [s.colIndex]),
          h('th', { scope: 'col' }, [s.colClass]),
          h('th', { scope: 'col' }, [s.colConfidence]),
          h('th', { scope: 'col' }, [s.colBox]),
        ]),
      ]),
    );
    const tbody = h('tbody');
    v.boxes.forEach((b, i) => {
      const conf = b.confidence.toFixed(2) + (b.low ? ` ${s.lowConfidenceMark}` : '');
      const tr = h('tr', { tabindex: '0', 'data-index': String(i), class: b.low ? 'low' : '' }, [
        h('td', {}, [String(i + 1)]),
        h('td', {}, [b.className]),
        h('td', {}, [conf]),
        h('td', { class: 'mono' }, [`${Math.round(b.x1)}, ${Math.round(b.y1)}, ${Math.round(b.x2)}, ${Math.round(b.y2)}`]),
      ]);
      rows.push(tr);
      tbody.append(tr);
    });
    if (!v.boxes.length) tbody.append(h('tr', {}, [h('td', { colspan: '4' }, [s.noDetections])]));
    // One listener per kind for all rows (fast with 1,000 detections).
    const rowIndex = (/** @type {Event} */ e) => {
      const tr = /** @type {Element} */ (e.target).closest('tr[data-index]');
      return tr ? Number(tr.getAttribute('data-index')) : -1;
    };
    tbody.addEventListener('mouseover', (e) => highlight(rowIndex(e), false));
    tbody.addEventListener('mouseleave', () => highlight(-1, false));
    tbody.addEventListener('focusin', (e) => highlight(rowIndex(e), false));
    tbody.addEventListener('focusout', () => highlight(-1, false));
    table.append(tbody);
    side.append(h('div', { class: 'table-wrap' }, [table]));

    // Figure
    const figure = h('figure', { class: 'figure' });
    const toolbar = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': s.zoomToolbar });
    const mk = (/** @type {string} */ id, /** @type {string} */ text, /** @type {string} */ label, /** @type {() => void} */ fn) => {
      const b = h('button', { id, type: 'button', 'aria-label': label, title: label }, [text]);
      b.addEventListener('click', fn);
      toolbar.append(b);
    };
    mk('zoom-fit', s.zoomFit, s.zoomFit, () => setFit());
    mk('zoom-100', '100%', s.zoomActual, () => setScale(1));
    mk('zoom-out', '−', s.zoomOut, () => setScale(scale / 1.25));
    mk('zoom-in', '+', s.zoomIn, () => setScale(scale * 1.25));
    toolbar.append(h('span', { id: 'zoom-level', 'aria-live': 'polite', 'aria-label': s.zoomLevel }));
    const viewport = h('div', { class: 'viewport', id: 'viewport', tabindex: '0', 'aria-label': v.figureLabel });
    figure.append(toolbar, viewport, h('figcaption', { class: 'sr-only' }, [v.figureLabel]));

    if (v.image) {
      const W = v.image.width;
      const H = v.image.height;
      const stage = h('div', { class: 'stage', id: 'stage' });
      const img = h('img', { id: 'image', alt: s.imageAlt, draggable: 'false' });
      imgEl = img;
      const svg = document.createElementNS(SVG, 'svg');
      svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
      svg.setAttribute('preserveAspectRatio', 'none');
      svg.setAttribute('aria-hidden', 'true');
      svg.setAttribute('class', 'boxes');
      const labelLayer = h('div', { class: 'labels', 'aria-hidden': 'true' });
      const many = v.boxes.length > LABEL_LIMIT;
      if (many) labelLayer.classList.add('many');
      const frag = document.createDocumentFragment();
      const lfrag = document.createDocumentFragment();
      v.boxes.forEach((b, i) => {
        const r = document.createElementNS(SVG, 'rect');
        r.setAttribute('x', String(b.x1));
        r.setAttribute('y', String(b.y1));
        r.setAttribute('width', String(Math.max(0, b.x2 - b.x1)));
        r.setAttribute('height', String(Math.max(0, b.y2 - b.y1)));
        r.setAttribute('class', b.low ? 'box low' : 'box');
        r.setAttribute('data-index', String(i));
        rects.push(r);
        frag.append(r);
        // With many boxes, labels are made only for the highlighted one (see highlight()).
        if (!many) {
          const l = makeLabel(b, W, H);
          labels.push(l);
          lfrag.append(l);
        }
      });
      svg.addEventListener('mouseover', (e) => {
        const idx = /** @type {Element} */ (e.target).getAttribute('data-index');
        if (idx !== null) highlight(Number(idx), true);
      });
      svg.addEventListener('mouseleave', () => highlight(-1, false));
      svg.append(frag);
      labelLayer.append(lfrag);
      stage.append(img, svg, labelLayer);
      viewport.append(stage);
      viewport.addEventListener('wheel', onWheel, { passive: false });
      viewport.addEventListener('keydown', onKey);
      img.addEventListener('load', () => {
        applyScale();
        // Two frames: the boxes are laid out and painted.
        requestAnimationFrame(() => requestAnimationFrame(() => post({ type: 'rendered', run: v.run, boxes: v.boxes.length, ms: performance.now() - started })));
      });
      img.addEventListener('error', () => post({ type: 'rendered', run: v.run, boxes: 0, ms: performance.now() - started }));
      img.src = v.image.src;
    } else {
      viewport.append(h('p', { class: 'note' }, [s.imageUnavailable]));
    }

    const main = h('main', {}, [figure, side]);
    app.replaceChildren(header(v.title, true), main);
    if (!v.image) post({ type: 'rendered', run: v.run, boxes: 0, ms: performance.now() - started });
  }

  /** The label of a box, positioned in percent of the picture so it follows the zoom. */
  function makeLabel(/** @type {BoxView} */ b, /** @type {number} */ W, /** @type {number} */ H) {
    const s = /** @type {WebviewStrings} */ (S);
    const l = h('span', { class: b.low ? 'label low' : 'label' }, [`${b.className} ${b.confidence.toFixed(2)}${b.low ? ' ' + s.lowConfidenceMark : ''}`]);
    l.style.left = `${(b.x1 / W) * 100}%`;
    l.style.top = `${(b.y1 / H) * 100}%`;
    return l;
  }

  /** Highlights box `i` and its row (-1: none). */
  function highlight(/** @type {number} */ i, /** @type {boolean} */ fromBox) {
    if (highlighted === i) return;
    if (highlighted >= 0) {
      rects[highlighted]?.classList.remove('hl');
      labels[highlighted]?.classList.remove('hl');
      rows[highlighted]?.classList.remove('hl');
    }
    highlighted = i;
    if (i < 0) return;
    const r = rects[i];
    if (r) {
      r.classList.add('hl');
      r.parentNode?.appendChild(r); // on top of its neighbours
    }
    if (!labels[i] && view && view.image && view.boxes[i]) {
      const layer = document.querySelector('.labels');
      const l = makeLabel(view.boxes[i], view.image.width, view.image.height);
      labels[i] = l;
      layer?.append(l);
    }
    labels[i]?.classList.add('hl');
    rows[i]?.classList.add('hl');
    if (fromBox) rows[i]?.scrollIntoView({ block: 'nearest' });
  }

  function fitScale() {
    const vp = document.getElementById('viewport');
    if (!vp || !view || !view.image) return 1;
    const w = vp.clientWidth - 2;
    const hgt = vp.clientHeight - 2;
    return Math.max(0.01, Math.min(w / view.image.width, hgt / view.image.height));
  }

  function applyScale() {
    if (!view || !view.image) return;
    if (fit) scale = fitScale();
    const stage = document.getElementById('stage');
    if (stage) {
      stage.style.width = `${Math.round(view.image.width * scale)}px`;
      stage.style.height = `${Math.round(view.image.height * scale)}px`;
    }
    const lvl = document.getElementById('zoom-level');
    if (lvl) lvl.textContent = `${Math.round(scale * 100)}%`;
    document.getElementById('zoom-fit')?.setAttribute('aria-pressed', String(fit));
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
    if (!view || !view.image) return;
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
        showLoading(m.title, m.message);
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
  });
  post({ type: 'ready' });
})();
