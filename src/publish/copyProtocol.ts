/**
 * The one message protocol between the "Copy for WeChat" panel (host, src/features/export/panel.ts)
 * and its webview (src/webview/wechat/main.ts, bundled into media/wechat/main.js). The webview
 * starts with `ready`; the host answers `show` (and again after every new export of the bulletin).
 * Copying happens in the webview, on the user's click: only the browser's Clipboard API can put
 * `text/html` on the clipboard (`vscode.env.clipboard` writes plain text).
 */

/** Host → webview. */
export type CopyHostMessage = {
  type: 'show';
  /** The article's HTML (our own writer's output: inline styles, every text escaped, no script). */
  article: string;
  /** Where the exported file is, as the user reads it (the fallback when copying fails). */
  file: string;
  /** The article's pictures saved beside it, in order, as the user reads their paths (to upload in WeChat's editor). */
  pictures: string[];
};

/** Webview → host. */
export type CopyWebviewMessage =
  | { type: 'ready' }
  /** `clipboard`: through the Clipboard API (text/html + text/plain); `selection`: the selected article copied. */
  | { type: 'copied'; how: 'clipboard' | 'selection' }
  | { type: 'copy-failed'; reason: string };

/** Narrows a message from the webview. */
export function isCopyWebviewMessage(m: unknown): m is CopyWebviewMessage {
  if (typeof m !== 'object' || m === null) return false;
  const t = (m as { type?: unknown }).type;
  if (t === 'ready') return true;
  if (t === 'copied') return ['clipboard', 'selection'].includes((m as { how?: unknown }).how as string);
  return t === 'copy-failed' && typeof (m as { reason?: unknown }).reason === 'string';
}
