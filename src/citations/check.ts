/**
 * The offline citation check of bulletins (`shunong check <files…>`), for content teams' CI.
 *
 * Output: one line per problem on stdout, `file:line:col [^label] message` (1-based line and
 * column, column in UTF-16 characters as editors count them); the ` [^label]` part is omitted when
 * the problem has no footnote label (an inline `〔…〕` citation). Files are reported in the order
 * given, problems in document order. A one-line summary goes to stderr when problems are found.
 * The pesticide safety findings (src/safety) are reported among them, in document order, as
 * `file:line:col severity [rule-id] message` (English): a ban in force (`error`) is a problem, a scope
 * ban where no crop is named (`warning`) and a coming ban or restricted use (`information`) are
 * notes, which do not change the exit code.
 * The bulletins are read by the caller's reader, so this module touches no file.
 */
import { findingMessage, lintSafety, type RuleSet, type SafetyFinding } from '../safety/index';
import { analyzeDocument } from './analyze';
import type { DocumentModel, Problem } from './model';

/** Where the check writes. */
export interface CheckIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

/** Reads a bulletin: its text, or why it cannot be read (`ENOENT`, …). */
export type ReadBulletin = (file: string) => Promise<{ text: string } | { error: string }>;

/** Formats one problem line (without line break). */
export function formatProblemLine(file: string, p: Problem): string {
  const label = p.label !== undefined ? ` [^${p.label}]` : '';
  return `${file}:${p.range.line + 1}:${p.range.character + 1}${label} ${p.message}`;
}

/** The safety lint a check runs beside the citations': the rules in force, and today in Beijing (YYYY-MM-DD). */
export interface SafetyCheck {
  rules: RuleSet;
  today: string;
}

/** Formats one safety finding line (without line break). */
export function formatFindingLine(file: string, f: SafetyFinding, rules: RuleSet): string {
  return `${file}:${f.line + 1}:${f.character + 1} ${f.severity} [${f.rule.id}] ${findingMessage(f, 'en', rules)}`;
}

/** What a check reports of one bulletin: its lines in document order, how many are problems, how many notes. */
export interface BulletinReport {
  lines: { offset: number; text: string }[];
  problems: number;
  notes: number;
}

/** The citation problems and safety findings of one bulletin (`model` is its citation analysis). */
export function reportBulletin(file: string, text: string, model: DocumentModel, safety: SafetyCheck): BulletinReport {
  const findings = lintSafety(text, safety.rules, { today: safety.today });
  const bans = findings.filter((f) => f.severity === 'error').length;
  const lines = [
    ...model.problems.map((p) => ({ offset: p.range.start, text: formatProblemLine(file, p) })),
    ...findings.map((f) => ({ offset: f.offset, text: formatFindingLine(file, f, safety.rules) })),
  ].sort((a, b) => a.offset - b.offset);
  return { lines, problems: model.problems.length + bans, notes: findings.length - bans };
}

/** The `; 2 notes` tail of a summary ('' for none). */
export function notesText(notes: number): string {
  return notes > 0 ? `; ${notes} note${notes === 1 ? '' : 's'}` : '';
}

/**
 * Checks the given bulletins; resolves to the exit code: 0 clean, 1 problems found, 2 a file
 * could not be read (the readable ones are still checked and reported).
 */
export async function checkBulletins(
  files: readonly string[],
  read: ReadBulletin,
  io: CheckIo,
  safety: SafetyCheck,
): Promise<number> {
  let unreadable = false;
  let problems = 0;
  let notes = 0;
  let filesWithProblems = 0;
  for (const file of files) {
    const got = await read(file);
    if ('error' in got) {
      io.stderr(`shunong check: cannot read ${file}: ${got.error}\n`);
      unreadable = true;
      continue;
    }
    const report = reportBulletin(file, got.text, analyzeDocument(got.text), safety);
    if (report.problems > 0) filesWithProblems++;
    problems += report.problems;
    notes += report.notes;
    for (const l of report.lines) io.stdout(`${l.text}\n`);
  }
  if (problems > 0)
    io.stderr(
      `shunong check: ${problems} problem${problems === 1 ? '' : 's'} in ${filesWithProblems} of ${files.length} file${files.length === 1 ? '' : 's'}${notesText(notes)}\n`,
    );
  else if (notes > 0) io.stderr(`shunong check: no problems${notesText(notes)}\n`);
  if (unreadable) return 2;
  return problems > 0 ? 1 : 0;
}
