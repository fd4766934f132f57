/**
 * The cache file of `--cache <file>` (the passages and verification outcomes `shunong check`
 * keeps between runs, `citations/checkOnline.ts`'s format), read by `shunong check` and `shunong
 * export` alike and written by `check --online`: each failure said in the terminal's language,
 * under the command's name.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { cacheFileText, parseCacheFile } from '../citations/checkOnline';
import { CitationCache } from '../citations/retrievalContext';
import { VerifyCache } from '../citations/verifyCache';
import type { Words } from '../text/words';
import { errorCode, type CliIo } from './io';

/** What a cache file holds. */
export interface CacheFile {
  passages: CitationCache;
  outcomes: VerifyCache;
}

/**
 * The cache file's passages and outcomes (none yet when it does not exist); undefined after telling
 * why it cannot be used. `path`: where to read it, when not `file` (as the user named it) itself.
 */
export async function loadCache(
  command: 'check' | 'export',
  file: string,
  io: CliIo,
  words: Words,
  path = file,
): Promise<CacheFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { passages: new CitationCache(), outcomes: new VerifyCache() };
    io.stderr(`shunong ${command}: ${words.t('cannot read the cache {0}: {1}', file, errorCode(err))}\n`);
    return undefined;
  }
  const parsed = parseCacheFile(text);
  if ('error' in parsed) {
    const why =
      parsed.error === 'not-json'
        ? words.t('the cache {0} is not JSON; remove it or name another file with --cache', file)
        : words.t('the cache {0} is not a cache of shunong check; remove it or name another file with --cache', file);
    io.stderr(`shunong ${command}: ${why}\n`);
    return undefined;
  }
  return parsed;
}

/** Writes the cache file whole or not at all (a temporary file renamed over it). */
export async function saveCache(file: string, cache: CacheFile, io: CliIo, words: Words): Promise<boolean> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, cacheFileText(cache.passages, cache.outcomes), 'utf8');
    await rename(tmp, file);
    return true;
  } catch (err) {
    io.stderr(`shunong check: ${words.t('cannot write the cache {0}: {1}', file, errorCode(err))}\n`);
    return false;
  }
}
