/**
 * Offsets ↔ 0-based line/character, and mapping positions inside a markdown-it inline token's
 * content back to document offsets.
 */
import type { Position, SourceRange } from './types';

/**
 * A blank line as Markdown sees it: nothing but spaces and tabs. A line holding an ideographic space
 * (U+3000) or another Unicode blank is text (it continues a paragraph), though JavaScript's trim()
 * would empty it.
 */
export function isBlankLine(s: string): boolean {
  return /^[ \t\r]*$/.test(s);
}

/** Line starts of a text (LF, CRLF or CR line breaks — the parser sees the same lines). */
export class LineIndex {
  readonly starts: number[] = [0];

  constructor(readonly text: string) {
    // Stryker disable next-line EqualityOperator: at the text's end charCodeAt is NaN, no line break
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a) this.starts.push(i + 1);
      else if (c === 0x0d) {
        if (text.charCodeAt(i + 1) === 0x0a) i++;
        this.starts.push(i + 1);
      }
    }
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Offset of the first character of `line`. */
  lineStart(line: number): number {
    return this.starts[Math.min(Math.max(line, 0), this.starts.length - 1)]!;
  }

  /** Offset just after the last character of `line`, before its line break. */
  lineEnd(line: number): number {
    if (line + 1 >= this.starts.length) return this.text.length;
    const next = this.starts[line + 1]!;
    return this.text.charCodeAt(next - 2) === 0x0d && this.text.charCodeAt(next - 1) === 0x0a ? next - 2 : next - 1;
  }

  /** The text of `line` without its line break. */
  lineText(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  lineAt(offset: number): number {
    let lo = 0;
    // Stryker disable next-line ArithmeticOperator: a start past the last is undefined, never <= offset: the search comes back to the last line
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  positionAt(offset: number): Position {
    const line = this.lineAt(offset);
    return { line, character: offset - this.starts[line]! };
  }

  offsetAt(p: Position): number {
    const start = this.lineStart(p.line);
    return Math.min(start + Math.max(p.character, 0), this.lineEnd(p.line));
  }

  range(start: number, end: number): SourceRange {
    const a = this.positionAt(start);
    const b = this.positionAt(end);
    return { start, end, line: a.line, character: a.character, endLine: b.line, endCharacter: b.character };
  }
}

/** How an inline token's content sits in its source lines. */
export type InlineKind =
  | { kind: 'lines'; firstLine: number; atx: boolean }
  /** `start`: the document offset where the row's text starts on `line` (after its list or quote markers). */
  | { kind: 'cell'; line: number; start: number; cell: number };

/**
 * Builds a function mapping an offset in an inline token's `content` to a document offset.
 * Paragraph lines are suffixes of their source lines (markdown-it strips only container
 * markers and indentation, and trims the ends), so each content line is anchored at its end, an
 * ATX heading's before its closing `#` marks; a table cell is located among the row's cells (split
 * at unescaped `|`, as the parser does, `\|` becoming `|`).
 */
export function inlineMapper(lines: LineIndex, content: string, where: InlineKind): (p: number) => number {
  if (where.kind === 'cell') return cellMapper(lines, content, where.line, where.start, where.cell);
  const contentLineStarts = [0];
  // Stryker disable next-line EqualityOperator: the content is trimmed, so a line break is never its first character
  for (let i = content.indexOf('\n'); i >= 0; i = content.indexOf('\n', i + 1)) contentLineStarts.push(i + 1);
  const anchors: number[] = [];
  const anchor = (k: number): number => {
    const cached = anchors[k];
    // Stryker disable next-line ConditionalExpression: a cache; the anchor computed again is the same
    if (cached !== undefined) return cached;
    const line = where.firstLine + k;
    const cStart = contentLineStarts[k]!;
    const cEnd = k + 1 < contentLineStarts.length ? contentLineStarts[k + 1]! - 1 : content.length;
    const cl = content.slice(cStart, cEnd);
    // the parser saw CRLF as ` \n` (see normalizeForParser): the space is part of its line
    const lineEnd = lines.lineEnd(line);
    const src = lines.lineText(line) + (lines.text.startsWith('\r\n', lineEnd) ? ' ' : '');
    const base = lines.lineStart(line);
    let endInSrc: number;
    if (where.atx) {
      // the text ends where the parser ends it: before the blanks ending the line and a closing `#`
      // run after a blank (in an empty heading, a run after the opening one: `> ##` has none). Looked
      // for from the line's start, it could be found in a list or quote marker (`1. # 1`)
      const s = src.replace(/[ \t]+$/, '');
      const closing = /[ \t]+#+$/.exec(s);
      endInSrc = closing && (cl !== '' || s[closing.index - 1] === '#') ? closing.index : s.length;
    } else {
      // a content line is its source line's end (a NUL read as U+FFFD, of the same length), the
      // last one without the blanks the parser trims (spaces and tabs: an ideographic space stays)
      endInSrc = k === contentLineStarts.length - 1 ? src.replace(/[ \t]+$/, '').length : src.length;
    }
    // offset of content line start: anchored at the end of the line
    const a = base + endInSrc - cl.length;
    anchors[k] = a;
    return a;
  };
  return (p) => {
    let lo = 0;
    // Stryker disable next-line ArithmeticOperator: a start past the last is undefined, never <= p: the search comes back to the last line
    let hi = contentLineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (contentLineStarts[mid]! <= p) lo = mid;
      else hi = mid - 1;
    }
    return anchor(lo) + (p - contentLineStarts[lo]!);
  };
}

function isJsSpace(ch: string): boolean {
  return ch.trim() === '';
}

function cellMapper(
  lines: LineIndex,
  content: string,
  line: number,
  base: number,
  cell: number,
): (p: number) => number {
  const src = lines.text.slice(base, lines.lineEnd(line));
  // each cell's characters, as markdown-it's escaped split produces them, and the offset of the pipe
  // closing it (or the row's end); the parser trims the row as JavaScript does: an ideographic space
  // opening it is no cell text, and blanks ending it are in the last cell, after its text
  const cells: { chars: number[]; end: number }[] = [];
  let chars: number[] = [];
  let escaped = false;
  for (let i = src.length - src.trimStart().length; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 0x7c) {
      if (!escaped) {
        cells.push({ chars, end: i });
        chars = [];
      } else {
        chars[chars.length - 1] = i;
      }
    } else {
      chars.push(i);
    }
    escaped = c === 0x5c;
  }
  // the last cell is pushed after the loop: there is a first one. An empty one after the closing pipe,
  // which the parser drops, is left in: a cell the row lacks is at the row's end, as any other it lacks
  cells.push({ chars, end: src.length });
  if (cells[0]!.chars.length === 0) cells.shift();
  const mine = cells[cell] ?? { chars: [], end: src.length };
  let last = mine.chars.length;
  while (last > 0 && isJsSpace(src[mine.chars[last - 1]!]!)) last--;
  // the content is the cell's text without the blanks around it: its end is just after its last
  // character (an empty cell's is just before the pipe closing it)
  return (p) => base + (mine.chars[last - (content.length - p)] ?? mine.end);
}
