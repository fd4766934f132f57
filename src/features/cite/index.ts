/**
 * Citations in the editor: insert a cited snippet or a citation (one edit, one undo), renumber,
 * diagnostics with quick fixes, hovers, the workspace check, the passage viewer and the drop of a
 * passage dragged from the knowledge browser. The logic is in src/citations; this is the VS Code side.
 */
import * as vscode from 'vscode';
import type {
  CitationCache,
  CitationContext,
  Diagnostic as CitationDiagnostic,
  DocumentModel,
  SourceRange,
  TextEdit as CitationEdit,
} from '../../citations/index';
import { loadCitations } from '../../platform';
import { onDidChangeSettings, settings } from '../shared/settings';
import { scoreKind } from '../../knowledge/score';
import { fixTitle, insertErrorMessage, problemMessage } from './messages';
import { registerCitationTree, type CitationTree } from './tree';
import {
  contextOf,
  isCitedPassage,
  passageOfContext,
  PASSAGE_MIME,
  sourceOf,
  type CitedPassage,
} from '../../citations/passage';
import { planDraftInsertion, type DraftBlock } from './draft';

const CACHE_KEY = 'shunong.citationCache';
export const PASSAGE_SCHEME = 'shunong-passage';

function toRange(doc: vscode.TextDocument, r: SourceRange): vscode.Range {
  return new vscode.Range(doc.positionAt(r.start), doc.positionAt(r.end));
}

function toWorkspaceEdit(doc: vscode.TextDocument, edits: readonly CitationEdit[]): vscode.WorkspaceEdit {
  const we = new vscode.WorkspaceEdit();
  for (const e of edits)
    we.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.newText);
  return we;
}

/** The citation service: the workspace cache of retrieval contexts and the editor operations. */
export class Citations implements vscode.Disposable {
  private cacheValue: CitationCache | undefined;
  private readonly models = new Map<string, { version: number; model: DocumentModel }>();
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('shunong-citations');
  private readonly lintByUri = new Map<string, { version: number; items: CitationDiagnostic[] }>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly passageChanged = new vscode.EventEmitter<vscode.Uri>();
  /** Debounce of diagnostics, in ms (tests may lower it). */
  debounceMs = 400;
  /** The "Citations" view of the active bulletin. */
  tree: CitationTree | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {}

  /** The workspace cache of retrieval contexts (loaded on first use). */
  get cache(): CitationCache {
    this.cacheValue ??= loadCitations().CitationCache.fromJSON(this.context.workspaceState.get(CACHE_KEY));
    return this.cacheValue;
  }

  /** Remembers the retrieval context of a passage (persisted per workspace). */
  async remember(p: CitedPassage): Promise<void> {
    this.cache.put(contextOf(p));
    await this.context.workspaceState.update(CACHE_KEY, this.cache.toJSON());
  }

  /**
   * Inserts a passage's citation (and, with `snippet`, the passage as a blockquote or paragraph
   * ending with it) at the cursor of `editor`, as one edit. If the document changes while the edit
   * is in flight, the insertion is recomputed on the new text once.
   */
  async insert(editor: vscode.TextEditor, passage: CitedPassage, snippet: boolean): Promise<boolean> {
    const doc = editor.document;
    if (doc.languageId !== 'markdown') {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Citations go into Markdown documents. Open a bulletin (.md) and try again.'),
      );
      return false;
    }
    const s = settings.citations(doc.uri);
    for (let attempt = 0; attempt < 2; attempt++) {
      const text = doc.getText();
      const result = loadCitations().insertCitation(text, doc.offsetAt(editor.selection.active), sourceOf(passage), {
        style: s.style,
        referencesHeading: s.referencesHeading,
        ...(snippet ? { snippet: { text: passage.content, as: s.snippetAs } } : {}),
      });
      if (!result.ok) {
        void vscode.window.showWarningMessage(insertErrorMessage(result.error));
        return false;
      }
      const version = doc.version;
      const ok = await editor.edit(
        (b) => {
          for (const e of result.edits)
            b.replace(new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.newText);
        },
        { undoStopBefore: true, undoStopAfter: true },
      );
      if (ok) {
        await this.remember(passage);
        // The cursor goes after what was written at the spot.
        const shift = result.edits
          .filter((e) => e.start < result.offset)
          .reduce((n, e) => n + e.newText.length - (e.end - e.start), 0);
        // ... right after the citation, before any line breaks that separate it from what follows.
        const after = doc.positionAt(result.offset + shift + result.inserted.replace(/(?:\r?\n)+$/, '').length);
        editor.selection = new vscode.Selection(after, after);
        return true;
      }
      if (doc.version === version) break; // refused for another reason
    }
    void vscode.window.showWarningMessage(
      vscode.l10n.t('The document changed while inserting; nothing was inserted. Try again.'),
    );
    return false;
  }

  /**
   * Inserts a drafted text carrying several citations (see ./draft.ts) at the cursor of `editor`,
   * as one edit (one undo step); the cited passages are remembered like single citations.
   */
  async insertDraft(editor: vscode.TextEditor, blocks: readonly DraftBlock[]): Promise<boolean> {
    const doc = editor.document;
    if (doc.languageId !== 'markdown') {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Citations go into Markdown documents. Open a bulletin (.md) and try again.'),
      );
      return false;
    }
    const s = settings.citations(doc.uri);
    const plan = planDraftInsertion(loadCitations(), doc.getText(), doc.offsetAt(editor.selection.active), blocks, {
      style: s.style,
      referencesHeading: s.referencesHeading,
    });
    if (!plan.ok) {
      if (plan.error !== 'empty') void vscode.window.showWarningMessage(insertErrorMessage(plan.error));
      return false;
    }
    const ok = await editor.edit(
      (b) => {
        for (const e of plan.edits) b.insert(doc.positionAt(e.start), e.newText);
      },
      { undoStopBefore: true, undoStopAfter: true },
    );
    if (ok) for (const p of plan.passages) await this.remember(p);
    return ok;
  }

  /** The citation model of a document, parsed once per version. */
  model(doc: vscode.TextDocument): DocumentModel {
    const key = doc.uri.toString();
    const hit = this.models.get(key);
    if (hit && hit.version === doc.version) return hit.model;
    const model = loadCitations().analyzeDocument(doc.getText(), {
      referencesHeading: settings.citations(doc.uri).referencesHeading,
    });
    this.models.set(key, { version: doc.version, model });
    return model;
  }

  /** Lints a document now and publishes its diagnostics. */
  refresh(doc: vscode.TextDocument): CitationDiagnostic[] {
    if (doc.languageId !== 'markdown' || !settings.citations(doc.uri).diagnostics) {
      this.diagnostics.delete(doc.uri);
      this.lintByUri.delete(doc.uri.toString());
      return [];
    }
    const items = loadCitations().lint(doc.getText(), {
      referencesHeading: settings.citations(doc.uri).referencesHeading,
    });
    this.lintByUri.set(doc.uri.toString(), { version: doc.version, items });
    this.diagnostics.set(
      doc.uri,
      items.map((d) => this.toDiagnostic(doc, d)),
    );
    return items;
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
        if (!doc.isClosed && doc.version === version) this.refresh(doc);
      }, this.debounceMs),
    );
  }

  /** The lint results published for a document at its current version. */
  published(doc: vscode.TextDocument): CitationDiagnostic[] | undefined {
    const hit = this.lintByUri.get(doc.uri.toString());
    return hit && hit.version === doc.version ? hit.items : undefined;
  }

  private toDiagnostic(doc: vscode.TextDocument, d: CitationDiagnostic): vscode.Diagnostic {
    const diag = new vscode.Diagnostic(
      toRange(doc, d.range),
      problemMessage(d.messageKey, d.args, d.message),
      d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
    );
    diag.source = 'shunong';
    diag.code = d.code;
    return diag;
  }

  /** Quick fixes for the diagnostics in `range`. */
  codeActions(doc: vscode.TextDocument, range: vscode.Range): vscode.CodeAction[] {
    const items = this.published(doc) ?? this.refresh(doc);
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

  /** Renumbers the citations of a document; unused definitions are removed only on confirmation. */
  async renumber(editor: vscode.TextEditor, confirmRemove?: (labels: string[]) => Thenable<boolean>): Promise<boolean> {
    const doc = editor.document;
    const heading = settings.citations(doc.uri).referencesHeading;
    const { renumber } = loadCitations();
    let result = renumber(doc.getText(), { referencesHeading: heading });
    if (result.unused.length) {
      const ask =
        confirmRemove ??
        (async (labels: string[]) => {
          const remove = vscode.l10n.t('Remove');
          const answer = await vscode.window.showWarningMessage(
            vscode.l10n.t(
              'These citations are defined but never used: {0}. Remove their definitions?',
              labels.map((l) => `[^${l}]`).join(', '),
            ),
            remove,
            vscode.l10n.t('Keep'),
          );
          return answer === remove;
        });
      if (await ask(result.unused))
        result = renumber(doc.getText(), { referencesHeading: heading, removeUnused: true });
    }
    if (result.edits.length === 0) {
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Citations are already numbered in order of use.'), 3000);
      return true;
    }
    return vscode.workspace.applyEdit(toWorkspaceEdit(doc, result.edits));
  }

  /** The hover of a citation reference, definition or inline citation at `pos`. */
  hover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const model = this.model(doc);
    const offset = doc.offsetAt(pos);
    const inside = (r: SourceRange): boolean => offset >= r.start && offset < r.end;
    const defByLabel = new Map(model.definitions.filter((d) => !d.duplicateLabel).map((d) => [d.label, d]));
    const ref = model.references.find((r) => r.ours && inside(r.range));
    const def = model.definitions.find((d) => inside(d.range));
    const inline = model.inlineCitations.find((c) => inside(c.range));
    let range: SourceRange | undefined;
    let citation: { docName: string; chunkIndex: number } | undefined;
    let kb: string | undefined;
    if (ref) {
      range = ref.range;
      const d = defByLabel.get(ref.label);
      citation = d?.citation;
      if (d) kb = `${d.kbName} (${d.kbCode})`;
    } else if (def) {
      range = def.citationRange.start <= offset && offset < def.citationRange.end ? def.citationRange : def.range;
      citation = def.citation;
      kb = `${def.kbName} (${def.kbCode})`;
    } else if (inline) {
      range = inline.range;
      citation = inline.citation;
    }
    if (!range || !citation) return undefined;
    const key = `${citation.docName}#${citation.chunkIndex}`;
    const ctx = this.cache.get(key);
    const md = new vscode.MarkdownString(undefined, false);
    md.supportHtml = false;
    md.isTrusted = { enabledCommands: ['shunong.openPassage'] };
    md.appendMarkdown('**');
    md.appendText(key);
    md.appendMarkdown('**');
    if (ctx) {
      md.appendMarkdown('\n\n');
      md.appendText(`${ctx.kbName} (${ctx.kbCode})`);
      md.appendMarkdown('\n\n> ');
      md.appendText(ctx.content.length > 600 ? `${ctx.content.slice(0, 600)}…` : ctx.content);
      md.appendMarkdown('\n\n');
      md.appendText(scoreLine(ctx));
      md.appendMarkdown('\n\n');
      md.appendText(
        vscode.l10n.t('Retrieved {0} for "{1}"', ctx.retrievedAt.slice(0, 16).replace('T', ' '), ctx.query),
      );
      const args = encodeURIComponent(JSON.stringify([key]));
      md.appendMarkdown(`\n\n[${vscode.l10n.t('Open the full passage')}](command:shunong.openPassage?${args})`);
    } else {
      if (kb) {
        md.appendMarkdown('\n\n');
        md.appendText(kb);
      }
      md.appendMarkdown('\n\n');
      md.appendText(
        vscode.l10n.t(
          'No retrieval context is cached for this citation in this workspace. Search for it again to see the passage.',
        ),
      );
    }
    return new vscode.Hover(md, toRange(doc, range));
  }

  /** The text of a cached passage, for the read-only passage viewer. */
  passageText(key: string): string | undefined {
    const ctx = this.cache.get(key);
    if (!ctx) return undefined;
    return `${key}\n${ctx.kbName} (${ctx.kbCode})\n${scoreLine(ctx)}\n${vscode.l10n.t('Retrieved {0} for "{1}"', ctx.retrievedAt, ctx.query)}\n\n${ctx.content}\n`;
  }

  /** Emits when a passage document should be re-read. */
  get onDidChangePassage(): vscode.Event<vscode.Uri> {
    return this.passageChanged.event;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.diagnostics.dispose();
    this.passageChanged.dispose();
  }
}

/** A score read by its type: RRF values only rank; cosine values are similarities. */
export function scoreLine(ctx: Pick<CitationContext, 'score' | 'scoreType'>): string {
  switch (scoreKind(ctx.scoreType)) {
    case 'rrf':
      return vscode.l10n.t('Rank score {0} (RRF: orders results only, not a confidence)', ctx.score.toFixed(4));
    case 'cosine':
      return vscode.l10n.t('Similarity {0} (cosine, 0–1)', ctx.score.toFixed(2));
    default:
      return vscode.l10n.t('Score {0} ({1}; read as rank only)', String(ctx.score), ctx.scoreType || '?');
  }
}

/** The passage URI of a cached citation. */
export function passageUri(key: string): vscode.Uri {
  return vscode.Uri.from({ scheme: PASSAGE_SCHEME, path: `/${key}.txt`, query: encodeURIComponent(key) });
}

/** Picks a passage from the workspace cache (when a command runs without one). */
async function pickCached(citations: Citations): Promise<CitedPassage | undefined> {
  const entries = citations.cache.toJSON().entries.sort((a, b) => b.retrievedAt.localeCompare(a.retrievedAt));
  if (entries.length === 0) {
    const search = vscode.l10n.t('Search Knowledge');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('No passage retrieved in this workspace yet. Search the knowledge base first.'),
      search,
    );
    if (choice === search) await vscode.commands.executeCommand('shunong.searchKnowledge');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    entries.map((e) => ({
      label: e.content.split('\n')[0]?.slice(0, 80) ?? e.citation,
      description: `${e.citation} · ${e.kbName}`,
      detail: e.query,
      entry: e,
    })),
    { title: vscode.l10n.t('Cite a passage retrieved earlier'), matchOnDescription: true, matchOnDetail: true },
  );
  return pick ? passageOfContext(pick.entry) : undefined;
}

/** Registers the citation commands and providers. */
export function activate(context: vscode.ExtensionContext): Citations {
  const citations = new Citations(context);
  const md: vscode.DocumentSelector = { language: 'markdown' };

  const insertCommand =
    (snippet: boolean) =>
    async (arg?: unknown): Promise<boolean> => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('Open a Markdown bulletin and put the cursor where the citation goes.'),
        );
        return false;
      }
      const passage = isCitedPassage(arg) ? arg : await pickCached(citations);
      return passage ? citations.insert(editor, passage, snippet) : false;
    };

  context.subscriptions.push(
    citations,
    vscode.commands.registerCommand('shunong.insertCitedSnippet', insertCommand(true)),
    vscode.commands.registerCommand('shunong.insertCitation', insertCommand(false)),
    vscode.commands.registerCommand('shunong.renumberCitations', async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.languageId !== 'markdown') {
        void vscode.window.showWarningMessage(vscode.l10n.t('Open a Markdown bulletin to renumber its citations.'));
        return false;
      }
      return citations.renumber(editor);
    }),
    vscode.commands.registerCommand('shunong.checkCitations', () => checkWorkspace(citations)),
    vscode.commands.registerCommand('shunong.openPassage', async (key?: unknown) => {
      if (typeof key !== 'string' || !citations.cache.has(key)) return undefined;
      const doc = await vscode.workspace.openTextDocument(passageUri(key));
      return vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    }),
    vscode.workspace.registerTextDocumentContentProvider(PASSAGE_SCHEME, {
      onDidChange: citations.onDidChangePassage,
      provideTextDocumentContent: (uri) =>
        citations.passageText(decodeURIComponent(uri.query)) ??
        vscode.l10n.t('This passage is not in the workspace cache.'),
    }),
    vscode.languages.registerHoverProvider(md, { provideHover: (doc, pos) => citations.hover(doc, pos) }),
    vscode.languages.registerCodeActionsProvider(
      md,
      { provideCodeActions: (doc, range) => citations.codeActions(doc, range) },
      {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      },
    ),
    vscode.languages.registerDocumentDropEditProvider(
      md,
      {
        provideDocumentDropEdits: async (doc, pos, data) => {
          const item = data.get(PASSAGE_MIME);
          if (!item) return undefined;
          let passage: unknown;
          try {
            passage = JSON.parse(await item.asString());
          } catch {
            return undefined;
          }
          if (!isCitedPassage(passage)) return undefined;
          return dropEdit(citations, doc, pos, passage);
        },
      },
      { dropMimeTypes: [PASSAGE_MIME] },
    ),
    vscode.workspace.onDidOpenTextDocument((d) => d.languageId === 'markdown' && citations.schedule(d)),
    vscode.workspace.onDidChangeTextDocument(
      (e) => e.document.languageId === 'markdown' && e.contentChanges.length > 0 && citations.schedule(e.document),
    ),
    vscode.workspace.onDidCloseTextDocument((d) => citations.refresh(d)),
    onDidChangeSettings('citations', () => {
      for (const d of vscode.workspace.textDocuments) if (d.languageId === 'markdown') citations.refresh(d);
    }),
  );
  for (const d of vscode.workspace.textDocuments) if (d.languageId === 'markdown') citations.schedule(d);
  citations.tree = registerCitationTree(context, citations);
  return citations;
}

/** The drop of a passage: the cited snippet at the drop spot, the definition in the references section. */
function dropEdit(
  citations: Citations,
  doc: vscode.TextDocument,
  pos: vscode.Position,
  passage: CitedPassage,
): vscode.DocumentDropEdit | undefined {
  const s = settings.citations(doc.uri);
  const result = loadCitations().insertCitation(doc.getText(), doc.offsetAt(pos), sourceOf(passage), {
    style: s.style,
    referencesHeading: s.referencesHeading,
    snippet: { text: passage.content, as: s.snippetAs },
  });
  if (!result.ok) {
    void vscode.window.showWarningMessage(insertErrorMessage(result.error));
    return undefined;
  }
  const others = result.edits.filter(
    (e) => !(e.start === result.offset && e.end === result.offset && e.newText === result.inserted),
  );
  const edit = new vscode.DocumentDropEdit(new vscode.SnippetString().appendText(result.inserted));
  if (others.length) edit.additionalEdit = toWorkspaceEdit(doc, others);
  void citations.remember(passage);
  return edit;
}

/** "Shunong: Check Citations in Workspace": lints every Markdown file into the Problems panel. */
export async function checkWorkspace(
  citations: Citations,
): Promise<{ files: number; problems: number; report: string[] }> {
  const uris = await vscode.workspace.findFiles('**/*.{md,markdown}', '**/{node_modules,.git,.vscode-test}/**');
  const report: string[] = [];
  let problems = 0;
  for (const uri of uris.sort((a, b) => a.fsPath.localeCompare(b.fsPath))) {
    const doc = await vscode.workspace.openTextDocument(uri);
    const items = citations.refresh(doc);
    const model = citations.model(doc);
    const count = model.references.filter((r) => r.ours).length + model.inlineCitations.length;
    problems += items.length;
    report.push(
      vscode.l10n.t('{0}: {1} citations, {2} problems', vscode.workspace.asRelativePath(uri), count, items.length),
    );
  }
  const summary = vscode.l10n.t('Checked {0} Markdown files: {1} citation problems.', uris.length, problems);
  const show = vscode.l10n.t('Show Problems');
  void (
    problems ? vscode.window.showWarningMessage(summary, show) : vscode.window.showInformationMessage(summary)
  ).then((c) => (c === show ? vscode.commands.executeCommand('workbench.actions.view.problems') : undefined));
  return { files: uris.length, problems, report };
}
