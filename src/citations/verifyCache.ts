/**
 * What "Verify Citations" remembers: each source's last outcome with the Beijing date it was found
 * on, and the account's knowledge bases as a search over all of them named them. A second run on
 * the same Beijing day asks the platform nothing unless told to. A source left unverified (network,
 * rate limit, rejected key) is never remembered: it is asked again next time. Pure: no vscode.
 */
import type { Retrieval } from './retrievalContext';

/** Why a source could not be verified: a failure kind of the platform client, and its sentence. */
export interface Unverified {
  status: 'unverified';
  reason: string;
  message: string;
}

/** The outcome of looking one source up. */
export type VerifyOutcome =
  | { status: 'verified'; passage: Retrieval }
  | { status: 'changed'; cached: string; passage: Retrieval }
  | { status: 'not-located'; kbCode?: string }
  | { status: 'unknown-kb'; kbCode: string; known: string[] }
  | Unverified;

/** The outcome statuses, in the order reports list them. */
export type VerifyStatus = VerifyOutcome['status'];

/** One remembered outcome. */
export interface CachedOutcome {
  key: string;
  /** YYYY-MM-DD in Beijing time (UTC+8). */
  date: string;
  outcome: Exclude<VerifyOutcome, Unverified>;
}

/** A knowledge base of the account. */
export interface KnowledgeBase {
  code: string;
  name: string;
}

/** The JSON form of a {@link VerifyCache}. */
export interface VerifyCacheData {
  version: 1;
  knowledgeBases?: { date: string; bases: KnowledgeBase[] };
  outcomes: CachedOutcome[];
}

const STATUSES = new Set(['verified', 'changed', 'not-located', 'unknown-kb']);

function isCached(v: unknown): v is CachedOutcome {
  // Stryker disable next-line ConditionalExpression: a string, number or boolean has none of the fields read next, so it is dropped either way
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  const out = o.outcome as Record<string, unknown> | null | undefined;
  if (typeof o.key !== 'string' || typeof o.date !== 'string' || typeof out !== 'object' || out === null) return false;
  if (!STATUSES.has(String(out.status))) return false;
  if (out.status === 'verified' || out.status === 'changed') {
    const p = out.passage as Record<string, unknown> | null | undefined;
    return typeof p === 'object' && p !== null && typeof p.content === 'string' && typeof p.kbCode === 'string';
  }
  return true;
}

function isBase(b: unknown): b is KnowledgeBase {
  // Stryker disable next-line ConditionalExpression: a string, number or boolean has no code, so it is dropped either way
  return typeof b === 'object' && b !== null && typeof (b as KnowledgeBase).code === 'string';
}

/** The outcomes remembered, by source key. */
export class VerifyCache {
  private readonly outcomes = new Map<string, CachedOutcome>();
  private bases: { date: string; bases: KnowledgeBase[] } | undefined;

  /** Builds a cache from persisted data; malformed entries are dropped, never thrown on. */
  static fromJSON(data: unknown): VerifyCache {
    const cache = new VerifyCache();
    if (typeof data !== 'object' || data === null) return cache;
    const o = data as { outcomes?: unknown; knowledgeBases?: unknown };
    if (Array.isArray(o.outcomes)) for (const e of o.outcomes) if (isCached(e)) cache.outcomes.set(e.key, e);
    const kb = o.knowledgeBases as { date?: unknown; bases?: unknown } | undefined;
    if (kb && typeof kb.date === 'string' && Array.isArray(kb.bases)) {
      const bases = kb.bases.filter(isBase);
      cache.bases = { date: kb.date, bases: bases.map((b) => ({ code: b.code, name: String(b.name ?? '') })) };
    }
    return cache;
  }

  /** The last outcome of a source, whatever its date. */
  get(key: string): CachedOutcome | undefined {
    return this.outcomes.get(key);
  }

  /** The outcome of a source found on `date`, if any. */
  onDate(key: string, date: string): CachedOutcome | undefined {
    const c = this.outcomes.get(key);
    return c && c.date === date ? c : undefined;
  }

  /** Remembers an outcome (an unverified one is dropped: it says nothing about the source). */
  put(key: string, date: string, outcome: VerifyOutcome): void {
    if (outcome.status === 'unverified') return;
    this.outcomes.set(key, { key, date, outcome });
  }

  /** Forgets a source's outcome. */
  delete(key: string): void {
    this.outcomes.delete(key);
  }

  /** The account's knowledge bases learned on `date`, if any. */
  knowledgeBases(date: string): KnowledgeBase[] | undefined {
    return this.bases && this.bases.date === date ? this.bases.bases : undefined;
  }

  /** Remembers the account's knowledge bases. */
  setKnowledgeBases(date: string, bases: KnowledgeBase[]): void {
    this.bases = { date, bases: bases.map((b) => ({ ...b })) };
  }

  get size(): number {
    return this.outcomes.size;
  }

  /** Plain data, sorted by key for stable files. */
  toJSON(): VerifyCacheData {
    const data: VerifyCacheData = {
      version: 1,
      // The keys are a Map's, never equal: no comparison answers 0.
      // Stryker disable next-line EqualityOperator: with no two keys equal, < and <= order alike
      outcomes: [...this.outcomes.values()].sort((a, b) => (a.key < b.key ? -1 : 1)),
    };
    if (this.bases) data.knowledgeBases = this.bases;
    return data;
  }
}
