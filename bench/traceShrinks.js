// Added to the recognition bench's webview page before its script (page.addInitScript): marks
// where each shrink's time goes, as `shunong-shrink:<requestId>:<phase>` performance marks —
// `start` when the `shrink` message arrives, `decoded:<n>` once attempt n's picture is drawn on its
// OffscreenCanvas (decode + resize), `encoded:<n>` once its JPEG is out of `convertToBlob`, `posted`
// when the `shrunk` answer is posted. The shrinker (src/webview/recognition/shrink.ts) ships
// without any of this: the wrapped calls are the only OffscreenCanvas ones in the page (the preview
// draws on a <canvas>), and the bench runs one shrink at a time, so each belongs to the request
// last started. Plain JavaScript, read as is: tsx would wrap a TypeScript function's inner
// functions in its `__name` helper, which the page does not have.
(() => {
  let current;
  let attempt = 0;
  const seen = new Set();
  const mark = (what) => {
    if (current !== undefined) performance.mark(`shunong-shrink:${current}:${what}`);
  };
  window.addEventListener(
    'message',
    (e) => {
      const id = e.data?.requestId;
      if (e.data?.type !== 'shrink' || id === undefined || seen.has(id)) return;
      seen.add(id);
      current = id;
      attempt = 0;
      mark('start');
    },
    { capture: true },
  );
  const context = OffscreenCanvasRenderingContext2D.prototype;
  const drawImage = context.drawImage;
  context.drawImage = function (...args) {
    drawImage.apply(this, args);
    mark(`decoded:${attempt}`);
  };
  const convertToBlob = OffscreenCanvas.prototype.convertToBlob;
  OffscreenCanvas.prototype.convertToBlob = async function (...args) {
    const blob = await convertToBlob.apply(this, args);
    mark(`encoded:${attempt++}`);
    return blob;
  };
  // The page's stand-in of acquireVsCodeApi posts into `window.__out` (./webview-host.mjs).
  let out = [];
  Object.defineProperty(window, '__out', {
    configurable: true,
    get: () => out,
    set: (list) => {
      out = list;
      const push = list.push.bind(list);
      list.push = (...items) => {
        const n = push(...items);
        if (items.some((m) => m?.type === 'shrunk' && m.requestId === current)) mark('posted');
        return n;
      };
    },
  });
})();
