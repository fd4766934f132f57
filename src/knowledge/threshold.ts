/**
 * A client-side minimum similarity. It means something only for cosine scores; RRF scores (about
 * 0.01–0.03) and unknown scores are never filtered by it, and the result says why for the UI.
 */
import { formatScore, scoreKind } from './score';
import { msg, type Message } from './messages';
import type { PassageLike, ResultList } from './types';

/** Why the minimum was or was not applied. */
export type MinSimilarityReason = 'applied' | 'disabled' | 'not-similarity-rrf' | 'not-similarity-unknown';

/** The outcome of {@link applyMinSimilarity}. */
export interface MinSimilarityResult<P extends PassageLike> {
  /** The list to show: filtered for cosine lists, the very same list otherwise. */
  readonly list: ResultList<P>;
  readonly applied: boolean;
  readonly reason: MinSimilarityReason;
  /** How many passages were hidden. */
  readonly removed: number;
  /** What to tell the user about it. */
  readonly message: Message;
}

/**
 * Keeps the passages of a cosine list scoring at least `min`. A `min` of 0 or less (or absent)
 * disables it; for RRF and unknown lists the list is returned unchanged with the reason.
 * Throws a RangeError for a NaN minimum.
 */
export function applyMinSimilarity<P extends PassageLike>(
  list: ResultList<P>,
  min: number | undefined,
): MinSimilarityResult<P> {
  if (min !== undefined && Number.isNaN(min)) throw new RangeError('minimum similarity is NaN');
  const kind = scoreKind(list.scoreType);
  if (min === undefined || min <= 0) {
    return { list, applied: false, reason: 'disabled', removed: 0, message: msg('minSimilarity.disabled') };
  }
  if (kind === 'rrf') {
    return { list, applied: false, reason: 'not-similarity-rrf', removed: 0, message: msg('minSimilarity.ignoredRrf') };
  }
  if (kind === 'unknown') {
    return {
      list,
      applied: false,
      reason: 'not-similarity-unknown',
      removed: 0,
      message: msg('minSimilarity.ignoredUnknown', list.scoreType ?? ''),
    };
  }
  const sources = list.sources.filter((p) => p.score >= min);
  const removed = list.sources.length - sources.length;
  return {
    list: { ...list, sources },
    applied: true,
    reason: 'applied',
    removed,
    message: msg('minSimilarity.applied', formatScore(min, 3), removed, list.sources.length),
  };
}
