/**
 * A bulletin's issue number (`issue:` in its front matter): `2026年第12期`, or `2026 No. 12` in an
 * English bulletin. The next issue is one more than the highest of its year among a workspace's
 * bulletins; a new year starts at 1. Pure.
 */
import type { Lang } from '../text/words';

/** An issue as written: its year and number (full- or half-width digits, spaces allowed). */
const ISSUE = /^\s*([0-9０-９]{4})\s*(?:年\s*第\s*([0-9０-９]+)\s*期|No\.?\s*([0-9]+))\s*$/i;

/** Half-width digits of a number written with full-width ones. */
function digits(s: string): number {
  return Number(s.replace(/[０-９]/g, (d) => String(d.charCodeAt(0) - 0xff10)));
}

/** The year and number of an issue as written, or undefined when it is not one. */
export function readIssue(value: string): { year: number; number: number } | undefined {
  const m = ISSUE.exec(value);
  if (!m) return undefined;
  return { year: digits(m[1]!), number: digits(m[2] ?? m[3]!) };
}

/** The next issue of `year`, given the issues the workspace's bulletins carry. */
export function nextIssueNumber(issues: readonly string[], year: number): number {
  let highest = 0;
  for (const value of issues) {
    const issue = readIssue(value);
    if (issue && issue.year === year && issue.number > highest) highest = issue.number;
  }
  return highest + 1;
}

/** An issue as a bulletin in `lang` writes it. */
export function issueLabel(year: number, number: number, lang: Lang): string {
  return lang === 'zh' ? `${year}年第${number}期` : `${year} No. ${number}`;
}
