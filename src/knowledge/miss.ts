/**
 * The no-hit failure of `knowledge_search`, shown as what it is (candidate counts, threshold, best
 * score) and turned into offers: retry just under the best score, refine through the guided steps,
 * search every knowledge base. The threshold is never dropped to 0 without the user confirming it,
 * and the offers that keep it come first.
 */
import { msg, type Message } from './messages';
import { detectSelection } from './query';
import { formatScore } from './score';
import type { SearchArgs } from './types';
import { builtinVocabulary, type Vocabulary } from './vocabulary';

/**
 * What a miss tells. Fields the text did not carry are null, undefined or absent, so both
 * {@link parseMissText}'s result and the platform layer's typed miss error fit.
 */
export interface MissInfo {
  readonly vectorCandidates?: number | null | undefined;
  readonly fulltextCandidates?: number | null | undefined;
  readonly threshold?: number | null | undefined;
  readonly filtered?: number | null | undefined;
  readonly bestScore?: number | null | undefined;
}

/** {@link MissInfo} as parsed: every field present, null when the text did not carry it. */
export type ParsedMiss = { readonly [K in keyof MissInfo]-?: number | null };

const NUMBER = String.raw`(-?\d+(?:\.\d+)?(?:[eE]-?\d+)?)`;
const PATTERNS = {
  vectorCandidates: new RegExp(String.raw`向量\s*[:：]?\s*(\d+)\s*条`),
  fulltextCandidates: new RegExp(String.raw`全文\s*[:：]?\s*(\d+)\s*条`),
  threshold: new RegExp(String.raw`score_?threshold\s*[=:：]\s*${NUMBER}`, 'i'),
  filtered: new RegExp(String.raw`过滤掉\s*(?:全部)?\s*(\d+)\s*条`),
  bestScore: new RegExp(String.raw`最高分\s*[:：]?\s*${NUMBER}`),
} as const;

/**
 * Parses the vendor's no-hit text, e.g. `…知识库未命中相关片段(候选: 向量 32 条 / 全文 0 条);
 * score_threshold=0.7 过滤掉全部 32 条候选(最高分 0.6385)…`. Tolerates full-width punctuation,
 * spacing and missing parts (null). Returns undefined when the text is not a no-hit failure.
 */
export function parseMissText(text: string): ParsedMiss | undefined {
  if (!/未命中/.test(text)) return undefined;
  const read = (re: RegExp): number | null => {
    const m = re.exec(text);
    const n = m?.[1] !== undefined ? Number(m[1]) : Number.NaN;
    return Number.isFinite(n) ? n : null;
  };
  return {
    vectorCandidates: read(PATTERNS.vectorCandidates),
    fulltextCandidates: read(PATTERNS.fulltextCandidates),
    threshold: read(PATTERNS.threshold),
    filtered: read(PATTERNS.filtered),
    bestScore: read(PATTERNS.bestScore),
  };
}

/** The lines that explain a miss, in order (title, counts, what the threshold did, the no-invention rule). */
export function describeMiss(miss: MissInfo): Message[] {
  const lines: Message[] = [msg('miss.title')];
  const { vectorCandidates: v, fulltextCandidates: f, threshold: t, filtered, bestScore } = miss;
  if (v != null && f != null) lines.push(msg('miss.candidates', v, f));
  if (t != null && filtered != null && bestScore != null) {
    lines.push(msg('miss.filtered', formatScore(t), filtered, formatScore(bestScore)));
  }
  if (v === 0 && f === 0) lines.push(msg('miss.noCandidates'));
  lines.push(msg('miss.noInvention'));
  return lines;
}

/** What an offer changes in the failed search. */
export type OfferChange =
  | { readonly kind: 'scoreThreshold'; readonly value: number }
  | { readonly kind: 'dropKbCode'; readonly kbCode: string }
  | {
      readonly kind: 'guided';
      /** Vocabulary ids found in the failed query, to preselect in the guided steps. */
      readonly prefill: { readonly crop?: string; readonly stage?: string; readonly task?: string };
    };

/** One way out of a miss. */
export interface MissOffer {
  readonly id: 'lower-threshold' | 'disable-threshold' | 'refine' | 'all-knowledge-bases';
  /** The arguments to search with next (for `refine`, the query is replaced by the guided flow's). */
  readonly args: SearchArgs;
  readonly change: OfferChange;
  /** The offer's label. */
  readonly message: Message;
  /** Shown with the offer (e.g. low scores bring noise). */
  readonly warning?: Message;
  /** True when the UI must ask before running it (noisy thresholds, threshold off). */
  readonly requiresConfirmation: boolean;
}

/** Options of {@link missOffers}. */
export interface MissOfferOptions {
  /** Below this, a retry threshold is flagged as noisy (default 0.5; on-topic passages score above 0.7). */
  readonly noiseBelow?: number;
  /** The server's default threshold, when the failed search did not pass one (default 0.7). */
  readonly defaultThreshold?: number;
  readonly vocabulary?: Vocabulary;
}

/**
 * The offers for a miss of the search `args`, the one least likely to bring noise first (the UI
 * highlights it): the threshold is kept by the first two, lowered by the last ones.
 * - `refine`: the guided crop / stage / task steps, prefilled from the failed query;
 * - `all-knowledge-bases`: the same search without `kbCode` (only when one was passed);
 * - `lower-threshold`: the best score floored to 2 decimals minus 0.01 (3 or 4 decimals when the best
 *   score is tiny), never 0 nor negative, only when below the threshold used; flagged noisy below `noiseBelow`;
 * - `disable-threshold`: threshold 0, always behind a confirmation, only when candidates were filtered
 *   but no positive threshold under the best score exists (best score unknown or too small).
 */
export function missOffers(miss: MissInfo, args: SearchArgs, options: MissOfferOptions = {}): MissOffer[] {
  const noiseBelow = options.noiseBelow ?? 0.5;
  const used = miss.threshold ?? args.scoreThreshold ?? options.defaultThreshold ?? 0.7;
  const offers: MissOffer[] = [];
  const hadCandidates = (miss.filtered ?? 0) > 0 || (miss.vectorCandidates ?? 0) > 0 || miss.vectorCandidates == null;

  const found = detectSelection(args.query, options.vocabulary ?? builtinVocabulary());
  offers.push({
    id: 'refine',
    args,
    change: {
      kind: 'guided',
      prefill: {
        ...(found.crop ? { crop: found.crop.id } : {}),
        ...(found.stage ? { stage: found.stage.id } : {}),
        ...(found.task ? { task: found.task.id } : {}),
      },
    },
    message: msg('offer.refine'),
    requiresConfirmation: false,
  });

  if (args.kbCode !== undefined && args.kbCode.trim() !== '') {
    const { kbCode, ...rest } = args;
    offers.push({
      id: 'all-knowledge-bases',
      args: rest,
      change: { kind: 'dropKbCode', kbCode },
      message: msg('offer.allKnowledgeBases', kbCode),
      requiresConfirmation: false,
    });
  }

  if (used > 0 && hadCandidates) {
    const best = miss.bestScore;
    const lower = best != null && best > 0 ? thresholdUnder(best) : undefined;
    if (lower !== undefined && lower < used) {
      const noisy = lower < noiseBelow;
      offers.push({
        id: 'lower-threshold',
        args: { ...args, scoreThreshold: lower },
        change: { kind: 'scoreThreshold', value: lower },
        message: msg('offer.lowerThreshold', formatScore(lower), formatScore(best ?? lower)),
        ...(noisy ? { warning: msg('offer.warning.noise', formatScore(noiseBelow)) } : {}),
        requiresConfirmation: noisy,
      });
    }
  }

  if (used > 0 && hadCandidates && !offers.some((o) => o.id === 'lower-threshold')) {
    offers.push({
      id: 'disable-threshold',
      args: { ...args, scoreThreshold: 0 },
      change: { kind: 'scoreThreshold', value: 0 },
      message: msg('offer.disableThreshold'),
      warning: msg('offer.warning.thresholdOff'),
      requiresConfirmation: true,
    });
  }
  return offers;
}

/**
 * A threshold just under `best`: floored to 2 decimals minus 0.01 (e.g. 0.6385 → 0.62); when that is
 * not positive, the same at 3 then 4 decimals; undefined when even that is not positive.
 */
export function thresholdUnder(best: number): number | undefined {
  if (!Number.isFinite(best) || best <= 0) return undefined;
  for (const digits of [2, 3, 4]) {
    const scale = 10 ** digits;
    // The epsilon keeps 0.57 * 100 = 56.999… from flooring to 56.
    const units = Math.floor(best * scale + 1e-7) - 1;
    if (units > 0) return Number((units / scale).toFixed(digits));
  }
  return undefined;
}
