/**
 * `shunong check <files…> [--rules <file>] [--format line|json|sarif] [--online [--cache <file>]
 * [--refresh]]`: the citation and pesticide safety check of `citations/check.ts` and
 * `citations/checkOnline.ts` from a terminal, its report in a line per finding or one document
 * (`formats.ts`), its messages in the terminal's language.
 * The bulletins, the station's rules file and the cache file are read (and the cache written)
 * here; the exit codes are the checks' (2 also for a usage error, a rules file that cannot be used,
 * or a cache that cannot be read or written).
 */
import { checkBulletins, type CheckOptions, type SafetyCheck } from '../citations/check';
import { checkBulletinsOnline, passageLookup } from '../citations/checkOnline';
import { CitationCache } from '../citations/retrievalContext';
import { VerifyCache } from '../citations/verifyCache';
import { platformErrorKind } from '../shunong/errors';
import { redactSecret } from '../shunong/redact';
import { shippedRules, withStationRules } from '../safety/index';
import { wordsOf, type Words } from '../text/words';
import { beijingDate } from '../time/beijing';
import { optionsOf, timeoutMs, UsageError, type CommandLine } from './args';
import { loadCache, saveCache } from './cacheFile';
import { hint, platformClient } from './client';
import { CHECK_FORMATS, checkDocument, type CheckFormat } from './formats';
import { bulletinReader, cliLang, readTextFile, tellEncoding, type CliEnv, type CliIo } from './io';

/** The usage line shown with an error: the short one, or the one with the online options once any is in play. */
function checkUsage(words: Words, online: boolean): string {
  return online
    ? words.t(
        'usage: shunong check <files…> [--cache <file>] [--online [--refresh] [--endpoint url] [--timeout ms]] [--rules <file>] [--format line|json|sarif]',
      )
    : words.t('usage: shunong check <files…>');
}

function checkHelp(words: Words): string {
  return `${checkUsage(words, true)}
${words.t(`Checks the citations and the pesticides each bulletin recommends (the rules in force on its
front matter's date:, else today in Beijing). A safety line reads file:line:col severity [rule] message:
an error (a ban in force) is a problem; a warning (a scope ban where no crop is named) or
information (a ban coming within six months, a restricted-use pesticide) is a note, and notes do
not change the exit code. A finding silenced by <!-- shunong-disable-next-line pesticide --> on the
line before reads file:line:col silenced [rule] message and counts as neither. A forecast (front
matter type: forecast, 预报, 病虫情报 or 警报) gets a warning, a note, for each part the 2021 forecast
rules require that it does not state (pest, time, area, severity, measures, issuer, date):
file:line:col warning [forecast-missing-area] message, on its type: line. Each dose, dilution,
interval and product a cited sentence gives is compared with the passage it cites:
file:line:col warning [dose-mismatch] message, or [dose-arithmetic] for a dilution its amount and
water do not spell out, both problems; [dose-unsupported] (a warning), [source-needed] and
[passage-not-at-hand] (information) are notes. The passages come from --cache (offline too) and,
with --online, from the platform. Bulletins and rules
files saved as UTF-8, UTF-16 (with its byte order mark) or GB18030/GBK are read as such (said on
stderr); a file that is none of these is not checked (exit 2). The messages follow LC_ALL /
LC_MESSAGES / LANG: Chinese for zh*, else English.
  --format <format>      line (default): one line per finding; json: one JSON document of every
                         finding and a summary; sarif: SARIF 2.1.0 (for code scanning). Notes and
                         the summary stay on stderr; --online's findings are in each format
  --rules <file>         a station's rules file (JSON) over the shipped rules; a file that cannot be
                         used is reported on its lines (file:line:col) and the check exits 2
  --online               also look each cited source up on the platform (the key from SHUNONG_API_KEY)
  --cache <file>         keep passages and outcomes in <file> between runs (with --online); offline,
                         read its passages for the dose check
  --refresh              ask the platform again, even what the cache knows from today (with --online)
  --endpoint <url>       MCP endpoint (with --online; default: $SHUNONG_ENDPOINT or the platform's)
  --timeout <ms>         per-call timeout in milliseconds (with --online; default 30000)
exit codes: 0 clean (notes allowed), 1 problems (a ban, a dose that differs from its passage, or a
            changed, not-located source or unknown knowledge base), 3 (--online) some sources could only be left unverified,
            2 usage error, unreadable file or unusable rules file`)}`;
}

const ONLINE_OPTIONS: readonly string[] = ['online', 'refresh', 'endpoint', 'timeout'];
const OPTIONS = ['help', 'online', 'cache', 'refresh', 'endpoint', 'timeout', 'rules', 'format'] as const;

/** The `--format` value. */
function formatOf(v: string | undefined, words: Words): CheckFormat {
  if (v === undefined) return 'line';
  if (!(CHECK_FORMATS as readonly string[]).includes(v))
    throw new UsageError(words.t('--format must be line, json or sarif, not "{0}"', v));
  return v as CheckFormat;
}

/** Runs `shunong check`; resolves to the exit code. */
export async function runCheck(line: CommandLine, io: CliIo, env: CliEnv, now: () => number): Promise<number> {
  const lang = cliLang(env);
  const words = wordsOf(lang);
  if (line.help) {
    io.stdout(`${checkHelp(words)}\n`);
    return 0;
  }
  const files = line.positionals.slice(1);
  // The usage shown with an error names the online options once any of them is in play.
  const online = line.tokens.some((t) => t.kind === 'option' && ONLINE_OPTIONS.includes(t.name));
  let o: ReturnType<typeof optionsOf<(typeof OPTIONS)[number]>>;
  let timeout: number | undefined;
  let format: CheckFormat;
  try {
    o = optionsOf(line, OPTIONS, words);
    if (!o.online && (o.refresh || o.endpoint !== undefined || o.timeout !== undefined))
      throw new UsageError(words.t('--refresh, --endpoint and --timeout go with --online'));
    if (o.timeout !== undefined) timeout = timeoutMs(o.timeout, words);
    format = formatOf(o.format, words);
    if (files.length === 0 && o.online) throw new UsageError(words.t('no files to check'));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`shunong check: ${e.message}\n${checkUsage(words, online)}\n`);
    return 2;
  }
  if (files.length === 0) {
    io.stderr(`${checkUsage(words, false)}\n`);
    return 2;
  }
  const rules = await loadRules(o.rules, io, words);
  if (!rules) return 2;
  const safety: SafetyCheck = { rules, today: beijingDate(now()) };
  const options: CheckOptions = {
    safety,
    lang,
    document: format === 'line' ? undefined : (r) => checkDocument(format, r),
  };
  let passages = new CitationCache();
  let outcomes = new VerifyCache();
  if (o.cache !== undefined) {
    const loaded = await loadCache('check', o.cache, io, words);
    if (!loaded) return 2;
    ({ passages, outcomes } = loaded);
  }
  // Offline, the doses are checked against the passages the cache file keeps (read, never written).
  if (!o.online)
    return checkBulletins(files, bulletinReader(io, words), io, { ...options, passageText: passageLookup(passages) });

  const key = env['SHUNONG_API_KEY'];
  // The client redacts the key from what it reports; this guards every line once more.
  const guard = (s: string): string => (key ? redactSecret(s, key) : s);
  const client = platformClient({ endpoint: o.endpoint, timeoutMs: timeout }, io, env);
  try {
    const code = await checkBulletinsOnline(
      { ...options, files, refresh: o.refresh === true, passages, outcomes },
      bulletinReader(io, words),
      { stdout: (s) => io.stdout(guard(s)), stderr: (s) => io.stderr(guard(s)) },
      {
        search: (a, signal) => client.knowledgeSearch(a, signal ? { signal } : {}),
        now,
        describe: (e) => `${e instanceof Error ? e.message : String(e)}${hint(platformErrorKind(e) ?? '', words)}`,
      },
    );
    if (o.cache !== undefined && !(await saveCache(o.cache, { passages, outcomes }, io, words))) return 2;
    return code;
  } finally {
    await client.close();
  }
}

/** The shipped rules, with the station's file over them when given; undefined after telling why it cannot be used. */
async function loadRules(file: string | undefined, io: CliIo, words: Words): Promise<SafetyCheck['rules'] | undefined> {
  if (file === undefined) return shippedRules();
  const read = await readTextFile(file, words);
  if ('error' in read) {
    io.stderr(`shunong check: ${words.t('cannot read the rules file {0}: {1}', file, read.error)}\n`);
    return undefined;
  }
  tellEncoding(io, file, read.encoding, words);
  const { text } = read;
  const { rules, problems } = withStationRules(shippedRules(), text, file);
  // Each problem's message starts with the file's name; the line goes beside it, as an editor reads it.
  for (const p of problems) {
    const why = p.message.startsWith(`${file}: `) ? p.message.slice(file.length + 2) : p.message;
    io.stderr(`${file}:${p.line}${p.column === undefined ? '' : `:${p.column}`} ${why}\n`);
  }
  if (problems.length === 0) return rules;
  io.stderr(`shunong check: ${words.t('the rules file {0} cannot be used; fix it, or leave out --rules', file)}\n`);
  return undefined;
}
