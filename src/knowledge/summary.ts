/**
 * The server's `counts` (candidates per retrieval stage) and `warnings`, as display lines.
 */
import { msg, type Message } from './messages';

/** `counts` of a `knowledge_search` result; any field may be missing. */
export interface SearchCounts {
  readonly vector?: number | null;
  readonly fulltext?: number | null;
  readonly hybrid?: number | null;
  readonly rerank?: number | null;
}

/** Warnings the layer recognises, mapped to their own message; others are shown verbatim. */
const KNOWN_WARNINGS: readonly { readonly re: RegExp; readonly message: Message }[] = [
  { re: /rerank.*(关闭|off|disabled)/i, message: msg('warning.rerankOff') },
];

/**
 * Display lines: one per count present (vector, full-text, after fusion, re-ranked — in the order
 * the server's pipeline runs), then one per distinct warning (recognised ones localised, others as
 * `warning.server` with the server's text).
 */
export function summarizeCounts(
  counts: SearchCounts | null | undefined,
  warnings: readonly string[] | null | undefined,
): Message[] {
  const lines: Message[] = [];
  const stages = [
    ['vector', 'counts.vector'],
    ['fulltext', 'counts.fulltext'],
    ['hybrid', 'counts.hybrid'],
    ['rerank', 'counts.rerank'],
  ] as const;
  for (const [field, key] of stages) {
    const n = counts?.[field];
    if (typeof n === 'number' && Number.isFinite(n)) lines.push(msg(key, n));
  }
  const seen = new Set<string>();
  for (const raw of warnings ?? []) {
    const text = raw.trim();
    if (text === '' || seen.has(text)) continue;
    seen.add(text);
    const known = KNOWN_WARNINGS.find((w) => w.re.test(text));
    lines.push(known ? known.message : msg('warning.server', text));
  }
  return lines;
}
