/** What every command writes to and reads from: the terminal, the environment, the bulletins on disk. */
import { readFile } from 'node:fs/promises';
import { withoutBom } from '../text/bom';

/** Where the CLI writes (strings carry their own line breaks). */
export interface CliIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

/** The environment variables the CLI reads. */
export type CliEnv = Record<string, string | undefined>;

/** A bulletin's text (a leading BOM dropped), or why it cannot be read (`ENOENT`, …). */
export async function readBulletinText(file: string): Promise<{ text: string } | { error: string }> {
  try {
    const text = await readFile(file, 'utf8');
    return { text: withoutBom(text) };
  } catch (err) {
    return { error: errorCode(err) };
  }
}

/** A file system failure in a message: its code (`ENOENT`, `EACCES`, …) when it has one. */
export function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}
