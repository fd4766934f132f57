/**
 * The "Copy for WeChat" webview: shows the article as WeChat will, and on Copy puts it on the
 * clipboard as `text/html` (and plain text) through the Clipboard API; when the browser refuses,
 * it selects the article and copies the selection (which carries the HTML too); when that fails as
 * well, the host names the exported file. Protocol: src/publish/copyProtocol.ts.
 */
import type { CopyHostMessage, CopyWebviewMessage } from '../../publish/copyProtocol';

interface VsCodeApi {
  postMessage(message: CopyWebviewMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const post = (m: CopyWebviewMessage): void => vscode.postMessage(m);

const article = document.getElementById('article')!;
const button = document.getElementById('copy') as HTMLButtonElement;
const status = document.getElementById('status')!;
const file = document.getElementById('file')!;
const pictures = document.getElementById('pictures')!;
const pictureList = document.getElementById('picture-list')!;

window.addEventListener('message', (e: MessageEvent<CopyHostMessage>) => {
  if (e.data?.type !== 'show') return;
  article.innerHTML = e.data.article; // the writer's own output: escaped text, inline styles, no script
  file.textContent = e.data.file;
  pictureList.replaceChildren(
    ...e.data.pictures.map((p) => {
      const li = document.createElement('li');
      const code = document.createElement('code');
      code.textContent = p;
      li.append(code);
      return li;
    }),
  );
  pictures.hidden = e.data.pictures.length === 0;
  status.textContent = '';
});

button.addEventListener('click', () => void copy());

async function copy(): Promise<void> {
  const html = article.innerHTML;
  const text = article.innerText;
  try {
    if (typeof ClipboardItem === 'undefined' || !navigator.clipboard?.write) throw new Error('no Clipboard API');
    await navigator.clipboard.write([
      new ClipboardItem({
        'text/html': new Blob([html], { type: 'text/html' }),
        'text/plain': new Blob([text], { type: 'text/plain' }),
      }),
    ]);
    done('clipboard');
  } catch (err) {
    const range = document.createRange();
    range.selectNodeContents(article);
    const sel = window.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    const ok = document.execCommand('copy'); // the fallback when the Clipboard API is refused
    sel?.removeAllRanges();
    if (ok) done('selection');
    else post({ type: 'copy-failed', reason: err instanceof Error ? err.message : String(err) });
  }
}

function done(how: 'clipboard' | 'selection'): void {
  status.textContent = button.dataset.copied ?? '';
  post({ type: 'copied', how });
}

post({ type: 'ready' });
