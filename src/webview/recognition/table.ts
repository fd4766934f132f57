/**
 * The detections table: real HTML, with only the visible rows in the DOM (./rows; aria-rowcount and
 * aria-rowindex tell the rest). Hovering or focusing a row highlights its box; arrows, Page Up /
 * Down, Home and End move through all the rows, the ones not rendered included.
 */
import type { ResultView } from '../../recognition/protocol';
import { h } from './dom';
import { highlight } from './highlight';
import { renderRows, revealRow, setActive } from './rows';
import { st, strings } from './state';

/** The table of a result (its rows are rendered by renderRows once it is in the page). */
export function makeTable(v: ResultView): HTMLElement {
  const s = strings();
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
  const spacer = (): HTMLTableRowElement =>
    h('tr', { class: 'spacer', 'aria-hidden': 'true' }, [h('td', { colspan: '4' })]);
  const table = st.table;
  table.top = spacer();
  table.bottom = spacer();
  tbody.append(table.top, table.bottom);
  table.wrap = wrap;
  table.tbody = tbody;
  // One listener per kind for all rows.
  const rowIndex = (e: Event): number => {
    const tr = (e.target as Element).closest('tr[data-index]');
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
    if (rowIndex(e) === st.highlighted) highlight(-1, false);
  });
  tbody.addEventListener('keydown', onRowKey);
  wrap.addEventListener('scroll', () => renderRows(), { passive: true });
  return wrap;
}

/** Arrow keys, Page Up / Down, Home / End move between rows (the rows not rendered included). */
function onRowKey(e: KeyboardEvent): void {
  const table = st.table;
  const active = st.active;
  const n = st.boxes.length;
  const page = Math.max(1, Math.floor((table.wrap?.clientHeight || 200) / (table.rowH || 22)) - 1);
  const moves: Record<string, number> = {
    ArrowDown: active + 1,
    ArrowUp: active - 1,
    PageDown: active + page,
    PageUp: active - page,
    Home: 0,
    End: n - 1,
  };
  const to = moves[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const i = Math.max(0, Math.min(n - 1, to));
  setActive(i);
  revealRow(i);
  table.rows.get(i)?.focus();
}
