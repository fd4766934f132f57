/**
 * What every command writes to and reads from: the terminal, the environment and its language, the
 * bulletins on disk.
 */
import { readFile } from 'node:fs/promises';
import { decodeText, encodingLabel, type TextEncodingName } from '../text/decode';
import { langOf, wordsOf, type Lang, type Words } from '../text/words';

/** Where the CLI writes (strings carry their own line breaks). */
export interface CliIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

/** The environment variables the CLI reads. */
export type CliEnv = Record<string, string | undefined>;

/**
 * The language of the CLI's messages, the one place it is read: the first of `LC_ALL`,
 * `LC_MESSAGES`, `LANG` that is set and not empty (POSIX's order); Chinese for a value starting with
 * `zh` (`zh_CN.UTF-8`), else English (`C`, `en_US.UTF-8`, nothing).
 */
export function cliLang(env: CliEnv): Lang {
  return langOf(env['LC_ALL'] || env['LC_MESSAGES'] || env['LANG'] || '');
}

/** The CLI's words, in {@link cliLang}'s language (the l10n bundle the editor speaks from). */
export function cliWords(env: CliEnv): Words {
  return wordsOf(cliLang(env));
}

/** Why a file's bytes were refused, after `cannot read <file>: `. */
function undecodable(words: Words): string {
  return words.t(
    'its bytes are not UTF-8, UTF-16 with a byte order mark or GB18030 text; save it as UTF-8 and try again',
  );
}

/**
 * A text file on disk (a bulletin, a rules file) read by `text/decode.ts` (a byte order mark
 * dropped; GB18030 and UTF-16 read as such), or why it cannot be read (`ENOENT`, …, or that its
 * bytes are no text it knows, `undecodable`).
 */
export async function readTextFile(
  file: string,
  words: Words,
): Promise<{ text: string; encoding: TextEncodingName } | { error: string; undecodable?: true }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (err) {
    return { error: errorCode(err) };
  }
  const read = decodeText(bytes);
  return read.ok ? { text: read.text, encoding: read.encoding } : { error: undecodable(words), undecodable: true };
}

/** Tells on stderr that a file was not UTF-8 (`file: read as GB18030`); nothing for UTF-8. */
export function tellEncoding(io: CliIo, file: string, encoding: TextEncodingName, words: Words): void {
  if (encoding !== 'utf-8') io.stderr(`${file}: ${words.t('read as {0}', encodingLabel(encoding))}\n`);
}

/** A bulletin reader for `check`: `readTextFile`, telling on stderr, once per file, one read in another encoding than UTF-8. */
export function bulletinReader(
  io: CliIo,
  words: Words,
): (file: string) => Promise<{ text: string } | { error: string }> {
  return async (file) => {
    const read = await readTextFile(file, words);
    if ('text' in read) tellEncoding(io, file, read.encoding, words);
    return read;
  };
}

/** A file system failure in a message: its code (`ENOENT`, `EACCES`, …) when it has one. */
export function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}
