/**
 * Reading a score by its `score_type`. RRF scores (hybrid mode) only order a list: they are shown as
 * a rank and what the sum likely tells (found by both the full-text and the meaning search, by one,
 * or cannot be told; see `rrfReading.ts`), never as a percentage, a bar or a confidence. Cosine
 * scores (vector mode) are similarities in 0..1. Anything else is shown by rank, with the raw value.
 */
import { msg, type Message, type MessageKey } from './messages';
import { readRrf, type FoundBy, type RrfCounts } from './rrfReading';
import { passageKey, type PassageLike, type ResultList } from './types';
import type { StoredPassage } from './history';
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
      /** Which retrievers likely found it. */
      readonly found: FoundBy;
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
      readonly raw: number;
      readonly label: Message;
      readonly note: Message;
    };

/**
 * The display model of `source`'s score within `list` (matched by identity, else by
 * `doc_name#chunk_index`). Throws a RangeError when the passage is not in the list.
 */
export function presentScore<P extends PassageLike>(source: P, list: ResultList<P>, counts?: RrfCounts): ScoreDisplay {
  let index = list.sources.indexOf(source);
  if (index === -1) {
    const key = passageKey(source);
    index = list.sources.findIndex((p) => passageKey(p) === key);
  }
  if (index === -1) throw new RangeError(`${passageKey(source)} is not in the list`);
  return presentAt(list, index, rrfOrdered(list, counts), counts);
}

/** The display models of every passage of `list`, in its order (`counts`: the result's candidate counts). */
export function presentScores<P extends PassageLike>(list: ResultList<P>, counts?: RrfCounts): ScoreDisplay[] {
  const ordered = rrfOrdered(list, counts);
  return list.sources.map((_, i) => presentAt(list, i, ordered, counts));
}

/** The label of an RRF passage: its rank and which retrievers likely found it. */
export function rrfLabel(rank: number, of: number, found: FoundBy): Message {
  return msg(`score.rrf.${found}` satisfies MessageKey, rank, of);
}

/**
 * The score line of a passage in the list it was retrieved in, read by its type: the rank and what
 * the score tells, how many of the fused knowledge bases found it, and a mark when it came only
 * because the search ran under the usual threshold. `format` turns a message into the reader's
 * words (the UI's language, or English for a model), so the search results and the chat tools
 * read a passage the same way.
 */
export function storedScoreText({ passage: p, view }: StoredPassage, format: (m: Message) => string): string {
  const parts = [format(storedScoreLabel(p, view))];
  if (view.foundIn !== undefined && view.lists !== undefined)
    parts.push(format(msg('score.foundIn', view.foundIn, view.lists)));
  if (view.belowUsual !== undefined) parts.push(`⚠ ${format(msg('score.below', formatScore(view.belowUsual)))}`);
  return parts.join(' · ');
}

function storedScoreLabel(p: StoredPassage['passage'], view: StoredPassage['view']): Message {
  switch (scoreKind(p.scoreType)) {
    case 'rrf':
      return rrfLabel(view.rank, view.of, view.found ?? readRrf(p.score));
    case 'cosine':
      return view.threshold !== undefined
        ? msg('score.cosine.threshold', view.rank, view.of, formatScore(p.score, 3), formatScore(view.threshold))
        : msg('score.cosine', view.rank, view.of, formatScore(p.score, 3));
    default:
      return msg('score.unknown', view.rank, view.of, formatScore(p.score));
  }
}

/** Formats a number for display without pretending more precision than the server gave. */
export function formatScore(value: number, digits = 4): string {
  return String(Number(value.toFixed(digits)));
}

function presentAt(list: ResultList, index: number, ordered: boolean, counts: RrfCounts | undefined): ScoreDisplay {
  const kind = scoreKind(list.scoreType);
  const rank = index + 1;
  const of = list.sources.length;
  const score = list.sources[index]?.score ?? Number.NaN;
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
    case 'rrf': {
      const found = readRrf(score, { ...(ordered ? { rank } : {}), ...(counts ? { counts } : {}) });
      return { kind, rank, of, found, label: rrfLabel(rank, of, found), note: msg('score.note.rrf') };
    }
    case 'unknown':
      return {
        kind,
        rank,
        of,
        raw: score,
        label: msg('score.unknown', rank, of, formatScore(score)),
        note: msg('score.note.unknown', list.scoreType ?? ''),
      };
  }
}

/**
 * True when the list's order is the RRF sums' own (every score finite, non-increasing, and no
 * reranking moved them), so a passage's rank bounds the rank one list could have given it.
 */
function rrfOrdered(list: ResultList, counts: RrfCounts | undefined): boolean {
  if ((counts?.rerank ?? 0) > 0) return false;
  const scores = list.sources.map((p) => p.score);
  return scores.every((s, i) => Number.isFinite(s) && (i === 0 || s <= (scores[i - 1] ?? Number.NaN)));
}
