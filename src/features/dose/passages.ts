/**
 * The passages the dose check compares a bulletin with: the citation cache's text of each cited
 * passage, or, where Verify Citations found the platform's text changed, the current text (the
 * finding then says it compared with it). Nothing else: a passage neither holds is not at hand.
 */
import { parseDefinitionBody } from '../../citations/citation';
import type { CitationCache } from '../../citations/retrievalContext';
import { sourceKey } from '../../citations/sourceKey';
import type { PassageText } from '../../safety/doseCheck';
import type { SourceOutcomes } from '../shared/sourceOutcomes';

const DEFINITION = /^\[\^[^\]\s]+\]:(.*)$/gm;

/** The knowledge base each of a bulletin's definitions names, by `doc#idx`. */
function kbCodesOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(DEFINITION)) {
    const body = parseDefinitionBody(m[1]!.replace(/\r$/, ''));
    if (body?.parsed.ok) out.set(`${body.parsed.citation.docName}#${body.parsed.citation.chunkIndex}`, body.kbCode);
  }
  return out;
}

/** The lookup of a bulletin's cited passages. */
export function passageLookup(
  text: string,
  cache: CitationCache,
  outcomes: Pick<SourceOutcomes, 'get'> | undefined,
): (citation: string) => PassageText | undefined {
  const kb = kbCodesOf(text);
  return (citation) => {
    const outcome = (
      outcomes?.get(sourceKey(kb.get(citation), citation)) ?? outcomes?.get(sourceKey(undefined, citation))
    )?.outcome;
    if (outcome?.status === 'changed') return { text: outcome.passage.content, changed: true };
    const ctx = cache.get(citation);
    return ctx ? { text: ctx.content } : undefined;
  };
}
