/**
 * How a passage reads on one line: its first line, the rest as a snippet, and the citation text a
 * footnote definition names. Pure: no `vscode`.
 */
import type { CitedPassage } from '../citations/passage';
import { keyOf } from './history';

/** `doc_name#chunk_index — kb_name (kb_code)`, as a footnote definition names it. */
export function citationText(p: CitedPassage): string {
  return `${keyOf(p)} — ${p.kbName} (${p.kbCode})`;
}

/** The passage's first non-empty line, cut to `max` characters. */
export function firstLine(content: string, max = 80): string {
  const line =
    content
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The passage after its first line (or after the first `max` characters), on one line, cut to `length`. */
export function snippetRest(content: string, max = 80, length = 160): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  const first = firstLine(content, max).replace(/…$/, '');
  const rest = flat.startsWith(first) ? flat.slice(first.length).trim() : flat;
  return rest.length > length ? `${rest.slice(0, length - 1)}…` : rest;
}
