/**
 * A passage as the editor side cites it: where it is (`doc_name#chunk_index`), which knowledge base
 * it came from, and the retrieval context kept with the citation (query, score and its type, date).
 * Pure: no vscode import.
 */
import { citationKey, parseCitation } from './citation';
import type { CitationContext, Retrieval } from './retrievalContext';
import type { CitationSource } from './types';

/** A knowledge_search passage with everything a citation and its hover need. */
export interface CitedPassage extends Retrieval {
  docName: string;
  chunkIndex: number;
}

/** The MIME type a dragged passage travels as (knowledge browser → Markdown editor). */
export const PASSAGE_MIME = 'application/vnd.shunong.passage+json';

/** Checks an unknown value (a command argument, a drop payload) is a passage. */
export function isCitedPassage(v: unknown): v is CitedPassage {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.docName === 'string' &&
    o.docName.length > 0 &&
    typeof o.chunkIndex === 'number' &&
    Number.isInteger(o.chunkIndex) &&
    o.chunkIndex >= 0 &&
    typeof o.content === 'string' &&
    typeof o.kbCode === 'string' &&
    typeof o.kbName === 'string' &&
    typeof o.query === 'string' &&
    typeof o.score === 'number' &&
    typeof o.scoreType === 'string' &&
    typeof o.retrievedAt === 'string'
  );
}

/** The citation source of a passage. */
export function sourceOf(p: CitedPassage): CitationSource {
  return { docName: p.docName, chunkIndex: p.chunkIndex, kbName: p.kbName, kbCode: p.kbCode };
}

/** The cache record of a passage. */
export function contextOf(p: CitedPassage): CitationContext {
  return {
    citation: citationKey(p),
    kbCode: p.kbCode,
    kbName: p.kbName,
    query: p.query,
    score: p.score,
    scoreType: p.scoreType,
    retrievedAt: p.retrievedAt,
    content: p.content,
  };
}

/** A passage back from its cache record (for "insert again" from the cache); none when its citation does not parse. */
export function passageOfContext(c: CitationContext): CitedPassage | undefined {
  const parsed = parseCitation(c.citation);
  if (!parsed.ok) return undefined;
  return {
    ...parsed.citation,
    content: c.content,
    kbCode: c.kbCode,
    kbName: c.kbName,
    query: c.query,
    score: c.score,
    scoreType: c.scoreType,
    retrievedAt: c.retrievedAt,
  };
}
