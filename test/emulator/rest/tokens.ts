/**
 * The local endpoint's token counting rule (documented in test/emulator/README.md):
 * one token per run of ASCII letters and digits (a "word"), one token per any other visible
 * character — so one per CJK character and one per punctuation mark. Whitespace counts nothing.
 * The figures are estimates with the shape of a real tokenizer's, not its numbers.
 */

const TOKEN = /[A-Za-z0-9]+|\S/gu;

/** Counts tokens by the rule above. */
export function countTokens(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(TOKEN)) n++;
  return n;
}

/**
 * Splits text into stream pieces of at most `perPiece` tokens each, keeping tokens whole; the
 * pieces joined give back `text` exactly (whitespace rides with the token before it).
 */
export function tokenPieces(text: string, perPiece: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  let count = 0;
  for (const m of text.matchAll(TOKEN)) {
    count++;
    if (count >= perPiece) {
      const end = (m.index ?? 0) + m[0].length;
      pieces.push(text.slice(start, end));
      start = end;
      count = 0;
    }
  }
  if (start < text.length) {
    if (pieces.length > 0 && text.slice(start).trim() === '') pieces[pieces.length - 1] += text.slice(start);
    else pieces.push(text.slice(start));
  }
  return pieces;
}
