/** Resolving the answer's knowledge citations to real passages (MCP knowledge_search of their summaries). */
import { loadPlatform } from '../../bundles';
import type { Annotation, KnowledgeCitation } from '../../shunong/index';
import type { Connection } from '../shared/connection';
import { isPlatformError } from '../shared/errors';
import type { CitedPassage } from '../../citations/passage';
import type { ResolvedKnowledge } from '../../citations/draftBlocks';

function kbNameOf(kbCodes: string, kbNames: string, code: string): string {
  const codes = kbCodes.split(',');
  const names = kbNames.split(',');
  return names[codes.indexOf(code)] ?? code;
}

/** Resolves each knowledge citation to a passage by searching its summary in its knowledge base (MCP). */
export async function resolveAll(
  connection: Connection,
  annotations: Annotation[],
  question: string,
  signal: AbortSignal,
): Promise<ResolvedKnowledge[]> {
  const platform = loadPlatform();
  const cites = annotations.filter((a): a is KnowledgeCitation => platform.isKnowledgeCitation(a));
  const out: ResolvedKnowledge[] = [];
  for (const k of cites) {
    const r: ResolvedKnowledge = { kbId: k.kb_id, title: k.title, summary: k.summary, score: k.score };
    const prefix = platform.summaryPrefix(k.summary);
    if (prefix) {
      try {
        const hits = await connection.run((c) =>
          c.knowledgeSearch({ query: prefix, kbCode: k.kb_id, topK: 10, scoreThreshold: 0 }, { signal }),
        );
        const s = platform.matchCitation(k, hits.sources);
        if (s) {
          const passage: CitedPassage = {
            docName: s.doc_name,
            chunkIndex: s.chunk_index,
            content: s.content,
            kbCode: k.kb_id,
            kbName: kbNameOf(hits.kb_code, hits.kb_name, k.kb_id),
            query: question,
            score: k.score ?? s.score,
            scoreType: k.score !== undefined ? 'cosine_similarity(0~1)' : hits.score_type,
            retrievedAt: new Date().toISOString(),
          };
          r.passage = passage;
        }
      } catch (e) {
        if (isPlatformError(e, 'cancelled')) throw e;
        // not resolved: cited as 〔title · kb_id〕
      }
    }
    out.push(r);
  }
  return out;
}
