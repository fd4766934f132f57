/**
 * `shunong check <files…>`: offline citation check of bulletins, for content teams' CI.
 *
 * Output: one line per problem on stdout, `file:line:col [^label] message` (1-based line and
 * column, column in UTF-16 characters as editors count them); the ` [^label]` part is omitted when
 * the problem has no footnote label (an inline `〔…〕` citation). Files are reported in the order
 * given, problems in document order. A one-line summary goes to stderr when problems are found.
 * Exit code: 0 clean, 1 problems found, 2 usage error (no files, an unknown option, or an
 * unreadable file — the readable files are still checked and reported).
 */
import { readFile } from 'node:fs/promises';
import { analyzeDocument } from './analyze';
import type { Problem } from './model';
import type { CitationOptions } from './types';

/** Where `runCheck` writes. */
export interface CheckIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

export const CHECK_USAGE = 'usage: shunong check <files…>';

/** Formats one problem line (without line break). */
export function formatProblemLine(file: string, p: Problem): string {
  const label = p.label !== undefined ? ` [^${p.label}]` : '';
  return `${file}:${p.range.line + 1}:${p.range.character + 1}${label} ${p.message}`;
}

/** A bulletin's text (a leading BOM dropped), or why it cannot be read (`ENOENT`, …). */
export async function readBulletinText(file: string): Promise<{ text: string } | { error: string }> {
  try {
    const text = await readFile(file, 'utf8');
    return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (err) {
    return { error: (err as NodeJS.ErrnoException).code ?? String(err) };
  }
}

/** Checks the given bulletins; resolves to the exit code. Never throws for I/O problems. */
export async function runCheck(files: string[], io: CheckIo, opts?: CitationOptions): Promise<number> {
  const paths: string[] = [];
  let dashDash = false;
  for (const f of files) {
    if (!dashDash && f === '--') dashDash = true;
    else if (!dashDash && f.startsWith('-') && f !== '-') {
      io.stderr(`shunong check: unknown option ${f}\n${CHECK_USAGE}\n`);
      return 2;
    } else paths.push(f);
  }
  if (paths.length === 0) {
    io.stderr(`${CHECK_USAGE}\n`);
    return 2;
  }
  let unreadable = false;
  let problems = 0;
  let filesWithProblems = 0;
  for (const file of paths) {
    const read = await readBulletinText(file);
    if ('error' in read) {
      io.stderr(`shunong check: cannot read ${file}: ${read.error}\n`);
      unreadable = true;
      continue;
    }
    const text = read.text;
    const found = analyzeDocument(text, opts).problems;
    if (found.length > 0) filesWithProblems++;
    problems += found.length;
    for (const p of found) io.stdout(`${formatProblemLine(file, p)}\n`);
  }
  if (problems > 0)
    io.stderr(
      `shunong check: ${problems} problem${problems === 1 ? '' : 's'} in ${filesWithProblems} of ${paths.length} file${paths.length === 1 ? '' : 's'}\n`,
    );
  if (unreadable) return 2;
  return problems > 0 ? 1 : 0;
}
