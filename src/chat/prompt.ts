/**
 * The instructions the `@shunong` participant gives the author's chosen model: the passages the
 * tools returned this turn (their citation keys), the one citation syntax (`〔doc_name#chunk_index〕`)
 * and the rule that nothing else may be cited — which the participant then enforces
 * (src/chat/grounding.ts). No `vscode`.
 */
import type { ReturnedPassage } from './toolText';

/** What the author asked for. */
export type ChatTask = 'search' | 'draft';

/** The instructions, with the passages, for `task`. */
export function groundedPrompt(
  task: ChatTask,
  passages: readonly ReturnedPassage[],
  extra: readonly string[] = [],
): string {
  const lines = [
    'You help an agronomy author write a bulletin grounded in the Shunong (蜀农) knowledge base.',
    task === 'draft'
      ? 'Write one or two short bulletin paragraphs for farmers, in the language of the question.'
      : 'Answer the question briefly, in the language of the question.',
    'Use only the passages below. After each sentence that uses a passage, cite it as 〔citation key〕, e.g. 〔' +
      (passages[0]?.key ?? 'doc.pdf#0') +
      '〕. Cite nothing else: no other documents, no footnotes, no URLs. If the passages do not answer the question, say so.',
    'Separate paragraphs with a blank line. No headings.',
    ...extra,
    '',
    'Passages returned by knowledge_search in this turn:',
  ];
  passages.forEach((p, i) =>
    lines.push(
      '',
      `[${i + 1}] citation key: ${p.key}`,
      `knowledge base: ${p.kbName} (${p.kbCode})`,
      `passage: ${p.content}`,
    ),
  );
  return lines.join('\n');
}
