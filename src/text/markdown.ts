/**
 * Where outside text (the server's, a model's, what a user typed) becomes safe to write into
 * Markdown. Pure, no `vscode`. Each place text enters Markdown uses the one function for its
 * context:
 * - {@link inlineText}: text read inside a line (a snippet's words, the recognition summary, the
 *   weather brief's source line, a draft's notes, a heading's text, link text and image alt text);
 * - {@link tableCell}: a cell of a GFM table (the weather table, the solar terms);
 * - {@link snippetLine}: one line of quoted server text, which may start a line;
 * - {@link inlineName}: a name that is also an identifier, inside a line (an inline citation's
 *   `doc_name`);
 * - {@link definitionName} and {@link definitionText}: a footnote definition's `doc_name` and its
 *   kb_name / kb_code.
 * Text shown through `MarkdownString.appendText` (hovers, tooltips, chat answers) goes through
 * `./plain.ts` instead, since `appendText` does its own escaping.
 *
 * The guarantee, held by test/unit/text/markdown.test.ts over random text: what these functions
 * return never becomes a link, an image, a footnote, an inline citation `〔…〕`, HTML, emphasis, code,
 * a heading, a list, a quote or a table, in markdown-it 12 and 15 (html and linkify on, as VS Code's
 * preview sets them) and in micromark with GFM; and it reads back as the same characters (bidi
 * controls in read-only text shown as `<U+202E>`, `./bidi.ts`; whitespace flattened to blanks).
 * Link shapes are broken in the source: the first `/` of `//`, `@` and the `.` of `www.` backslash-
 * escaped, which stops markdown-it 15 and micromark. markdown-it 12 (VS Code 1.100) is the one limit:
 * it joins escaped characters back into one text before its linkify reads it, and tests a paragraph's
 * source for any host-like word first, so a URL or e-mail address in outside text still shows as a
 * link there; no escape that reads back as the same characters prevents it. Every escape is a
 * CommonMark backslash escape or a character reference, so it renders as the character itself.
 */
import { bidiAsReference, showBidi } from './bidi';

function flattenWhitespace(s: string): string {
  return s.replace(/\r\n|[\r\n\t\v\f\u2028\u2029]/g, ' ');
}

/** What makes `&` start a character reference. */
const ENTITY_AFTER = /^#?[a-z0-9]+;/i;
/** A letter or digit: `_` between two of them never opens or closes emphasis (`TEA_MANAGER_001`). */
// Stryker disable next-line Regex: it tests one character at a time, so the anchors cannot change a match
const WORD = /^[\p{L}\p{N}]$/u;

/** Characters backslash-escaped in a definition's doc_name. */
const DEFINITION_NAME = /[\\[\]*_~`<>&@]/g;
/** In kb_name / kb_code also `#`, `(` and `)`: the definition's last `#` and last `( … )` are ours. */
const DEFINITION_TEXT = /[\\[\]*_~`<>&@#()]/g;
/** Inside a line also `|` (a table cell); `#` is kept, a name's last `#` ends it. */
const INLINE = /[\\[\]*_~`<>&@|]/g;

/**
 * The common rules: whitespace flattened; the characters of `special` backslash-escaped (`` ` ``
 * written as `backtick`), except, in a `name`, a `&` that starts no character reference and a `_`
 * between two letters or digits (kept so a kb_code reads `TEA_MANAGER_001` in the editor); link shapes broken (see the header); `〔` `〕` as references
 * when `brackets` is set.
 */
function escapeWith(s: string, special: RegExp, backtick: string, brackets: boolean, name = true): string {
  const out = flattenWhitespace(s)
    .replace(special, (c, at: number, all: string) => {
      if (c === '`') return backtick;
      if (c === '&' && name && !ENTITY_AFTER.test(all.slice(at + 1, at + 34))) return c;
      if (c === '_' && name && WORD.test(all.charAt(at - 1)) && WORD.test(all.charAt(at + 1))) return c;
      return `\\${c}`;
    })
    .replace(/\/(?=\/)/g, '\\/')
    .replace(/(www)\./gi, '$1\\.');
  return brackets ? out.replace(/〔/g, '&#x3014;').replace(/〕/g, '&#x3015;') : out;
}

/**
 * Backslash-escapes a first character (after spaces) that would start a Markdown block (heading,
 * quote, list, fence, HTML…) or a table: micromark's GFM reads a line like `:---` under a paragraph
 * line as a table's delimiter row even without a pipe (`-` already leads the other shapes).
 */
function escapeBlockStart(s: string): string {
  // Stryker disable next-line Regex: `/ */` finds its first match at 0 too (the empty one at worst)
  const lead = /^ */.exec(s)![0];
  const rest = s.slice(lead.length);
  const ordered = /^(\d{1,9})([.)])/.exec(rest);
  if (ordered) return `${lead}${ordered[1]}\\${rest.slice(ordered[1]!.length)}`;
  return /^[#>+=*`~<|_:-]/.test(rest) ? `${lead}\\${rest}` : s;
}

/** Read-only text inside a line of Markdown (bidi controls shown as `<U+202E>`). */
export function inlineText(s: string): string {
  // a `#` run that ends the text would close a heading and be dropped: its last `#` escaped breaks the run
  return escapeWith(showBidi(s), INLINE, '\\`', true, false).replace(/#(?= *$)/, '\\$&');
}

/** A GFM table cell: {@link inlineText}, trimmed. */
export function tableCell(s: string): string {
  return inlineText(s).trim();
}

/** One line of quoted server text (it may start the line): trimmed, {@link inlineText}, line-start markers escaped. */
export function snippetLine(line: string): string {
  return escapeBlockStart(inlineText(line.trim()));
}

/**
 * A name that is also an identifier, inside a line (an inline citation's doc_name): as
 * {@link inlineText} but a backtick written `&#96;` (a backslash cannot stop it closing a code span
 * the author opened before it) and bidi controls written as references (`&#x202E;`), so the name
 * reads back as the very characters.
 */
export function inlineName(s: string): string {
  return bidiAsReference(escapeWith(s, INLINE, '&#96;', true));
}

/**
 * A doc_name in a footnote definition. A leading character that would open a block (`#`, `>`,
 * `-`, `1.` …) is backslash-escaped, so the definition stays one plain paragraph; leading blanks
 * are written `&#32;` (four would make code); bidi controls as references.
 */
export function definitionName(s: string): string {
  const escaped = escapeBlockStart(bidiAsReference(escapeWith(s, DEFINITION_NAME, '\\`', false)));
  return escaped.replace(/^ +/, (b) => '&#32;'.repeat(b.length));
}

/** kb_name / kb_code in a footnote definition: as {@link definitionName}'s rules, plus `#`, `(` and `)`. */
export function definitionText(s: string): string {
  // Stryker disable next-line BooleanLiteral: its `#` escaped, a `〔…〕` here is no inline citation to any reader; brackets written as references would only make the source harder to read
  return bidiAsReference(escapeWith(s, DEFINITION_TEXT, '\\`', false));
}
