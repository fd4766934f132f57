/**
 * `shunong check --online`: the offline check, and each cited source looked up on the platform
 * (the verify plan of `verify.ts`). One line per problem, then — in the same file order — one line
 * per use of a source that is not verified: `file:line:col [^label] doc#idx outcome`.
 * Exit: 1 when any problem, changed, not-located source or unknown knowledge base is reported (1 wins
 * over 3), 3 when some sources could only be left unverified, 0 when every source is verified,
 * 2 for an unreadable file. The passages and outcomes kept between runs (`--cache <file>`) are the
 * caller's to load and save ({@link parseCacheFile}, {@link cacheFileText}); today's outcomes are
 * not asked again unless `refresh`. The bulletins are read by the caller's reader.
 */
import { analyzeDocument } from './analyze';
import { notesText, reportBulletin, type CheckIo, type ReadBulletin, type SafetyCheck } from './check';
import { CitationCache } from './retrievalContext';
import { contextOfFound, verifySources, type VerifyOptions, type VerifyResult } from './verify';
import { VerifyCache } from './verifyCache';
import { collectSources, type SourceDocument } from './verifySources';

/** What one online check reads and keeps. */
export interface OnlineCheck {
  files: readonly string[];
  /** Ask again even for outcomes already kept today. */
  refresh: boolean;
  /** The passages known so far; the verified and changed ones are added. */
  passages: CitationCache;
  /** The outcomes known so far; this check's are added. */
  outcomes: VerifyCache;
  /** The safety lint run beside the citation check. */
  safety: SafetyCheck;
}

/** The JSON of a `--cache` file. */
interface CacheFile {
  version: 1;
  passages: unknown;
  verify: unknown;
}

/** The words of an outcome in a report line (a verified source has none). */
function outcomeText(o: Exclude<VerifyResult['outcome'], { status: 'verified' }>): string {
  switch (o.status) {
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
export async function checkBulletinsOnline(
  check: OnlineCheck,
  read: ReadBulletin,
  io: CheckIo,
  deps: OnlineDeps,
): Promise<number> {
  const { passages, outcomes } = check;
  const docs: SourceDocument[] = [];
  const lines = new Map<string, { offset: number; text: string }[]>();
  let unreadable = false;
  let problems = 0;
  let notes = 0;
  for (const file of check.files) {
    const got = await read(file);
    if ('error' in got) {
      io.stderr(`shunong check: cannot read ${file}: ${got.error}\n`);
      unreadable = true;
      continue;
    }
    const text = got.text;
    const model = analyzeDocument(text);
    docs.push({ file, text, model });
    const report = reportBulletin(file, text, model, check.safety);
    problems += report.problems;
    notes += report.notes;
    lines.set(file, report.lines);
  }
  const sources = collectSources(docs);
  const report = await verifySources(sources, { ...deps, passages, cache: outcomes, refresh: check.refresh });
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
        text: `${u.file}:${u.range.line + 1}:${u.range.character + 1}${label} ${r.source.citation} ${outcomeText(r.outcome)}`,
      });
    }
  }
  for (const file of check.files)
    for (const l of (lines.get(file) ?? []).sort((a, b) => a.offset - b.offset)) io.stdout(`${l.text}\n`);
  const summary = ['verified', 'changed', 'not-located', 'unknown-kb', 'unverified']
    .filter((s) => counts.has(s))
    .map((s) => `${counts.get(s)} ${s.replace('-kb', ' knowledge base').replace('-', ' ')}`);
  io.stderr(
    `shunong check: ${problems} problem${problems === 1 ? '' : 's'}; ${sources.length} source${sources.length === 1 ? '' : 's'}${summary.length ? `: ${summary.join(', ')}` : ''}; ${report.requests} request${report.requests === 1 ? '' : 's'}${notesText(notes)}\n`,
  );
  if (unreadable) return 2;
  if (problems > 0 || counts.has('changed') || counts.has('not-located') || counts.has('unknown-kb')) return 1;
  return counts.has('unverified') ? 3 : 0;
}

/** The passages and outcomes of a cache file's text, or why it cannot be used. */
export function parseCacheFile(
  text: string,
): { passages: CitationCache; outcomes: VerifyCache } | { error: 'not-json' | 'not-a-cache' } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: 'not-json' };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { error: 'not-a-cache' };
  const file = data as Partial<CacheFile>;
  return { passages: CitationCache.fromJSON(file.passages), outcomes: VerifyCache.fromJSON(file.verify) };
}

/** The text of a cache file keeping these passages and outcomes. */
export function cacheFileText(passages: CitationCache, outcomes: VerifyCache): string {
  const data: CacheFile = { version: 1, passages: passages.toJSON(), verify: outcomes.toJSON() };
  return `${JSON.stringify(data, null, 1)}\n`;
}
