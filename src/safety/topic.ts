/**
 * What a flagged mention's sentence is about, for the search of alternatives: the pieces of the
 * sentence (cut at commas, 、 and spaces) that are neither the pesticide nor a quantity — the pest
 * or the task, as the author wrote them. Pure, and small: the editor imports it without the core.
 */

const SENTENCE_END = ['。', '！', '？', '；', '\n'];

/** The first `max` pieces of the sentence around [offset, offset + mention.length) of `text`. */
export function mentionTopic(text: string, offset: number, mention: string, max = 2): string[] {
  const from = Math.max(...[...SENTENCE_END, '. '].map((p) => text.lastIndexOf(p, offset) + 1));
  // Stryker disable next-line EqualityOperator: a mention is never an end mark, so no end is at 0
  const ends = SENTENCE_END.map((p) => text.indexOf(p, offset)).filter((i) => i >= 0);
  const sentence = text.slice(from, ends.length ? Math.min(...ends) : text.length);
  // Stryker disable next-line Regex: without `+`, the empty pieces between separators are dropped below
  const words = sentence.split(/[，,、;；:：\s]+/);
  return words.filter((w) => w && !/\d/.test(w) && !w.includes(mention)).slice(0, max);
}
