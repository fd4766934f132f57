/** Zoom: fit, 100 %, in and out by buttons, keys and the wheel (around the pointer); kept across reloads. */
import { saveState } from './api';
import { draw } from './canvas';
import { st } from './state';

function fitScale(): number {
  const vp = document.getElementById('viewport');
  if (!vp || !st.pic) return 1;
  const w = vp.clientWidth - 2;
  const hgt = vp.clientHeight - 2;
  return Math.max(0.01, Math.min(w / st.pic.width, hgt / st.pic.height));
}

/** Sizes the stage to the scale (the fitting one in fit mode) and repaints. */
export function applyScale(): void {
  const pic = st.pic;
  if (!pic) return;
  if (st.fit) st.scale = fitScale();
  if (st.stageEl) {
    st.stageEl.style.width = `${Math.round(pic.width * st.scale)}px`;
    st.stageEl.style.height = `${Math.round(pic.height * st.scale)}px`;
  }
  const lvl = document.getElementById('zoom-level');
  if (lvl) lvl.textContent = `${Math.round(st.scale * 100)}%`;
  document.getElementById('zoom-fit')?.setAttribute('aria-pressed', String(st.fit));
  draw();
}

/** Fits the picture to the viewport. */
export function setFit(): void {
  st.fit = true;
  saveState({ fit: true, scale: st.scale });
  applyScale();
}

/** Zooms to `s` (clamped to 5 %–1600 %). */
export function setScale(s: number): void {
  st.fit = false;
  st.scale = Math.min(16, Math.max(0.05, s));
  saveState({ fit: false, scale: st.scale });
  applyScale();
}

/** Wheel zooms around the pointer. */
export function onWheel(e: WheelEvent): void {
  if (!st.pic) return;
  e.preventDefault();
  const vp = e.currentTarget as HTMLElement;
  const rect = vp.getBoundingClientRect();
  const px = e.clientX - rect.left + vp.scrollLeft;
  const py = e.clientY - rect.top + vp.scrollTop;
  const old = st.scale;
  setScale(st.scale * Math.exp(-e.deltaY * 0.0015));
  const k = st.scale / old;
  vp.scrollLeft = px * k - (e.clientX - rect.left);
  vp.scrollTop = py * k - (e.clientY - rect.top);
  draw();
}

/** Keyboard zoom: + / - / 0 (fit) / 1 (100%). */
export function onKey(e: KeyboardEvent): void {
  if (e.key === '+' || e.key === '=') setScale(st.scale * 1.25);
  else if (e.key === '-') setScale(st.scale / 1.25);
  else if (e.key === '0') setFit();
  else if (e.key === '1') setScale(1);
  else return;
  e.preventDefault();
}
