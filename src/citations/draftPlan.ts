/**
 * Planning the insertion of a drafted text that carries several citations, as ONE batch of
 * insertions (one edit, one undo step). Pure: no vscode import; the citation functions are passed in
 * (the feature gives `loadCitations()`, so markdown-it stays in its lazily loaded bundle; tests give src/citations).
 *
 * 1. Where: the spot `insertCitation` would give a cited snippet at the cursor (its own block: at
 *    the cursor on an empty line, else after the paragraph under the cursor), with the same spacing.
 * 2. What: the paragraphs, each run of text escaped as snippet text (server text cannot open
 *    Markdown constructs), then its citations: a passage is cited through `insertCitation` at the
 *    end of its run (footnote `[^n]` + definition in the references section, or inline `〔doc#idx〕`,
 *    by the document's style; an existing definition of the same passage is reused); a `marker` is
 *    text written as given (used for citations that could not be resolved to a passage).
 * 3. Every step only inserts text, so the steps are folded back into insertions at offsets of the
 *    original text.
 */
import type { formatInlineCitation } from './citation';
import type { insertCitation, InsertErrorCode } from './insert';
import { sourceOf, type CitedPassage } from './passage';
import type { formatSnippet } from './snippet';
import type { inlineText, snippetLine } from '../text/markdown';
import type { CitationOptions, CitationSource, TextEdit } from './types';

/** A citation after a run: a passage (cited in the document's style) or literal marker text. */
export type DraftCite = { kind: 'passage'; passage: CitedPassage } | { kind: 'marker'; text: string };

/** Text (one or more sentences, no line breaks) followed by its citations. */
export interface DraftRun {
  text: string;
  cites: DraftCite[];
}

/** A paragraph of runs; `after`: Markdown lines written (as given) as their own blocks after it. */
export interface DraftBlock {
  runs: DraftRun[];
  after?: string[];
}

/** The citation functions the plan uses (the feature passes the lazily loaded bundle, tests this folder). */
export interface DraftLib {
  insertCitation: typeof insertCitation;
  formatSnippet: typeof formatSnippet;
  formatInlineCitation: typeof formatInlineCitation;
  inlineText: typeof inlineText;
  snippetLine: typeof snippetLine;
}

/** The planned insertion. */
export type DraftPlan =
  | { ok: true; edits: TextEdit[]; passages: CitedPassage[]; offset: number }
  | { ok: false; error: InsertErrorCode | 'empty'; message: string };

const PROBE: CitationSource = { docName: 'probe', chunkIndex: 0, kbName: 'probe', kbCode: 'probe' };

/**
 * Insertions tracked in the coordinates of the original text: each is recorded at a position of the
 * text as it reads after the ones before, and `edits()` gives them as one batch of edits of the
 * original (an insertion inside or at either end of an earlier one joins its text).
 */
export class InsertionLog {
  private readonly entries: { at: number; text: string }[] = [];
  /** Records an insertion at `pos` of the current text. */
  insert(pos: number, text: string): void {
    let acc = 0;
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      const start = e.at + acc;
      // Stryker disable next-line EqualityOperator: an insertion at an entry's start gives the same text recorded before it or merged into it
      if (pos < start) {
        this.entries.splice(i, 0, { at: pos - acc, text });
        return;
      }
      if (pos <= start + e.text.length) {
        e.text = e.text.slice(0, pos - start) + text + e.text.slice(pos - start);
        return;
      }
      acc += e.text.length;
    }
    this.entries.push({ at: pos - acc, text });
  }
  edits(): TextEdit[] {
    return this.entries.map((e) => ({ start: e.at, end: e.at, newText: e.text }));
  }
}

/**
 * Plans the insertion of `blocks` at `cursor` of `text`. Fails (nothing to apply) where a cited
 * snippet could not go (inside code, HTML, front matter, the references section…).
 */
export function planDraftInsertion(
  lib: DraftLib,
  text: string,
  cursor: number,
  blocks: readonly DraftBlock[],
  opts: CitationOptions & { style: 'footnote' | 'inline' },
): DraftPlan {
  const nonEmpty = blocks.filter((b) => b.runs.some((r) => r.text.trim()) || (b.after?.length ?? 0) > 0);
  if (nonEmpty.length === 0) return { ok: false, error: 'empty', message: 'Nothing to insert.' };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const probe = lib.insertCitation(text, cursor, PROBE, { ...opts, snippet: { text: 'x', as: 'paragraph' } });
  if (!probe.ok) return { ok: false, error: probe.error, message: probe.message };
  // Stryker disable next-line StringLiteral: a footnote's insertion always says its label
  const probeCitation = opts.style === 'inline' ? lib.formatInlineCitation(PROBE) : `[^${probe.label ?? '1'}]`;
  const probeBlock = lib.formatSnippet('x', 'paragraph', probeCitation, eol);
  const at = probe.offset;
  const i = probe.inserted.indexOf(probeBlock);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: insertCitation writes the block as formatSnippet makes it, so it is found (at 0 when nothing precedes it, where both branches give '')
  const pre = i >= 0 ? probe.inserted.slice(0, i) : '';
  // Stryker disable next-line ConditionalExpression,EqualityOperator: insertCitation writes the block as formatSnippet makes it, so it is found
  const post = i >= 0 ? probe.inserted.slice(i + probeBlock.length) : eol;

  // The block, and where each passage citation goes in it.
  let block = '';
  const points: { pos: number; passage: CitedPassage }[] = [];
  for (const b of nonEmpty) {
    if (block) block += eol + eol;
    let first = true;
    for (const r of b.runs) {
      const t = r.text.replace(/[\r\n\u2028\u2029]+/g, ' ');
      if (!t.trim()) continue;
      block += first ? lib.snippetLine(t) : lib.inlineText(t);
      first = false;
      for (const c of r.cites) {
        if (c.kind === 'marker') block += c.text;
        else points.push({ pos: pre.length + block.length, passage: c.passage });
      }
    }
    for (const line of b.after ?? []) block += (block ? eol + eol : '') + line;
  }
  let buffer = text.slice(0, at) + pre + block + post + text.slice(at);
  const log = new InsertionLog();
  log.insert(at, pre + block + post);
  let cur = points.map((p) => p.pos + at);
  for (let k = 0; k < points.length; k++) {
    const r = lib.insertCitation(buffer, cur[k]!, sourceOf(points[k]!.passage), opts);
    if (!r.ok) return { ok: false, error: r.error, message: r.message };
    const edits = [...r.edits].sort((a, b) => b.start - a.start);
    for (const e of edits) {
      // Stryker disable next-line ConditionalExpression,StringLiteral: insertCitation only inserts; this keeps a replacing edit from being applied as an insertion
      if (e.end !== e.start) return { ok: false, error: 'not-in-text', message: 'Unexpected replacing edit.' };
      buffer = buffer.slice(0, e.start) + e.newText + buffer.slice(e.start);
      log.insert(e.start, e.newText);
    }
    // every position moves by what was inserted before it (those of citations placed already are not read again)
    cur = cur.map((p) => p + r.edits.filter((e) => e.start <= p).reduce((n, e) => n + e.newText.length, 0));
  }
  return { ok: true, edits: log.edits(), passages: points.map((p) => p.passage), offset: at };
}
