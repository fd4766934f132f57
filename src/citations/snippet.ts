/**
 * Server text made safe for Markdown: a snippet becomes a blockquote or paragraph that cannot
 * open a heading, list, table, code, HTML or link, and ends with its citation.
 */
import { escapeBlockStart } from './citation';
import { showBidi } from '../text/bidi';

/** Escapes characters that would start Markdown or HTML constructs inside a line; bidi controls shown as `<U+202E>`. */
export function escapeSnippetText(s: string): string {
  return showBidi(s)
    .replace(/[\\`*_[\]<>&|~]/g, (c) => `\\${c}`)
    .replace(/〔/g, '&#x3014;')
    .replace(/〕/g, '&#x3015;');
}

/** Escapes one line of a snippet: trimmed (no indented code, no hard breaks), inline escapes, line-start markers. */
export function escapeSnippetLine(line: string): string {
  return escapeBlockStart(escapeSnippetText(line.replace(/[\t\v\f]/g, ' ').trim()));
}

/**
 * Formats a snippet block ending with `citation` (a `[^n]` reference or an inline citation).
 * Blank lines separate paragraphs (one blank line kept); a blockquote keeps each line as a `> ` line.
 */
export function formatSnippet(text: string, as: 'blockquote' | 'paragraph', citation: string, eol: string): string {
  const raw = text.split(/\r\n|\r|\n|\u2028|\u2029/).map(escapeSnippetLine);
  const lines: string[] = [];
  for (const l of raw) {
    if (l === '' && (lines.length === 0 || lines[lines.length - 1] === '')) continue;
    lines.push(l);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) lines.push(citation);
  else lines[lines.length - 1] += ` ${citation}`;
  return lines.map((l) => (as === 'blockquote' ? (l === '' ? '>' : `> ${l}`) : l)).join(eol);
}
