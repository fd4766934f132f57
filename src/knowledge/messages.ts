/**
 * Message catalogues of the knowledge layer. The pure modules never produce user-facing prose:
 * they return a {@link Message} (a key and its arguments) and the extension localises it, through
 * its own localisation layer, with one of these catalogues. Templates use `{0}`, `{1}`… for args.
 */

/** English templates, one per message key. */
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

/** Simplified Chinese templates, same keys as {@link messagesEn}. */
export const messagesZhCn: Readonly<Record<MessageKey, string>> = {
  'vocabulary.warning.notObject': '词表设置必须是包含 "crops"、"stages"、"tasks" 的对象，已忽略。',
  'vocabulary.warning.unknownKey': '词表设置中的未知键 "{0}" 已忽略（可用键：crops、stages、tasks）。',
  'vocabulary.warning.notList': '词表设置中的 "{0}" 必须是列表，已忽略。',
  'vocabulary.warning.notMap': '词表设置中的 "{0}" 必须是“作物 → 生育期列表”的对象，已忽略。',
  'vocabulary.warning.invalidEntry': '词表条目 {0} 无效，已忽略：{1}',
  'vocabulary.warning.unknownCrop': '{0} 处的生育期指向未知作物 "{1}"，已忽略。',
  'vocabulary.warning.unknownTaskCrop': '{0} 处的农事环节指向未知作物 "{1}"。',

  'score.rrf.both': '第 {0}/{1} 名 · 可能同时被全文检索和语义检索找到',
  'score.rrf.one': '第 {0}/{1} 名 · 可能只被一种检索（全文或语义）找到',
  'score.rrf.vector': '第 {0}/{1} 名 · 可能只被语义检索找到',
  'score.rrf.fulltext': '第 {0}/{1} 名 · 可能只被全文检索找到',
  'score.rrf.unknown': '第 {0}/{1} 名 · 无法判断由哪种检索找到',
  'score.rrf.bothAlone': '可能同时被全文检索和语义检索找到',
  'score.cosine': '第 {0}/{1} 名 · 相似度 {2}',
  'score.cosine.threshold': '第 {0}/{1} 名 · 相似度 {2}（阈值 {3}）',
  'score.below': '低于通常的相关性阈值 {0}',
  'score.unknown': '第 {0}/{1} 名 · 原始分数 {2}',
  'score.fused': '融合排名 {0}/{1} · 在 {3} 个结果列表中的 {2} 个出现',
  'score.note.rrf': 'RRF 分数仅用于排序，不是百分比，也不是置信度；由哪种检索找到只是据此推断的“可能”。',
  'score.note.cosine': '查询与片段之间的余弦相似度（0~1）。',
  'score.note.unknown': '未知的分数类型 "{0}"：保持服务端顺序，不解读原始数值。',
  'score.note.fused': '多个结果列表按名次融合（RRF，k = {0}）；不同列表的原始分数从不相互比较。',

  'minSimilarity.applied': '最低相似度 {0}：已隐藏 {2} 条中的 {1} 条。',
  'minSimilarity.disabled': '未设置最低相似度。',
  'minSimilarity.ignoredRrf': '未应用最低相似度：这些是 RRF 分数，仅用于排序，不是相似度。',
  'minSimilarity.ignoredUnknown': '未应用最低相似度：分数类型 "{0}" 未知，其数值不是相似度。',

  'miss.title': '知识库未命中相关片段。',
  'miss.candidates': '候选：向量 {0} 条 / 全文 {1} 条。',
  'miss.filtered': '分数阈值 {0} 过滤掉了全部 {1} 条候选（最高分 {2}）。',
  'miss.noCandidates': '没有任何候选：已开通的知识库可能不覆盖这个问题。',
  'miss.noInvention': '没有命中内容时不会插入任何引用。',
  'offer.lowerThreshold': '以分数阈值 {0} 重试（略低于最高分 {1}）',
  'offer.disableThreshold': '关闭分数阈值过滤（0）后重试',
  'offer.refine': '细化查询：作物、生育期、农事环节',
  'offer.allKnowledgeBases': '改为检索全部知识库（而不只是 {0}）',
  'offer.warning.noise': '低分会带来噪声：低于 {0} 的片段常与问题无关，引用前请逐条核对。',
  'offer.warning.thresholdOff': '关闭阈值后会返回与问题无关的低分片段，引用前请逐条核对。',

  'counts.vector': '向量候选：{0}',
  'counts.fulltext': '全文候选：{0}',
  'counts.hybrid': '融合后：{0}',
  'counts.rerank': '精排：{0}',
  'warning.rerankOff': '本次检索已关闭 Rerank 精排。',
  'warning.server': '服务端提示：{0}',
};

/** Builds a {@link Message}. */
export function msg(key: MessageKey, ...args: (string | number)[]): Message {
  return { key, args };
}

/**
 * Fills a template's `{n}` placeholders with the message's args (a placeholder without an arg is
 * kept as is). Useful for the CLI, tests and logs; the extension goes through its l10n layer.
 */
export function formatMessage(message: Message, catalogue: Readonly<Record<MessageKey, string>> = messagesEn): string {
  return catalogue[message.key].replace(/\{(\d+)\}/g, (whole, n: string) => {
    const arg = message.args[Number(n)];
    return arg === undefined ? whole : String(arg);
  });
}
