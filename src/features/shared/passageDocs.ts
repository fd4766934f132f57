/**
 * Read-only virtual documents of passages (scheme `shunong-knowledge`), the one kind of passage
 * document: the preview beside the results list, which follows the active item, and the full passage
 * opened from the browser, a chat reference or a cited passage of the workspace's citation cache.
 * Server text is shown as plain text; nothing in it is interpreted.
 */
import vscode = require('vscode');
import type { CitationCache } from '../../citations/index';
import { passageOfContext, type CitedPassage } from '../../citations/passage';
import { findPassage, idOf, keyOf, type StoredPassage } from '../../knowledge/history';
import type { KnowledgeStore } from './knowledgeStore';
import { passageDocument } from './passageText';

/** The scheme of the passage documents. */
export const KNOWLEDGE_SCHEME = 'shunong-knowledge';
const PREVIEW = vscode.Uri.from({ scheme: KNOWLEDGE_SCHEME, path: '/passage-preview.txt' });

/** The passage documents' content provider and the operations that show them. */
export class PassageDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private previewText = '';
  private readonly recent = new Map<string, CitedPassage | StoredPassage>();

  /** @param cited the workspace's citation cache, for the passages a bulletin cites. */
  constructor(
    private readonly store: KnowledgeStore,
    private readonly cited: () => CitationCache,
  ) {}

  /** The URI of a passage's full document. */
  uriOf(p: CitedPassage): vscode.Uri {
    return vscode.Uri.from({
      scheme: KNOWLEDGE_SCHEME,
      path: `/${keyOf(p).replace(/[\\/]/g, '_')}.txt`,
      query: encodeURIComponent(idOf(p)),
    });
  }

  /** Keeps `p` so that its URI ({@link uriOf}) shows it (a chat reference to a passage of this session). */
  remember(p: CitedPassage): vscode.Uri {
    this.recent.set(idOf(p), p);
    return this.uriOf(p);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    if (uri.path === PREVIEW.path && uri.query === '') return this.previewText;
    const id = decodeURIComponent(uri.query);
    const p = this.recent.get(id) ?? findPassage(this.store.state, id) ?? this.citedPassage(id);
    return p
      ? passageDocument(p)
      : vscode.l10n.t('This passage is no longer in the search history or the pinned passages.');
  }

  /** The cached citation whose identity is `id` (`kb_code/doc#idx`). */
  private citedPassage(id: string): CitedPassage | undefined {
    const ctx = this.cited().get(id.slice(id.indexOf('/') + 1));
    const p = ctx && passageOfContext(ctx);
    return p && idOf(p) === id ? p : undefined;
  }

  /** Opens the cached passage a citation `key` (`doc#idx`) names, read-only, beside; undefined when it is not cached. */
  async openCited(key: string): Promise<vscode.TextEditor | undefined> {
    const ctx = this.cited().get(key);
    const p = ctx && passageOfContext(ctx);
    return p ? this.open(p) : undefined;
  }

  /** Shows `s` in the preview editor beside (opened once, then updated), keeping the focus where it is. */
  async preview(s: StoredPassage): Promise<void> {
    this.previewText = passageDocument(s);
    this.changed.fire(PREVIEW);
    if (vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === PREVIEW.toString())) return;
    const doc = await vscode.workspace.openTextDocument(PREVIEW);
    await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
      preview: true,
    });
  }

  /** Closes the preview editor, if open. */
  async closePreview(): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === PREVIEW.toString());
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
  }

  /** Opens the full passage, read-only, beside. */
  async open(p: CitedPassage | StoredPassage): Promise<vscode.TextEditor> {
    const passage = 'passage' in p ? p.passage : p;
    this.recent.set(idOf(passage), p);
    const uri = this.uriOf(passage);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
