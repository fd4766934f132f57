/**
 * "Shunong: Recognize Crop Image…": picks an image (workspace file, URL or pasted path) and a
 * recognition type, calls crop_growth_recognize through the shared connection, and shows the
 * result in a preview panel (./panel) whose actions insert a Markdown summary into the bulletin,
 * save the annotated and original pictures into the workspace, or re-run with another type.
 */
import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Connection } from '../account/connection';
import { describeError } from '../account/connection';
import { DownloadError, downloadImage } from '../../recognition/download';
import { PreviewCopies } from './copies';
import {
  recognize,
  type FlowNote,
  type FlowOutcome,
  type ImageSource,
  type PreviewImage,
} from '../../recognition/flow';
import {
  ImageRefusedError,
  MAX_INPUT_BYTES,
  MAX_UPLOAD_BYTES,
  extensionOf,
  sniffImageFormat,
  toDataUri,
  mimeOf,
  parseDataUri,
} from '../../recognition/image';
import { RecognitionPanel, typeName } from './panel';
import type { ImageView, ResultView, WebviewMessage } from '../../recognition/protocol';
import { loadShrinker } from '../../recognition/resize';
import {
  LOW_CONFIDENCE,
  relativeLink,
  summarize,
  summaryMarkdown,
  type RecognitionSummary,
  type SummaryLabels,
} from '../../recognition/summary';
import { RECOGNITION_TYPES, isRecognitionType, type RecognitionType } from '../../recognition/types';

/** What the command returns (read by the integration tests). */
export interface RecognizeCommandResult {
  key: string | undefined;
  status: 'done' | 'failed' | 'refused' | 'cancelled';
  summary?: RecognitionSummary;
  message?: string;
  notes?: FlowNote[];
}

/** Options a caller (or a test) may pass as the command's second argument. */
export interface RecognizeCommandOptions {
  recognitionType?: RecognitionType;
}

/** A resolved image source, with what identifies its panel. */
interface Source {
  key: string;
  title: string;
  /** Stem of saved file names. */
  stem: string;
  /** The image file, when local (for the workspace folder and the save scope). */
  uri?: vscode.Uri;
  url?: string;
  /** Data URI pasted as a "URL". */
  data?: Uint8Array;
}

/** The recognition state of one panel. */
interface PanelState {
  source: Source;
  type: RecognitionType;
  run: number;
  abort?: AbortController | undefined;
  outcome?: FlowOutcome | undefined;
  summary?: RecognitionSummary | undefined;
  saved?: { annotated?: vscode.Uri; original?: vscode.Uri } | undefined;
  /** The bytes read (and checked) by the command, used by its first run instead of reading the file again. */
  firstBytes?: Uint8Array | undefined;
}

const IMAGE_GLOB = '**/*.{jpg,jpeg,png,webp,JPG,JPEG,PNG,WEBP}';

/** The feature. */
class Recognition {
  private readonly states = new Map<string, PanelState>();
  private lastMarkdown: { uri: string; position: vscode.Position } | undefined;
  private readonly copies: PreviewCopies;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connection: Connection,
  ) {
    this.copies = new PreviewCopies(vscode.Uri.joinPath(context.globalStorageUri, 'recognition-preview'));
  }

  register(): void {
    const track = (e: vscode.TextEditor | undefined): void => {
      if (e && e.document.languageId === 'markdown')
        this.lastMarkdown = { uri: e.document.uri.toString(), position: e.selection.active };
    };
    track(vscode.window.activeTextEditor);
    this.context.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(track),
      vscode.window.onDidChangeTextEditorSelection((e) => track(e.textEditor)),
      vscode.commands.registerCommand('shunong.recognizeImage', (a?: unknown, b?: unknown) => this.command(a, b)),
      {
        dispose: () => {
          RecognitionPanel.all().forEach((p) => p.dispose());
          void this.copies.releaseAll();
        },
      },
    );
    if (this.context.extensionMode !== vscode.ExtensionMode.Production) {
      this.context.subscriptions.push(
        vscode.commands.registerCommand('shunong.recognition._test', (op: unknown, key: unknown, message: unknown) =>
          this.testHook(op, key, message),
        ),
      );
    }
  }

  /** The command: (uri | url/path string | undefined, uris[] | options). */
  private async command(
    a?: unknown,
    b?: unknown,
  ): Promise<RecognizeCommandResult | RecognizeCommandResult[] | undefined> {
    const options: RecognizeCommandOptions =
      b && !Array.isArray(b) && typeof b === 'object' ? (b as RecognizeCommandOptions) : {};
    const many = Array.isArray(b) ? b.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
    let sources: Source[];
    if (many.length > 1) sources = many.map(fileSource);
    else if (a instanceof vscode.Uri) sources = [fileSource(a)];
    else if (typeof a === 'string' && a.trim()) {
      const s = textSource(a);
      if (!s) {
        void vscode.window.showErrorMessage(
          vscode.l10n.t('"{0}" is neither an http(s) URL nor a path to an image.', a),
        );
        return { key: undefined, status: 'refused' };
      }
      sources = [s];
    } else {
      const s = await pickSource();
      if (!s) return undefined;
      sources = [s];
    }
    const type =
      options.recognitionType && isRecognitionType(options.recognitionType)
        ? options.recognitionType
        : await pickType(sources[0]?.uri);
    if (!type) return undefined;
    const results: RecognizeCommandResult[] = [];
    for (const s of sources) results.push(await this.start(s, type));
    return results.length === 1 ? results[0] : results;
  }

  /** Checks a local file (type by magic bytes, size) before anything is sent, then opens the panel and runs. */
  private async start(source: Source, type: RecognitionType): Promise<RecognizeCommandResult> {
    let bytes: Uint8Array | undefined;
    if (source.uri && !source.data) {
      try {
        const stat = await vscode.workspace.fs.stat(source.uri);
        if (stat.size > MAX_INPUT_BYTES) throw new ImageRefusedError('too-large', undefined, stat.size);
        bytes = await vscode.workspace.fs.readFile(source.uri);
        const format = sniffImageFormat(bytes);
        if (!format) throw new ImageRefusedError('not-image', undefined, bytes.length);
        if (format !== 'jpeg' && format !== 'png' && format !== 'webp')
          throw new ImageRefusedError('unsupported-format', format, bytes.length);
      } catch (err) {
        const message =
          err instanceof ImageRefusedError
            ? describeRefusal(err, source.title)
            : vscode.l10n.t('Cannot read {0}: {1}', source.title, err instanceof Error ? err.message : String(err));
        void vscode.window.showErrorMessage(message);
        return { key: source.key, status: 'refused', message };
      }
    }
    const state: PanelState = this.states.get(source.key) ?? { source, type, run: 0 };
    state.source = source;
    state.type = type;
    state.firstBytes = bytes;
    this.states.set(source.key, state);
    // The webview may load the image's own folder and the preview copies, nothing else of the disk.
    const roots = [this.copies.folder, ...(source.uri ? [vscode.Uri.joinPath(source.uri, '..')] : [])];
    const panel = RecognitionPanel.createOrShow(
      this.context.extensionUri,
      source.key,
      panelTitle(source, type),
      roots,
      (p, m) => this.onMessage(p, m),
    );
    panel.onDidDispose(() => {
      state.abort?.abort();
      this.states.delete(source.key);
      void this.copies.release(source.key);
    });
    return this.run(panel, state);
  }

  /** One recognition run into `panel`. */
  private async run(panel: RecognitionPanel, state: PanelState): Promise<RecognizeCommandResult> {
    state.abort?.abort();
    const abort = new AbortController();
    state.abort = abort;
    const run = ++state.run;
    state.outcome = undefined;
    state.summary = undefined;
    state.saved = undefined;
    const { source, type } = state;
    const firstBytes = state.firstBytes;
    state.firstBytes = undefined;
    panel.panel.title = panelTitle(source, type);
    const loadingMessage = vscode.l10n.t('Recognizing {0} ({1})…', source.title, typeName(type));
    panel.post({ type: 'loading', run, title: source.title, recognitionType: type, message: loadingMessage });
    const notes: FlowNote[] = [];
    // The picture sent is shown (and decoded by the webview) while the platform works.
    let picture: Promise<ImageView | undefined> | undefined;
    let settled = false;
    try {
      const outcome = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Recognizing {0} ({1})…', source.title, typeName(type)),
          cancellable: true,
        },
        async (progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          const input: ImageSource = source.url
            ? { kind: 'url', url: source.url }
            : {
                kind: 'bytes',
                bytes: source.data ?? firstBytes ?? (await vscode.workspace.fs.readFile(source.uri as vscode.Uri)),
                name: source.title,
              };
          return recognize(
            input,
            type,
            {
              call: (args, signal) => this.connection.run((c) => c.recognizeCrop(args, signal ? { signal } : {})),
              download: (url, signal) => downloadImage(url, signal ? { signal } : {}),
              shrinker: loadShrinker,
              onNote: (n) => {
                notes.push(n);
                progress.report({ message: noteText(n) });
                if (n.kind === 'fallback') void vscode.window.showInformationMessage(noteText(n));
              },
              onPreview: (preview, asGiven) => {
                picture = this.picture(panel, source, preview, asGiven);
                void picture.then((image) => {
                  if (image && !settled && run === state.run)
                    panel.post({
                      type: 'loading',
                      run,
                      title: source.title,
                      recognitionType: type,
                      message: loadingMessage,
                      image,
                    });
                });
              },
            },
            abort.signal,
          );
        },
      );
      const image = picture
        ? await picture
        : outcome.preview
          ? await this.picture(panel, source, outcome.preview, false)
          : undefined;
      settled = true;
      if (run !== state.run) return { key: source.key, status: 'cancelled' };
      state.outcome = outcome;
      state.summary = summarize(outcome.result, type);
      panel.post({ type: 'result', view: resultView(source, outcome, state.summary, run, image) });
      return { key: source.key, status: 'done', summary: state.summary, notes };
    } catch (err) {
      settled = true;
      if (run !== state.run) return { key: source.key, status: 'cancelled' };
      const cancelled = abort.signal.aborted || (err as { kind?: unknown }).kind === 'cancelled';
      const message = cancelled ? vscode.l10n.t('Cancelled.') : this.describeFailure(err, source);
      panel.post({
        type: 'error',
        run,
        title: source.title,
        recognitionType: type,
        message,
        retryable: !(err instanceof ImageRefusedError) || err.reason === 'cannot-shrink',
      });
      if (!cancelled && err instanceof ImageRefusedError) void vscode.window.showErrorMessage(message);
      return {
        key: source.key,
        status: cancelled ? 'cancelled' : err instanceof ImageRefusedError ? 'refused' : 'failed',
        message,
        notes,
      };
    } finally {
      if (state.abort === abort) state.abort = undefined;
    }
  }

  /**
   * The picture as the webview loads it: the image file itself when the bytes sent are the file's,
   * else a copy in the preview copies' folder; a data URI only when that copy cannot be written.
   */
  private async picture(
    panel: RecognitionPanel,
    source: Source,
    preview: PreviewImage,
    asGiven: boolean,
  ): Promise<ImageView | undefined> {
    if (!preview.size) return undefined;
    const { width, height } = preview.size;
    if (asGiven && source.uri && !source.data) return { src: panel.pictureSrc(source.uri), width, height };
    try {
      return {
        src: panel.pictureSrc(await this.copies.write(source.key, preview.bytes, preview.format)),
        width,
        height,
      };
    } catch {
      return { src: toDataUri(preview.bytes, mimeOf(preview.format)), width, height };
    }
  }

  private async onMessage(panel: RecognitionPanel, m: WebviewMessage): Promise<void> {
    const state = this.states.get(panel.key);
    if (!state) return;
    try {
      switch (m.type) {
        case 'retry':
          await this.run(panel, state);
          return;
        case 'rerun':
          state.type = m.recognitionType;
          await this.run(panel, state);
          return;
        case 'save': {
          const saved = await this.save(panel, state, undefined);
          panel.post({ type: 'status', error: false, message: vscode.l10n.t('Saved {0}.', savedNames(saved)) });
          return;
        }
        case 'insert':
          await this.insert(panel, state);
          return;
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      panel.post({ type: 'status', error: true, message });
      void vscode.window.showErrorMessage(message);
    }
  }

  /** Saves the annotated PNG and the original picture into the configured folder (once per result). */
  private async save(
    panel: RecognitionPanel,
    state: PanelState,
    forDocument: vscode.Uri | undefined,
  ): Promise<NonNullable<PanelState['saved']>> {
    const outcome = state.outcome;
    if (!outcome) throw new Error(vscode.l10n.t('There is no result to save yet.'));
    if (state.saved && (state.saved.annotated || state.saved.original)) return state.saved;
    const folder = saveFolder(forDocument ?? state.source.uri);
    await vscode.workspace.fs.createDirectory(folder);
    const stamp = timestamp(new Date());
    const base = `${state.source.stem}-${state.type}-${stamp}`;
    const saved: NonNullable<PanelState['saved']> = {};
    if (outcome.original) {
      saved.original = await uniqueUri(folder, `${base}-original`, extensionOf(outcome.original.format));
      await vscode.workspace.fs.writeFile(saved.original, outcome.original.bytes);
    }
    if (outcome.preview) {
      try {
        const png = await panel.annotatedPng();
        saved.annotated = await uniqueUri(folder, base, 'png');
        await vscode.workspace.fs.writeFile(saved.annotated, png);
      } catch (err) {
        panel.post({
          type: 'status',
          error: true,
          message: vscode.l10n.t(
            'The annotated picture could not be saved: {0}',
            err instanceof Error ? err.message : String(err),
          ),
        });
      }
    }
    if (!saved.annotated && !saved.original)
      throw new Error(vscode.l10n.t('Nothing could be saved: the picture is not available.'));
    state.saved = saved;
    return saved;
  }

  /** Inserts the Markdown summary into the last active Markdown document, as one undoable edit. */
  private async insert(panel: RecognitionPanel, state: PanelState): Promise<void> {
    if (!state.outcome || !state.summary) throw new Error(vscode.l10n.t('There is no result to insert yet.'));
    const target = this.bulletin();
    if (!target) throw new Error(vscode.l10n.t('Open a Markdown bulletin first, then insert the summary.'));
    const doc = await vscode.workspace.openTextDocument(target.uri);
    const saved = await this.save(
      panel,
      state,
      doc.uri.scheme === 'file' || doc.uri.scheme === 'vscode-remote' ? doc.uri : undefined,
    );
    const link = (u: vscode.Uri | undefined): string | undefined =>
      u && !doc.isUntitled ? relativeLink(doc.uri.path, u.path) : u?.toString();
    const imageLink = link(saved.annotated ?? saved.original);
    const originalLink = saved.annotated ? link(saved.original) : undefined;
    const md = summaryMarkdown(state.summary, {
      labels: summaryLabels(),
      date: isoDate(new Date()),
      ...(imageLink !== undefined ? { imageLink } : {}),
      ...(originalLink !== undefined ? { originalLink } : {}),
    });
    const pos = doc.validatePosition(target.position);
    const line = doc.lineAt(pos.line);
    let text = md;
    let at = pos;
    if (!line.isEmptyOrWhitespace) {
      at = line.range.end;
      text = '\n\n' + md;
    } else if (pos.line > 0 && !doc.lineAt(pos.line - 1).isEmptyOrWhitespace) {
      text = '\n' + md;
    }
    if (at.line < doc.lineCount - 1 && !doc.lineAt(at.line + 1).isEmptyOrWhitespace) text += '\n';
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, at, text);
    if (!(await vscode.workspace.applyEdit(edit)))
      throw new Error(vscode.l10n.t('The summary could not be inserted into {0}.', path.basename(doc.uri.path)));
    panel.post({
      type: 'status',
      error: false,
      message: vscode.l10n.t('Summary inserted into {0}; saved {1}.', path.basename(doc.uri.path), savedNames(saved)),
    });
  }

  /** The bulletin to insert into: the last active Markdown editor, else a visible one. */
  private bulletin(): { uri: vscode.Uri; position: vscode.Position } | undefined {
    if (this.lastMarkdown) {
      const uri = vscode.Uri.parse(this.lastMarkdown.uri);
      const open = vscode.workspace.textDocuments.some(
        (d) => d.uri.toString() === this.lastMarkdown?.uri && !d.isClosed,
      );
      if (open) return { uri, position: this.lastMarkdown.position };
    }
    const e = vscode.window.visibleTextEditors.find((x) => x.document.languageId === 'markdown');
    return e ? { uri: e.document.uri, position: e.selection.active } : undefined;
  }

  private describeFailure(err: unknown, source: Source): string {
    if (err instanceof ImageRefusedError) return describeRefusal(err, source.title);
    if (err instanceof DownloadError) return describeDownload(err);
    const e = (err ?? {}) as { kind?: unknown; reason?: unknown; detail?: unknown; message?: unknown };
    switch (e.kind) {
      case 'image-download':
        return vscode.l10n.t('The platform could not download the image: {0}', String(e.reason ?? ''));
      case 'input-validation':
        return vscode.l10n.t('The platform rejected the request: {0}', String(e.detail ?? e.reason ?? ''));
      case 'tool-failure':
        return vscode.l10n.t('The recognition failed: {0}', String(e.reason ?? ''));
      case 'result-shape':
        return vscode.l10n.t('The platform answered in an unexpected form: {0}', String(e.message ?? ''));
      default:
        return describeError(err, this.connection.endpoint);
    }
  }

  /** Development / test only: inspect the panels, or act as a panel's webview. */
  private async testHook(op: unknown, key: unknown, message: unknown): Promise<unknown> {
    const panels = RecognitionPanel.all().filter((p) => key === undefined || p.key === key);
    if (op === 'state') {
      return panels.map((p) => {
        const s = this.states.get(p.key);
        return {
          key: p.key,
          type: s?.type,
          run: s?.run,
          posted: [...p.posted],
          state: p.state,
          rendered: p.rendered,
          saved: s?.saved
            ? { annotated: s.saved.annotated?.toString(), original: s.saved.original?.toString() }
            : undefined,
        };
      });
    }
    if (op === 'message' && panels[0]) {
      const m = message as WebviewMessage;
      await panels[0].receive(m);
      return true;
    }
    if (op === 'waitRendered' && panels[0]) {
      const p = panels[0];
      if (p.rendered && p.state?.type === 'result' && p.rendered.run === p.state.view.run) return p.rendered;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          sub.dispose();
          resolve(undefined);
        }, 20000);
        const sub = p.onDidRender((r) => {
          clearTimeout(timer);
          sub.dispose();
          resolve(r);
        });
      });
    }
    if (op === 'close') {
      panels.forEach((p) => p.dispose());
      return true;
    }
    return undefined;
  }
}

/** Registers the command, the explorer menu entry's handler and the panels. */
export function activate(context: vscode.ExtensionContext, connection: Connection): void {
  new Recognition(context, connection).register();
}

function fileSource(uri: vscode.Uri): Source {
  const name = path.posix.basename(uri.path);
  return { key: uri.toString(), title: vscode.workspace.asRelativePath(uri, false), stem: stemOf(name), uri };
}

function urlSource(url: string): Source {
  let name = 'image';
  try {
    name = decodeURIComponent(path.posix.basename(new URL(url).pathname)) || 'image';
  } catch {
    // keep the default
  }
  return { key: url, title: url, stem: stemOf(name), url };
}

/** A pasted URL, data URI or path (absolute, ~, or relative to the first workspace folder). */
function textSource(text: string): Source | undefined {
  const t = text.trim().replace(/^["']|["']$/g, '');
  if (/^https?:\/\//i.test(t)) return urlSource(t);
  if (/^data:/i.test(t)) {
    const d = parseDataUri(t);
    if (!d) return undefined;
    return {
      key: `data:${d.bytes.length}:${t.length}:${t.slice(-24)}`,
      title: vscode.l10n.t('Pasted image'),
      stem: 'pasted',
      data: d.bytes,
    };
  }
  if (/^file:\/\//i.test(t)) return fileSource(vscode.Uri.parse(t));
  let p = t.startsWith('~') ? path.join(os.homedir(), t.slice(1)) : t;
  if (!path.isAbsolute(p)) {
    const root = vscode.workspace.workspaceFolders?.[0];
    if (!root) return undefined;
    return fileSource(vscode.Uri.joinPath(root.uri, p));
  }
  p = path.normalize(p);
  return fileSource(vscode.Uri.file(p));
}

function stemOf(name: string): string {
  const stem = name
    .replace(/\.[^.]*$/, '')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return (stem || 'image').slice(0, 60);
}

function panelTitle(source: Source, type: RecognitionType): string {
  const short = source.url ? source.stem : path.posix.basename(source.uri?.path ?? source.title);
  return vscode.l10n.t('{0} · {1}', short, typeName(type));
}

/** Asks where the image comes from. */
async function pickSource(): Promise<Source | undefined> {
  type Item = vscode.QuickPickItem & { action: 'file' | 'url' | 'path' | 'browse'; uri?: vscode.Uri };
  const files = await vscode.workspace.findFiles(IMAGE_GLOB, '**/node_modules/**', 500);
  const items: Item[] = [
    { label: `$(link) ${vscode.l10n.t('Image URL…')}`, action: 'url' },
    { label: `$(clippy) ${vscode.l10n.t('Paste a path…')}`, action: 'path' },
    { label: `$(folder-opened) ${vscode.l10n.t('Browse…')}`, action: 'browse' },
  ];
  if (files.length)
    items.push({
      label: vscode.l10n.t('Images in the workspace'),
      kind: vscode.QuickPickItemKind.Separator,
      action: 'file',
    });
  for (const uri of files.sort((x, y) => x.path.localeCompare(y.path)))
    items.push({
      label: `$(file-media) ${path.posix.basename(uri.path)}`,
      description: vscode.workspace.asRelativePath(uri, true),
      action: 'file',
      uri,
    });
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Shunong: Recognize Crop Image'),
    placeHolder: vscode.l10n.t('Choose an image in the workspace, or give a URL or a path'),
    matchOnDescription: true,
  });
  if (!pick) return undefined;
  switch (pick.action) {
    case 'file':
      return pick.uri ? fileSource(pick.uri) : undefined;
    case 'browse': {
      const uris = await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { [vscode.l10n.t('Images')]: ['jpg', 'jpeg', 'png', 'webp'] },
        ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
      });
      return uris?.[0] ? fileSource(uris[0]) : undefined;
    }
    case 'url': {
      const url = await vscode.window.showInputBox({
        title: vscode.l10n.t('Shunong: Recognize Crop Image'),
        prompt: vscode.l10n.t(
          'The image URL (http or https). If the platform cannot download it, the extension downloads it and sends it as data.',
        ),
        placeHolder: 'https://…/field.jpg',
        ignoreFocusOut: true,
        validateInput: (v) =>
          /^https?:\/\/\S+$/i.test(v.trim()) || /^data:image\//i.test(v.trim())
            ? undefined
            : vscode.l10n.t('Enter an http(s) URL.'),
      });
      return url ? textSource(url) : undefined;
    }
    case 'path': {
      const clip = (await vscode.env.clipboard.readText()).trim();
      const value = await vscode.window.showInputBox({
        title: vscode.l10n.t('Shunong: Recognize Crop Image'),
        prompt: vscode.l10n.t('The path of an image file (absolute, or relative to the workspace folder).'),
        ...(clip && clip.length < 1000 && !clip.includes('\n') ? { value: clip } : {}),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a path.')),
      });
      if (!value) return undefined;
      const s = textSource(value);
      if (!s)
        void vscode.window.showErrorMessage(
          vscode.l10n.t('"{0}" is neither an http(s) URL nor a path to an image.', value),
        );
      return s;
    }
  }
}

/** The recognition type: the setting, or asked (never left to the server's default). */
async function pickType(scope: vscode.Uri | undefined): Promise<RecognitionType | undefined> {
  const configured = vscode.workspace
    .getConfiguration('shunong.recognition', scope ?? null)
    .get<string>('defaultType', 'ask');
  if (isRecognitionType(configured)) return configured;
  const zh = vscode.env.language.toLowerCase().startsWith('zh');
  const other: Record<RecognitionType, string> = zh
    ? { tea_count: 'Tea bud count', tea_stage: 'Tea growth stage', wheat_stage: 'Wheat growth stage' }
    : { tea_count: '茶芽计数', tea_stage: '茶树生育期', wheat_stage: '小麦生育期' };
  const items = RECOGNITION_TYPES.map((id) => ({ label: typeName(id), description: `${other[id]} · ${id}`, id }));
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Recognition type'),
    placeHolder: vscode.l10n.t('What should the platform recognise in this picture?'),
  });
  return pick?.id;
}

function describeRefusal(err: ImageRefusedError, name: string): string {
  const mb = (n: number): string => (n / (1024 * 1024)).toFixed(1);
  switch (err.reason) {
    case 'empty':
      return vscode.l10n.t('{0} is empty. Nothing was sent.', name);
    case 'not-image':
      return vscode.l10n.t('{0} is not an image (JPEG, PNG or WebP). Nothing was sent.', name);
    case 'unsupported-format':
      return vscode.l10n.t(
        '{0} is a {1} image; the platform takes JPEG, PNG or WebP. Nothing was sent.',
        name,
        (err.format ?? '').toUpperCase(),
      );
    case 'too-large':
      return vscode.l10n.t(
        '{0} is {1} MB, more than the {2} MB this extension reads. Nothing was sent.',
        name,
        mb(err.byteLength),
        mb(MAX_INPUT_BYTES),
      );
    case 'cannot-shrink':
      return vscode.l10n.t(
        "{0} is {1} MB, over the platform's {2} MB limit, and could not be shrunk. Save it as a smaller JPEG and try again. Nothing was sent.",
        name,
        mb(err.byteLength),
        mb(MAX_UPLOAD_BYTES),
      );
  }
}

function describeDownload(err: DownloadError): string {
  switch (err.reason) {
    case 'http':
      return vscode.l10n.t('Downloading {0} failed: HTTP {1}.', err.url, String(err.status ?? ''));
    case 'not-image':
      return vscode.l10n.t('{0} did not return an image.', err.url);
    case 'too-large':
      return vscode.l10n.t(
        '{0} is larger than the {1} MB this extension downloads.',
        err.url,
        String(MAX_INPUT_BYTES / (1024 * 1024)),
      );
    case 'timeout':
      return vscode.l10n.t('Downloading {0} timed out.', err.url);
    case 'bad-url':
      return vscode.l10n.t('{0} is not an http(s) URL the extension can download.', err.url);
    case 'cancelled':
      return vscode.l10n.t('Cancelled.');
    case 'network':
      return vscode.l10n.t('{0} could not be downloaded (network error).', err.url);
  }
}

/** A user-facing sentence about how the image was sent. */
function noteText(n: FlowNote): string {
  switch (n.kind) {
    case 'fallback':
      return vscode.l10n.t(
        'The platform could not download the image ({0}); the extension downloaded it itself and sent it as data.',
        n.timedOut ? vscode.l10n.t('timed out') : n.status !== undefined ? `HTTP ${n.status}` : n.reason,
      );
    case 'shrunk':
      return vscode.l10n.t(
        'The image ({0} MB) was shrunk to {1} MB ({2} × {3}) before upload: the platform takes at most 4 MB.',
        (n.fromBytes / 1048576).toFixed(1),
        (n.toBytes / 1048576).toFixed(1),
        String(n.width),
        String(n.height),
      );
    case 'oriented':
      return vscode.l10n.t('The photo was turned upright (EXIF orientation {0}) before upload.', String(n.orientation));
    case 'converted':
      return vscode.l10n.t(
        'The {0} image was converted to JPEG ({1} × {2}, {3} MB) before upload, a format the platform documents.',
        n.from.toUpperCase(),
        String(n.width),
        String(n.height),
        (n.toBytes / 1048576).toFixed(1),
      );
  }
}

/** The platform's shooting advice (拍摄建议) relevant to a type. */
function shootingAdvice(type: RecognitionType): string[] {
  const general = vscode.l10n.t(
    'Shoot straight down, let the crop fill most of the frame, and avoid strong backlight.',
  );
  return type === 'tea_count'
    ? [general, vscode.l10n.t('For tea bud counting, single buds must be distinguishable: shoot from less than 50 cm.')]
    : [
        general,
        vscode.l10n.t('For growth stages, get the whole plant in the frame, keeping stems, leaves and ears visible.'),
      ];
}

function headline(s: RecognitionSummary): string {
  if (s.kind === 'count')
    return s.type === 'tea_count'
      ? vscode.l10n.t('{0} tea buds', String(s.total))
      : vscode.l10n.t('{0} detections', String(s.total));
  if (s.kind === 'stage' && s.stage) return vscode.l10n.t('Growth stage: {0}', s.stage);
  return vscode.l10n.t('No clear growth stage in this picture');
}

/** Builds what the webview shows. */
function resultView(
  source: Source,
  o: FlowOutcome,
  s: RecognitionSummary,
  run: number,
  image: ImageView | undefined,
): ResultView {
  const d = o.result.data;
  const rows: ResultView['summary'] = [
    { label: vscode.l10n.t('Model'), value: `${s.modelName} (${s.modelId})` },
    { label: vscode.l10n.t('Result'), value: headline(s) },
    {
      label: vscode.l10n.t('Detections'),
      value: vscode.l10n.t(
        '{0} (confidence ≥ 0.5: {1}; below 0.5: {2})',
        String(s.total),
        String(s.confident),
        String(s.low),
      ),
    },
  ];
  if (s.inferenceMs !== undefined)
    rows.push({ label: vscode.l10n.t('Inference time'), value: vscode.l10n.t('{0} ms', String(s.inferenceMs)) });
  if (s.inputSize) rows.push({ label: vscode.l10n.t('Input size'), value: `${s.inputSize[0]} × ${s.inputSize[1]}` });
  if (o.preview?.size)
    rows.push({ label: vscode.l10n.t('Picture'), value: `${o.preview.size.width} × ${o.preview.size.height} px` });
  rows.push({
    label: vscode.l10n.t('Sent as'),
    value: o.sentAs === 'url' ? vscode.l10n.t('URL') : vscode.l10n.t('image data (base64)'),
  });
  const warnings: string[] = [];
  if (s.low > 0)
    warnings.push(
      vscode.l10n.t(
        '{0} of {1} detections have a confidence below 0.5: do not rely on them; retake the photo.',
        String(s.low),
        String(s.total),
      ),
    );
  else if (s.kind === 'stage' && s.retakeAdvised)
    warnings.push(
      vscode.l10n.t('The stage was read with a confidence below 0.5: retake the photo before relying on it.'),
    );
  return {
    run,
    title: source.title,
    recognitionType: s.type,
    image,
    boxes: d.detections.map((x) => ({
      x1: x.bbox[0] ?? 0,
      y1: x.bbox[1] ?? 0,
      x2: x.bbox[2] ?? 0,
      y2: x.bbox[3] ?? 0,
      className: x.class_name,
      confidence: x.confidence,
      low: x.confidence < LOW_CONFIDENCE,
    })),
    headline: headline(s),
    noConclusion: s.kind === 'none',
    summary: rows,
    warnings,
    notes: o.notes.map(noteText),
    advice: s.kind === 'none' || s.retakeAdvised ? shootingAdvice(s.type) : [],
    figureLabel: vscode.l10n.t(
      '{0}: {1} boxes drawn, {2} with confidence below 0.5.',
      source.title,
      String(d.detections.length),
      String(s.low),
    ),
  };
}

/** The localised words of the Markdown summary. */
function summaryLabels(): SummaryLabels {
  return {
    paragraph: (type, parts) =>
      vscode.l10n.t('**Crop image recognition ({0})**: {1}.', type, parts.join(vscode.l10n.t('; '))),
    typeName,
    count: (n) => vscode.l10n.t('{0} tea buds detected', String(n)),
    stage: (stage) => vscode.l10n.t('growth stage {0}', stage),
    noStage: vscode.l10n.t('no clear growth stage in this picture'),
    lowConfidence: (low, total) =>
      vscode.l10n.t(
        '{0} of {1} detections below confidence 0.5, retake the photo to confirm',
        String(low),
        String(total),
      ),
    allConfident: vscode.l10n.t('all detections at confidence 0.5 or above'),
    confidenceRange: (min, max) => vscode.l10n.t('confidence {0}–{1}', min, max),
    model: (name, id) => vscode.l10n.t('model {0} ({1})', name, id),
    date: (date) => vscode.l10n.t('recognised on {0}', date),
    advice: [
      vscode.l10n.t('Shoot straight down, let the crop fill most of the frame, and avoid strong backlight.'),
      vscode.l10n.t('For tea bud counting, single buds must be distinguishable: shoot from less than 50 cm.'),
      vscode.l10n.t('For growth stages, get the whole plant in the frame, keeping stems, leaves and ears visible.'),
    ],
    imageAlt: vscode.l10n.t('Annotated crop photo'),
    original: vscode.l10n.t('original photo'),
  };
}

/** The save folder from the setting (resource scope), inside the workspace folder of `scope`. */
function saveFolder(scope: vscode.Uri | undefined): vscode.Uri {
  const wf = (scope && vscode.workspace.getWorkspaceFolder(scope)) ?? vscode.workspace.workspaceFolders?.[0];
  const setting =
    vscode.workspace
      .getConfiguration('shunong.recognition', scope ?? wf?.uri ?? null)
      .get<string>('saveFolder', 'images/recognition')
      .trim() || 'images/recognition';
  const rel = path.posix.normalize(setting.replace(/\\/g, '/'));
  if (path.posix.isAbsolute(rel) || rel === '..' || rel.startsWith('../') || /^[a-z]:/i.test(rel)) {
    throw new Error(
      vscode.l10n.t(
        'The setting shunong.recognition.saveFolder must be a folder inside the workspace, not "{0}".',
        setting,
      ),
    );
  }
  if (wf) return vscode.Uri.joinPath(wf.uri, rel);
  if (scope && scope.scheme === 'file') return vscode.Uri.joinPath(scope, '..', rel);
  throw new Error(vscode.l10n.t('Open a folder to save the pictures into.'));
}

async function uniqueUri(folder: vscode.Uri, base: string, ext: string): Promise<vscode.Uri> {
  for (let i = 0; i < 1000; i++) {
    const uri = vscode.Uri.joinPath(folder, `${base}${i ? `-${i}` : ''}.${ext}`);
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      return uri;
    }
  }
  return vscode.Uri.joinPath(folder, `${base}-${Date.now()}.${ext}`);
}

function savedNames(saved: NonNullable<PanelState['saved']>): string {
  return [saved.annotated, saved.original]
    .filter((u): u is vscode.Uri => !!u)
    .map((u) => vscode.workspace.asRelativePath(u, false))
    .join(', ');
}

const pad = (n: number): string => String(n).padStart(2, '0');

function isoDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function timestamp(d: Date): string {
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}
