/**
 * Shapes the knowledge layer works on. They are structural and minimal, so the platform layer's
 * parsed `knowledge_search` results (snake_case like the wire) fit without conversion.
 */

/** One passage of a `knowledge_search` result (`sources[i]`). */
export interface PassageLike {
  readonly doc_name: string;
  readonly chunk_index: number;
  readonly score: number;
}

/** One result list, in the server's order (index 0 = rank 1). */
export interface ResultList<P extends PassageLike = PassageLike> {
  /** Where the list came from, e.g. the kb code or the query variant; used for display and ties. */
  readonly id?: string;
  /** The result's `score_type`, verbatim. */
  readonly scoreType?: string | null;
  readonly sources: readonly P[];
}

/**
 * The {@link ResultList} of one `knowledge_search` result: its `kb_code` (comma-joined when several
 * bases were searched) as the id, its `score_type`, its `sources` in the server's order.
 */
export function resultListOf<P extends PassageLike>(result: {
  readonly kb_code?: string | undefined;
  readonly score_type?: string | null | undefined;
  readonly sources: readonly P[];
}): ResultList<P> {
  return {
    ...(result.kb_code !== undefined ? { id: result.kb_code } : {}),
    ...(result.score_type !== undefined ? { scoreType: result.score_type } : {}),
    sources: result.sources,
  };
}

/** Arguments of a `knowledge_search` call, camelCase as on MCP. */
export interface SearchArgs {
  readonly query: string;
  readonly kbCode?: string;
  readonly topK?: number;
  readonly scoreThreshold?: number;
  readonly useRerank?: boolean;
  readonly mode?: 'hybrid' | 'vector';
}

/** The citation key of a passage: `<doc_name>#<chunk_index>`. */
export function passageKey(p: Pick<PassageLike, 'doc_name' | 'chunk_index'>): string {
  return `${p.doc_name}#${p.chunk_index}`;
}

/**
 * The parts of a comma-joined `kb_code` / `kb_name` (an answer over several bases joins them with
 * ASCII or full-width commas, in the same order), trimmed; empty parts are kept so names stay
 * aligned with codes.
 */
export function splitJoined(joined: string | null | undefined): string[] {
  return (joined ?? '').split(/[,，]/).map((s) => s.trim());
}
