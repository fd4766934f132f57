/**
 * A starting query from the editor: the selection, or the sentence (or clause) around the cursor in
 * a Markdown document, with the Markdown syntax, footnote references and inline citations removed.
 */

import { FRONT_MATTER } from '../bulletin/frontMatter';

/** Options of {@link queryFromContext}. */
export interface ContextOptions {
  /** End of the selection; a selection is used when it is not empty (either direction). */
  readonly selectionEnd?: number;
  /** Longest query returned, in characters (default 60). */
  readonly maxLength?: number;
}

/** The starting query and where it came from. */
export interface ContextQuery {
  readonly query: string;
  readonly source: 'selection' | 'cursor' | 'none';
}

/** Sentence ends; `\n` marks a block boundary produced by the cleaner. */
const SENTENCE_END = /[。！？!?；;\n]/;
/** Clause separators inside a sentence. */
const CLAUSE_END = /[，,、：:]/;
const TRIM_CHARS = /^[\s，,、：:。！？!?；;.「」『』“”"'《》—-]+|[\s，,、：:。！？!?；;.「」『』“”"'《》—-]+$/g;
/** A line that starts a Markdown block of its own (so it is not a soft-wrapped continuation). */
const BLOCK_START = /^\s{0,3}(#{1,6}\s|>|[-*+]\s|\d+[.)]\s|\[\^[^\]]+\]:|\|)/;
/** Lines that end a paragraph: blank, fences, thematic breaks, setext underlines, front matter fences. */
const PARAGRAPH_BREAK = /^\s*$|^\s{0,3}(```|~~~)|^\s{0,3}([-*_=])(\s*\2){2,}\s*$/;
const LINE_PREFIX = /^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+(\[[ xX]\]\s+)?|\[\^[^\]\s]+\]:\s*)/;

interface Rule {
  readonly re: RegExp;
  /** Index of the capture group kept, or 'drop' to remove the match, or 'break' to end a clause. */
  readonly keep: number | 'drop' | 'break';
}

/** Inline rules, tried at every position in order (sticky regexes with group indices). */
const RULES: readonly Rule[] = [
  { re: /<!--.*?-->/dy, keep: 'drop' },
  { re: /\\([\\`*_{}[\]()#+\-.!|~])/dy, keep: 1 },
  { re: /!\[([^\]]*)\]\([^)]*\)/dy, keep: 1 },
  { re: /\[\^[^\]\s]+\]/dy, keep: 'drop' },
  { re: /\[([^\]]+)\]\([^)]*\)/dy, keep: 1 },
  { re: /\[([^\]]+)\]\[[^\]]*\]/dy, keep: 1 },
  { re: /〔[^〕\n]*〕/dy, keep: 'drop' },
  { re: /<(?:https?|mailto):[^>\s]*>/dy, keep: 'drop' },
  { re: /<\/?[A-Za-z][^>]*>/dy, keep: 'drop' },
  { re: /https?:\/\/[^\s)）]+/dy, keep: 'drop' },
  { re: /`+([^`]+)`+/dy, keep: 1 },
  { re: /\*{1,3}|_{2,3}|~~|==/dy, keep: 'drop' },
  { re: /\s+#+\s*$/dy, keep: 'drop' },
  { re: /\|/dy, keep: 'break' },
];

/**
 * Builds a starting query: the selection when there is one, else the sentence around `offset`
 * (narrowed to its clause, then to a window around the cursor, when longer than `maxLength`).
 * Pure: `text` is the whole document, `offset` a UTF-16 offset into it.
 */
export function queryFromContext(text: string, offset: number, options: ContextOptions = {}): ContextQuery {
  const maxLength = Math.max(1, options.maxLength ?? 60);
  const cursor = clamp(offset, 0, text.length);
  const end = clamp(options.selectionEnd ?? cursor, 0, text.length);
  if (end !== cursor) {
    const [from, to] = cursor < end ? [cursor, end] : [end, cursor];
    const cleaned = cleanMarkdown(text, from, to).text.replace(/\n/g, ' ');
    const query = tidy(truncate(tidy(cleaned), maxLength));
    return query === '' ? { query, source: 'none' } : { query, source: 'selection' };
  }
  const frontMatterEnd = frontMatterLength(text);
  if (cursor < frontMatterEnd) return { query: '', source: 'none' };
  const [from, to] = paragraphAround(text, cursor);
  const { text: clean, origins } = cleanMarkdown(text, from, to);
  let pos = 0;
  while (pos < origins.length && (origins[pos] ?? 0) < cursor) pos++;
  // Lean left when the cursor sits at the end, on a boundary, or right after a sentence's end
  // (the sentence just written), but not at the start of a line that follows one: a block's
  // boundary (`\n`, at the line break) is not a sentence the author just ended.
  const at = clean[pos] ?? '';
  const before = clean[pos - 1] ?? '';
  const leanLeft =
    pos === clean.length ||
    /\s/.test(at) ||
    SENTENCE_END.test(at) ||
    (before !== '\n' && SENTENCE_END.test(before) && origins[pos - 1] === cursor - 1);
  if (pos > 0 && leanLeft) pos--;

  let [s, e] = segmentAround(clean, pos, 0, clean.length, SENTENCE_END);
  if (tidy(clean.slice(s, e)).length > maxLength) [s, e] = segmentAround(clean, pos, s, e, CLAUSE_END);
  let query = tidy(clean.slice(s, e));
  if (query.length > maxLength) query = tidy(windowAround(clean.slice(s, e), pos - s, maxLength));
  return query === '' ? { query, source: 'none' } : { query, source: 'cursor' };
}

/**
 * Removes Markdown syntax from `text[from, to)`: block prefixes (headings, quotes, list and task
 * markers, footnote labels), emphasis, code ticks, links (their text kept), images (alt kept),
 * footnote references, inline citations, HTML, URLs. Returns the text and, per character, its
 * offset in `text`. Block boundaries become `\n`; soft line wraps are joined.
 */
export function cleanMarkdown(text: string, from = 0, to = text.length): { text: string; origins: number[] } {
  const out: string[] = [];
  const origins: number[] = [];
  const emit = (ch: string, origin: number): void => {
    out.push(ch);
    origins.push(origin);
  };
  let lineStart = from;
  let first = true;
  let previous = '';
  while (lineStart <= to) {
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl === -1 || nl > to ? to : nl;
    const line = text.slice(lineStart, lineEnd);
    if (!first) {
      const quoteContinues =
        /^\s{0,3}>/.test(line) && /^\s{0,3}>/.test(previous) && !BLOCK_START.test(line.replace(/^\s{0,3}>\s?/, ''));
      if ((BLOCK_START.test(line) && !quoteContinues) || PARAGRAPH_BREAK.test(line)) emit('\n', lineStart - 1);
      else if (/[A-Za-z0-9.,;:!?]/.test(out[out.length - 1] ?? '') && /^\s*[A-Za-z0-9]/.test(line))
        emit(' ', lineStart - 1);
    }
    first = false;
    if (!PARAGRAPH_BREAK.test(line)) {
      const prefix = LINE_PREFIX.exec(line);
      cleanLine(line, prefix ? prefix[0].length : 0, lineStart, emit);
    }
    if (lineEnd >= to) break;
    previous = line;
    lineStart = lineEnd + 1;
  }
  return { text: out.join(''), origins };
}

function cleanLine(line: string, start: number, base: number, emit: (ch: string, origin: number) => void): void {
  let i = start;
  outer: while (i < line.length) {
    for (const rule of RULES) {
      rule.re.lastIndex = i;
      const m = rule.re.exec(line);
      if (!m || m[0].length === 0) continue;
      if (rule.keep === 'break') emit('\n', base + i);
      else if (rule.keep !== 'drop') {
        const span = m.indices?.[rule.keep];
        const kept = m[rule.keep] ?? '';
        for (let k = 0; k < kept.length; k++) emit(kept[k] ?? '', base + (span ? span[0] : i) + k);
      }
      i += m[0].length;
      continue outer;
    }
    emit(line[i] ?? '', base + i);
    i++;
  }
}

/** Length of a leading YAML front matter block (`---` … `---`), or 0. */
function frontMatterLength(text: string): number {
  return FRONT_MATTER.exec(text)?.[0].length ?? 0;
}

/** The lines around `offset` up to the paragraph's breaks: [start, end) in `text`. */
function paragraphAround(text: string, offset: number): [number, number] {
  let start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = text.indexOf('\n', offset);
  if (end === -1) end = text.length;
  if (PARAGRAPH_BREAK.test(text.slice(start, end))) return [start, end];
  while (start > 0) {
    const prevStart = text.lastIndexOf('\n', start - 2) + 1;
    if (PARAGRAPH_BREAK.test(text.slice(prevStart, start - 1))) break;
    start = prevStart;
  }
  while (end < text.length) {
    let nextEnd = text.indexOf('\n', end + 1);
    if (nextEnd === -1) nextEnd = text.length;
    if (PARAGRAPH_BREAK.test(text.slice(end + 1, nextEnd))) break;
    end = nextEnd;
  }
  return [start, end];
}

/** The [start, end) of the segment of `s[lo, hi)` holding index `i`, between `sep` characters. */
function segmentAround(s: string, i: number, lo: number, hi: number, sep: RegExp): [number, number] {
  let start = Math.min(i, hi);
  // A separator at i closes the segment before it.
  if (start < hi && sep.test(s[start] ?? '')) start--;
  while (start > lo && !sep.test(s[start - 1] ?? '')) start--;
  let end = Math.max(i, start);
  while (end < hi && !sep.test(s[end] ?? '')) end++;
  return [start, end];
}

function windowAround(s: string, i: number, max: number): string {
  const start = clamp(i - Math.floor(max / 2), 0, Math.max(0, s.length - max));
  return s.slice(start, start + max);
}

function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  // Prefer not to cut a Latin word in half.
  const space = cut.lastIndexOf(' ');
  return /[A-Za-z0-9]/.test(s[max] ?? '') && space > max / 2 ? cut.slice(0, space) : cut;
}

function tidy(s: string): string {
  return s.replace(/\s+/g, ' ').replace(TRIM_CHARS, '').trim();
}

function clamp(n: number, lo: number, hi: number): number {
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, Math.trunc(n))) : lo;
}
