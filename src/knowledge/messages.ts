/**
 * The messages of the knowledge layer. The pure modules never produce user-facing prose: they return
 * a {@link Message} (a key and its arguments); the extension shows it through `vscode.l10n.t` with
 * the English template as the key (the Chinese is in l10n/bundle.l10n.zh-cn.json, beside every other
 * UI string), and the chat tools and tests fill the English template. Templates use `{0}`, `{1}`….
 */

/** The English templates, one per message key; each is also the key of its translation in the l10n bundle. */
export const messagesEn = {
  'vocabulary.warning.notObject':
    'The vocabulary setting must be an object with "crops", "stages" and "tasks"; it was ignored.',
  'vocabulary.warning.unknownKey':
    'Unknown key "{0}" in the vocabulary setting was ignored (known keys: crops, stages, tasks).',
  'vocabulary.warning.notList': '"{0}" in the vocabulary setting must be a list; it was ignored.',
  'vocabulary.warning.notMap': '"{0}" in the vocabulary setting must map a crop to a list of stages; it was ignored.',
  'vocabulary.warning.invalidEntry': 'The vocabulary entry at {0} is invalid and was ignored: {1}',
  'vocabulary.warning.unknownCrop': 'The stages at {0} name an unknown crop "{1}"; they were ignored.',
  'vocabulary.warning.unknownTaskCrop': 'The task at {0} names an unknown crop "{1}".',

  'score.rrf.both': 'Rank {0} of {1} · likely found by both the full-text and the meaning search',
  'score.rrf.one': 'Rank {0} of {1} · likely found by one search only (full-text or meaning)',
  'score.rrf.vector': 'Rank {0} of {1} · likely found by the meaning search only',
  'score.rrf.fulltext': 'Rank {0} of {1} · likely found by the full-text search only',
  'score.rrf.unknown': 'Rank {0} of {1} · which search found it cannot be told',
  'score.rrf.bothAlone': 'likely found by both the full-text and the meaning search',
  'score.cosine': 'Rank {0} of {1} · similarity {2}',
  'score.cosine.threshold': 'Rank {0} of {1} · similarity {2} (threshold {3})',
  'score.below': 'below the usual relevance threshold {0}',
  'score.foundIn': 'found in {0} of {1} knowledge bases',
  'score.unknown': 'Rank {0} of {1} · raw score {2}',
  'score.fused': 'Fused rank {0} of {1} · found in {2} of {3} lists',
  'score.note.rrf':
    'RRF score: it only orders the results. It is not a percentage and not a confidence; which search found a passage is read from it as "likely".',
  'score.note.cosine': 'Cosine similarity between the query and the passage (0 to 1).',
  'score.note.unknown': 'Unknown score type "{0}": the server\'s order is kept and the raw value is not interpreted.',
  'score.note.fused':
    'Several result lists fused by rank (RRF, k = {0}); raw scores of different lists are never compared.',

  'minSimilarity.applied': 'Minimum similarity {0}: {1} of {2} passages hidden.',
  'minSimilarity.disabled': 'No minimum similarity is applied.',
  'minSimilarity.ignoredRrf':
    'Minimum similarity not applied: these are RRF scores, which only order results and are not similarities.',
  'minSimilarity.ignoredUnknown':
    'Minimum similarity not applied: the score type "{0}" is unknown, so its values are not similarities.',

  'miss.title': 'No passage in the knowledge base matched.',
  'miss.candidates': 'Candidates: {0} vector / {1} full-text.',
  'miss.filtered': 'The score threshold {0} filtered out all {1} candidates (best score {2}).',
  'miss.noCandidates': 'There were no candidates at all: the knowledge bases may not cover this question.',
  'miss.noInvention': 'Nothing is inserted without a hit.',
  'offer.lowerThreshold': 'Retry with score threshold {0} (just under the best score {1})',
  'offer.disableThreshold': 'Retry with the score threshold off (0)',
  'offer.refine': 'Refine the query: crop, growth stage, farm task',
  'offer.allKnowledgeBases': 'Search all knowledge bases instead of {0}',
  'offer.warning.noise':
    'Low scores bring noise: passages scoring under {0} are often off-topic. Check each one before citing it.',
  'offer.warning.thresholdOff':
    'With the threshold off, unrelated low-scoring passages are returned. Check each one before citing it.',

  'counts.vector': 'Vector candidates: {0}',
  'counts.fulltext': 'Full-text candidates: {0}',
  'counts.hybrid': 'After fusion: {0}',
  'counts.rerank': 'Re-ranked: {0}',
  'warning.rerankOff': 'Re-ranking was turned off for this search.',
  'warning.server': 'Server warning: {0}',
} as const;

/** Every message key of the knowledge layer. */
export type MessageKey = keyof typeof messagesEn;

/** A message to localise: a key of the catalogues and its positional arguments. */
export interface Message {
  readonly key: MessageKey;
  readonly args: readonly (string | number)[];
}

/** Builds a {@link Message}. */
export function msg(key: MessageKey, ...args: (string | number)[]): Message {
  return { key, args };
}

/**
 * Fills a template's `{n}` placeholders with the message's args (a placeholder without an arg is
 * kept as is). Useful for the CLI, tests and logs; the extension goes through vscode.l10n.t.
 */
export function formatMessage(message: Message, catalogue: Readonly<Record<MessageKey, string>> = messagesEn): string {
  return catalogue[message.key].replace(/\{(\d+)\}/g, (whole, n: string) => {
    const arg = message.args[Number(n)];
    return arg === undefined ? whole : String(arg);
  });
}
