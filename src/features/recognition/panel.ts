/**
 * Host side of the recognition preview: one webview panel per image (keyed by the file URI or
 * URL), reused on re-run. Strict CSP (`default-src 'none'`, nonce script, images only from the
 * webview's resource origin or as data URIs), `localResourceRoots` limited to media/recognition,
 * the image's own folder and the storage folder of preview copies (./copies), and the typed
 * protocol of ./protocol with a ready handshake: the current state is replayed whenever the
 * webview (re)loads.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { parseWebviewMessage, type HostMessage, type WebviewMessage } from '../../recognition/protocol';
import { typeOptions, webviewStrings } from './messages';

/** What the webview reported after drawing a result. */
export interface RenderedInfo {
  run: number;
  boxes: number;
  ms: number;
}

/** One preview panel. */
export class RecognitionPanel implements vscode.Disposable {
  static readonly viewType = 'shunong.recognitionPreview';
  private static readonly panels = new Map<string, RecognitionPanel>();

  /** The open panel for `key`, if any. */
  static get(key: string): RecognitionPanel | undefined {
    return RecognitionPanel.panels.get(key);
  }

  /** Every open panel. */
  static all(): RecognitionPanel[] {
    return [...RecognitionPanel.panels.values()];
  }

  /**
   * Reveals the panel of `key`, or opens a new one beside the editor. `pictureRoots` are the
   * folders its pictures may be loaded from (the image's folder, the preview copies' folder).
   */
  static createOrShow(
    extensionUri: vscode.Uri,
    key: string,
    title: string,
    pictureRoots: vscode.Uri[],
    onMessage: (panel: RecognitionPanel, m: WebviewMessage) => Promise<void>,
  ): RecognitionPanel {
    const existing = RecognitionPanel.panels.get(key);
    if (existing) {
      existing.panel.title = title;
      existing.panel.reveal(undefined, true);
      return existing;
    }
    const media = vscode.Uri.joinPath(extensionUri, 'media', 'recognition');
    const panel = vscode.window.createWebviewPanel(
      RecognitionPanel.viewType,
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, localResourceRoots: [media, ...pictureRoots], retainContextWhenHidden: false },
    );
    const p = new RecognitionPanel(panel, media, key, onMessage);
    RecognitionPanel.panels.set(key, p);
    return p;
  }

  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  /** The last state message (loading / result / error), replayed after a reload. */
  private lastState: HostMessage | undefined;
  private lastStatus: HostMessage | undefined;
  private readonly renderedEmitter = new vscode.EventEmitter<RenderedInfo>();
  /** Fires when the webview has drawn a result (boxes painted). */
  readonly onDidRender = this.renderedEmitter.event;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  /** Fires when the panel closes. */
  readonly onDidDispose = this.disposeEmitter.event;
  /** The last rendering the webview reported. */
  rendered: RenderedInfo | undefined;
  /** Every message posted (kept short; read by the integration tests). */
  readonly posted: HostMessage['type'][] = [];
  private annotatedWaiters = new Map<number, (m: Extract<WebviewMessage, { type: 'annotated' }>) => void>();
  private nextRequest = 1;
  private disposed = false;

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly media: vscode.Uri,
    readonly key: string,
    private readonly onMessage: (panel: RecognitionPanel, m: WebviewMessage) => Promise<void>,
  ) {
    panel.webview.html = this.html();
    this.disposables.push(
      this.renderedEmitter,
      this.disposeEmitter,
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        const m = parseWebviewMessage(raw);
        if (m) void this.receive(m);
      }),
    );
  }

  /** The webview URI of a picture file (inside one of the panel's picture roots). */
  pictureSrc(uri: vscode.Uri): string {
    return this.panel.webview.asWebviewUri(uri).toString();
  }

  /** Whether the panel is closed. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** The last state message sent (loading, result or error). */
  get state(): HostMessage | undefined {
    return this.lastState;
  }

  /** Handles a webview message (also used by the test hook to act as the webview). */
  async receive(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.send({ type: 'init', strings: webviewStrings(), types: typeOptions() });
        if (this.lastState) this.send(this.lastState);
        if (this.lastStatus) this.send(this.lastStatus);
        return;
      case 'rendered':
        this.rendered = { run: m.run, boxes: m.boxes, ms: m.ms };
        this.renderedEmitter.fire(this.rendered);
        return;
      case 'annotated': {
        const w = this.annotatedWaiters.get(m.requestId);
        this.annotatedWaiters.delete(m.requestId);
        w?.(m);
        return;
      }
      default:
        await this.onMessage(this, m);
    }
  }

  /** Posts a message; state messages are remembered and replayed after a reload. */
  post(m: HostMessage): void {
    if (m.type === 'loading' || m.type === 'result' || m.type === 'error') {
      this.lastState = m;
      this.lastStatus = undefined;
      this.rendered = undefined;
    } else if (m.type === 'status') {
      this.lastStatus = m;
    }
    this.posted.push(m.type);
    if (this.posted.length > 50) this.posted.splice(0, this.posted.length - 50);
    if (this.ready) this.send(m);
  }

  /** Asks the webview to draw the annotated picture; resolves with the PNG bytes. */
  async annotatedPng(timeoutMs = 20000): Promise<Uint8Array> {
    if (this.disposed) throw new Error('the panel is closed');
    if (!this.panel.visible) this.panel.reveal(undefined, true);
    const requestId = this.nextRequest++;
    const answer = new Promise<Extract<WebviewMessage, { type: 'annotated' }>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.annotatedWaiters.delete(requestId);
        reject(new Error('the preview did not answer'));
      }, timeoutMs);
      this.annotatedWaiters.set(requestId, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    // Wait for the handshake (after a reveal the webview may be reloading).
    for (let i = 0; i < 100 && !this.ready && !this.disposed; i++) await new Promise((r) => setTimeout(r, 50));
    this.send({ type: 'renderAnnotated', requestId });
    const m = await answer;
    if (!m.png) throw new Error(m.error ?? 'no picture');
    return new Uint8Array(Buffer.from(m.png, 'base64'));
  }

  private send(m: HostMessage): void {
    if (this.disposed) return;
    void this.panel.webview.postMessage(m).then(undefined, () => undefined);
  }

  private html(): string {
    const webview = this.panel.webview;
    const nonce = randomBytes(18).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'main.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'style.css'));
    const csp = [
      `default-src 'none'`,
      `img-src ${webview.cspSource} data:`,
      `style-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    const lang = vscode.env.language.replace(/[^\w-]/g, '');
    return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${escapeHtml(this.panel.title)}</title>
</head>
<body>
<div id="app"><p class="loading">${escapeHtml(vscode.l10n.t('Recognizing…'))}</p></div>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    RecognitionPanel.panels.delete(this.key);
    this.disposeEmitter.fire();
    for (const w of this.annotatedWaiters.values()) w({ type: 'annotated', requestId: -1, error: 'closed' });
    this.annotatedWaiters.clear();
    this.panel.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** Escapes text for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
