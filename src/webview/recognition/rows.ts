/**
 * The virtual window of the detections table: only the rows in view (plus OVERSCAN above and
 * below) exist in the DOM; spacer rows keep the scroll height of all the others.
 */
import type { BoxView } from '../../recognition/protocol';
import { h } from './dom';
import { OVERSCAN, st, strings } from './state';

/** One table row. */
function makeRow(i: number): HTMLTableRowElement {
  const s = strings();
  const b = st.boxes[i] as BoxView;
  const conf = b.confidence.toFixed(2) + (b.low ? ` ${s.lowConfidenceMark}` : '');
  const cls = [b.low ? 'low' : '', i === st.highlighted ? 'hl' : ''].filter(Boolean).join(' ');
  return h(
    'tr',
    { tabindex: i === st.active ? '0' : '-1', 'data-index': String(i), 'aria-rowindex': String(i + 2), class: cls },
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
export function renderRows(): void {
  const table = st.table;
  const { wrap, tbody, top, bottom } = table;
  if (!wrap || !tbody || !top || !bottom || !st.boxes.length) return;
  const n = st.boxes.length;
  if (!table.rowH) {
    // Measure one row (fixed row height in the style sheet).
    const probe = makeRow(0);
    tbody.insertBefore(probe, bottom);
    table.rowH = probe.getBoundingClientRect().height || 22;
    probe.remove();
  }
  const rowH = table.rowH;
  const head = tbody.previousElementSibling as HTMLElement;
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
  (top.firstElementChild as HTMLElement).style.height = `${first * rowH}px`;
  (bottom.firstElementChild as HTMLElement).style.height = `${(n - end) * rowH}px`;
  top.hidden = first === 0;
  bottom.hidden = end === n;
  // Roving tabindex: the active row, or the first one in view when the active row is not rendered.
  const tabbable = table.rows.has(st.active) ? st.active : first;
  for (const [i, tr] of table.rows) tr.tabIndex = i === tabbable ? 0 : -1;
}

/** Makes row `i` the one that takes the focus. */
export function setActive(i: number): void {
  st.active = i;
  for (const [k, tr] of st.table.rows) tr.tabIndex = k === i ? 0 : -1;
}

/** Scrolls the table so that row `i` is in view. */
export function revealRow(i: number): void {
  const table = st.table;
  const { wrap, tbody } = table;
  if (!wrap || !tbody || !table.rowH) return;
  const head = tbody.previousElementSibling as HTMLElement;
  const headH = head.getBoundingClientRect().height;
  const bodyStart = head.getBoundingClientRect().bottom - wrap.getBoundingClientRect().top + wrap.scrollTop;
  const y = bodyStart + i * table.rowH;
  if (y - headH < wrap.scrollTop) wrap.scrollTop = y - headH;
  else if (y + table.rowH > wrap.scrollTop + wrap.clientHeight) wrap.scrollTop = y + table.rowH - wrap.clientHeight;
  renderRows();
}
