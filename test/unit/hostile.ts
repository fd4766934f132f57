/**
 * The shared alphabets of the property tests: what real bulletins and hostile servers hold. Every
 * generator of outside text (a doc_name, a passage, an author's prose, a class name) draws from
 * these, so a shape added here reaches every property.
 */
import fc from 'fast-check';

/** Pieces of URLs and e-mail addresses: what linkify and GFM autolink literals look for. */
export const URL_PIECES = [
  'w',
  'W',
  '.',
  '/',
  ':',
  '@',
  '#',
  '?',
  '=',
  'http://',
  'https://',
  'www.',
  'WWW.',
  '//',
  'ftp:',
  'mailto:',
  'a.cn',
  'x.cn/a',
  'a@b.cn',
  'https://a.cn/p?q=1&r=2',
  'www.agri.gov.cn/x',
] as const;

/** Brackets and punctuation of both scripts. */
export const PUNCTUATION = [
  '【',
  '】',
  '〔',
  '〕',
  '「',
  '」',
  '（',
  '）',
  '《',
  '》',
  '，',
  '。',
  '：',
  '[',
  ']',
  '(',
  ')',
  ',',
  ':',
  ';',
  '!',
  '?',
] as const;

/** Every bidirectional control: embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069), marks. */
export const BIDI = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
] as const;

/** One piece of hostile text (no line break). */
export const hostilePiece = fc.constantFrom(...URL_PIECES, ...PUNCTUATION, ...BIDI, '茶园', 'a', '1', ' ');

/** Hostile text on one line. */
export const hostileLine = fc.array(hostilePiece, { maxLength: 10 }).map((p) => p.join(''));

/** Front matter blocks (YAML), holding what would be citations outside them. */
export const frontMatter = fc.constantFrom(
  '---\ntitle: "[^1]"\n---',
  '---\ntitle: 茶园周报\nsource: "〔a.docx#1〕 https://a.cn/x"\n---',
  '---\n[^1]: fake.docx#1 — kb (K)\n---',
  '---\n---',
);

/** Fenced code of both kinds, with what would be citations, links and a fence of the other kind inside. */
export const fencedCode = fc.constantFrom(
  '```\n[^2] and 〔b.docx#2〕\n```',
  '~~~md\n[^1]: fake.docx#1 — kb (K)\n~~~',
  '````\n```\n[^3] https://a.cn/x\n```\n````',
  '~~~\n```\n〔c.docx#3〕\n~~~',
  '```js\nconst u = "www.a.cn/[^1]";\n```',
);

/** A document's line ending and whether it ends with one. */
export const ending = fc.record({ eol: fc.constantFrom('\n', '\r\n'), finalBreak: fc.boolean() });

/** `text` (written with `\n`) in the given line ending, its final line breaks dropped unless `finalBreak`. */
export function withEnding(text: string, e: { eol: string; finalBreak: boolean }): string {
  const ended = e.finalBreak ? text : text.replace(/\n+$/, '');
  return e.eol === '\n' ? ended : ended.replace(/\n/g, e.eol);
}
