/**
 * The sources of a set of bulletins, for "Verify Citations": each distinct source (knowledge-base
 * code, `doc_name`, `chunk_index`) once, with every place that cites it and the best text the
 * bulletin holds for it (the cited snippet the citation ends, else the sentence around it). Our
 * definitions name all three parts; an inline `〔doc#idx〕` names no knowledge base (it is looked up
 * across all of them); the author's own footnotes are not ours to verify. Pure: no vscode import.
 */
import { citationKey } from './citation';
import { sourceKey } from './sourceKey';
import { normalizeEdits } from './edits';
import type { DocumentModel } from './model';
import { deleteLines } from './renumber';
import { LineIndex } from './positions';
import type { SourceRange, TextEdit } from './types';

/** One place a source is cited. */
export interface SourceUse {
  /** The file as the caller named it (a path for the CLI, a URI string in VS Code). */
  file: string;
  /** The footnote label (a definition); absent for an inline citation. */
  label?: string;
  /** The definition's `doc#idx` text, or the inline citation with its brackets. */
  range: SourceRange;
}

/** A distinct source and where it is cited. */
export interface VerifySource {
  /** {@link sourceKey} of the source. */
  key: string;
  /** The knowledge base the citation names; absent for inline citations (search all). */
  kbCode?: string;
  kbName?: string;
  docName: string;
  chunkIndex: number;
  /** `doc_name#chunk_index`. */
  citation: string;
  /** Every use, in the order the documents were given. */
  uses: SourceUse[];
  /** The text the first use cites (snippet or sentence), whitespace collapsed; '' when there is none. */
  citedText: string;
}

/** A document to collect from: its name, text and citation model. */
export interface SourceDocument {
  file: string;
  text: string;
  model: DocumentModel;
}

export { sourceKey } from './sourceKey';

/** Every distinct source of the documents, in order of first use. */
export function collectSources(docs: readonly SourceDocument[]): VerifySource[] {
  const byKey = new Map<string, VerifySource>();
  const add = (
    lines: LineIndex,
    kb: { code: string; name: string } | undefined,
    c: { docName: string; chunkIndex: number },
    use: SourceUse,
    citedAt: { start: number; end: number } | undefined,
  ): void => {
    const citation = citationKey(c);
    const key = sourceKey(kb?.code, citation);
    let s = byKey.get(key);
    if (!s) {
      s = { key, docName: c.docName, chunkIndex: c.chunkIndex, citation, uses: [], citedText: '' };
      if (kb) {
        s.kbCode = kb.code;
        s.kbName = kb.name;
      }
      byKey.set(key, s);
    }
    s.uses.push(use);
    if (!s.citedText && citedAt !== undefined) s.citedText = citedTextBefore(lines, citedAt);
  };
  for (const doc of docs) {
    const lines = new LineIndex(doc.text);
    const firstRef = new Map<string, SourceRange>();
    for (const r of doc.model.references) if (r.ours && !firstRef.has(r.label)) firstRef.set(r.label, r.range);
    for (const d of doc.model.definitions) {
      if (!d.citation || d.duplicateLabel || !d.kbCode) continue;
      add(
        lines,
        { code: d.kbCode, name: d.kbName },
        d.citation,
        { file: doc.file, label: d.label, range: d.citationRange },
        firstRef.get(d.label),
      );
    }
    for (const c of doc.model.inlineCitations) {
      if (!c.citation) continue;
      add(lines, undefined, c.citation, { file: doc.file, range: c.range }, c.range);
    }
  }
  return [...byKey.values()];
}

const CITATION_MARKS = /\[\^[^\]\s]+\]|〔[^〔〕\n]*〕/g;
const SENTENCE_END = /[。！？!?；;]/u;

/**
 * The text a citation at `at` cites: the whole block before it when the citation ends its block
 * (our snippets end with their citation), else the sentence that ends at the citation. Blockquote
 * and list markers and other citation marks are left out; at most 2,000 characters.
 */
export function citedTextBefore(lines: LineIndex, at: { start: number; end: number }): string {
  const line = lines.lineAt(at.start);
  let first = line;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a line above the first reads as nothing or as text, and lineStart(-1) is 0 either way
  while (first > 0 && !isBlank(stripMarkers(lines.lineText(first - 1)))) first--;
  let last = lines.lineAt(at.end);
  // Stryker disable next-line EqualityOperator,ArithmeticOperator: a line past the last reads as the last, whose end is the text's end either way
  while (last + 1 < lines.lineCount && !isBlank(stripMarkers(lines.lineText(last + 1)))) last++;
  const cleaned = clean(lines.text.slice(lines.lineStart(first), at.start));
  const after = clean(lines.text.slice(at.end, lines.lineEnd(last)));
  const result = after === '' ? cleaned : lastSentence(cleaned);
  return result.slice(-2000);
}

function clean(s: string): string {
  return s
    .split(/\r\n|\r|\n/)
    .map(stripMarkers)
    .join(' ')
    .replace(CITATION_MARKS, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function stripMarkers(line: string): string {
  // Stryker disable next-line Regex: the pattern matches at the line's start (empty if need be), so replace() takes that match anchored or not
  const unquoted = line.replace(/^\s*(?:>\s?)*/, '');
  // Stryker disable next-line Regex: blanks left after the marker are collapsed by clean() and blank to isBlank()
  return unquoted.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '');
}

function isBlank(s: string): boolean {
  // Stryker disable next-line MethodExpression: s comes from stripMarkers, which took its leading blanks: trim() or not, only '' is blank
  return s.trim() === '' || /^#{1,6}\s/.test(s) || /^\[\^[^\]]+\]:/.test(s);
}

function lastSentence(s: string): string {
  const body = s.replace(/[\s。！？!?；;]+$/u, '');
  // Stryker disable next-line ArithmeticOperator: a start past the end reads '' there, no sentence end
  let i = body.length - 1;
  while (i >= 0 && !SENTENCE_END.test(body.charAt(i))) i--;
  return s.slice(i + 1).trim();
}

/** The edits that remove a citation: a definition and every reference to its label, or one inline citation. */
export function removeCitationEdits(
  text: string,
  model: DocumentModel,
  use: Pick<SourceUse, 'label' | 'range'>,
): TextEdit[] {
  if (use.label === undefined) return [{ start: use.range.start, end: use.range.end, newText: '' }];
  const lines = new LineIndex(text);
  const edits: TextEdit[] = [];
  for (const r of model.references)
    if (r.ours && r.label === use.label) edits.push({ start: r.range.start, end: r.range.end, newText: '' });
  edits.push(
    ...deleteLines(
      lines,
      model.definitions.filter((d) => d.label === use.label).map((d) => d.line),
    ),
  );
  // In document order, as every batch of edits this folder returns (a definition may stand above its references).
  return normalizeEdits(edits);
}
