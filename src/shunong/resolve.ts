/**
 * Tool-name resolution of the generic call layer: exact name, service-prefixed
 * (`shunong_knowledge_search`), legacy dotted (`shunong.knowledge_search`), the server's method
 * name (`knowledgeSearch`), or a unique partial match (`knowledge`). Never a silent call of another tool:
 * several matches are an {@link AmbiguousToolError}, none an {@link UnknownToolError} with suggestions.
 */
import { AmbiguousToolError, UnknownToolError } from './errors';

/** The service name used in prefixed tool names and in call envelopes. */
export const SERVICE_NAME = 'shunong';

/** How a name was resolved. */
export type ResolvedBy = 'exact' | 'prefixed' | 'method' | 'partial';

/** A successful resolution. */
export interface Resolution {
  name: string;
  by: ResolvedBy;
}

/** `name` without the service prefix (`shunong_`, `shunong.`, `shunong:` …), any case; built per call (names are resolved rarely). */
function withoutPrefix(name: string): string {
  return name.replace(new RegExp(`^${SERVICE_NAME}(?:[_.:/-]|__)`, 'i'), '');
}

/** Lower-cases and drops separators: `knowledgeSearch`, `knowledge_search`, `Knowledge-Search` → `knowledgesearch`. */
function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9\u4e00-\u9fff]/g, '');
}

/** Splits into lower-case words: camelCase, snake_case, dotted, dashed. */
function words(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9\u4e00-\u9fff]/)
    .filter(Boolean);
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * Similarity in [0, 1] of a requested name and a tool name: the better of the edit-distance
 * similarity of the normalised names and the share of words they have in common (with
 * near-miss words, e.g. a typo, counting partly).
 */
export function nameSimilarity(requested: string, tool: string): number {
  const a = norm(requested);
  const b = norm(tool);
  // Stryker disable next-line LogicalOperator: one empty name scores 0 either way; the guard keeps two empty names from 0 / 0
  if (!a || !b) return 0;
  const edit = 1 - levenshtein(a, b) / Math.max(a.length, b.length);
  const wa = words(requested);
  const wb = words(tool);
  let overlap = 0;
  for (const w of wa) {
    let best = 0;
    for (const v of wb) best = Math.max(best, 1 - levenshtein(w, v) / Math.max(w.length, v.length));
    overlap += best >= 0.6 ? best : 0;
  }
  // both names have a word: their normalised forms are not empty, and words() keeps the same characters
  const wordScore = overlap / Math.max(wa.length, wb.length);
  return Math.max(edit, wordScore);
}

/** Up to `limit` tool names scored by {@link nameSimilarity} (at least `min`), best first. */
export function suggestToolNames(
  requested: string,
  available: readonly string[],
  limit = 3,
  min = 0.4,
): { name: string; score: number }[] {
  const bare = withoutPrefix(requested);
  return available
    .map((name) => ({ name, score: Math.round(nameSimilarity(bare, name) * 100) / 100 }))
    .filter((s) => s.score >= min)
    .sort((x, y) => y.score - x.score || x.name.localeCompare(y.name))
    .slice(0, limit);
}

/**
 * Resolves `requested` against the advertised tool names.
 * @throws AmbiguousToolError when several tools match at the first level that matches any.
 * @throws UnknownToolError when none does (with scored "did you mean" suggestions).
 */
export function resolveToolName(requested: string, available: readonly string[]): Resolution {
  const input = requested.trim();
  if (available.includes(input)) return { name: input, by: 'exact' };
  const stripped = withoutPrefix(input);
  // a name equal to its stripped form was looked up just above
  if (available.includes(stripped)) return { name: stripped, by: 'prefixed' };
  const n = norm(stripped);
  if (n) {
    const same = available.filter((t) => norm(t) === n);
    if (same.length > 1) throw new AmbiguousToolError(requested, same);
    if (same.length === 1) return { name: same[0]!, by: stripped !== input ? 'prefixed' : 'method' };
    const partial = available.filter((t) => norm(t).includes(n));
    if (partial.length > 1) throw new AmbiguousToolError(requested, partial);
    if (partial.length === 1) return { name: partial[0]!, by: 'partial' };
  }
  throw new UnknownToolError(requested, suggestToolNames(input, available), [...available]);
}

/** The server's method name of a tool (`knowledge_search` → `knowledgeSearch`), as used in failure texts. */
export function methodNameOf(tool: string): string {
  return tool.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
