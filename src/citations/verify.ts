/**
 * The verify plan: each distinct source looked up with at most one `knowledge_search`
 * (`scoreThreshold: 0`, `topK` 20, the best text there is as the query), plus one search over all
 * knowledge bases that names the account's bases, at most four in flight. A search cannot prove a
 * passage absent, so a source it does not return is "not located", never "does not exist"; a
 * failure of the network, the rate limit beyond the client's retries or a rejected key leaves the
 * source "unverified" — and stops the run, so the failure is not repeated for every source.
 * Pure: no vscode; the search is handed in (the platform client's `knowledgeSearch`).
 */
import type { KnowledgeSearchArgs } from '../shunong/client';
import { CancelledError, platformErrorKind } from '../shunong/errors';
import type { KnowledgeResult } from '../shunong/schemas';
import type { CitationContext, Retrieval } from './retrievalContext';
import { type KnowledgeBase, type Unverified, type VerifyCache, type VerifyOutcome } from './verifyCache';
import type { VerifySource } from './verifySources';
import { beijingDate } from '../time/beijing';

/** `topK` of a verifying search (the platform's maximum). */
export const VERIFY_TOP_K = 20;
/** Searches in flight at most. */
export const VERIFY_CONCURRENCY = 4;

/** What a run needs. */
export interface VerifyOptions {
  /** One knowledge_search (the platform client's). */
  search(args: KnowledgeSearchArgs, signal?: AbortSignal): Promise<KnowledgeResult>;
  /** The cached passages (by `doc#idx`): their text is the best query, and "changed" is judged against it. */
  passages?: { get(citation: string): CitationContext | undefined };
  /** Outcomes remembered; those of today (Beijing) are reused unless {@link refresh}. Updated by the run. */
  cache?: VerifyCache;
  /** Ask again even for sources verified today. */
  refresh?: boolean;
  /** The clock (ms since the epoch): the Beijing date of the outcomes and the retrieval times. */
  now(): number;
  concurrency?: number;
  /** Cancels the run: searches in flight are aborted, the rest are not sent. */
  signal?: AbortSignal;
  /** After each source is settled. */
  onProgress?(done: number, total: number, source: VerifySource): void;
  /** The sentence of a failure (the UI's message table); default its message. */
  describe?(err: unknown): string;
}

/** The outcome of one source. */
export interface VerifyResult {
  source: VerifySource;
  outcome: VerifyOutcome;
  /** The Beijing date of the outcome. */
  date: string;
  /** Taken from the cache: nothing was asked for it. */
  cached: boolean;
}

/** What a run found. */
export interface VerifyReport {
  results: VerifyResult[];
  /** knowledge_search calls sent (the search over all bases included). */
  requests: number;
  /** The account's knowledge bases, when known. */
  knowledgeBases?: KnowledgeBase[];
  /** The failure that stopped the run (its first source and every later one left unverified). */
  stoppedBy?: unknown;
  cancelled: boolean;
}

/** Failures that say every further request would fail too. */
const STOPPING = new Set(['auth', 'rate-limited', 'network', 'cancelled', 'insecure', 'config']);

/** Whitespace-insensitive text comparison (a passage re-indexed with other line breaks is unchanged). */
export function sameText(a: string, b: string): boolean {
  // Stryker disable next-line Regex: every blank goes, one at a time or in runs
  return a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
}

/** The query for a source: the cached passage's text, else the text the bulletin cites, else the document's name. */
export function queryFor(source: VerifySource, cached: CitationContext | undefined): string {
  if (cached && cached.content.trim()) return cached.content.trim().slice(0, 2000);
  if (source.citedText) return source.citedText;
  return source.docName.replace(/\.[^.]+$/, '') || source.docName;
}

function cachedPassage(o: VerifyOptions, s: VerifySource): CitationContext | undefined {
  const c = o.passages?.get(s.citation);
  if (!c) return undefined;
  return s.kbCode === undefined || c.kbCode === s.kbCode ? c : undefined;
}

function unverified(err: unknown, o: VerifyOptions): Unverified {
  const reason = platformErrorKind(err) ?? 'internal';
  const message = o.describe ? o.describe(err) : err instanceof Error ? err.message : String(err);
  return { status: 'unverified', reason, message };
}

/** Looks the sources up; never throws for a platform failure (it becomes an unverified outcome). */
export async function verifySources(sources: readonly VerifySource[], o: VerifyOptions): Promise<VerifyReport> {
  const today = beijingDate(o.now());
  // Stryker disable next-line ArrayDeclaration: every index is set before the report is returned
  const results: VerifyResult[] = new Array<VerifyResult>(sources.length);
  const pending: number[] = [];
  let done = 0;
  const settle = (i: number, outcome: VerifyOutcome): void => {
    const source = sources[i]!;
    results[i] = { source, outcome, date: today, cached: false };
    o.cache?.put(source.key, today, outcome);
    o.onProgress?.(++done, sources.length, source);
  };
  sources.forEach((s, i) => {
    const hit = o.refresh ? undefined : o.cache?.onDate(s.key, today);
    if (hit) {
      results[i] = { source: s, outcome: hit.outcome, date: hit.date, cached: true };
      o.onProgress?.(++done, sources.length, s);
    } else pending.push(i);
  });
  // Stryker disable next-line BooleanLiteral: set from the signal once the lookups have ended
  const report: VerifyReport = { results, requests: 0, cancelled: false };
  let stop: Unverified | undefined;
  const stopWith = (err: unknown): Unverified => {
    const u = unverified(err, o);
    if (!stop && STOPPING.has(u.reason)) {
      stop = u;
      report.stoppedBy = err;
    }
    return u;
  };

  // The account's knowledge bases, from one search over all of them (kb_code names those searched).
  let bases = o.refresh ? undefined : o.cache?.knowledgeBases(today);
  const needBases = pending.some((i) => sources[i]!.kbCode !== undefined);
  if (o.signal?.aborted) stopWith(new CancelledError());
  else if (needBases && !bases) {
    const first = sources[pending[0]!]!;
    report.requests++;
    try {
      const r = await o.search(
        { query: queryFor(first, cachedPassage(o, first)), topK: 1, scoreThreshold: 0 },
        o.signal,
      );
      bases = basesOf(r);
      o.cache?.setKnowledgeBases(today, bases);
    } catch (err) {
      // A failure that says every further request would fail too stops the run; a search that
      // answered without passages says nothing about the bases: look up anyway.
      stopWith(err);
    }
  }
  if (bases) report.knowledgeBases = bases;
  const known = bases ? new Set(bases.map((b) => b.code)) : undefined;

  const lookUp = async (i: number): Promise<VerifyOutcome> => {
    const s = sources[i]!;
    if (s.kbCode !== undefined && known && !known.has(s.kbCode))
      return { status: 'unknown-kb', kbCode: s.kbCode, known: [...known] };
    if (stop) return stop;
    if (o.signal?.aborted) return stopWith(new CancelledError());
    const cached = cachedPassage(o, s);
    const query = queryFor(s, cached);
    report.requests++;
    let r: KnowledgeResult;
    try {
      r = await o.search(
        { query, ...(s.kbCode !== undefined ? { kbCode: s.kbCode } : {}), topK: VERIFY_TOP_K, scoreThreshold: 0 },
        o.signal,
      );
    } catch (err) {
      if (platformErrorKind(err) === 'knowledge-miss') return notLocated(s);
      return stopWith(err);
    }
    const found = r.sources.find((p) => p.doc_name === s.docName && p.chunk_index === s.chunkIndex);
    if (!found) return notLocated(s);
    const codes = r.kb_code.split(',');
    const names = r.kb_name.split(',');
    const passage: Retrieval = {
      content: found.content,
      kbCode: s.kbCode ?? (codes.length === 1 ? r.kb_code : (cached?.kbCode ?? r.kb_code)),
      kbName: s.kbName ?? (names.length === 1 ? r.kb_name : (cached?.kbName ?? r.kb_name)),
      query,
      score: found.score,
      scoreType: r.score_type,
      retrievedAt: new Date(o.now()).toISOString(),
    };
    if (cached && !sameText(cached.content, found.content))
      return { status: 'changed', cached: cached.content, passage };
    return { status: 'verified', passage };
  };

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pending.length) {
      const i = pending[next++]!;
      settle(i, await lookUp(i));
    }
  };
  const limit = Math.max(1, Math.floor(o.concurrency ?? VERIFY_CONCURRENCY));
  // Stryker disable next-line MethodExpression: a worker started with nothing left to take ends at once
  await Promise.all(Array.from({ length: Math.min(limit, pending.length) }, worker));
  report.cancelled = o.signal?.aborted === true;
  return report;
}

function notLocated(s: VerifySource): VerifyOutcome {
  return s.kbCode !== undefined ? { status: 'not-located', kbCode: s.kbCode } : { status: 'not-located' };
}

/** The knowledge bases a search over all of them names (`kb_code` / `kb_name`, comma-joined, same order). */
export function basesOf(r: Pick<KnowledgeResult, 'kb_code' | 'kb_name'>): KnowledgeBase[] {
  const codes = r.kb_code.split(',').map((c) => c.trim());
  const names = r.kb_name.split(',').map((n) => n.trim());
  return codes.filter((c) => c).map((code, i) => ({ code, name: names[i] ?? '' }));
}

/** The cache record of a verified passage (so the hover works from then on). */
export function contextOfFound(source: Pick<VerifySource, 'citation'>, p: Retrieval): CitationContext {
  return { citation: source.citation, ...p };
}
