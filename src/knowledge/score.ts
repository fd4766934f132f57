/**
 * Reading a score by its `score_type`. RRF scores (hybrid mode) only order a list: they are shown as
 * a rank and a strength relative to the list's top, never as a percentage or a confidence. Cosine
 * scores (vector mode) are similarities in 0..1. Anything else is shown by rank, with the raw value.
 */
import { msg, type Message } from './messages';
import { passageKey, type PassageLike, type ResultList } from './types';

/** How a list's scores may be read. */
export type ScoreKind = 'rrf' | 'cosine' | 'unknown';

/**
 * Classifies a `score_type`: `rrf(≈1/(60+rank), 仅用于排序)` → `rrf`,
 * `cosine_similarity(0~1)` → `cosine`, anything else (including absent) → `unknown`.
 */
export function scoreKind(scoreType: string | null | undefined): ScoreKind {
  const t = (scoreType ?? '').trim().toLowerCase();
  if (/^rrf\b/.test(t)) return 'rrf';
  if (/^cosine(_similarity)?\b/.test(t)) return 'cosine';
  return 'unknown';
}

/** Display model of one passage's score. */
export type ScoreDisplay =
  | {
      readonly kind: 'rrf';
      /** 1-based position in the server's order. */
      readonly rank: number;
      readonly of: number;
      /** score / top score of the list, in 0..1; for a bar, never a percentage. Absent if not meaningful. */
      readonly strength?: number;
      readonly label: Message;
      readonly note: Message;
    }
  | {
      readonly kind: 'cosine';
      readonly rank: number;
      readonly of: number;
      readonly similarity: number;
      readonly label: Message;
      readonly note: Message;
    }
  | {
      readonly kind: 'unknown';
      readonly rank: number;
      readonly of: number;
      readonly strength?: number;
      readonly raw: number;
      readonly label: Message;
      readonly note: Message;
    };

/**
 * The display model of `source`'s score within `list` (matched by identity, else by
 * `doc_name#chunk_index`). Throws a RangeError when the passage is not in the list.
 */
export function presentScore<P extends PassageLike>(source: P, list: ResultList<P>): ScoreDisplay {
  let index = list.sources.indexOf(source);
  if (index === -1) {
    const key = passageKey(source);
    index = list.sources.findIndex((p) => passageKey(p) === key);
  }
  if (index === -1) throw new RangeError(`${passageKey(source)} is not in the list`);
  return presentAt(list, index, strengthsOf(list));
}

/** The display models of every passage of `list`, in its order. */
export function presentScores<P extends PassageLike>(list: ResultList<P>): ScoreDisplay[] {
  const strengths = strengthsOf(list);
  return list.sources.map((_, i) => presentAt(list, i, strengths));
}

/** A text bar for a relative strength in 0..1, e.g. `▰▰▰▱▱` (cells default 5). */
export function strengthBar(strength: number, cells = 5): string {
  const s = Number.isFinite(strength) ? Math.min(1, Math.max(0, strength)) : 0;
  const filled = Math.round(s * cells);
  return '▰'.repeat(filled) + '▱'.repeat(cells - filled);
}

/** Formats a number for display without pretending more precision than the server gave. */
export function formatScore(value: number, digits = 4): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toFixed(digits)));
}

function presentAt(list: ResultList, index: number, strengths: readonly number[] | undefined): ScoreDisplay {
  const kind = scoreKind(list.scoreType);
  const rank = index + 1;
  const of = list.sources.length;
  const score = list.sources[index]?.score ?? Number.NaN;
  const strength = strengths?.[index];
  switch (kind) {
    case 'cosine':
      return {
        kind,
        rank,
        of,
        similarity: score,
        label: msg('score.cosine', rank, of, formatScore(score, 3)),
        note: msg('score.note.cosine'),
      };
    case 'rrf':
      return {
        kind,
        rank,
        of,
        ...(strength !== undefined ? { strength } : {}),
        label: msg('score.rrf', rank, of, strength !== undefined ? strengthBar(strength) : '—'),
        note: msg('score.note.rrf'),
      };
    case 'unknown':
      return {
        kind,
        rank,
        of,
        raw: score,
        ...(strength !== undefined ? { strength } : {}),
        label: msg('score.unknown', rank, of, formatScore(score)),
        note: msg('score.note.unknown', list.scoreType ?? ''),
      };
  }
}

/**
 * Relative strengths score / top, only when they mean something: every score finite and
 * non-negative, the top one positive, and the scores non-increasing in the list's order (so
 * the bar agrees with the rank). Otherwise undefined (rank only).
 */
function strengthsOf(list: ResultList): number[] | undefined {
  const scores = list.sources.map((p) => p.score);
  const top = scores[0];
  if (top === undefined || !(top > 0) || !Number.isFinite(top)) return undefined;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i] ?? Number.NaN;
    if (!Number.isFinite(s) || s < 0 || (i > 0 && s > (scores[i - 1] ?? Number.NaN))) return undefined;
  }
  return scores.map((s) => s / top);
}
