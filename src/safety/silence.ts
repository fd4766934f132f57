/**
 * Silencing one safety finding, as linters do: an HTML comment alone on the line before it,
 *
 *     <!-- shunong-disable-next-line -->                  every safety finding of the next line
 *     <!-- shunong-disable-next-line pesticide -->        the same
 *     <!-- shunong-disable-next-line carbofuran-736 -->   that rule's findings only (several ids may
 *                                                         follow, separated by spaces or commas)
 *
 * The keyword and the ids are read without regard to case. Only the line right after the comment is
 * silenced (a blank one: nothing). The comment may stand in a list item (indented) or a quote (after
 * its `>` markers), never in fenced code or the front matter. A finding on the comment's own line
 * (an id names a substance: `carbofuran-736`) is not a finding of the bulletin and is dropped. The
 * editor, `check` and the exports read the same directives here. Pure.
 */
import { frontMatter } from '../bulletin/frontMatter';
import { closesFence, fenceOf } from '../text/lines';

/** A directive that silences findings on one line. */
export interface Silence {
  /** The 0-based line it silences (the one right after the comment). */
  line: number;
  /** The rule ids it silences (lower case), or every safety finding of the line. */
  rules: readonly string[] | 'all';
  /** The 0-based line of the comment. */
  at: number;
}

/** The keyword, and the word that stands for every safety finding of the line. */
export const SILENCE_KEYWORD = 'shunong-disable-next-line';
const ALL = 'pesticide';

/** The container markers a comment may stand after (a quote's `>`, with the indentation around them). */
export const QUOTE_PREFIX = /^(?:[ \t]*>[ \t]?)*/;
const MENTIONED = /shunong-disable-next-line/i;
const DIRECTIVE = /^[ \t]*<!--[ \t]*shunong-disable-next-line((?:[ \t,，](?:(?!-->).)*)?)-->[ \t]*$/i;

/** The words of a directive line (quote markers and indentation allowed before it), if it is one. */
export function directiveWords(line: string): string[] | undefined {
  const m = DIRECTIVE.exec(line.slice(QUOTE_PREFIX.exec(line)![0].length));
  return m ? m[1]!.split(/[\s,，]+/).filter(Boolean) : undefined;
}

/** Whether a line is blank, in a quote or not (`>` alone is a quote's blank line). */
export function isBlankLine(line: string): boolean {
  return line.slice(QUOTE_PREFIX.exec(line)![0].length).trim() === '';
}

/** The lines of a text, without their line ends (`\n` or `\r\n`). */
export function linesOf(text: string): string[] {
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

interface Directive {
  at: number;
  words: string[];
}

/** Every directive comment of a text, outside fenced code and the front matter, with the text's lines. */
function directivesIn(markdown: string): { lines: string[]; directives: Directive[] } {
  if (!MENTIONED.test(markdown)) return { lines: [], directives: [] };
  const directives: Directive[] = [];
  let fence: string | undefined;
  // the front matter blanked: same lines, none of them a directive
  const lines = linesOf(frontMatter(markdown).blanked);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    fence = fenceOf(line);
    if (fence !== undefined) continue;
    const words = directiveWords(line);
    if (words) directives.push({ at: i, words });
  }
  return { lines, directives };
}

/** The silences of a bulletin, in line order (a directive before a blank line or at the end silences nothing). */
export function silencesIn(markdown: string): Silence[] {
  const { lines, directives } = directivesIn(markdown);
  return silencesOf(directives, lines);
}

function silencesOf(directives: readonly Directive[], lines: readonly string[]): Silence[] {
  const out: Silence[] = [];
  for (const { at, words } of directives) {
    const next = lines[at + 1];
    if (next === undefined || isBlankLine(next)) continue;
    const lower = words.map((w) => w.toLowerCase());
    out.push({ line: at + 1, rules: lower.length === 0 || lower.includes(ALL) ? 'all' : lower, at });
  }
  return out;
}

/** Whether a silence covers a rule. */
export function silences(s: Pick<Silence, 'rules'>, ruleId: string): boolean {
  return s.rules === 'all' || s.rules.includes(ruleId.toLowerCase());
}

/**
 * The findings a bulletin's directives leave (`active`) and those they silence. A finding on a
 * directive's own line is in neither: it is in the comment, not in the bulletin's text.
 */
export function partitionSilenced<T extends { line: number; rule: { id: string } }>(
  findings: readonly T[],
  markdown: string,
): { active: T[]; silenced: T[] } {
  const { lines, directives } = directivesIn(markdown);
  if (directives.length === 0) return { active: [...findings], silenced: [] };
  const comments = new Set(directives.map((d) => d.at));
  const byLine = new Map<number, Silence[]>();
  for (const s of silencesOf(directives, lines)) byLine.set(s.line, [...(byLine.get(s.line) ?? []), s]);
  const active: T[] = [];
  const silenced: T[] = [];
  for (const f of findings) {
    if (comments.has(f.line)) continue;
    if (byLine.get(f.line)?.some((s) => silences(s, f.rule.id))) silenced.push(f);
    else active.push(f);
  }
  return { active, silenced };
}

/**
 * The comment a quick fix writes above a finding: with a rule id, that rule only
 * (`<!-- shunong-disable-next-line carbofuran-736 -->`); without, every safety finding of the line
 * (`<!-- shunong-disable-next-line pesticide -->`).
 */
export function silenceComment(ruleId?: string): string {
  return commentFor(ruleId ? [ruleId] : []);
}

/** The comment for these rule ids (none: every safety finding). */
export function commentFor(ruleIds: readonly string[]): string {
  return `<!-- ${SILENCE_KEYWORD} ${ruleIds.length > 0 ? ruleIds.join(' ') : ALL} -->`;
}
