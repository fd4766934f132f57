/**
 * The outcomes of "Verify Citations" in the Problems panel: one diagnostic per use of a source that
 * is not verified, computed from the document's current citation model and the outcomes by source,
 * so they follow edits (a removed citation loses its diagnostic at once). Quick fixes: search for a
 * replacement, remove the citation, and for a changed passage keep its current text.
 */
import vscode = require('vscode');
import type { DocumentModel, VerifyOutcome, VerifySource } from '../../citations/index';
import { loadCitations } from '../../bundles';
import { settings } from '../shared/settings';
import type { SourceOutcomes } from '../shared/sourceOutcomes';
import { outcomeMessage, outcomeSeverity, SOURCE_CODES } from './strings';

const CODES = new Set<string>(Object.values(SOURCE_CODES));
const DEBOUNCE_MS = 400;

/** What the diagnostics read. */
export interface SourceDiagnosticsDeps {
  /** The citation model of a document (the citation feature's, parsed once per version). */
  model(doc: vscode.TextDocument): DocumentModel;
  /** The outcome of each source looked up in this window (unverified ones included). */
  outcomes: SourceOutcomes;
}

/** The sources of one document, with the file named by its URI. */
export function documentSources(doc: vscode.TextDocument, model: DocumentModel): VerifySource[] {
  return loadCitations().collectSources([{ file: doc.uri.toString(), text: doc.getText(), model }]);
}

/** The Problems of source outcomes and their quick fixes. */
export class SourceDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('shunong-sources');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: SourceDiagnosticsDeps) {
    this.disposables.push(
      this.collection,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && this.collection.has(e.document.uri)) this.schedule(e.document);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.isUntitled) this.collection.delete(d.uri);
      }),
    );
  }

  /** Publishes the diagnostics of a document now. */
  publish(doc: vscode.TextDocument): vscode.Diagnostic[] {
    const out: vscode.Diagnostic[] = [];
    for (const s of documentSources(doc, this.deps.model(doc))) {
      const o = this.deps.outcomes.get(s.key)?.outcome;
      const message = o && outcomeMessage(s, o);
      if (!o || !message || o.status === 'verified') continue;
      for (const u of s.uses) {
        const d = new vscode.Diagnostic(
          new vscode.Range(doc.positionAt(u.range.start), doc.positionAt(u.range.end)),
          message,
          outcomeSeverity(o),
        );
        d.source = 'shunong';
        d.code = SOURCE_CODES[o.status];
        out.push(d);
      }
    }
    if (out.length) this.collection.set(doc.uri, out);
    else this.collection.delete(doc.uri);
    return out;
  }

  /** The published diagnostics of a document. */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  private schedule(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (!doc.isClosed) this.publish(doc);
      }, DEBOUNCE_MS),
    );
  }

  /** Quick fixes for the source diagnostics in `range`. */
  codeActions(doc: vscode.TextDocument, range: vscode.Range): vscode.CodeAction[] {
    const diags = this.get(doc.uri).filter((d) => CODES.has(String(d.code)) && d.range.intersection(range));
    if (diags.length === 0) return [];
    const model = this.deps.model(doc);
    const out: vscode.CodeAction[] = [];
    for (const s of documentSources(doc, model)) {
      const o = this.deps.outcomes.get(s.key)?.outcome;
      if (!o || o.status === 'verified') continue;
      for (const u of s.uses) {
        const r = new vscode.Range(doc.positionAt(u.range.start), doc.positionAt(u.range.end));
        const diag = diags.find((d) => d.range.isEqual(r));
        if (!diag) continue;
        out.push(...this.fixes(doc, model, s, u, o, diag));
      }
    }
    return out;
  }

  /** The quick fixes of one use of a source: keep a changed passage, search for a replacement, remove the citation. */
  private fixes(
    doc: vscode.TextDocument,
    model: DocumentModel,
    s: VerifySource,
    use: VerifySource['uses'][number],
    o: VerifyOutcome,
    diag: vscode.Diagnostic,
  ): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    if (o.status === 'changed') out.push(keepFix(doc, s, diag));
    if (o.status !== 'unverified') out.push(searchFix(doc, s, o, diag));
    if (o.status === 'not-located' || o.status === 'unknown-kb') out.push(removeFix(doc, model, s, use, diag));
    return out;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }
}

/** The fix that keeps a changed passage's current text (the preferred one). */
function keepFix(doc: vscode.TextDocument, s: VerifySource, diag: vscode.Diagnostic): vscode.CodeAction {
  const keep = new vscode.CodeAction(vscode.l10n.t("Keep the passage's current text"), vscode.CodeActionKind.QuickFix);
  keep.command = {
    title: keep.title,
    command: 'shunong.acceptChangedPassage',
    arguments: [doc.uri.toString(), s.key],
  };
  keep.diagnostics = [diag];
  keep.isPreferred = true;
  return keep;
}

/** The fix that searches for a replacement of the cited text, in the source's knowledge base unless that one is unknown. */
function searchFix(
  doc: vscode.TextDocument,
  s: VerifySource,
  o: VerifyOutcome,
  diag: vscode.Diagnostic,
): vscode.CodeAction {
  const k = settings.knowledge(doc.uri);
  const search = new vscode.CodeAction(vscode.l10n.t('Search for a replacement'), vscode.CodeActionKind.QuickFix);
  const query = s.citedText || s.docName.replace(/\.[^.]+$/, '');
  search.command = {
    title: search.title,
    command: 'shunong.searchKnowledge',
    arguments: [
      {
        query: query.length > 200 ? query.slice(0, 200) : query,
        ...(s.kbCode && o.status !== 'unknown-kb' ? { kbCode: s.kbCode } : {}),
        topK: k.topK,
        scoreThreshold: k.scoreThreshold,
        useRerank: k.useRerank,
      },
    ],
  };
  search.diagnostics = [diag];
  search.isPreferred = o.status !== 'changed';
  return search;
}

/** The fix that removes the citation: a definition and every reference to its label, or the one inline citation. */
function removeFix(
  doc: vscode.TextDocument,
  model: DocumentModel,
  s: VerifySource,
  use: VerifySource['uses'][number],
  diag: vscode.Diagnostic,
): vscode.CodeAction {
  const edits = loadCitations().removeCitationEdits(doc.getText(), model, use);
  const remove = new vscode.CodeAction(
    use.label !== undefined
      ? vscode.l10n.t('Remove citation [^{0}]', use.label)
      : vscode.l10n.t('Remove the citation {0}', s.citation),
    vscode.CodeActionKind.QuickFix,
  );
  const we = new vscode.WorkspaceEdit();
  for (const e of edits)
    we.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.newText);
  remove.edit = we;
  remove.diagnostics = [diag];
  return remove;
}
