/**
 * `shunong check --online`: the offline check, and each cited source looked up on the platform
 * (the verify plan of `verify.ts`). One line per problem, then — in the same file order — one line
 * per use of a source that is not verified: `file:line:col [^label] doc#idx outcome`.
 * Exit: 1 when any problem, changed, not-located source or unknown knowledge base is reported (1 wins
 * over 3), 3 when some sources could only be left unverified, 0 when every source is verified,
 * 2 for usage errors (and unreadable files or cache). `--cache <file>` keeps the passages and
 * outcomes between runs (today's outcomes are not asked again); `--refresh` asks again anyway.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { analyzeDocument } from './analyze';
import { formatProblemLine, readBulletinText, type CheckIo } from './check';
import { CitationCache } from './context';
import { contextOfFound, verifySources, type VerifyOptions, type VerifyResult } from './verify';
import { VerifyCache } from './verifyCache';
import { collectSources, type SourceDocument } from './verifySources';

/** The check's options. */
export interface CheckArgs {
  files: string[];
  online: boolean;
  cache?: string;
  refresh: boolean;
  endpoint?: string;
  timeoutMs?: number;
}

export const CHECK_ONLINE_USAGE =
  'usage: shunong check <files…> [--online [--cache <file>] [--refresh] [--endpoint url] [--timeout ms]]';

/** Parses `check`'s arguments; throws an Error with the usage problem. */
export function parseCheckArgs(argv: readonly string[]): CheckArgs {
  const out: CheckArgs = { files: [], online: false, refresh: false };
  let dashDash = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (dashDash || !a.startsWith('-') || a === '-') {
      out.files.push(a);
      continue;
    }
    if (a === '--') {
      dashDash = true;
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (!v) throw new Error(`${name} needs a value`);
      return v;
    };
    if (name === '--online') out.online = true;
    else if (name === '--refresh') out.refresh = true;
    else if (name === '--cache') out.cache = value();
    else if (name === '--endpoint') out.endpoint = value();
    else if (name === '--timeout') {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) <= 0)
        throw new Error(`--timeout needs a positive number of milliseconds, not "${v}"`);
      out.timeoutMs = Number(v);
    } else throw new Error(`unknown option ${name}`);
  }
  if (out.files.length === 0) throw new Error('no files to check');
  if (
    !out.online &&
    (out.cache !== undefined || out.refresh || out.endpoint !== undefined || out.timeoutMs !== undefined)
  )
    throw new Error('--cache, --refresh, --endpoint and --timeout go with --online');
  return out;
}

/** The JSON of a `--cache` file. */
interface CacheFile {
  version: 1;
  passages: unknown;
  verify: unknown;
}

/** The words of an outcome in a report line. */
export function outcomeText(r: VerifyResult): string {
  const o = r.outcome;
  switch (o.status) {
    case 'verified':
      return 'verified';
    case 'changed':
      return 'changed (the passage on the platform differs from the cached text)';
    case 'not-located':
      return `not located${o.kbCode ? ` in ${o.kbCode}` : ''} (a search for the cited text did not return it)`;
    case 'unknown-kb':
      return `unknown knowledge base ${o.kbCode} (the account's: ${o.known.join(', ')})`;
    case 'unverified':
      return `unverified (${o.reason}: ${o.message.replace(/\s+/g, ' ')})`;
  }
}

/** What the online check needs besides its arguments. */
export type OnlineDeps = Pick<VerifyOptions, 'search' | 'now' | 'signal' | 'describe'>;

/** Runs the online check; resolves to the exit code. */
export async function runOnlineCheck(args: CheckArgs, io: CheckIo, deps: OnlineDeps): Promise<number> {
  let passages = new CitationCache();
  let outcomes = new VerifyCache();
  if (args.cache !== undefined) {
    const loaded = await loadCache(args.cache, io);
    if (!loaded) return 2;
    ({ passages, outcomes } = loaded);
  }
  const docs: SourceDocument[] = [];
  const lines = new Map<string, { offset: number; text: string }[]>();
  let unreadable = false;
  let problems = 0;
  for (const file of args.files) {
    const read = await readBulletinText(file);
    if ('error' in read) {
      io.stderr(`shunong check: cannot read ${file}: ${read.error}\n`);
      unreadable = true;
      continue;
    }
    const text = read.text;
    const model = analyzeDocument(text);
    docs.push({ file, text, model });
    problems += model.problems.length;
    lines.set(
      file,
      model.problems.map((p) => ({ offset: p.range.start, text: formatProblemLine(file, p) })),
    );
  }
  const sources = collectSources(docs);
  const report = await verifySources(sources, { ...deps, passages, cache: outcomes, refresh: args.refresh });
  const counts = new Map<string, number>();
  for (const r of report.results) {
    counts.set(r.outcome.status, (counts.get(r.outcome.status) ?? 0) + 1);
    if (r.outcome.status === 'verified' || r.outcome.status === 'changed')
      passages.put(contextOfFound(r.source, r.outcome.passage));
    if (r.outcome.status === 'verified') continue;
    for (const u of r.source.uses) {
      const label = u.label !== undefined ? ` [^${u.label}]` : '';
      lines.get(u.file)?.push({
        offset: u.range.start,
        text: `${u.file}:${u.range.line + 1}:${u.range.character + 1}${label} ${r.source.citation} ${outcomeText(r)}`,
      });
    }
  }
  for (const file of args.files)
    for (const l of (lines.get(file) ?? []).sort((a, b) => a.offset - b.offset)) io.stdout(`${l.text}\n`);
  const summary = ['verified', 'changed', 'not-located', 'unknown-kb', 'unverified']
    .filter((s) => counts.has(s))
    .map((s) => `${counts.get(s)} ${s.replace('-kb', ' knowledge base').replace('-', ' ')}`);
  io.stderr(
    `shunong check: ${problems} problem${problems === 1 ? '' : 's'}; ${sources.length} source${sources.length === 1 ? '' : 's'}${summary.length ? `: ${summary.join(', ')}` : ''}; ${report.requests} request${report.requests === 1 ? '' : 's'}\n`,
  );
  if (args.cache !== undefined && !(await saveCache(args.cache, passages, outcomes, io))) return 2;
  if (unreadable) return 2;
  if (problems > 0 || counts.has('changed') || counts.has('not-located') || counts.has('unknown-kb')) return 1;
  return counts.has('unverified') ? 3 : 0;
}

async function loadCache(
  file: string,
  io: CheckIo,
): Promise<{ passages: CitationCache; outcomes: VerifyCache } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { passages: new CitationCache(), outcomes: new VerifyCache() };
    io.stderr(`shunong check: cannot read the cache ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}\n`);
    return undefined;
  }
  let data: Partial<CacheFile>;
  try {
    data = JSON.parse(text) as Partial<CacheFile>;
  } catch {
    io.stderr(`shunong check: the cache ${file} is not JSON; remove it or name another file with --cache\n`);
    return undefined;
  }
  return { passages: CitationCache.fromJSON(data.passages), outcomes: VerifyCache.fromJSON(data.verify) };
}

async function saveCache(file: string, passages: CitationCache, outcomes: VerifyCache, io: CheckIo): Promise<boolean> {
  const data: CacheFile = { version: 1, passages: passages.toJSON(), verify: outcomes.toJSON() };
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, `${JSON.stringify(data, null, 1)}\n`, 'utf8');
    await rename(tmp, file);
    return true;
  } catch (err) {
    io.stderr(`shunong check: cannot write the cache ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}\n`);
    return false;
  }
}
