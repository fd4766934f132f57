/**
 * A file's bytes as text, the way Chinese Windows saves it: UTF-8 (with or without a byte order
 * mark), UTF-16 LE or BE with a byte order mark (Notepad's "Unicode"), else GB18030 (GBK and
 * GB2312 are its subsets: Notepad's and WPS's "ANSI"). Bytes that are none of these are refused,
 * never read as mojibake. The one reader of a bulletin, a template or a rules file from disk. Pure.
 */

/** How a file's bytes were read. */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030';

/** The text (without its byte order mark) and how it was read; or why it could not be. */
export type DecodedText =
  | { ok: true; text: string; encoding: TextEncodingName; bom: boolean }
  | { ok: false; reason: 'undecodable' | 'binary' };

/** U+0080–U+009F: control characters no bulletin holds, which GB18030 read as UTF-8 can spell. */
const C1_CONTROL = /[\u0080-\u009f]/;

/** A decoder that throws on bytes its encoding does not allow, instead of writing U+FFFD. */
function strict(encoding: TextEncodingName): TextDecoder {
  // ignoreBOM: the byte order mark is found and dropped below, once, whatever the encoding.
  return new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
}

// Stryker disable BlockStatement: an empty catch returns undefined as well
function attempt(encoding: TextEncodingName, bytes: Uint8Array): string | undefined {
  try {
    return strict(encoding).decode(bytes);
  } catch {
    return undefined;
  }
}
// Stryker restore BlockStatement

/** The encoding a byte order mark at the start names, and its length. */
function byteOrderMark(b: Uint8Array): { encoding: TextEncodingName; length: number } | undefined {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (b[0] === 0xff && b[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/**
 * Reads `bytes` as text. A byte order mark decides the encoding; without one, valid UTF-8 is
 * UTF-8 (unless it spells C1 controls and the bytes are also GB18030) and anything else is
 * GB18030 if every byte decodes as GB18030. A NUL character means the
 * bytes are not text (a binary file, or UTF-16 saved without its mark): refused as `binary`.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const mark = byteOrderMark(bytes);
  const body = mark ? bytes.subarray(mark.length) : bytes;
  const encodings: TextEncodingName[] = mark ? [mark.encoding] : ['utf-8', 'gb18030'];
  for (const encoding of encodings) {
    const text = attempt(encoding, body);
    if (text === undefined) continue;
    // Valid UTF-8 that spells C1 controls, which no text holds, is GB18030 whose pairs look like UTF-8 (聞 is C2 84).
    if (!mark && encoding === 'utf-8' && C1_CONTROL.test(text) && attempt('gb18030', body) !== undefined) continue;
    if (text.includes('\0')) return { ok: false, reason: 'binary' };
    return { ok: true, text, encoding, bom: mark !== undefined };
  }
  return { ok: false, reason: 'undecodable' };
}

/** The name an encoding is shown by (`GB18030`, `UTF-16 LE`). */
export function encodingLabel(encoding: TextEncodingName): string {
  return { 'utf-8': 'UTF-8', 'utf-16le': 'UTF-16 LE', 'utf-16be': 'UTF-16 BE', gb18030: 'GB18030' }[encoding];
}

/** U+FFFD, what an editor writes for bytes it could not decode (a GBK file opened as UTF-8). */
export const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * Whether a text an editor decoded holds replacement characters, so it was not read in its own
 * encoding and must not be checked or published as it stands.
 */
export function isMisdecoded(text: string): boolean {
  return text.includes(REPLACEMENT_CHARACTER);
}
