/**
 * Reciprocal-rank fusion of several result lists (several knowledge bases queried separately, or
 * query variants). Only ranks count: a passage at rank r of a list gets 1/(k + r); its fused score
 * is the sum over the lists that found it. Raw scores, possibly of different types, are kept per hit
 * for display and never compared.
 */
import { msg, type Message } from './messages';
import { scoreKind, type ScoreKind } from './score';
import { passageKey, type PassageLike, type ResultList } from './types';

/** Where one list found a passage. */
export interface FusionHit<P extends PassageLike = PassageLike> {
  readonly listIndex: number;
  readonly listId?: string;
  /** 1-based rank in that list (the server's order). */
  readonly rank: number;
  readonly scoreKind: ScoreKind;
  /** The raw score, only meaningful within its own list and score type. */
  readonly score: number;
  readonly passage: P;
}

/** One passage of the fused list. */
export interface FusedPassage<P extends PassageLike = PassageLike> {
  /** `doc_name#chunk_index`. */
  readonly key: string;
  /** The passage as found by its best-ranked hit. */
  readonly passage: P;
  /** 1-based rank in the fused list. */
  readonly rank: number;
  /** Σ 1/(k + rank) over the hits: an RRF score, for ordering only. */
  readonly fusedScore: number;
  /** The hits, in list order. */
  readonly hits: readonly FusionHit<P>[];
}

/** Options of {@link fuseLists}. */
export interface FusionOptions {
  /** The RRF constant (default 60, as the server's own fusion). */
  readonly k?: number;
}

/** The `score_type` given to fused lists (see {@link fusedAsList}); {@link scoreKind} reads it as `rrf`. */
export const FUSED_SCORE_TYPE = 'rrf(fused by rank, 仅用于排序)';

/**
 * Fuses lists by rank (RRF). Duplicates (same `doc_name#chunk_index`) merge, keeping every hit; a
 * repeat inside one list counts once, at its best rank. Order: fused score, then more lists, then
 * the best rank, then the earliest list holding that best rank — deterministic (a list holds one
 * passage at each rank, so no two passages tie on all four).
 * Fused scores are summed over ranks in ascending order, so equal rank sets give equal sums.
 */
export function fuseLists<P extends PassageLike>(
  lists: readonly ResultList<P>[],
  options: FusionOptions = {},
): FusedPassage<P>[] {
  const k = options.k ?? 60;
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`k must be a finite number ≥ 0, got ${k}`);
  const byKey = new Map<string, FusionHit<P>[]>();
  lists.forEach((list, listIndex) => {
    const kind = scoreKind(list.scoreType);
    const seen = new Set<string>();
    list.sources.forEach((passage, i) => {
      const key = passageKey(passage);
      if (seen.has(key)) return;
      seen.add(key);
      const hit: FusionHit<P> = {
        listIndex,
        ...(list.id !== undefined ? { listId: list.id } : {}),
        rank: i + 1,
        scoreKind: kind,
        score: passage.score,
        passage,
      };
      const hits = byKey.get(key);
      if (hits) hits.push(hit);
      else byKey.set(key, [hit]);
    });
  });

  const entries = [...byKey].map(([key, hits]) => {
    const ranks = hits.map((h) => h.rank).sort((a, b) => a - b);
    const fusedScore = ranks.reduce((sum, r) => sum + 1 / (k + r), 0);
    const best = hits.reduce((b, h) => (h.rank < b.rank ? h : b));
    return { key, hits, fusedScore, best };
  });
  entries.sort(
    (a, b) =>
      b.fusedScore - a.fusedScore ||
      b.hits.length - a.hits.length ||
      a.best.rank - b.best.rank ||
      a.best.listIndex - b.best.listIndex,
  );
  return entries.map((e, i) => ({
    key: e.key,
    passage: e.best.passage,
    rank: i + 1,
    fusedScore: e.fusedScore,
    hits: e.hits,
  }));
}

/**
 * The fused list as a {@link ResultList} (score = fused score, `score_type` = {@link FUSED_SCORE_TYPE}),
 * so {@link presentScore} shows it by rank like any RRF list.
 */
export function fusedAsList<P extends PassageLike>(fused: readonly FusedPassage<P>[]): ResultList<P> {
  return {
    id: 'fused',
    scoreType: FUSED_SCORE_TYPE,
    sources: fused.map((f) => ({ ...f.passage, score: f.fusedScore })),
  };
}

/** A label for a fused passage: its fused rank and how many of the lists found it. */
export function fusedLabel(item: FusedPassage, total: number, listCount: number): Message {
  return msg('score.fused', item.rank, total, item.hits.length, listCount);
}
