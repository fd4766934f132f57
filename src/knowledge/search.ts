/**
 * Runs one search: a single knowledge base, or every base of the account queried separately and
 * fused by rank (RRF, k = 60; duplicates merged), so each passage is attributed to exactly one
 * knowledge base (the comma-joined `kb_code` of an all-bases answer never becomes a passage's base).
 * Pure: no `vscode`; the platform call and the no-hit test are injected. Only the zod-free modules beside it are
 * imported, so this module can live in the activation bundle.
 */
import { fuseLists } from './fusion';
import type { MissInfo } from './miss';
import { presentScores, type ScoreDisplay } from './score';
import type { SearchCounts } from './summary';
import { splitJoined, type ResultList } from './types';
import type { CitedPassage } from '../citations/passage';
import type { ScoreView, SearchOptions, SearchRecord, SeenKnowledgeBase, StoredPassage } from './history';

/** One passage of a knowledge_search result (structurally the platform's `KnowledgeSource`). */
export interface SourceLike {
  readonly doc_name: string;
  readonly chunk_index: number;
  readonly content: string;
  readonly score: number;
}

/** A knowledge_search hit (structurally the platform's `KnowledgeResult`). */
export interface ResultLike {
  readonly kb_code: string;
  readonly kb_name: string;
  /** The retrieval mode the platform ran (`hybrid`, `vector`). */
  readonly mode?: string;
  readonly score_type: string;
  readonly counts: CountsLike;
  readonly sources: readonly SourceLike[];
  readonly warnings: readonly string[];
}

/** `counts` as the platform parses them (any stage may be missing). */
export interface CountsLike {
  readonly vector?: number | null | undefined;
  readonly fulltext?: number | null | undefined;
  readonly hybrid?: number | null | undefined;
  readonly rerank?: number | null | undefined;
}

const STAGES = ['vector', 'fulltext', 'hybrid', 'rerank'] as const;

/** The counts with the missing stages left out. */
function cleanCounts(c: CountsLike): SearchCounts {
  const out: Partial<Record<(typeof STAGES)[number], number>> = {};
  for (const k of STAGES) {
    const n = c[k];
    if (typeof n === 'number' && Number.isFinite(n)) out[k] = n;
  }
  return out;
}

/** What a search needs from the outside. */
export interface SearchDeps {
  /** One knowledge_search call; must honour `signal`. */
  call(options: SearchOptions, signal: AbortSignal): Promise<ResultLike>;
  /** The miss details when `error` is the no-hit failure, else undefined. */
  missOf(error: unknown): MissInfo | undefined;
  /** The knowledge bases known so far (for a search over all of them). */
  readonly bases: readonly SeenKnowledgeBase[];
  /** True when `bases` came from the account's own answer (else one call without kbCode lists them first). */
  readonly basesListed: boolean;
  /** The clock (injected for tests). */
  now(): Date;
  /** The usual score threshold (the setting): passages a search under it returned are marked. */
  readonly usualThreshold?: number;
  /** Calls in flight at once for a search over several bases (default 3). */
  readonly concurrency?: number;
}

/** A knowledge base named by a result (`listed`: the answer of a search over all of the account's bases). */
export interface ObservedBases {
  readonly kbCode: string;
  readonly kbName: string;
  readonly listed: boolean;
}

/** A base whose call failed for another reason than a miss (the others' results are still shown). */
export interface FailedBase {
  readonly kbCode: string;
  readonly error: unknown;
}

/** What a search ended with. */
export type SearchOutcome =
  | {
      readonly kind: 'hit';
      readonly record: SearchRecord;
      /** True when several knowledge bases were queried separately and fused by rank. */
      readonly fused: boolean;
      /** How many lists had hits (fused searches). */
      readonly lists: number;
      /** The retrieval mode the platform reported (the lists' modes, comma-joined, when they differ). */
      readonly mode: string;
      readonly counts: SearchCounts;
      readonly warnings: readonly string[];
      readonly observed: readonly ObservedBases[];
      readonly failed: readonly FailedBase[];
    }
  | {
      readonly kind: 'miss';
      readonly miss: MissInfo;
      readonly options: SearchOptions;
      readonly observed: readonly ObservedBases[];
      readonly failed: readonly FailedBase[];
    };

let counter = 0;

/**
 * Runs the search `options`. With a `kbCode`, one call. Without, the account's bases are searched
 * one by one (after one listing call if they are not known yet) and fused; when there is only one
 * base, its answer is used as is. A miss everywhere is returned as a miss with the summed candidate
 * counts and the best of the best scores. Failures other than a miss are thrown when no base answered.
 */
export async function runSearch(options: SearchOptions, deps: SearchDeps, signal: AbortSignal): Promise<SearchOutcome> {
  const observed: ObservedBases[] = [];
  if (options.kbCode) {
    try {
      const result = await deps.call(options, signal);
      observed.push({ kbCode: result.kb_code, kbName: result.kb_name, listed: false });
      return single(options, result, deps, observed);
    } catch (error) {
      const miss = deps.missOf(error);
      if (!miss) throw error;
      return { kind: 'miss', miss, options, observed, failed: [] };
    }
  }

  let bases = deps.bases.map((b) => b.code);
  if (!deps.basesListed || bases.length === 0) {
    // One call over every base tells which bases the account has (and is the answer when only one).
    try {
      const result = await deps.call(options, signal);
      observed.push({ kbCode: result.kb_code, kbName: result.kb_name, listed: true });
      bases = splitJoined(result.kb_code).filter((s) => s !== '');
      if (bases.length <= 1) return single(options, result, deps, observed);
    } catch (error) {
      const miss = deps.missOf(error);
      if (!miss) throw error;
      return { kind: 'miss', miss, options, observed, failed: [] };
    }
  }
  if (bases.length === 1) return runSearch({ ...options, kbCode: bases[0] ?? '' }, deps, signal);

  const hits: { code: string; result: ResultLike }[] = [];
  const misses: MissInfo[] = [];
  const failed: FailedBase[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < bases.length) {
      const code = bases[next++] ?? '';
      try {
        const result = await deps.call({ ...options, kbCode: code }, signal);
        observed.push({ kbCode: result.kb_code, kbName: result.kb_name, listed: false });
        hits.push({ code, result });
      } catch (error) {
        if (signal.aborted) throw error;
        const miss = deps.missOf(error);
        if (miss) misses.push(miss);
        else failed.push({ kbCode: code, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 3, bases.length) }, worker));
  if (hits.length === 0) {
    if (misses.length === 0) throw failed[0]?.error ?? new Error('no knowledge base answered');
    return { kind: 'miss', miss: combineMisses(misses), options, observed, failed };
  }
  // Lists in the bases' order, so ties break the same way every time.
  hits.sort((a, b) => bases.indexOf(a.code) - bases.indexOf(b.code));
  if (hits.length === 1 && hits[0]) {
    const one = single({ ...options }, hits[0].result, deps, observed);
    return { ...one, failed };
  }
  return fused(options, hits, deps, observed, failed);
}

/** A single list: the server's order kept, each passage's score shown per the list's score_type. */
function single(
  options: SearchOptions,
  result: ResultLike,
  deps: SearchDeps,
  observed: ObservedBases[],
): SearchOutcome & { kind: 'hit' } {
  const at = deps.now().toISOString();
  const codes = splitJoined(result.kb_code).filter((s) => s !== '');
  const names = splitJoined(result.kb_name);
  // A list from several bases cannot attribute its passages; `runSearch` only gets here with one base.
  const kbCode = codes.length === 1 ? (codes[0] ?? '') : '';
  const kbName = codes.length === 1 ? (names[0] ?? '') : '';
  const list: ResultList<SourceLike> = { id: kbCode, scoreType: result.score_type, sources: result.sources };
  const displays = presentScores(list, cleanCounts(result.counts));
  const passages: StoredPassage[] = result.sources.map((s, i) => {
    const view: ScoreView = {
      rank: i + 1,
      of: result.sources.length,
      ...readingOf(displays[i], s.score, options, deps),
    };
    return { passage: cited(s, kbCode, kbName, result.score_type, options.query, at), view };
  });
  return {
    kind: 'hit',
    record: { id: newId(deps.now()), options, at, kbCodes: codes, passages },
    fused: false,
    lists: 1,
    mode: result.mode ?? '',
    counts: cleanCounts(result.counts),
    warnings: result.warnings,
    observed,
    failed: [],
  };
}

/** Several lists fused by rank; each passage keeps the base, raw score and score type of its best hit. */
function fused(
  options: SearchOptions,
  hits: readonly { code: string; result: ResultLike }[],
  deps: SearchDeps,
  observed: ObservedBases[],
  failed: FailedBase[],
): SearchOutcome & { kind: 'hit' } {
  const at = deps.now().toISOString();
  const lists: ResultList<SourceLike>[] = hits.map((h) => ({
    id: h.code,
    scoreType: h.result.score_type,
    sources: h.result.sources,
  }));
  const fusion = fuseLists(lists, { k: 60 });
  // Each passage is read in the list of its best hit (its own base's retrievers and counts).
  const displays = lists.map((l, i) => presentScores(l, cleanCounts(hits[i]?.result.counts ?? {})));
  const passages: StoredPassage[] = fusion.map((f) => {
    const best = f.hits.reduce((b, h) => (h.rank < b.rank ? h : b));
    const from = hits[best.listIndex];
    const view: ScoreView = {
      rank: f.rank,
      of: fusion.length,
      ...readingOf(displays[best.listIndex]?.[best.rank - 1], best.score, options, deps),
      foundIn: f.hits.length,
      lists: hits.length,
    };
    return {
      passage: cited(
        best.passage,
        from?.code ?? '',
        from?.result.kb_name.trim() ?? '',
        from?.result.score_type ?? '',
        options.query,
        at,
      ),
      view,
    };
  });
  const counts: Partial<Record<(typeof STAGES)[number], number>> = {};
  for (const h of hits) {
    for (const k of STAGES) {
      const n = h.result.counts[k];
      if (typeof n === 'number' && Number.isFinite(n)) counts[k] = (counts[k] ?? 0) + n;
    }
  }
  const warnings = [...new Set(hits.flatMap((h) => h.result.warnings))];
  return {
    kind: 'hit',
    record: { id: newId(deps.now()), options, at, kbCodes: hits.map((h) => h.code), passages },
    fused: true,
    lists: hits.length,
    mode: [...new Set(hits.map((h) => h.result.mode ?? ''))].filter((m) => m !== '').join(', '),
    counts,
    warnings,
    observed,
    failed,
  };
}

/** What a passage's view keeps of its score's reading: the retrievers, the threshold, whether it is under the usual one. */
function readingOf(
  d: ScoreDisplay | undefined,
  score: number,
  options: SearchOptions,
  deps: Pick<SearchDeps, 'usualThreshold'>,
): Pick<ScoreView, 'found' | 'threshold' | 'belowUsual'> {
  const used = options.scoreThreshold;
  const usual = deps.usualThreshold;
  const lowered = used !== undefined && usual !== undefined && used < usual;
  const below = lowered && (d?.kind === 'cosine' ? score < usual : d?.kind !== 'rrf' || d.found !== 'fulltext');
  return {
    ...(d?.kind === 'rrf' ? { found: d.found } : {}),
    ...(used !== undefined ? { threshold: used } : {}),
    ...(below ? { belowUsual: usual } : {}),
  };
}

/** Several misses as one: candidate counts summed, the threshold of the first, the best score the highest. */
export function combineMisses(misses: readonly MissInfo[]): MissInfo {
  const sum = (pick: (m: MissInfo) => number | null | undefined): number | undefined => {
    const values = misses.map(pick).filter((n): n is number => typeof n === 'number');
    return values.length ? values.reduce((a, b) => a + b, 0) : undefined;
  };
  const bests = misses.map((m) => m.bestScore).filter((n): n is number => typeof n === 'number');
  const threshold = misses.map((m) => m.threshold).find((n): n is number => typeof n === 'number');
  return {
    vectorCandidates: sum((m) => m.vectorCandidates),
    fulltextCandidates: sum((m) => m.fulltextCandidates),
    filtered: sum((m) => m.filtered),
    threshold,
    bestScore: bests.length ? Math.max(...bests) : undefined,
  };
}

function cited(
  s: SourceLike,
  kbCode: string,
  kbName: string,
  scoreType: string,
  query: string,
  retrievedAt: string,
): CitedPassage {
  return {
    docName: s.doc_name,
    chunkIndex: s.chunk_index,
    content: s.content,
    kbCode,
    kbName,
    query,
    score: s.score,
    scoreType,
    retrievedAt,
  };
}

function newId(now: Date): string {
  counter = (counter + 1) % 1e6;
  return `${now.getTime().toString(36)}-${counter.toString(36)}`;
}
