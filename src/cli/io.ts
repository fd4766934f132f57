/** What every command writes to and reads from: the terminal, the environment, the bulletins on disk. */
import { readFile } from 'node:fs/promises';
import { decodeText, encodingLabel, type TextEncodingName } from '../text/decode';

/** Where the CLI writes (strings carry their own line breaks). */
export interface CliIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

/** The environment variables the CLI reads. */
export type CliEnv = Record<string, string | undefined>;

/** Why a file's bytes were refused, after `cannot read <file>: `. */
export const UNDECODABLE =
  'its bytes are not UTF-8, UTF-16 with a byte order mark or GB18030 text; save it as UTF-8 and try again';

/**
 * A text file on disk (a bulletin, a rules file) read by `text/decode.ts` (a byte order mark
 * dropped; GB18030 and UTF-16 read as such), or why it cannot be read (`ENOENT`, …, or `UNDECODABLE`).
 */
export async function readTextFile(
  file: string,
): Promise<{ text: string; encoding: TextEncodingName } | { error: string; undecodable?: true }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (err) {
    return { error: errorCode(err) };
  }
  const read = decodeText(bytes);
  return read.ok ? { text: read.text, encoding: read.encoding } : { error: UNDECODABLE, undecodable: true };
}

/** Tells on stderr that a file was not UTF-8 (`file: read as GB18030`); nothing for UTF-8. */
export function tellEncoding(io: CliIo, file: string, encoding: TextEncodingName): void {
  if (encoding !== 'utf-8') io.stderr(`${file}: read as ${encodingLabel(encoding)}\n`);
}

/** A bulletin reader for `check`: `readTextFile`, telling on stderr, once per file, one read in another encoding than UTF-8. */
export function bulletinReader(io: CliIo): (file: string) => Promise<{ text: string } | { error: string }> {
  return async (file) => {
    const read = await readTextFile(file);
    if ('text' in read) tellEncoding(io, file, read.encoding);
    return read;
  };
}

/** A file system failure in a message: its code (`ENOENT`, `EACCES`, …) when it has one. */
export function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}
