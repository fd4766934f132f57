/**
 * What a hybrid (RRF) score can tell about how a passage was found. The vendor documents the score
 * only as `rrf(≈1/(60+rank), 仅用于排序)`: each of the two retrievers (full-text and meaning/vector
 * search) that found a passage adds about 1/(60 + its rank there). So a sum above 1/61 (the most one
 * list can give) needs both lists; `counts` (how many candidates each retriever had) and the
 * passage's rank in an RRF-ordered list tell some of the rest. Since "≈" is all the vendor promises,
 * every reading is "likely", and none of it is a confidence: the score only orders results.
 */

/** The RRF constant the vendor's `1/(60+rank)` names. */
const RRF_K = 60;

/**
 * How a passage was likely found: by both retrievers, by one (`vector` = the meaning search,
 * `fulltext` = the full-text search, `one` = one of them, which cannot be told), or `unknown`.
 */
export type FoundBy = 'both' | 'one' | 'vector' | 'fulltext' | 'unknown';

/** Candidate counts of a hybrid search (`counts` of the result); any of them may be missing. */
export interface RrfCounts {
  readonly vector?: number | null | undefined;
  readonly fulltext?: number | null | undefined;
  readonly hybrid?: number | null | undefined;
  readonly rerank?: number | null | undefined;
}

/** What is known about the passage besides its score. */
export interface RrfContext {
  /** 1-based rank in a list ordered by the RRF score (leave out when the order was changed, e.g. reranked). */
  readonly rank?: number;
  readonly counts?: RrfCounts;
}

/**
 * Half a unit of the last decimal the score was written with (a score sent as 0.0164 may be any
 * value in 0.01635..0.01645), at least 1e-12.
 */
export function roundingTolerance(score: number): number {
  const text = String(score);
  if (/e/i.test(text)) return 1e-12;
  const decimals = text.split('.')[1]?.length ?? 0;
  return Math.max(5 / 10 ** (decimals + 1), 1e-12);
}

/** The score one list gives its passage at `rank` (1-based): 1/(k + rank). */
export function rrfTerm(rank: number, k = RRF_K): number {
  return 1 / (k + rank);
}

const count = (n: number | null | undefined): number | undefined =>
  typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;

/**
 * Reads an RRF sum as {@link FoundBy}. In order:
 * - a retriever that had no candidate (`counts.vector` or `counts.fulltext` 0) found nothing, so
 *   the other found it alone; `vector + fulltext − hybrid ≤ 0` means no passage was in both lists;
 * - a sum above 1/61 (beyond the score's rounding) needs both lists;
 * - a sum below 1/(60 + rank) cannot come from one list (in an RRF-ordered list, a passage one list
 *   found at rank q is preceded by that list's q − 1 better passages, so q ≤ rank): both;
 * - a sum below the smallest both-lists sum the counts allow, 1/(60 + vector) + 1/(60 + fulltext),
 *   is one list's; below 1/(60 + fulltext) it cannot be the full-text list's (and likewise for vector);
 * - otherwise `unknown`.
 */
export function readRrf(score: number, context: RrfContext = {}): FoundBy {
  if (!Number.isFinite(score) || score <= 0) return 'unknown';
  const v = count(context.counts?.vector);
  const f = count(context.counts?.fulltext);
  const h = count(context.counts?.hybrid);
  if (f === 0 && v !== 0) return 'vector';
  if (v === 0 && f !== 0) return 'fulltext';
  const tol = roundingTolerance(score);
  const oneList = v !== undefined && f !== undefined && h !== undefined && v + f - h <= 0;
  if (!oneList && score - tol > rrfTerm(1)) return 'both';
  const rank = context.rank;
  if (!oneList && rank !== undefined && Number.isInteger(rank) && rank >= 1 && score + tol < rrfTerm(rank)) {
    return 'both';
  }
  const bothPossible = !oneList && (v === undefined || f === undefined || score + tol >= rrfTerm(v) + rrfTerm(f));
  if (bothPossible) return 'unknown';
  const notFulltext = f !== undefined && score + tol < rrfTerm(f);
  const notVector = v !== undefined && score + tol < rrfTerm(v);
  if (notFulltext && !notVector) return 'vector';
  if (notVector && !notFulltext) return 'fulltext';
  return 'one';
}
