/**
 * `shunong check --online`: the offline check, and each cited source looked up on the platform
 * (the verify plan of `verify.ts`). Each use of a source that is not verified is a citation finding
 * too, in document order among the others: `file:line:col [^label] doc#idx outcome` in the line
 * format, rule `citations/<outcome>` in the documents (an unverified source a warning, the others
 * errors). A summary goes to stderr.
 * Exit: 1 when any problem, changed, not-located source or unknown knowledge base is reported (1 wins
 * over 3), 3 when some sources could only be left unverified, 0 when every source is verified,
 * 2 for an unreadable file. The passages and outcomes kept between runs (`--cache <file>`) are the
 * caller's to load and save ({@link parseCacheFile}, {@link cacheFileText}); today's outcomes are
 * not asked again unless `refresh`. The bulletins are read by the caller's reader.
 */
import { bulletinDate } from '../bulletin/date';
import { wordsOf, type Words } from '../text/words';
import { analyzeDocument } from './analyze';
import {
  emptyReport,
  findingLine,
  notesText,
  problemsText,
  reportBulletin,
  reportDoses,
  type CheckFinding,
  type CheckIo,
  type CheckOptions,
  type CheckReport,
  type ReadBulletin,
} from './check';
import { citationRuleId } from './problemText';
import type { PassageText } from '../safety/index';
import { CitationCache } from './retrievalContext';
import { contextOfFound, verifySources, type VerifyOptions, type VerifyResult } from './verify';
import { VerifyCache, type VerifyStatus } from './verifyCache';
import { collectSources, type SourceDocument, type SourceUse } from './verifySources';

/** What one online check reads and keeps, and how it reports. */
export interface OnlineCheck extends CheckOptions {
  files: readonly string[];
  /** Ask again even for outcomes already kept today. */
  refresh: boolean;
  /** The passages known so far; the verified and changed ones are added. */
  passages: CitationCache;
  /** The outcomes known so far; this check's are added. */
  outcomes: VerifyCache;
}

/** The JSON of a `--cache` file. */
interface CacheFile {
  version: 1;
  passages: unknown;
  verify: unknown;
}

type NotVerified = Exclude<VerifyResult['outcome'], { status: 'verified' }>;

/** The words of an outcome in a report line (a verified source has none). */
function outcomeText(o: NotVerified, words: Words): string {
  switch (o.status) {
    case 'changed':
      return words.t('changed (the passage on the platform differs from the cached text)');
    case 'not-located':
      return o.kbCode
        ? words.t('not located in {0} (a search for the cited text did not return it)', o.kbCode)
        : words.t('not located (a search for the cited text did not return it)');
    case 'unknown-kb':
      return words.t("unknown knowledge base {0} (the account's: {1})", o.kbCode, o.known.join(', '));
    case 'unverified':
      return words.t('unverified ({0}: {1})', o.reason, o.message.replace(/\s+/g, ' '));
  }
}

/** One use of a source that is not verified, as a citation finding. */
function outcomeFinding(use: SourceUse, citation: string, o: NotVerified, words: Words): CheckFinding {
  const r = use.range;
  return {
    file: use.file,
    line: r.line + 1,
    column: r.character + 1,
    endLine: r.endLine + 1,
    endColumn: r.endCharacter + 1,
    severity: o.status === 'unverified' ? 'warning' : 'error',
    rule: citationRuleId(o.status),
    source: 'citations',
    message: `${citation} ${outcomeText(o, words)}`,
    label: use.label,
    kind: { citation: o.status },
    offset: r.start,
  };
}

/** The outcomes in the order the summary lists them, each `{0} verified`, … in words. */
function outcomeCount(status: VerifyStatus, n: number, words: Words): string {
  switch (status) {
    case 'verified':
      return words.t('{0} verified', n);
    case 'changed':
      return words.t('{0} changed', n);
    case 'not-located':
      return words.t('{0} not located', n);
    case 'unknown-kb':
      return words.t('{0} unknown knowledge base', n);
    case 'unverified':
      return words.t('{0} unverified', n);
  }
}

const SUMMARY_ORDER: readonly VerifyStatus[] = ['verified', 'changed', 'not-located', 'unknown-kb', 'unverified'];

/** The summary line of an online check (without `shunong check: ` and line break). */
function onlineSummaryText(r: CheckReport & { online: NonNullable<CheckReport['online']> }, words: Words): string {
  const { sources, outcomes, requests } = r.online;
  const counts = SUMMARY_ORDER.flatMap((s) => (outcomes[s] ? [outcomeCount(s, outcomes[s], words)] : []));
  let sourcesText = sources === 1 ? words.t('{0} source', sources) : words.t('{0} sources', sources);
  if (counts.length)
    sourcesText = words.t(
      '{0}: {1}',
      sourcesText,
      counts.reduce((a, b) => words.t('{0}, {1}', a, b)),
    );
  const requestsText = requests === 1 ? words.t('{0} request', requests) : words.t('{0} requests', requests);
  return (
    words.t('{0}; {1}; {2}', problemsText(r.problems, words), sourcesText, requestsText) +
    notesText(r.notes, r.silenced, words)
  );
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
  const words = wordsOf(check.lang);
  const docs: SourceDocument[] = [];
  const byFile = new Map<string, CheckFinding[]>();
  const report = emptyReport(check);
  const withProblems = new Set<string>();
  for (const file of check.files) {
    const got = await read(file);
    if ('error' in got) {
      io.stderr(`shunong check: ${words.t('cannot read {0}: {1}', file, got.error)}\n`);
      report.files.push({ file, error: got.error });
      continue;
    }
    report.files.push({ file });
    const text = got.text;
    const model = analyzeDocument(text);
    docs.push({ file, text, model });
    // The doses are checked once the sources are looked up: the passages fetched are then at hand.
    const one = reportBulletin(file, text, model, { ...check, skipDoses: true });
    if (one.problems > 0) {
      report.filesWithProblems++;
      withProblems.add(file);
    }
    report.problems += one.problems;
    report.notes += one.notes;
    report.silenced += one.silenced;
    byFile.set(file, one.findings);
  }
  const sources = collectSources(docs);
  const verified = await verifySources(sources, { ...deps, passages, cache: outcomes, refresh: check.refresh });
  const counts: Partial<Record<VerifyStatus, number>> = {};
  const changed = new Set<string>();
  for (const r of verified.results) {
    counts[r.outcome.status] = (counts[r.outcome.status] ?? 0) + 1;
    if (r.outcome.status === 'verified' || r.outcome.status === 'changed')
      passages.put(contextOfFound(r.source, r.outcome.passage));
    if (r.outcome.status === 'changed') changed.add(r.source.citation);
    if (r.outcome.status === 'verified') continue;
    for (const u of r.source.uses) byFile.get(u.file)?.push(outcomeFinding(u, r.source.citation, r.outcome, words));
  }
  const lookup = passageLookup(passages, changed);
  for (const doc of docs) {
    const doses = reportDoses(doc.file, doc.text, bulletinDate(doc.text, check.safety.today).date, {
      ...check,
      passageText: lookup,
    });
    if (doses.problems > 0 && !withProblems.has(doc.file)) report.filesWithProblems++;
    report.problems += doses.problems;
    report.notes += doses.notes;
    report.silenced += doses.silenced;
    byFile.get(doc.file)?.push(...doses.findings);
  }
  for (const file of check.files) report.findings.push(...(byFile.get(file) ?? []).sort((a, b) => a.offset - b.offset));
  report.online = { sources: sources.length, outcomes: counts, requests: verified.requests };
  io.stdout(check.document ? check.document(report) : report.findings.map((f) => `${findingLine(f)}\n`).join(''));
  io.stderr(`shunong check: ${onlineSummaryText({ ...report, online: report.online }, words)}\n`);
  if (report.files.some((f) => f.error !== undefined)) return 2;
  if (report.problems > 0 || counts.changed || counts['not-located'] || counts['unknown-kb']) return 1;
  return counts.unverified ? 3 : 0;
}

/**
 * The cited passages at hand for the dose check: the cache's text of each (`changed`: the platform's
 * current text, which verification found differs from the one cited).
 */
export function passageLookup(
  passages: CitationCache,
  changed: ReadonlySet<string> = new Set(),
): (citation: string) => PassageText | undefined {
  return (citation) => {
    const ctx = passages.get(citation);
    return ctx ? { text: ctx.content, ...(changed.has(citation) ? { changed: true } : {}) } : undefined;
  };
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
