/**
 * Host side of the recognition preview: one webview panel per image (keyed by the file URI or
 * URL), reused on re-run. Strict CSP (`default-src 'none'`, nonce script, images only from the
 * webview's resource origin or as data URIs), `localResourceRoots` limited to media/recognition,
 * the image's own folder and the storage folder of preview copies (./copies), and the typed
 * protocol of src/recognition/protocol.ts with a ready handshake (src/recognition/panelHost.ts): the
 * current state is replayed whenever the webview (re)loads.
 */
import vscode = require('vscode');
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../text/html';
import { langTag } from '../../text/words';
import { uiLanguage } from '../shared/language';
import { PreviewHost, type ActionMessage, type WebviewShrunk } from '../../recognition/panelHost';
import type { HostMessage, ShrinkRequest } from '../../recognition/protocol';
import { typeOptions, webviewStrings } from './strings';

/** One preview panel. */
export class RecognitionPanel implements vscode.Disposable {
  static readonly viewType = 'shunong.recognitionPreview';
  private static readonly panels = new Map<string, RecognitionPanel>();

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
    onMessage: (panel: RecognitionPanel, m: ActionMessage) => Promise<void>,
  ): RecognitionPanel {
    const existing = RecognitionPanel.panels.get(key);
    if (existing) {
      existing.panel.title = title;
      existing.panel.reveal(undefined, true);
      return existing;
    }
    const media = vscode.Uri.joinPath(extensionUri, 'media', 'recognition');
    const options: vscode.WebviewPanelOptions & vscode.WebviewOptions = {
      enableScripts: true,
      localResourceRoots: [media, ...pictureRoots],
      retainContextWhenHidden: false,
    };
    const panel = vscode.window.createWebviewPanel(
      RecognitionPanel.viewType,
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      options,
    );
    const p = new RecognitionPanel(panel, options, media, key, onMessage);
    RecognitionPanel.panels.set(key, p);
    return p;
  }

  private readonly disposables: vscode.Disposable[] = [];
  private readonly host: PreviewHost;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  /** Fires when the panel closes. */
  readonly onDidDispose = this.disposeEmitter.event;
  private disposed = false;
  private current: vscode.WebviewPanel;
  /** The current webview panel's own listeners (moved to its successor when it is opened anew). */
  private currentListeners: vscode.Disposable | undefined;
  private loaded = false;

  private constructor(
    panel: vscode.WebviewPanel,
    private readonly options: vscode.WebviewPanelOptions & vscode.WebviewOptions,
    private readonly media: vscode.Uri,
    readonly key: string,
    onMessage: (panel: RecognitionPanel, m: ActionMessage) => Promise<void>,
  ) {
    this.current = panel;
    this.host = new PreviewHost(
      {
        postMessage: (m) => void this.current.webview.postMessage(m).then(undefined, () => undefined),
        load: () => this.load(),
      },
      () => ({ type: 'init', strings: webviewStrings(), types: typeOptions() }),
      (m) => onMessage(this, m),
    );
    this.attach(panel);
    this.disposables.push(this.disposeEmitter);
    this.host.start();
  }

  /** The webview panel showing the preview now (another one after {@link load} opened it anew). */
  get panel(): vscode.WebviewPanel {
    return this.current;
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.currentListeners?.dispose();
    this.current = panel;
    this.currentListeners = vscode.Disposable.from(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.host.receive(raw)),
    );
  }

  /**
   * The page: the first time given to the panel's webview; after that (the page did not say `ready`
   * in time) given to a webview panel opened anew in the same place, the old one closed. Giving a
   * stuck webview its page again is not enough: in code-server (the web workbench), a webview's
   * frame waits for a service worker of its own to take control before it loads any page, and when
   * webviews open together under load that wait can miss its event and never end (its console says
   * "Waiting for controllerchange"); a page whose script was dropped is mended either way. A
   * hidden panel is left alone: its webview is made afresh when it is shown. Says whether the page
   * loads now (the panel is shown). Never called once the panel is disposed (its host is closed first).
   */
  private load(): boolean {
    if (!this.loaded) {
      this.loaded = true;
      this.current.webview.html = this.html();
      return this.current.visible;
    }
    if (!this.current.visible) return false;
    const old = this.current;
    const renewed = vscode.window.createWebviewPanel(
      RecognitionPanel.viewType,
      old.title,
      { viewColumn: old.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus: true },
      this.options,
    );
    this.attach(renewed);
    old.dispose();
    renewed.webview.html = this.html();
    return true;
  }

  /** The webview URI of a picture file (inside one of the panel's picture roots). */
  pictureSrc(uri: vscode.Uri): string {
    return this.panel.webview.asWebviewUri(uri).toString();
  }

  /** Posts a message; state messages are remembered and replayed after a reload. */
  post(m: HostMessage): void {
    this.host.post(m);
  }

  /** Asks the webview to draw the annotated picture (revealing the panel first); resolves with the PNG bytes. */
  async annotatedPng(timeoutMs = 20000): Promise<Uint8Array> {
    if (this.disposed) throw new Error('the panel is closed');
    if (!this.panel.visible) this.panel.reveal(undefined, true);
    return this.host.annotatedPng(timeoutMs);
  }

  /**
   * Asks the webview to shrink a picture with the browser's image pipeline (revealing the panel
   * first: a hidden webview is not running); rejects when it cannot, or as `signal` aborts.
   */
  async shrink(request: ShrinkRequest, signal?: AbortSignal): Promise<WebviewShrunk> {
    if (this.disposed) throw new Error('the panel is closed');
    if (!this.panel.visible) this.panel.reveal(undefined, true);
    return this.host.shrink(request, signal);
  }

  /** The webview's shrink request whose answer `bytes` are (see {@link PreviewHost.pixelsOf}). */
  pixelsOf(bytes: Uint8Array): number | undefined {
    return this.host.pixelsOf(bytes);
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
    const lang = langTag(uiLanguage());
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
    this.host.close();
    this.disposeEmitter.fire();
    this.currentListeners?.dispose();
    this.current.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
