/**
 * Markdown's line rules for readers that go line by line without a parser, because they must cost
 * less than a parse (the safety lint) or need only the prose (the document language): where fenced
 * code opens and closes, and what is indented enough to be code. CommonMark's rules, pure.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The fence a line opens (its run of backticks or tildes), if it opens one. */
export function fenceOf(line: string): string | undefined {
  return FENCE.exec(line)?.[1];
}

/** Whether `line` closes the code `fence` opened: the same character, at least as many, alone on the line. */
export function closesFence(line: string, fence: string): boolean {
  const f = fenceOf(line);
  return f !== undefined && f[0] === fence[0] && f.length >= fence.length && line.trim() === f;
}

/** Whether a line is indented as code (four spaces or a tab) — code unless it continues a paragraph. */
export function indentedAsCode(line: string): boolean {
  return /^(?: {4}|\t)/.test(line);
}
