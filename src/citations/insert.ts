/**
 * Inserting a citation (footnote or inline style), optionally with a cited snippet, as one batch
 * of edits: the cursor spot and, for footnotes, the references section. One parse, linear work.
 */
import { analyze, headingText, type Analysis, type BlockInfo } from './analyze';
import { gluedToUrl, pastBareLink, type CitationKind } from './bareUrl';
import { citationKey, formatDefinition, formatInlineCitation } from './citation';
import { normalizeEdits } from './edits';
import { probeInline } from './parser';
import { inlineMapper, isBlankLine, LineIndex } from './positions';
import { formatSnippet } from './snippet';
import type { CitationOptions, CitationSource, TextEdit } from './types';

/** Options of {@link insertCitation}. */
export interface InsertOptions extends CitationOptions {
  /** `footnote` (default) or `inline`. */
  style?: 'footnote' | 'inline';
  /** Insert a cited snippet (a block) instead of only the citation at the cursor. */
  snippet?: { text: string; as: 'blockquote' | 'paragraph' };
}

/** Why nothing was inserted. */
export type InsertErrorCode =
  'invalid-source' | 'in-code' | 'in-html' | 'in-front-matter' | 'in-references' | 'not-in-text' | 'unclosed-block';

/** Result of {@link insertCitation}. */
export type InsertResult =
  | {
      ok: true;
      /** Sorted, non-overlapping; apply as one WorkspaceEdit (one undo step). */
      edits: TextEdit[];
      /** The footnote label used (footnote style). */
      label?: string;
      /** True when an existing definition of the same source was reused. */
      reused: boolean;
      /** The text written at the cursor spot (reference, inline citation or snippet block). */
      inserted: string;
      /** Offset (in the original text) where `inserted` goes; the cursor may have been moved out of a link, entity… */
      offset: number;
    }
  | { ok: false; error: InsertErrorCode; message: string };

const MESSAGES: Record<InsertErrorCode, string> = {
  'invalid-source': 'The source has no doc_name or a chunk_index that is not a non-negative integer.',
  'in-code': 'The cursor is inside code; a citation there would be plain code text.',
  'in-html': 'The cursor is inside an HTML block; a citation there would not be Markdown.',
  'in-front-matter': 'The cursor is inside the front matter.',
  'in-references': 'The cursor is in the references section heading or one of its citation definitions.',
  'not-in-text': 'Put the cursor in text (a paragraph, heading, list item or table cell) or on an empty line.',
  'unclosed-block':
    'The document ends inside an unclosed code or HTML block; close it before adding a references section.',
};

function fail(error: InsertErrorCode): InsertResult {
  return { ok: false, error, message: MESSAGES[error] };
}

/** `textStart`: where the plain text before `offset` starts (after the last link, code span, autolink… before it). */
type Spot =
  | { ok: true; offset: number; blankLine: boolean; block?: BlockInfo; textStart: number }
  | { ok: false; error: InsertErrorCode };

/** Where a citation can go at (or just after) the cursor. */
function placeCursor(a: Analysis, text: string, cursor: number): Spot {
  const { lines, model } = a;
  // a cursor outside the text needs no clamping: its line is the first or the last, its spot clamped to that line's text
  // between a CR and its LF: before the line break (at or before the start, charCodeAt is NaN)
  let c = cursor;
  if (text.charCodeAt(c - 1) === 0x0d && text.charCodeAt(c) === 0x0a) c--;
  const line = lines.lineAt(c);
  for (const d of model.definitions) if (d.line === line) return { ok: false, error: 'in-references' };
  if (model.referencesSection?.headingLine === line) return { ok: false, error: 'in-references' };
  const here = a.blocks.filter((b) => b.startLine <= line && line < b.endLine);
  const hard = here.find((b) => b.kind !== 'inline');
  if (hard)
    return {
      ok: false,
      error: hard.kind === 'code' ? 'in-code' : hard.kind === 'html' ? 'in-html' : 'in-front-matter',
    };
  if (here.length === 0) {
    // on an empty line: at its start (after indentation it could become indented code)
    if (!isBlankLine(lines.lineText(line)) || insideContainer(a, line)) return { ok: false, error: 'not-in-text' };
    return { ok: true, offset: lines.lineStart(line), blankLine: true, textStart: lines.lineStart(line) };
  }
  // one or more inline blocks (several table cells share a line): find the content spot
  let best: { block: BlockInfo; offset: number; map: (p: number) => number; end: number } | undefined;
  for (const b of here) {
    const map = inlineMapper(lines, b.content!, b.where!);
    const [from, to] = lineSpan(b, lines, line, map);
    const offset = Math.min(Math.max(c, from), to);
    if (!best || Math.abs(offset - c) < Math.abs(best.offset - c)) best = { block: b, offset, map, end: to };
  }
  const { block, map } = best!;
  let offset = best!.offset;
  const spans = probeInline(block.content!).map((s) => ({
    kind: s.kind,
    text: s.rule === 'escape' || s.rule === 'entity',
    start: map(s.start),
    // never empty: a rule that matches moves past what it read
    end: map(s.end - 1) + 1,
  }));
  // Stryker disable next-line EqualityOperator: spans are nested or apart, so a pass after the last that moved the offset moves nothing
  for (let pass = 0; pass < 3; pass++) {
    for (const s of spans) {
      if (s.start < offset && offset < s.end) {
        if (s.kind === 'code') return { ok: false, error: 'in-code' };
        offset = s.end;
      }
    }
  }
  // a construct, not text (an escape, an entity) nor a lone backtick run (text, to every renderer)
  const bound = (s: (typeof spans)[number]): boolean => !s.text && !/^`+$/.test(text.slice(s.start, s.end));
  const textStart = spans.reduce((m, s) => (bound(s) && s.end <= offset ? Math.max(m, s.end) : m), 0);
  // inside a bare URL: after it (up to the next code span, link… or the end of the cell), so the link stays whole
  const from = Math.max(lines.lineStart(line), textStart);
  const to = spans.reduce((m, s) => (bound(s) && s.start >= offset ? Math.min(m, s.start) : m), best!.end);
  offset = from + pastBareLink(text.slice(from, to), offset - from);
  return { ok: true, offset, blankLine: false, block, textStart };
}

/** An empty line between two parts of one list, quote or footnote: text there would end it. */
function insideContainer(a: Analysis, line: number): boolean {
  return a.tops.some(([s, e]) => {
    // past the block's end the loop below finds nothing
    // Stryker disable next-line EqualityOperator: a top-level block's first line holds its text or marker, never an empty line
    if (line <= s) return false;
    for (let l = line + 1; l < e; l++) if (!isBlankLine(a.lines.lineText(l))) return true;
    return false;
  });
}

/** Offsets of the block's content on one source line. */
function lineSpan(b: BlockInfo, lines: LineIndex, line: number, map: (p: number) => number): [number, number] {
  const content = b.content!;
  if (b.where!.kind === 'cell') return [map(0), content.length > 0 ? map(content.length - 1) + 1 : map(0)];
  let k = line - b.where!.firstLine;
  let from = 0;
  while (k > 0) {
    from = content.indexOf('\n', from) + 1;
    // Stryker disable next-line ConditionalExpression,ArrayDeclaration: defensive, an inline token has a content line for each source line it spans
    if (from === 0) return [lines.lineEnd(line), lines.lineEnd(line)];
    k--;
  }
  const nl = content.indexOf('\n', from);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a line before the content's last keeps its trailing blanks, so its end is its source line's (the cursor's line: never passed), and a URL stops at the line break
  const to = nl < 0 ? content.length : nl;
  // map is linear along a line: an empty one (an empty heading's) ends where it starts
  return [map(from), map(to - 1) + 1];
}

/**
 * The edit that puts a definition line in the references section (creating it at the end if missing,
 * one blank line after `written`: the text with the citation or snippet already inserted).
 */
function definitionEdit(
  a: Analysis,
  text: string,
  written: string,
  line: string,
  opts?: CitationOptions,
): TextEdit | InsertErrorCode {
  const { lines, model } = a;
  const eol = model.eol;
  const section = model.referencesSection;
  if (section) {
    // a new label is the highest of ours (nextLabel): after the section's last definition (in document order)
    const { headingLine, endLine } = section;
    // Stryker disable next-line EqualityOperator: the section's first and end lines are headings, never definitions
    const last = model.definitions.filter((d) => d.line > headingLine && d.line < endLine && !d.duplicateLabel).at(-1);
    if (last) {
      const at = lines.lineEnd(last.line);
      return { start: at, end: at, newText: eol + line };
    }
    const at = lines.lineEnd(section.headingLine);
    const after = section.headingLine + 1 < lines.lineCount && !isBlankLine(lines.lineText(section.headingLine + 1));
    return { start: at, end: at, newText: eol + eol + line + (after ? eol : '') };
  }
  if (endsInsideOpenBlock(a, text)) return 'unclosed-block';
  const end = text.length;
  const w = new LineIndex(written);
  const prefix = !/[\r\n]$/.test(written) ? eol + eol : isBlankLine(w.lineText(w.lineCount - 2)) ? '' : eol;
  return { start: end, end, newText: `${prefix}## ${headingText(opts)}${eol}${eol}${line}${eol}` };
}

/** The last block is a fence or raw-HTML block that nothing closes: appended text would fall inside it. */
function endsInsideOpenBlock(a: Analysis, text: string): boolean {
  const last = a.lastBlock;
  if (!last) return false;
  // Stryker disable next-line ConditionalExpression,Regex: a block that stops before the end is closed (a fence by its closing line, raw HTML by its end tag or a blank line), as the checks below find too
  if (last.map[1] < a.lines.lineCount - (/[\r\n]$/.test(text) ? 1 : 0)) return false;
  if (last.type === 'fence') {
    if (last.map[1] - 1 === last.map[0]) return true;
    const closing = a.lines.lineText(last.map[1] - 1).trim();
    const ch = last.markup[0]!;
    return !(closing.length >= last.markup.length && [...closing].every((x) => x === ch));
  }
  if (last.type === 'html_block') {
    const html = text.slice(a.lines.lineStart(last.map[0]));
    // a tag name ends at a blank, `>` or the line's end: `<preview>` ends at a blank line, as any other tag
    const open = /^\s*<(!--|\?|!\[CDATA\[|![A-Za-z]|(?:script|pre|style|textarea)(?=[\s>]|$))/i.exec(html);
    if (!open) return false;
    const closer: Record<string, RegExp> = { '!--': /-->/, '?': /\?>/, '![cdata[': /\]\]>/ };
    const key = open[1]!.toLowerCase();
    // any of the four end tags ends a script, pre, style or textarea block (CommonMark, markdown-it)
    const re = closer[key] ?? (key.startsWith('!') ? />/ : /<\/(?:script|pre|style|textarea)>/i);
    // from the block's start: `<!-->` and `<?>` close themselves, to markdown-it and CommonMark
    return !re.test(html);
  }
  return false;
}

/** Next free label: after our highest number, skipping labels the author uses. */
function nextLabel(a: Analysis): string {
  let n = a.model.definitions.reduce((m, d) => Math.max(m, d.number), 0) + 1;
  // also a label written anywhere as `[^n]`, in code too: markdown-it 12 pairs some backticks
  // differently (after an unclosed `[`) and would read it as a reference to the new footnote
  const taken = new Set([
    ...a.model.authorLabels,
    ...[...a.lines.text.matchAll(/\[\^([^\]\s]+)\]/g)].map((m) => m[1]!),
  ]);
  while (taken.has(String(n))) n++;
  return String(n);
}

function validSource(s: CitationSource): boolean {
  return s.docName.trim() !== '' && Number.isSafeInteger(s.chunkIndex) && s.chunkIndex >= 0;
}

/**
 * Inserts a citation of `source` at `cursorOffset`. Footnote style writes `[^n]` at the cursor and
 * (unless the same source already has a definition, whose number is reused) its definition in the
 * references section, after its last one (a new number is the highest), creating the section at
 * the end when missing. Inline style writes `〔doc#idx〕`. With `snippet`, a blockquote/paragraph
 * ending with the citation is written as its own block: at the cursor on an empty line, else after
 * the paragraph (or table) under the cursor.
 * A cursor inside code, HTML or front matter is an error; a cursor inside a link destination, entity,
 * reference… or a bare URL or e-mail address moves to its end.
 */
export function insertCitation(
  text: string,
  cursorOffset: number,
  source: CitationSource,
  opts: InsertOptions = {},
): InsertResult {
  if (!validSource(source)) return fail('invalid-source');
  const a = analyze(text, opts);
  const spot = placeCursor(a, text, cursorOffset);
  if (!spot.ok) return fail(spot.error);
  const eol = a.model.eol;
  const edits: TextEdit[] = [];
  let label: string | undefined;
  let reused = false;
  let citationText: string;
  let definition: string | undefined;
  if (opts.style === 'inline') citationText = formatInlineCitation(source);
  else {
    const key = citationKey(source);
    const existing = a.model.definitions.find(
      (d) => !d.duplicateLabel && d.citation && citationKey(d.citation) === key,
    );
    reused = existing !== undefined;
    label = existing?.label ?? nextLabel(a);
    citationText = `[^${label}]`;
    if (!existing) definition = formatDefinition(label, source);
  }
  const at = opts.snippet ? snippetSpot(a, spot) : spot.offset;
  const inserted = opts.snippet
    ? blockAt(a, at, formatSnippet(opts.snippet.text, opts.snippet.as, citationText, eol))
    : inlineAt(a, text, spot, citationText, opts.style === 'inline' ? 'inline' : 'reference');
  if (definition !== undefined) {
    // Stryker disable next-line MethodExpression: only the last two lines are read, and what follows the insertion (or the insertion) makes them
    const e = definitionEdit(a, text, text.slice(0, at) + inserted + text.slice(at), definition, opts);
    if (typeof e === 'string') return fail(e);
    edits.push(e);
  }
  // A references section created at the very spot of the insertion (the end of the document):
  // exactly one blank line between what was inserted and its heading.
  const def = edits[0];
  if (def && def.start === at) {
    // Stryker disable next-line Regex: the new section's text starts with its line breaks, so the first match is at its start
    def.newText = def.newText.replace(/^(?:\r?\n)+/, '');
    // Stryker disable next-line Regex: what was inserted ends with one line break at most
    const joined = `${inserted.replace(/(?:\r?\n)+$/, '')}${eol}${eol}`;
    edits.unshift({ start: at, end: at, newText: joined });
    return {
      ok: true,
      edits: normalizeEdits(edits),
      ...(label !== undefined ? { label } : {}),
      reused,
      inserted: joined,
      offset: at,
    };
  }
  edits.unshift({ start: at, end: at, newText: inserted });
  return {
    ok: true,
    edits: normalizeEdits(edits),
    ...(label !== undefined ? { label } : {}),
    reused,
    inserted,
    offset: at,
  };
}

function snippetSpot(a: Analysis, spot: Extract<Spot, { ok: true }>): number {
  if (spot.blankLine) return a.lines.lineStart(a.lines.lineAt(spot.offset));
  const block = spot.block!;
  // a footnote or list item also spans the blank lines after it: go after its last line of text,
  // not onto an indented blank line (text there would continue the footnote or item)
  let last = (block.leafEndLine ?? block.endLine) - 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the block's first line holds text, never blank
  while (last > block.startLine && isBlankLine(a.lines.lineText(last))) last--;
  return a.lines.lineEnd(last);
}

/** A block at `at`, separated from its neighbours by one blank line. */
function blockAt(a: Analysis, at: number, block: string): string {
  const { lines } = a;
  const eol = a.model.eol;
  const line = lines.lineAt(at);
  // `at` ends a line of text or starts an empty one (snippetSpot): only blanks follow it on its line
  let pre = eol + eol;
  if (isBlankLine(lines.text.slice(lines.lineStart(line), at)))
    pre = line === 0 || isBlankLine(lines.lineText(line - 1)) ? '' : eol;
  const post = line + 1 < lines.lineCount && isBlankLine(lines.lineText(line + 1)) ? '' : eol;
  return pre + block + post;
}

/** The citation at the cursor, with the little spacing that keeps it a citation. */
function inlineAt(
  a: Analysis,
  text: string,
  spot: Extract<Spot, { ok: true }>,
  citation: string,
  kind: CitationKind,
): string {
  const at = spot.offset;
  if (spot.blankLine) {
    const line = a.lines.lineAt(at);
    const prevBlank = line === 0 || isBlankLine(a.lines.lineText(line - 1));
    // past the last line lineText reads the last: the empty line the cursor is on
    const nextBlank = isBlankLine(a.lines.lineText(line + 1));
    const eol = a.model.eol;
    const atEnd = at >= text.length;
    return (prevBlank ? '' : eol) + citation + (nextBlank && !atEnd ? '' : eol);
  }
  let backslashes = 0;
  // before the text's start charCodeAt is NaN
  for (let i = at - 1; text.charCodeAt(i) === 0x5c; i--) backslashes++;
  // `\[^1]` would be an escaped bracket, `^[^1]` an inline footnote, `https://a.cn/x[^1]` part of a link,
  // `#[^1]` in an empty heading no heading at all
  const lineStart = a.lines.lineStart(a.lines.lineAt(at));
  // of the blocks of lines, only an ATX heading can be without text (a paragraph or setext heading has some)
  const emptyHeading = spot.block?.where?.kind === 'lines' && spot.block.content === '';
  const pre =
    backslashes % 2 === 1 ||
    text[at - 1] === '^' ||
    emptyHeading ||
    gluedToUrl(text.slice(Math.max(lineStart, spot.textStart), at), kind)
      ? ' '
      : '';
  const next = text[at];
  const post = next === '(' || next === '[' || next === ':' ? ' ' : '';
  return pre + citation + post;
}
