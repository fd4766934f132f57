/**
 * The byte order mark a file may begin with (Notepad writes one): read as text it is U+FEFF, which
 * would hide front matter, a first heading or an XML declaration from their parsers. Pure.
 */

/** `text` without its leading byte order mark, if it has one. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
