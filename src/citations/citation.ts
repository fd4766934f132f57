/**
 * The citation text format (DESIGN.md, "Citation format"): `doc_name#chunk_index`, the footnote
 * definition `[^n]: doc#idx — kb_name (kb_code)` and the inline form `〔doc#idx〕`.
 * These functions work on strings only (the escaping is `src/text/markdown.ts`'s); where the text sits in a document is `analyze.ts`'s job
 * (the definition's body is located by the Markdown parser first, then read here).
 */
import { readBidiReference } from '../text/bidi';
import { definitionName, definitionText, inlineName } from '../text/markdown';
import type { Citation, CitationSource } from './types';

/** Why a `doc#idx` cannot be read. */
export type CitationFailure = 'missing-hash' | 'empty-doc-name' | 'bad-chunk-index';

/**
 * Result of {@link parseCitation}. A failure names the text it is about in `subject` (the whole
 * citation, or the chunk index that is not one), so the UI can word it in the user's language;
 * `message` is its English sentence (the CLI's, and the default).
 */
export type ParseCitationResult =
  { ok: true; citation: Citation } | { ok: false; error: CitationFailure; subject: string; message: string };

const CHUNK_RE = /^(?:0|[1-9][0-9]*)$/;
const DEF_SEPARATOR = ' — ';

/**
 * Parses `doc_name#chunk_index` (doc_name unescaped), splitting at the LAST `#`.
 * The chunk index must be a canonical non-negative integer (`0`, `7`, not `07` or `-1`).
 */
export function parseCitation(s: string): ParseCitationResult {
  const hash = s.lastIndexOf('#');
  if (hash < 0) return { ok: false, error: 'missing-hash', subject: s, message: `"${s}" has no "#<chunk_index>"` };
  return citationOf(s, s.slice(0, hash), s.slice(hash + 1));
}

/** The citation of `whole`, split into its doc name and its chunk index as written. */
function citationOf(whole: string, docName: string, idx: string): ParseCitationResult {
  if (docName.trim() === '')
    return { ok: false, error: 'empty-doc-name', subject: whole, message: `"${whole}" has an empty doc_name` };
  if (!CHUNK_RE.test(idx) || !Number.isSafeInteger(Number(idx))) {
    return {
      ok: false,
      error: 'bad-chunk-index',
      subject: idx,
      message: `"${idx}" is not a non-negative integer chunk_index`,
    };
  }
  return { ok: true, citation: { docName, chunkIndex: Number(idx) } };
}

/** `doc#idx` with the doc name as is (for messages, cache keys, hovers). */
export function citationKey(c: Citation): string {
  return `${c.docName}#${c.chunkIndex}`;
}

/** Formats `doc#idx` for a footnote definition (doc_name escaped). */
export function formatCitation(c: Citation): string {
  return `${definitionName(c.docName)}#${c.chunkIndex}`;
}

/** The body of our definition (after `[^n]: `). */
export function formatDefinitionBody(s: CitationSource): string {
  return `${formatCitation(s)}${DEF_SEPARATOR}${definitionText(s.kbName)} (${definitionText(s.kbCode)})`;
}

/** A whole definition line (without line break): `[^n]: doc#idx — kb (code)`. */
export function formatDefinition(label: string, s: CitationSource): string {
  return `[^${label}]: ${formatDefinitionBody(s)}`;
}

/** The inline style: `〔doc#idx〕`. */
export function formatInlineCitation(c: Citation): string {
  return `〔${inlineName(c.docName)}#${c.chunkIndex}〕`;
}

function isAsciiPunct(code: number): boolean {
  return (
    (code >= 0x21 && code <= 0x2f) ||
    (code >= 0x3a && code <= 0x40) ||
    (code >= 0x5b && code <= 0x60) ||
    (code >= 0x7b && code <= 0x7e)
  );
}

/** The character reference the escaper writes at `i` (a leading blank, a backtick, `〔`, `〕`, a bidi control): the character and the length read. */
function referenceAt(raw: string, i: number): readonly [string, number] | undefined {
  for (const [ref, ch] of [
    ['&#32;', ' '],
    ['&#96;', '`'],
    ['&#x3014;', '〔'],
    ['&#x3015;', '〕'],
  ] as const)
    if (raw.startsWith(ref, i)) return [ch, ref.length];
  return readBidiReference(raw, i);
}

/**
 * Walks raw Markdown text as it reads: `visit(ch, at, plain)` for each character it stands for. A
 * CommonMark backslash escape, or a character reference the escaper writes, is the one character it
 * stands for (`plain` false), at the position of its first written character; anything else is itself.
 */
function readRaw(raw: string, visit: (ch: string, at: number, plain: boolean) => void): void {
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    const read =
      code === 0x26
        ? referenceAt(raw, i)
        : code === 0x5c && isAsciiPunct(raw.charCodeAt(i + 1))
          ? ([raw[i + 1]!, 2] as const)
          : undefined;
    if (read) {
      visit(read[0], i, false);
      i += read[1] - 1;
    } else visit(raw[i]!, i, true);
  }
}

/** Removes CommonMark backslash escapes and the character references we write (see {@link readRaw}). */
export function unescapeMarkdown(raw: string): string {
  let out = '';
  readRaw(raw, (ch) => {
    out += ch;
  });
  return out;
}

/** Positions (in `raw`) of the characters written as `ch` itself: not escaped, not inside a character reference. */
function unescapedPositions(raw: string, ch: string): number[] {
  const out: number[] = [];
  readRaw(raw, (c, at, plain) => {
    if (plain && c === ch) out.push(at);
  });
  return out;
}

/**
 * Parses a raw (escaped) `doc#idx` as written in a definition or inline citation: split at its last
 * `#` that is neither escaped nor inside a character reference, the chunk index read as written (an
 * escaped `\#` after the separator makes it no number). Without such a `#`, the text as it reads.
 */
export function parseRawCitation(raw: string): ParseCitationResult {
  const hashes = unescapedPositions(raw, '#');
  if (hashes.length === 0) return parseCitation(unescapeMarkdown(raw));
  const hash = hashes[hashes.length - 1]!;
  const docName = unescapeMarkdown(raw.slice(0, hash));
  const idx = raw.slice(hash + 1);
  return citationOf(`${docName}#${idx}`, docName, idx);
}

/** Our definition body, split into its parts (offsets relative to the body). */
export interface DefinitionBody {
  /** The raw `doc#idx` part and where it sits in the body. */
  citationRaw: string;
  citationStart: number;
  citationEnd: number;
  parsed: ParseCitationResult;
  kbName: string;
  kbCode: string;
}

/**
 * Reads a definition body (the text after `[^n]:`, one line). Returns `undefined` when it does not
 * have our shape `X#… — Y (Z)` at all (then the definition is the author's). A body with our shape
 * but a bad `doc#idx` part is returned with `parsed.ok === false` (reported as malformed).
 */
export function parseDefinitionBody(body: string): DefinitionBody | undefined {
  const lead = body.startsWith(' ') ? 1 : 0;
  const text = body.trimEnd();
  // It ends with ` (kb_code)`: its last character an unescaped `)`, its last unescaped `(` after a blank
  // (none reads as position 0, which has nothing before it).
  const closes = unescapedPositions(text, ')');
  if (closes[closes.length - 1] !== text.length - 1) return undefined;
  const opens = unescapedPositions(text, '(');
  const open = opens[opens.length - 1] ?? 0;
  if (text[open - 1] !== ' ') return undefined;
  const head = text.slice(lead, open - 1);
  const hashes = unescapedPositions(head, '#');
  if (hashes.length === 0) return undefined;
  const sep = head.indexOf(DEF_SEPARATOR, hashes[hashes.length - 1]!);
  // Stryker disable next-line EqualityOperator: a separator found after a `#` is never at 0
  if (sep < 0) return undefined;
  const citationRaw = head.slice(0, sep);
  return {
    citationRaw,
    citationStart: lead,
    citationEnd: lead + sep,
    parsed: parseRawCitation(citationRaw),
    kbName: unescapeMarkdown(head.slice(sep + DEF_SEPARATOR.length)),
    kbCode: unescapeMarkdown(text.slice(open + 1, text.length - 1)),
  };
}

/** True for labels we may own: positive integers without leading zeros. */
export function isOurLabel(label: string): boolean {
  return /^[1-9][0-9]{0,8}$/.test(label);
}
