/**
 * The retrieval context kept with each citation (knowledge base, query, score and its type, date,
 * passage), and a plain serialisable cache of them keyed by `doc#idx`, which the extension persists
 * in the workspace so hovers and checks work offline.
 */

/** What a search returned with a passage, besides where it is (`doc_name#chunk_index`). */
export interface Retrieval {
  kbCode: string;
  kbName: string;
  query: string;
  score: number;
  /** The server's `score_type` (e.g. `rerank`, `vector`): scores are only comparable within a type. */
  scoreType: string;
  /** ISO 8601 date-time. */
  retrievedAt: string;
  /** The passage text. */
  content: string;
}

/** What was retrieved for one citation. */
export interface CitationContext extends Retrieval {
  /** `doc_name#chunk_index` (doc name unescaped). */
  citation: string;
}

/** The JSON form of a cache. */
export interface CitationCacheData {
  version: 1;
  entries: CitationContext[];
}

function isContext(v: unknown): v is CitationContext {
  // Stryker disable next-line ConditionalExpression: a string, number or boolean has none of the fields read next, so it is dropped either way
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    ['citation', 'kbCode', 'kbName', 'query', 'scoreType', 'retrievedAt', 'content'].every(
      (k) => typeof o[k] === 'string',
    ) && Number.isFinite(o.score)
  );
}

/** A Map of contexts keyed by `doc#idx`; the most recent retrieval of a passage wins. */
export class CitationCache {
  private readonly entries = new Map<string, CitationContext>();

  /** Builds a cache from persisted data; malformed entries are dropped, never thrown on. */
  static fromJSON(data: unknown): CitationCache {
    const cache = new CitationCache();
    const list = typeof data === 'object' && data !== null ? (data as { entries?: unknown }).entries : undefined;
    if (Array.isArray(list)) for (const e of list) if (isContext(e)) cache.put(e);
    return cache;
  }

  get size(): number {
    return this.entries.size;
  }

  get(citation: string): CitationContext | undefined {
    return this.entries.get(citation);
  }

  has(citation: string): boolean {
    return this.entries.has(citation);
  }

  /** Stores a context unless a more recent one of the same passage is already there. */
  put(ctx: CitationContext): void {
    const old = this.entries.get(ctx.citation);
    if (
      !old ||
      Date.parse(ctx.retrievedAt) >= Date.parse(old.retrievedAt) ||
      Number.isNaN(Date.parse(old.retrievedAt))
    ) {
      this.entries.set(ctx.citation, { ...ctx });
    }
  }

  delete(citation: string): boolean {
    return this.entries.delete(citation);
  }

  /** Keeps only the given citations (e.g. those still used somewhere in the workspace). */
  retain(citations: Iterable<string>): void {
    const keep = new Set(citations);
    for (const k of [...this.entries.keys()]) if (!keep.has(k)) this.entries.delete(k);
  }

  /** Plain data, sorted by citation for stable files. */
  toJSON(): CitationCacheData {
    return {
      version: 1,
      // The citations are a Map's keys, never equal: no comparison answers 0.
      // Stryker disable next-line EqualityOperator: with no two citations equal, < and <= order alike
      entries: [...this.entries.values()].sort((a, b) => (a.citation < b.citation ? -1 : 1)),
    };
  }
}
