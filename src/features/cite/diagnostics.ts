/**
 * The citation model and lint results of each Markdown document, the Problems they publish
 * (debounced while typing) and their quick fixes. Built at activation (src/extension.ts), so the
 * Problems of the bulletins open at start-up are published before the features load; the lint
 * runs in a worker thread (src/lintWorker), and a result is published only if its document has
 * not changed since it was asked. The models and lint results are kept per document version in
 * bounded caches and forgotten when a document is closed or its file deleted; the Problems of a
 * closed file stay (the workspace check fills them for files not open), those of a deleted file or
 * a closed untitled document go, even when the file is deleted while its last lint still runs.
 */
import vscode = require('vscode');
import type { Diagnostic as CitationDiagnostic, DocumentModel } from '../../citations/index';
import { DocumentCache, isAtOrUnder } from '../../citations/documentCache';
import { loadCitations } from '../../bundles';
import type { LintWorker } from '../../lintWorker/client';
import { fixTitle, problemMessage } from './strings';
import { toRange, toWorkspaceEdit } from './ranges';
import { onDidChangeSettings, settings } from '../shared/settings';

/** Diagnostics wait this long after the last change of a document. */
const DEBOUNCE_MS = 400;
/** How long {@link CitationDiagnostics.refreshOpen} waits at most for the workbench to report the Problems back. */
const REPORT_WAIT_MS = 1000;
/** The source of the citation Problems. */
export const CITATION_SOURCE = 'shunong';

/** Citation models, lint results and the Problems of Markdown documents. */
export class CitationDiagnostics implements vscode.Disposable {
  /** Citation models by document URI, per version. */
  readonly models = new DocumentCache<DocumentModel>();
  /** Published lint results by document URI, per version. */
  readonly lints = new DocumentCache<CitationDiagnostic[]>();
  private readonly collection = vscode.languages.createDiagnosticCollection('shunong-citations');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Open documents whose file was deleted: when they close, their Problems go instead of being refreshed. */
  private readonly deletedOpen = new Set<string>();
  /** Lints of closed documents still running: a delete of the file meanwhile voids them. */
  private readonly closedLints = new Set<{ readonly key: string; deleted: boolean }>();
  /** The watcher of Markdown files deleted outside VS Code (see {@link watchDeletes}). */
  private files: vscode.FileSystemWatcher | undefined;
  private disposed = false;

  /** @param linter the lint's worker thread, which this object stops when disposed. */
  constructor(private readonly linter: LintWorker) {}

  /** The citation model of a document, parsed once per version. */
  model(doc: vscode.TextDocument): DocumentModel {
    const key = doc.uri.toString();
    const hit = this.models.get(key, doc.version);
    if (hit) return hit;
    const model = loadCitations().analyzeDocument(doc.getText(), {
      referencesHeading: settings.citations(doc.uri).referencesHeading,
    });
    // A closed document (a request that arrives after its close) is not kept: nothing would evict it.
    if (!doc.isClosed) this.models.set(key, doc.version, model);
    return model;
  }

  /**
   * Lints a document now and publishes its diagnostics. Resolves with them, or with undefined
   * when the document changed (or this object was disposed) before the lint answered: a newer
   * lint is then due, and nothing is published for the old text.
   */
  async refresh(doc: vscode.TextDocument): Promise<CitationDiagnostic[] | undefined> {
    const s = settings.citations(doc.uri);
    if (doc.languageId !== 'markdown' || !s.diagnostics) {
      this.collection.delete(doc.uri);
      this.lints.delete(doc.uri.toString());
      return [];
    }
    const key = doc.uri.toString();
    const version = doc.version;
    const wasClosed = doc.isClosed;
    // A closed file's Problems are published after its last lint, unless the file is deleted meanwhile.
    const ticket = wasClosed ? { key, deleted: false } : undefined;
    if (ticket) this.closedLints.add(ticket);
    let items: CitationDiagnostic[];
    try {
      items = await this.linter.lint(doc.getText(), { referencesHeading: s.referencesHeading });
    } catch (e) {
      if (this.disposed) return undefined;
      throw e;
    } finally {
      if (ticket) this.closedLints.delete(ticket);
    }
    // A closed document's text is final; an open one's lint counts only for the version it read.
    if (this.disposed || ticket?.deleted || doc.isClosed !== wasClosed || (!doc.isClosed && doc.version !== version))
      return undefined;
    if (!doc.isClosed) this.lints.set(key, doc.version, items);
    if (items.length > 0) this.watchDeletes();
    this.collection.set(
      doc.uri,
      items.map((d) => this.toDiagnostic(doc, d)),
    );
    return items;
  }

  /**
   * Lints every open Markdown document now. Settles once each has answered and the workbench has
   * reported back the Problems published (its diagnostics event for each of those documents), so
   * that what runs next on this thread does not hold them up; it stops waiting for that report
   * after {@link REPORT_WAIT_MS}.
   */
  async refreshOpen(): Promise<void> {
    const open = vscode.workspace.textDocuments.filter((d) => d.languageId === 'markdown');
    const reported = new Set<string>();
    let check = (): void => undefined;
    const listener = vscode.languages.onDidChangeDiagnostics((e) => {
      for (const u of e.uris) reported.add(u.toString());
      check();
    });
    try {
      // A report counts once the document's Problems are set: refresh sets them just before it
      // settles, and the report is a later task, so one seen before is someone else's.
      const results = await Promise.all(
        open.map((d) =>
          this.refresh(d).then((items) => {
            reported.delete(d.uri.toString());
            return items;
          }),
        ),
      );
      const awaited = open.filter((_, i) => (results[i]?.length ?? 0) > 0).map((d) => d.uri.toString());
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, REPORT_WAIT_MS);
        check = () => {
          if (this.disposed || awaited.every((u) => reported.has(u))) {
            clearTimeout(timer);
            resolve();
          }
        };
        check();
      });
    } finally {
      listener.dispose();
    }
  }

  /** Schedules a lint after the debounce; a newer change cancels the pending one. */
  schedule(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    const version = doc.version;
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (!doc.isClosed && doc.version === version) void this.refresh(doc);
      }, DEBOUNCE_MS),
    );
  }

  /** The lint results published for a document at its current version. */
  published(doc: vscode.TextDocument): CitationDiagnostic[] | undefined {
    return this.lints.get(doc.uri.toString(), doc.version);
  }

  /** Quick fixes for the diagnostics in `range` (none if the document changes while it is linted). */
  async codeActions(doc: vscode.TextDocument, range: vscode.Range): Promise<vscode.CodeAction[]> {
    const items = this.published(doc) ?? (await this.refresh(doc)) ?? [];
    const out: vscode.CodeAction[] = [];
    for (const d of items) {
      if (!d.fix || !toRange(doc, d.range).intersection(range)) continue;
      const action = new vscode.CodeAction(
        fixTitle(d.fix.titleKey, d.fix.args, d.fix.title),
        vscode.CodeActionKind.QuickFix,
      );
      action.edit = toWorkspaceEdit(doc, d.fix.edits);
      action.diagnostics = [this.toDiagnostic(doc, d)];
      out.push(action);
    }
    return out;
  }

  /**
   * A document was closed: its last state is published (a file's Problems stay while it is not
   * open; those of an untitled document or a deleted file go with it), and its model and lint
   * results are forgotten.
   */
  closed(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    if (doc.isUntitled || this.deletedOpen.delete(key)) this.collection.delete(doc.uri);
    else void this.refresh(doc);
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    this.timers.delete(key);
    this.models.delete(key);
    this.lints.delete(key);
  }

  /**
   * Files or folders were deleted: what is kept for them and under them is forgotten, and their
   * Problems go, except for a document still open in an editor tab (it is still being edited).
   */
  deleted(uri: vscode.Uri): void {
    const key = uri.toString();
    this.models.deleteUnder(key);
    this.lints.deleteUnder(key);
    for (const ticket of this.closedLints) if (isAtOrUnder(ticket.key, key)) ticket.deleted = true;
    const inTabs = new Set(
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri.toString() : '')),
    );
    for (const d of vscode.workspace.textDocuments) {
      const k = d.uri.toString();
      if (isAtOrUnder(k, key)) this.deletedOpen.add(k);
    }
    const gone: vscode.Uri[] = [];
    this.collection.forEach((u) => {
      const k = u.toString();
      if (isAtOrUnder(k, key) && !inTabs.has(k)) gone.push(u);
    });
    for (const u of gone) this.collection.delete(u);
  }

  /**
   * Deletes made outside VS Code (a terminal, git) reach us through a watcher of Markdown files,
   * created when the first Problems are published: until then a delete has nothing to clear, and
   * a workspace without citation problems pays for no watcher. Deletes made in VS Code (explorer,
   * refactorings, whole folders) come through onDidDeleteFiles.
   */
  private watchDeletes(): void {
    if (this.files) return;
    this.files = vscode.workspace.createFileSystemWatcher('**/*.md', false, true, false);
    this.files.onDidDelete((uri) => this.deleted(uri));
    this.files.onDidCreate((uri) => this.deletedOpen.delete(uri.toString()));
  }

  /** Keeps the Problems and caches in step with the workspace: opening, typing, closing, deleting, settings. */
  watch(): vscode.Disposable[] {
    const markdown = (d: vscode.TextDocument): boolean => d.languageId === 'markdown';
    return [
      { dispose: () => this.files?.dispose() },
      vscode.workspace.onDidDeleteFiles((e) => e.files.forEach((uri) => this.deleted(uri))),
      vscode.workspace.onDidOpenTextDocument((d) => markdown(d) && this.schedule(d)),
      vscode.workspace.onDidChangeTextDocument(
        (e) => markdown(e.document) && e.contentChanges.length > 0 && this.schedule(e.document),
      ),
      vscode.workspace.onDidCloseTextDocument((d) => this.closed(d)),
      onDidChangeSettings('citations', () => {
        void this.refreshOpen();
      }),
    ];
  }

  private toDiagnostic(doc: vscode.TextDocument, d: CitationDiagnostic): vscode.Diagnostic {
    const diag = new vscode.Diagnostic(
      toRange(doc, d.range),
      problemMessage(d),
      d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
    );
    diag.source = CITATION_SOURCE;
    diag.code = d.code;
    return diag;
  }

  dispose(): void {
    this.disposed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.linter.dispose();
    this.collection.dispose();
  }
}
