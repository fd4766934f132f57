/**
 * A snippet of server text as a Markdown block (each line made safe by `src/text/markdown.ts`): it becomes a blockquote or paragraph that cannot
 * open a heading, list, table, code, HTML or link, and ends with its citation.
 */
import { snippetLine } from '../text/markdown';

/**
 * Formats a snippet block ending with `citation` (a `[^n]` reference or an inline citation).
 * Blank lines separate paragraphs (one blank line kept); a blockquote keeps each line as a `> ` line.
 */
export function formatSnippet(text: string, as: 'blockquote' | 'paragraph', citation: string, eol: string): string {
  const raw = text.split(/\r\n|\r|\n|\u2028|\u2029/).map(snippetLine);
  const lines: string[] = [];
  for (const l of raw) {
    if (l === '' && (lines.length === 0 || lines[lines.length - 1] === '')) continue;
    lines.push(l);
  }
  while (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) lines.push(citation);
  else lines[lines.length - 1] += ` ${citation}`;
  return lines.map((l) => (as === 'blockquote' ? (l === '' ? '>' : `> ${l}`) : l)).join(eol);
}
