/**
 * Where the quick fix "Silence this finding" writes its comment (silence.ts), so that the bulletin
 * renders as before (markdown-it, which the preview and the exports use): the comment goes on a line
 * of its own above the finding's line, in the same containers, and splits no paragraph, list or quote.
 * - Above a block's first line (a paragraph, a heading): with that line's quote markers and indentation.
 * - Above a list item: at the text's column of the item above it in the same list (the comment ends
 *   that item, invisibly), or at the item's own marker when it opens its list.
 * - Above a line that continues a paragraph (lazily or not): in the paragraph's quotes, four columns
 *   deeper than its text, so that it continues the paragraph too (a comment line at most three
 *   columns in would end it).
 * - Above a line that already has a directive for other rules: the rule is added to it.
 * - A table's body row: nowhere (a comment line would end the table).
 * Pure; the line ends are the caller's.
 */
import { frontMatter } from '../bulletin/frontMatter';
import { fenceOf } from '../text/lines';
import { commentFor, directiveWords, isBlankLine, linesOf, QUOTE_PREFIX, silencesIn, silences } from './silence';

/** The quick fix's edit: a new line inserted before `line`, or `line` (a directive) rewritten. */
export interface SilenceEdit {
  line: number;
  /** The line's text, without a line end. */
  text: string;
  /** Whether `line` is replaced (a directive extended) rather than a line inserted before it. */
  replace: boolean;
}

const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)/;
const EMPTY_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]*$/;
/** A footnote definition, which holds its text four columns in. */
const FOOTNOTE = /^([ ]{0,3})\[\^[^\]\s]+\]:/;
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
/** Lines that are blocks of their own: headings, HTML, thematic breaks and setext underlines. */
const OWN_BLOCK = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|<(?:!--|\/?[A-Za-z])|(?:[-*_][ \t]*){3,}$|=+[ \t]*$)/;

/**
 * The edit that silences the finding of `rule` (none: every safety finding) on `line`; undefined
 * when the line is already silenced for it, or is a table's body row.
 */
export function silenceEdit(markdown: string, line: number, rule?: string): SilenceEdit | undefined {
  const ruleId = rule || undefined;
  const lines = linesOf(frontMatter(markdown).blanked);
  const target = lines[line];
  if (target === undefined) return undefined;
  const existing = silencesIn(markdown).find((s) => s.line === line);
  if (existing) {
    if (existing.rules === 'all' || (ruleId !== undefined && silences(existing, ruleId))) return undefined;
    return extend(lines, existing.at, ruleId === undefined ? [] : [...existing.rules, ruleId]);
  }
  const at = standing(lines, line);
  if (at === 'table') return undefined;
  const comment = commentFor(ruleId === undefined ? [] : [ruleId]);
  if (at !== 'starts') {
    const first = lines[at]!;
    return { line, text: quoteOf(first) + spaces(contentColumn(restOf(first)) + 4) + comment, replace: false };
  }
  const rest = restOf(target);
  const column = LIST_ITEM.test(rest) ? spaces(itemColumn(lines, line)) : indentOf(rest);
  return { line, text: quoteOf(target) + column + comment, replace: false };
}

/** The directive on line `at` with these rule ids (none: every finding), its quote markers and indentation kept. */
function extend(lines: readonly string[], at: number, ruleIds: readonly string[]): SilenceEdit {
  const old = lines[at]!;
  return { line: at, text: old.slice(0, old.indexOf('<!--')) + commentFor(ruleIds), replace: true };
}

/**
 * How a line stands: in a table's body, continuing a paragraph (then the paragraph's first line), or
 * starting a block. An ordered item numbered other than 1 does not interrupt a paragraph (it
 * continues it) unless it is a sibling of the item the paragraph is in; nothing continues indented code.
 */
function standing(lines: readonly string[], line: number): 'table' | 'starts' | number {
  const above = lines[line - 1];
  if (above === undefined || !paragraphText(above)) return 'starts';
  const target = lines[line]!;
  const rest = restOf(target);
  const item = LIST_ITEM.exec(rest);
  const interrupts =
    !paragraphText(target) ||
    FOOTNOTE.test(rest) ||
    (item !== null && (!/^\d/.test(item[2]!) || Number.parseInt(item[2]!, 10) === 1));
  if (inTable(lines, line - 1)) return interrupts || depth(target) > depth(above) ? 'starts' : 'table';
  if (interrupts || headerRow(lines, line)) return 'starts';
  let first = paragraphStart(lines, line - 1);
  // after a table (a delimiter row under a row with a `|`), the paragraph starts at the first line without one
  for (let j = first + 1; j < line; j++) {
    const row = restOf(lines[j]!);
    if (!row.includes('|') || !DELIMITER_ROW.test(row) || !restOf(lines[j - 1]!).includes('|')) continue;
    while (j < line && restOf(lines[j]!).includes('|')) j++;
    first = j;
  }
  if (isCode(lines, first)) {
    // the paragraph starts after the code, at the first line less indented
    while (first < line && width(indentOf(restOf(lines[first]!))) >= 4) first++;
    if (first === line) return 'starts';
  }
  if (depth(target) > depth(lines[first]!)) return 'starts';
  if (item && contentColumn(restOf(lines[first]!)) > width(item[1]!)) return 'starts';
  return first;
}

/** Whether a line can be a line of a paragraph: not blank, and not a block of its own. */
function paragraphText(line: string): boolean {
  const rest = restOf(line);
  return (
    rest.trim() !== '' &&
    !OWN_BLOCK.test(rest) &&
    fenceOf(rest) === undefined &&
    directiveWords(line) === undefined &&
    !EMPTY_ITEM.test(rest)
  );
}

/**
 * The first line of the paragraph that line `last` is a line of: read forward from the last line that
 * is not paragraph text, a paragraph starts at a list item or footnote, or at a quote deeper than
 * the paragraph's own (a line with fewer `>` is a lazy line of it).
 */
function paragraphStart(lines: readonly string[], last: number): number {
  let k = last;
  while (k > 0 && paragraphText(lines[k - 1]!)) k--;
  let first = k;
  for (let j = k + 1; j <= last; j++)
    if (depth(lines[j]!) > depth(lines[first]!) || opensContainer(restOf(lines[j]!))) first = j;
  return first;
}

function opensContainer(rest: string): boolean {
  return LIST_ITEM.test(rest) || FOOTNOTE.test(rest);
}

/** Whether line `k` is in a table (under its delimiter row, every row with a `|`). */
function inTable(lines: readonly string[], k: number): boolean {
  for (let j = k; j >= 1; j--) {
    const rest = restOf(lines[j]!);
    if (!rest.includes('|')) return false;
    if (DELIMITER_ROW.test(rest) && restOf(lines[j - 1]!).includes('|')) return true;
  }
  return false;
}

/** Whether a line is a table's header row (its delimiter row under it). */
function headerRow(lines: readonly string[], line: number): boolean {
  const next = restOf(lines[line + 1] ?? '');
  return restOf(lines[line]!).includes('|') && next.includes('|') && DELIMITER_ROW.test(next);
}

/** Whether a paragraph's first line is in fact indented code: four columns in, and not within a list item. */
function isCode(lines: readonly string[], first: number): boolean {
  const rest = restOf(lines[first]!);
  const column = width(indentOf(rest));
  if (column < 4 || opensContainer(rest)) return false;
  for (let k = first - 1; k >= 0; k--) {
    if (depth(lines[k]!) !== depth(lines[first]!)) return true; // a quote between: no item above holds it
    const r = restOf(lines[k]!);
    if (r.trim() === '' || width(indentOf(r)) >= column) continue;
    const content = contentColumn(r);
    return !(opensContainer(r) && content <= column && column < content + 4);
  }
  return true;
}

/**
 * The column of a comment above a list item: the text's column of the item above it in the same
 * list, or the item's own marker's when it opens its list (after a paragraph, another kind of list,
 * or as the first item inside another item).
 */
function itemColumn(lines: readonly string[], line: number): number {
  const target = lines[line]!;
  const item = LIST_ITEM.exec(restOf(target))!;
  const marker = width(item[1]!);
  for (let k = line - 1; k >= 0; k--) {
    const l = lines[k]!;
    if (depth(l) !== depth(target)) return marker;
    if (isBlankLine(l)) continue;
    const rest = restOf(l);
    const above = LIST_ITEM.exec(rest);
    if (above) {
      const content = contentColumn(rest);
      if (content <= marker) return marker; // the first item inside this one
      if (width(above[1]!) > marker && nested(lines, k)) continue; // in a list inside an item above
      return sameKind(above[2]!, item[2]!) ? content : marker; // another kind of list: this one opens a list
    }
    if (width(indentOf(rest)) > marker) continue;
    // a line no deeper than the marker: a lazy line of an item above, or a block before the list
    if (!paragraphText(l)) return marker;
    const first = paragraphStart(lines, k);
    const start = restOf(lines[first]!);
    if (first === k || (!LIST_ITEM.test(start) && width(indentOf(start)) <= marker)) return marker;
    k = first + 1;
  }
  return marker;
}

/** Whether the list item on line `k` is inside another item: the nearest line above less indented is one that holds it. */
function nested(lines: readonly string[], k: number): boolean {
  const column = width(indentOf(restOf(lines[k]!)));
  for (let j = k - 1; j >= 0; j--) {
    const rest = restOf(lines[j]!);
    if (depth(lines[j]!) !== depth(lines[k]!)) return false;
    if (rest.trim() === '' || width(indentOf(rest)) >= column) continue;
    if (LIST_ITEM.test(rest)) return contentColumn(rest) <= column;
    // a lazy line: on from its paragraph's first line
    const first = paragraphText(lines[j]!) ? paragraphStart(lines, j) : j;
    if (first === j) return false;
    j = first + 1;
  }
  return false;
}

/** Whether two list markers belong to one list: the same bullet, or numbers with the same delimiter. */
function sameKind(a: string, b: string): boolean {
  return /^\d/.test(a) && /^\d/.test(b) ? a.slice(-1) === b.slice(-1) : a === b;
}

/** The column of a line's text (after its list marker, if it opens an item; a footnote's, four in), within its quote. */
function contentColumn(rest: string): number {
  const note = FOOTNOTE.exec(rest);
  if (note) return note[1]!.length + 4;
  const item = LIST_ITEM.exec(rest);
  if (!item) return width(indentOf(rest));
  const marker = width(item[1]!) + item[2]!.length;
  const gap = width(item[1]! + item[2]! + item[3]!) - marker;
  // CommonMark: more than four columns after the marker is code in the item, its text one column in
  return marker + (gap >= 1 && gap <= 4 ? gap : 1);
}

function quoteOf(line: string): string {
  return QUOTE_PREFIX.exec(line)![0];
}

function restOf(line: string): string {
  return line.slice(quoteOf(line).length);
}

function depth(line: string): number {
  return (quoteOf(line).match(/>/g) ?? []).length;
}

function indentOf(rest: string): string {
  return /^[ \t]*/.exec(rest)![0];
}

/** The columns of leading whitespace, a tab to the next multiple of four. */
function width(ws: string): number {
  let col = 0;
  for (const c of ws) col = c === '\t' ? col + 4 - (col % 4) : col + 1;
  return col;
}

function spaces(n: number): string {
  return ' '.repeat(n);
}
