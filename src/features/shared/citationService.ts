/**
 * The citation service: the workspace cache of retrieval contexts and the insertions into a bulletin
 * (a passage's citation or cited snippet, a drafted text with several citations), each one edit and
 * one undo step. Built once in src/features/index.ts and handed to the features that read the cache or
 * insert citations (cite, draft, verify, the Markdown preview, chat), so it belongs to none of them.
 */
import vscode = require('vscode');
import type { CitationCache, InsertErrorCode } from '../../citations/index';
import { planDraftInsertion, type DraftBlock } from '../../citations/draftPlan';
import { contextOf, sourceOf, type CitedPassage } from '../../citations/passage';
import { applyEdits } from '../../citations/edits';
import type { TextEdit } from '../../citations/types';
import { loadCitations } from '../../bundles';
import type { SafetyService } from './safety';
import { referencesOptions } from './language';
import { settings } from './settings';

const CACHE_KEY = 'shunong.citationCache';

/** The workspace cache of cited passages and the editor insertions that fill it. */
export class CitationService {
  private cacheValue: CitationCache | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after a passage is remembered (the preview's titles follow it). */
  readonly onDidChange = this.changed.event;

  /** @param state the workspace state the cache is persisted in. */
  constructor(
    private readonly state: vscode.Memento,
    private readonly safety: SafetyService,
  ) {}

  /**
   * Whether text that edits bring into a bulletin may go in: true unless it brings a banned
   * pesticide in and the author, asked, does not insert it anyway.
   */
  async safeToInsert(before: string, edits: readonly TextEdit[]): Promise<boolean> {
    return this.safety.confirmInsertion(before, applyEdits(before, edits));
  }

  /** The workspace cache of retrieval contexts (loaded on first use). */
  get cache(): CitationCache {
    this.cacheValue ??= loadCitations().CitationCache.fromJSON(this.state.get(CACHE_KEY));
    return this.cacheValue;
  }

  /** Remembers the retrieval context of a passage (persisted per workspace). */
  async remember(p: CitedPassage): Promise<void> {
    await this.rememberAll([p]);
  }

  /** Remembers several passages with one write of the workspace state (a verification's). */
  async rememberAll(passages: readonly CitedPassage[]): Promise<void> {
    if (passages.length === 0) return;
    for (const p of passages) this.cache.put(contextOf(p));
    this.changed.fire();
    await this.state.update(CACHE_KEY, this.cache.toJSON());
  }

  /**
   * Inserts a passage's citation (and, with `snippet`, the passage as a blockquote or paragraph
   * ending with it) at `at`, else at the cursor of `editor`, as one edit. If the document changes
   * while the edit is in flight, the insertion is recomputed on the new text once.
   */
  async insert(
    editor: vscode.TextEditor,
    passage: CitedPassage,
    snippet: boolean,
    at?: vscode.Position,
  ): Promise<boolean> {
    const doc = editor.document;
    if (!isMarkdown(doc)) return false;
    const s = settings.citations(doc.uri);
    for (let attempt = 0; attempt < 2; attempt++) {
      const text = doc.getText();
      const result = loadCitations().insertCitation(
        text,
        doc.offsetAt(at ?? editor.selection.active),
        sourceOf(passage),
        {
          style: s.style,
          ...referencesOptions(doc),
          ...(snippet ? { snippet: { text: passage.content, as: s.snippetAs } } : {}),
        },
      );
      if (!result.ok) {
        void vscode.window.showWarningMessage(insertErrorMessage(result.error));
        return false;
      }
      if (attempt === 0 && snippet && !(await this.safeToInsert(text, result.edits))) return false;
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
   * Inserts a drafted text carrying several citations (see src/citations/draftPlan.ts) at the cursor
   * of `editor`, as one edit (one undo step); the cited passages are remembered like single citations.
   */
  async insertDraft(editor: vscode.TextEditor, blocks: readonly DraftBlock[]): Promise<boolean> {
    const doc = editor.document;
    if (!isMarkdown(doc)) return false;
    const s = settings.citations(doc.uri);
    const plan = planDraftInsertion(loadCitations(), doc.getText(), doc.offsetAt(editor.selection.active), blocks, {
      style: s.style,
      ...referencesOptions(doc),
    });
    if (!plan.ok) {
      if (plan.error !== 'empty') void vscode.window.showWarningMessage(insertErrorMessage(plan.error));
      return false;
    }
    if (!(await this.safeToInsert(doc.getText(), plan.edits))) return false;
    const ok = await editor.edit(
      (b) => {
        for (const e of plan.edits) b.insert(doc.positionAt(e.start), e.newText);
      },
      { undoStopBefore: true, undoStopAfter: true },
    );
    if (ok) for (const p of plan.passages) await this.remember(p);
    return ok;
  }
}

/** Citations go into Markdown documents only; the user is told otherwise. */
function isMarkdown(doc: vscode.TextDocument): boolean {
  if (doc.languageId === 'markdown') return true;
  void vscode.window.showWarningMessage(
    vscode.l10n.t('Citations go into Markdown documents. Open a bulletin (.md) and try again.'),
  );
  return false;
}

/** Localises why an insertion was refused. */
export function insertErrorMessage(code: InsertErrorCode): string {
  switch (code) {
    case 'invalid-source':
      return vscode.l10n.t(
        'This passage has no document name or a chunk index that is not a non-negative integer; nothing was inserted.',
      );
    case 'in-code':
      return vscode.l10n.t(
        'The cursor is inside code; a citation there would be plain code text. Move the cursor into text.',
      );
    case 'in-html':
      return vscode.l10n.t(
        'The cursor is inside an HTML block; a citation there would not be Markdown. Move the cursor into text.',
      );
    case 'in-front-matter':
      return vscode.l10n.t('The cursor is inside the front matter. Move the cursor into the text of the bulletin.');
    case 'in-references':
      return vscode.l10n.t(
        'The cursor is in the references section. Move the cursor to the sentence the passage supports.',
      );
    case 'not-in-text':
      return vscode.l10n.t(
        'Put the cursor in text (a paragraph, heading, list item or table cell) or on an empty line.',
      );
    case 'unclosed-block':
      return vscode.l10n.t(
        'The document ends inside an unclosed code or HTML block; close it before adding a references section.',
      );
  }
}
