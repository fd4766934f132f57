/** The highlighted box and row: the box by its one overlay element, the row by a class. */
import type { BoxView } from '../../recognition/protocol';
import { revealRow } from './rows';
import { st, strings } from './state';

/** Highlights box `i` and its row (-1: none); from the picture, the row is scrolled into view. */
export function highlight(i: number, fromBox: boolean): void {
  if (st.highlighted === i) return;
  const rows = st.table.rows;
  rows.get(st.highlighted)?.classList.remove('hl');
  st.highlighted = i;
  const b = i >= 0 ? st.boxes[i] : undefined;
  const { hlEl, pic, stageEl } = st;
  if (hlEl && pic) {
    if (!b) {
      hlEl.hidden = true;
      hlEl.removeAttribute('data-index');
    } else {
      const s = strings();
      hlEl.hidden = false;
      hlEl.setAttribute('data-index', String(i));
      hlEl.classList.toggle('low', b.low);
      hlEl.classList.toggle('inside', !!stageEl && (b.y1 / pic.height) * stageEl.clientHeight < 16);
      hlEl.style.left = `${(b.x1 / pic.width) * 100}%`;
      hlEl.style.top = `${(b.y1 / pic.height) * 100}%`;
      hlEl.style.width = `${(Math.max(0, b.x2 - b.x1) / pic.width) * 100}%`;
      hlEl.style.height = `${(Math.max(0, b.y2 - b.y1) / pic.height) * 100}%`;
      (hlEl.firstElementChild as HTMLElement).textContent =
        `${b.className} ${b.confidence.toFixed(2)}${b.low ? ' ' + s.lowConfidenceMark : ''}`;
    }
  }
  if (i < 0) return;
  if (fromBox) revealRow(i); // new rows are made with the class of the highlighted one
  if (st.highlighted === i) rows.get(i)?.classList.add('hl');
}

/** The box under the pointer (the smallest one containing it). */
export function onStageMove(e: MouseEvent): void {
  const { stageEl, pic, boxes } = st;
  if (!stageEl || !pic || !boxes.length) return;
  const r = stageEl.getBoundingClientRect();
  const x = ((e.clientX - r.left) / r.width) * pic.width;
  const y = ((e.clientY - r.top) / r.height) * pic.height;
  let best = -1;
  let area = Infinity;
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i] as BoxView;
    if (x < b.x1 || x > b.x2 || y < b.y1 || y > b.y2) continue;
    const a = (b.x2 - b.x1) * (b.y2 - b.y1);
    if (a < area) {
      area = a;
      best = i;
    }
  }
  highlight(best, best >= 0);
}
