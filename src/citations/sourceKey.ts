/** The key a verification outcome is kept under, on its own so that a feature can read outcomes without the parser. Pure. */

/** The key of a source: the knowledge base (or `*` for "any") and `doc#idx`. */
export function sourceKey(kbCode: string | undefined, citation: string): string {
  // Stryker disable next-line StringLiteral: no base has an empty code (a definition naming none is no source), so '' would mark "any" as well
  return `${kbCode ?? '*'}\u0000${citation}`;
}
