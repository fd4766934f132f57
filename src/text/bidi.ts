/**
 * Bidirectional control characters in server text (a `doc_name`, a passage, a detection's class
 * name) would reorder what the author reads: `\u202Egnp.exe` shows as `exe.png`. Pure, no `vscode`;
 * used by every place that shows or writes server text.
 *
 * Two forms, one set of characters:
 * - {@link showBidi} for text that is only read (views, tooltips, hovers, quick picks, the
 *   recognition labels, the preview, snippets written into a bulletin): each control becomes the
 *   visible `<U+202E>`.
 * - {@link bidiAsReference} for text that is also an identifier (a cited `doc_name`, the
 *   knowledge base's name and code in a definition): each control is written as the numeric
 *   character reference `&#x202E;`, visible in the editor, and read back by every Markdown reader
 *   (ours included) as the very character, so the citation still names its passage.
 */

/** U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069. */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function hex(c: string): string {
  return c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
}

/** The text with every bidi control shown as `<U+XXXX>`. */
export function showBidi(s: string): string {
  return s.replace(BIDI_CONTROLS, (c) => `<U+${hex(c)}>`);
}

/** The text with every bidi control written as a Markdown/HTML character reference `&#xXXXX;`. */
export function bidiAsReference(s: string): string {
  return s.replace(BIDI_CONTROLS, (c) => `&#x${hex(c)};`);
}

/** Reads back a reference written by {@link bidiAsReference} at `i` of `s`: the character and the length read. */
export function readBidiReference(s: string, i: number): [string, number] | undefined {
  const m = /^&#x(061C|200E|200F|202[A-E]|206[6-9]);/.exec(s.slice(i, i + 9));
  return m ? [String.fromCharCode(parseInt(m[1]!, 16)), m[0].length] : undefined;
}
