/**
 * The "Copy for WeChat" panel: the article as WeChat will show it, a Copy button that writes
 * `text/html` in the webview (see src/webview/wechat/main.ts), and the exported file named as the
 * fallback. One panel, reused. CSP `default-src 'none'`, the script by nonce, pictures only as data
 * URIs, styles only as the article's own `style=` attributes; the typed protocol of
 * src/publish/copyProtocol.ts with a ready handshake.
 */
import { randomBytes } from 'node:crypto';
import vscode = require('vscode');
import { uiLanguage } from '../shared/language';
import { langTag } from '../../text/words';
import { escapeHtml } from '../../text/html';
import { isCopyWebviewMessage, type CopyHostMessage, type CopyWebviewMessage } from '../../publish/copyProtocol';

/** The panel. */
export class WechatPanel implements vscode.Disposable {
  static readonly viewType = 'shunong.copyForWeChat';
  private static current: WechatPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private shown: CopyHostMessage;
  private readonly messageEmitter = new vscode.EventEmitter<CopyWebviewMessage>();
  /** Every message from the webview (the tests listen too). */
  readonly onDidReceiveMessage = this.messageEmitter.event;

  /** Shows `article` in the panel (opening it beside the editor when needed). */
  static show(
    extensionUri: vscode.Uri,
    article: string,
    file: vscode.Uri,
    pictures: readonly vscode.Uri[] = [],
  ): WechatPanel {
    const message: CopyHostMessage = {
      type: 'show',
      article,
      file: displayPath(file),
      pictures: pictures.map(displayPath),
    };
    if (WechatPanel.current) {
      WechatPanel.current.update(message);
      WechatPanel.current.panel.reveal(undefined, false);
      return WechatPanel.current;
    }
    const media = vscode.Uri.joinPath(extensionUri, 'media', 'wechat');
    const panel = vscode.window.createWebviewPanel(
      WechatPanel.viewType,
      vscode.l10n.t('Copy for WeChat'),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [media] },
    );
    WechatPanel.current = new WechatPanel(panel, media, message);
    return WechatPanel.current;
  }

  /** The open panel, if any. */
  static get open(): WechatPanel | undefined {
    return WechatPanel.current;
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly media: vscode.Uri,
    message: CopyHostMessage,
  ) {
    this.shown = message;
    panel.webview.html = this.html();
    this.disposables.push(
      this.messageEmitter,
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
    );
  }

  private update(message: CopyHostMessage): void {
    this.shown = message;
    void this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  private receive(raw: unknown): void {
    if (!isCopyWebviewMessage(raw)) return;
    this.messageEmitter.fire(raw);
    if (raw.type === 'ready') void this.panel.webview.postMessage(this.shown).then(undefined, () => undefined);
    else if (raw.type === 'copied')
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Copied. Paste it into the WeChat official-account editor.'),
      );
    else
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The article could not be copied ({0}). Open {1} in a browser, select all and copy it from there.',
          raw.reason,
          this.shown.file,
        ),
      );
  }

  private html(): string {
    const nonce = randomBytes(16).toString('base64');
    const script = this.panel.webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'main.js'));
    const csp = [
      "default-src 'none'",
      // embedded pictures, or the station's hosted ones (shunong.export.imageBaseUrl)
      'img-src data: https: http:',
      // the article's own style= attributes (WeChat keeps only those); no style sheet, no class
      "style-src 'unsafe-inline'",
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    const lang = langTag(uiLanguage());
    return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body style="margin:0;padding:12px;background:var(--vscode-editor-background);color:var(--vscode-foreground);font-family:var(--vscode-font-family);">
<div style="display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin-bottom:12px;">
<button id="copy" data-copied="${escapeHtml(vscode.l10n.t('Copied'))}" style="padding:6px 14px;border:none;border-radius:2px;background:var(--vscode-button-background);color:var(--vscode-button-foreground);cursor:pointer;font:inherit;">${escapeHtml(vscode.l10n.t('Copy for WeChat'))}</button>
<span id="status" role="status" aria-live="polite"></span>
<span style="opacity:.75;">${escapeHtml(vscode.l10n.t('Exported file:'))} <code id="file"></code></span>
</div>
<div id="pictures" hidden style="margin-bottom:12px;"><div>${escapeHtml(vscode.l10n.t('The article’s pictures, saved beside it in order — upload these in the editor if WeChat drops a picture:'))}</div><ol id="picture-list" style="margin:4px 0 0;"></ol></div>
<div style="max-width:375px;margin:0 auto;background:#ffffff;color:#333333;padding:16px;border-radius:4px;box-shadow:0 0 0 1px rgba(128,128,128,.35);">
<div id="article"></div>
</div>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }

  dispose(): void {
    if (WechatPanel.current === this) WechatPanel.current = undefined;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}

function displayPath(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
}
