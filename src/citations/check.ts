/**
 * The offline citation check of bulletins (`shunong check <files…>`), for content teams' CI.
 *
 * Output: one line per problem on stdout, `file:line:col [^label] message` (1-based line and
 * column, column in UTF-16 characters as editors count them); the ` [^label]` part is omitted when
 * the problem has no footnote label (an inline `〔…〕` citation). Files are reported in the order
 * given, problems in document order. A one-line summary goes to stderr when problems are found.
 * The bulletins are read by the caller's reader, so this module touches no file.
 */
import { analyzeDocument } from './analyze';
import type { Problem } from './model';

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

/**
 * Checks the given bulletins; resolves to the exit code: 0 clean, 1 problems found, 2 a file
 * could not be read (the readable ones are still checked and reported).
 */
export async function checkBulletins(files: readonly string[], read: ReadBulletin, io: CheckIo): Promise<number> {
  let unreadable = false;
  let problems = 0;
  let filesWithProblems = 0;
  for (const file of files) {
    const got = await read(file);
    if ('error' in got) {
      io.stderr(`shunong check: cannot read ${file}: ${got.error}\n`);
      unreadable = true;
      continue;
    }
    const found = analyzeDocument(got.text).problems;
    if (found.length > 0) filesWithProblems++;
    problems += found.length;
    for (const p of found) io.stdout(`${formatProblemLine(file, p)}\n`);
  }
  if (problems > 0)
    io.stderr(
      `shunong check: ${problems} problem${problems === 1 ? '' : 's'} in ${filesWithProblems} of ${files.length} file${files.length === 1 ? '' : 's'}\n`,
    );
  if (unreadable) return 2;
  return problems > 0 ? 1 : 0;
}
