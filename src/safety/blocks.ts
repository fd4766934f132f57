/**
 * A bulletin cut into the blocks the lint reads, line by line and without a Markdown parser (the
 * lint must cost less than a parse): headings, paragraphs, list items, table rows and quotes, each
 * with the headings above it. Code (fenced or indented) and the front matter are not prose and are
 * left out. Pure.
 */

import { closesFence, fenceOf, indentedAsCode } from '../text/lines';

/** A block: its text as written, where it starts, and the headings it sits under (outermost first). */
export interface Block {
  start: number;
  text: string;
  headings: readonly string[];
  heading: boolean;
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$/;
/** A line that starts a block of its own even without a blank line before it. */
const STARTS_BLOCK = /^\s*(?:[-*+]|\d{1,9}[.)])[ \t]|^\s*\||^ {0,3}>/;
const TABLE_ROW = /^\s*\|/;

/** The blocks of `text` (whose front matter, if any, is already blanked). */
export function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  const headings: string[] = [];
  let fence: string | undefined;
  let open: { start: number; end: number; table: boolean } | undefined;
  const close = (): void => {
    if (open)
      blocks.push({
        start: open.start,
        text: text.slice(open.start, open.end),
        headings: headings.filter(Boolean),
        heading: false,
      });
    open = undefined;
  };
  let pos = 0;
  // Stryker disable next-line EqualityOperator: the empty line after a final line break changes no block
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a line never starts right after a \r
    const lineEnd = end > pos && text[end - 1] === '\r' ? end - 1 : end;
    const line = text.slice(pos, lineEnd);
    // Stryker disable next-line ConditionalExpression: read only outside a fence; inside one, closesFence reads the line
    const opens = fence === undefined ? fenceOf(line) : undefined;
    if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
    } else if (opens !== undefined) {
      close();
      fence = opens;
    } else if (line.trim() === '') close();
    else {
      const h = HEADING.exec(line);
      if (h) {
        close();
        const level = h[1]!.length;
        headings.length = Math.min(headings.length, level - 1);
        while (headings.length < level - 1) headings.push('');
        blocks.push({ start: pos, text: line, headings: headings.filter(Boolean), heading: true });
        headings.push(h[2]!);
      } else if (!open && indentedAsCode(line)) {
        // indented code: not prose
      } else {
        if (open && (STARTS_BLOCK.test(line) || open.table)) close();
        if (open) open.end = lineEnd;
        else open = { start: pos, end: lineEnd, table: TABLE_ROW.test(line) };
      }
    }
    if (nl === -1) break;
    pos = nl + 1;
  }
  close();
  return blocks;
}
