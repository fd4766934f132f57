/**
 * `shunong check <files…> [--rules <file>] [--online [--cache <file>] [--refresh]]`: the citation
 * and pesticide safety check of `citations/check.ts` and `citations/checkOnline.ts` from a terminal.
 * The bulletins, the station's rules file and the cache file are read (and the cache written)
 * here; the exit codes are the checks' (2 also for a usage error, a rules file that cannot be used,
 * or a cache that cannot be read or written).
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { checkBulletins, type SafetyCheck } from '../citations/check';
import { cacheFileText, checkBulletinsOnline, parseCacheFile } from '../citations/checkOnline';
import { CitationCache } from '../citations/retrievalContext';
import { VerifyCache } from '../citations/verifyCache';
import { platformErrorKind } from '../shunong/errors';
import { redactSecret } from '../shunong/redact';
import { shippedRules, withStationRules } from '../safety/index';
import { beijingDate } from '../time/beijing';
import { optionsOf, timeoutMs, UsageError, type CommandLine } from './args';
import { hint, platformClient } from './client';
import { bulletinReader, tellEncoding, errorCode, readTextFile, type CliEnv, type CliIo } from './io';

const CHECK_USAGE = 'usage: shunong check <files…>';
const CHECK_ONLINE_USAGE =
  'usage: shunong check <files…> [--online [--cache <file>] [--refresh] [--endpoint url] [--timeout ms]] [--rules <file>]';

const CHECK_HELP = `${CHECK_ONLINE_USAGE}
Checks the citations and the pesticides each bulletin recommends (the rules in force on its
front matter's date:, else today in Beijing). A safety line reads file:line:col severity [rule] message:
an error (a ban in force) is a problem; a warning (a scope ban where no crop is named) or
information (a ban coming within six months, a restricted-use pesticide) is a note, and notes do
not change the exit code. Bulletins and rules files saved as UTF-8, UTF-16 (with its byte order mark)
or GB18030/GBK are read as such (said on stderr); a file that is none of these is not checked (exit 2).
  --rules <file>         a station's rules file (JSON) over the shipped rules; a file that cannot be
                         used is reported on its lines (file:line:col) and the check exits 2
  --online               also look each cited source up on the platform (the key from SHUNONG_API_KEY)
  --cache <file>         keep passages and outcomes in <file> between runs (with --online)
  --refresh              ask the platform again, even what the cache knows from today (with --online)
  --endpoint <url>       MCP endpoint (with --online; default: $SHUNONG_ENDPOINT or the platform's)
  --timeout <ms>         per-call timeout in milliseconds (with --online; default 30000)
exit codes: 0 clean (notes allowed), 1 problems (a ban, or a changed, not-located source or unknown
            knowledge base), 3 (--online) some sources could only be left unverified,
            2 usage error, unreadable file or unusable rules file`;

const ONLINE_OPTIONS: readonly string[] = ['online', 'cache', 'refresh', 'endpoint', 'timeout'];
const OPTIONS = ['help', 'online', 'cache', 'refresh', 'endpoint', 'timeout', 'rules'] as const;

/** Runs `shunong check`; resolves to the exit code. */
export async function runCheck(line: CommandLine, io: CliIo, env: CliEnv, now: () => number): Promise<number> {
  if (line.help) {
    io.stdout(`${CHECK_HELP}\n`);
    return 0;
  }
  const files = line.positionals.slice(1);
  // The usage shown with an error names the online options once any of them is in play.
  const online = line.tokens.some((t) => t.kind === 'option' && ONLINE_OPTIONS.includes(t.name));
  let o: ReturnType<typeof optionsOf<(typeof OPTIONS)[number]>>;
  let timeout: number | undefined;
  try {
    o = optionsOf(line, OPTIONS);
    if (!o.online && (o.cache !== undefined || o.refresh || o.endpoint !== undefined || o.timeout !== undefined))
      throw new UsageError('--cache, --refresh, --endpoint and --timeout go with --online');
    if (o.timeout !== undefined) timeout = timeoutMs(o.timeout);
    if (files.length === 0 && o.online) throw new UsageError('no files to check');
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`shunong check: ${e.message}\n${online ? CHECK_ONLINE_USAGE : CHECK_USAGE}\n`);
    return 2;
  }
  if (files.length === 0) {
    io.stderr(`${CHECK_USAGE}\n`);
    return 2;
  }
  const rules = await loadRules(o.rules, io);
  if (!rules) return 2;
  const safety: SafetyCheck = { rules, today: beijingDate(now()) };
  if (!o.online) return checkBulletins(files, bulletinReader(io), io, safety);

  let passages = new CitationCache();
  let outcomes = new VerifyCache();
  if (o.cache !== undefined) {
    const loaded = await loadCache(o.cache, io);
    if (!loaded) return 2;
    ({ passages, outcomes } = loaded);
  }
  const key = env['SHUNONG_API_KEY'];
  // The client redacts the key from what it reports; this guards every line once more.
  const guard = (s: string): string => (key ? redactSecret(s, key) : s);
  const client = platformClient({ endpoint: o.endpoint, timeoutMs: timeout }, io, env);
  try {
    const code = await checkBulletinsOnline(
      { files, refresh: o.refresh === true, passages, outcomes, safety },
      bulletinReader(io),
      { stdout: (s) => io.stdout(guard(s)), stderr: (s) => io.stderr(guard(s)) },
      {
        search: (a, signal) => client.knowledgeSearch(a, signal ? { signal } : {}),
        now,
        describe: (e) => `${e instanceof Error ? e.message : String(e)}${hint(platformErrorKind(e) ?? '')}`,
      },
    );
    if (o.cache !== undefined && !(await saveCache(o.cache, passages, outcomes, io))) return 2;
    return code;
  } finally {
    await client.close();
  }
}

/** The shipped rules, with the station's file over them when given; undefined after telling why it cannot be used. */
async function loadRules(file: string | undefined, io: CliIo): Promise<SafetyCheck['rules'] | undefined> {
  if (file === undefined) return shippedRules();
  const read = await readTextFile(file);
  if ('error' in read) {
    io.stderr(`shunong check: cannot read the rules file ${file}: ${read.error}\n`);
    return undefined;
  }
  tellEncoding(io, file, read.encoding);
  const { text } = read;
  const { rules, problems } = withStationRules(shippedRules(), text, file);
  // Each problem's message starts with the file's name; the line goes beside it, as an editor reads it.
  for (const p of problems) {
    const why = p.message.startsWith(`${file}: `) ? p.message.slice(file.length + 2) : p.message;
    io.stderr(`${file}:${p.line}${p.column === undefined ? '' : `:${p.column}`} ${why}\n`);
  }
  if (problems.length === 0) return rules;
  io.stderr(`shunong check: the rules file ${file} cannot be used; fix it, or leave out --rules\n`);
  return undefined;
}

/** The cache file's passages and outcomes (none yet when it does not exist); undefined after telling why it cannot be used. */
async function loadCache(
  file: string,
  io: CliIo,
): Promise<{ passages: CitationCache; outcomes: VerifyCache } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { passages: new CitationCache(), outcomes: new VerifyCache() };
    io.stderr(`shunong check: cannot read the cache ${file}: ${errorCode(err)}\n`);
    return undefined;
  }
  const parsed = parseCacheFile(text);
  if ('error' in parsed) {
    const what = parsed.error === 'not-json' ? 'is not JSON' : 'is not a cache of shunong check';
    io.stderr(`shunong check: the cache ${file} ${what}; remove it or name another file with --cache\n`);
    return undefined;
  }
  return parsed;
}

/** Writes the cache file whole or not at all (a temporary file renamed over it). */
async function saveCache(file: string, passages: CitationCache, outcomes: VerifyCache, io: CliIo): Promise<boolean> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, cacheFileText(passages, outcomes), 'utf8');
    await rename(tmp, file);
    return true;
  } catch (err) {
    io.stderr(`shunong check: cannot write the cache ${file}: ${errorCode(err)}\n`);
    return false;
  }
}
