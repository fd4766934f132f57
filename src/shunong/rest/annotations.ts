/**
 * From annotations to citable passages. A `knowledge_citation` names a knowledge entry by `kb_id` +
 * `title` + `summary`, not by `doc_name#chunk_index`: it is resolved by searching its summary in that
 * knowledge base (MCP `knowledge_search`) and keeping the passage whose content starts with the
 * summary (and whose document title matches). Nothing is ever made up: no match = unresolved.
 */
import type { KnowledgeCitation } from './schemas';

/** The summary without its trailing ellipsis: the start of the passage. */
export function summaryPrefix(summary: string): string {
  return summary
    .trim()
    .replace(/(?:……|…|\.{3})$/u, '')
    .trim();
}

/** doc_name without its extension (the REST `title`). */
export function documentTitle(docName: string): string {
  return docName.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}

/** A source of an MCP `knowledge_search` result (the fields needed here). */
export interface SourceLike {
  doc_name: string;
  chunk_index: number;
  content: string;
}

/**
 * The source a knowledge citation names among `sources`: content starts with the summary's prefix
 * and the title matches the document (the title check is relaxed only when exactly one source
 * starts with the prefix). Undefined when nothing matches or the match is ambiguous.
 */
export function matchCitation<S extends SourceLike>(
  c: Pick<KnowledgeCitation, 'title' | 'summary'>,
  sources: readonly S[],
): S | undefined {
  const prefix = summaryPrefix(c.summary);
  if (!prefix) return undefined;
  const starts = sources.filter((s) => s.content.trim().startsWith(prefix));
  const titled = starts.filter((s) => documentTitle(s.doc_name) === c.title.trim() || s.doc_name === c.title.trim());
  if (titled.length >= 1)
    return new Set(titled.map((s) => `${s.doc_name}#${s.chunk_index}`)).size === 1 ? titled[0] : undefined;
  return starts.length === 1 ? starts[0] : undefined;
}

/** The sentences of a text (ends at 。！？!? or a line break; the last fragment counts too). */
export function sentencesOf(text: string): string[] {
  return [...text.matchAll(/[^。！？!?\n]+(?:[。！？!?]+|$)/gmu)].map((m) => m[0].trim()).filter((s) => s.length > 0);
}
