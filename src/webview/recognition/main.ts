/**
 * Webview side of the recognition preview, bundled by esbuild into media/recognition/main.js (the
 * script the panel loads). Speaks only the protocol of src/recognition/protocol.ts. Builds the page
 * with DOM calls and textContent only: server text never becomes markup. The boxes are painted on
 * one <canvas> (./canvas; one DOM overlay marks the highlighted box, ./highlight) and the detections
 * table renders only the rows in view (./rows), so 1,000 detections cost about what the picture
 * alone does. The zoom is kept across reloads of the webview (./api: getState / setState); the
 * host replays the rest after the `ready` handshake. Photos over the upload limit are shrunk here,
 * with the browser's own image pipeline (./shrink), when the host asks.
 */
import type { HostMessage } from '../../recognition/protocol';
import { post, savedState } from './api';
import { draw, readColors, renderAnnotated } from './canvas';
import { renderRows } from './rows';
import { cancelShrink, receivePart, shrinkPicture } from './shrink';
import { st } from './state';
import { setStatus, showError, showLoading, showResult } from './views';
import { applyScale } from './zoom';

const restored = savedState();
if (restored) {
  st.fit = restored.fit;
  st.scale = restored.scale;
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  switch (m.type) {
    case 'init':
      st.strings = m.strings;
      st.types = m.types;
      break;
    case 'loading':
      st.currentType = m.recognitionType;
      showLoading(m.title, m.message, m.image);
      break;
    case 'result':
      showResult(m.view);
      break;
    case 'error':
      st.currentType = m.recognitionType;
      showError(m.title, m.message, m.retryable);
      break;
    case 'status':
      setStatus(m.message, m.error);
      break;
    case 'renderAnnotated':
      renderAnnotated(m.requestId);
      break;
    case 'shrink':
      void shrinkPicture(m);
      break;
    case 'shrinkPart':
      receivePart(m);
      break;
    case 'cancelShrink':
      cancelShrink(m.requestId);
      break;
  }
});
window.addEventListener('resize', () => {
  if (st.fit) applyScale();
  else draw();
  renderRows();
});
// Theme changes (VS Code swaps the body's class and the variables on <html>): repaint in the new colours.
const recolor = (): void => {
  readColors();
  draw();
};
new MutationObserver(recolor).observe(document.body, { attributes: true, attributeFilter: ['class'] });
new MutationObserver(recolor).observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
readColors();
post({ type: 'ready' });
