/**
 * The one parser every tool result goes through: `isError` text → typed failure, or
 * `content[0].text` → JSON → zod schema → typed value. No `any` crosses this line.
 */
import type { z } from 'zod';
import { KnowledgeMissError, ResultShapeError, parseToolFailure } from './errors';
import { TOOL_RESULT_SCHEMAS } from './schemas';

/** The parts of an MCP `tools/call` result the parser reads. */
export interface RawToolResult {
  content?: unknown;
  isError?: unknown;
}

/** The text of the first `text` item of `content` (items of other types, and non-string texts, are passed over). */
function firstText(result: RawToolResult): string | undefined {
  if (!Array.isArray(result.content)) return undefined;
  for (const item of result.content as unknown[]) {
    const { type, text } = (item ?? {}) as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof text === 'string') return text;
  }
  return undefined;
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.length ? path.map((p) => String(p)).join('.') : '(root)';
}

/**
 * Parses one tool result.
 * @param tool the tool's name (used in messages and to pick the default schema)
 * @param schema the schema to check the payload against; defaults to the tool's known schema,
 *   and unknown tools get the parsed JSON (or the raw text when it is not JSON)
 * @throws a {@link parseToolFailure} error for `isError: true`, {@link ResultShapeError} for a payload
 *   of the wrong shape, {@link KnowledgeMissError} for a knowledge search with empty `sources`
 */
export function parseToolResult<T = unknown>(tool: string, result: RawToolResult, schema?: z.ZodType<T>): T {
  const text = firstText(result);
  if (result.isError === true) throw parseToolFailure(text ?? '');
  if (text === undefined)
    throw new ResultShapeError(tool, 'content[0].text', 'is missing (no text content in the result)');
  const effective = (schema ?? TOOL_RESULT_SCHEMAS[tool]) as z.ZodType<T> | undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    if (!effective) return text as T;
    throw new ResultShapeError(
      tool,
      'content[0].text',
      `is not JSON (starts with ${JSON.stringify(text.slice(0, 60))})`,
    );
  }
  if (!effective) return json as T;
  const parsed = effective.safeParse(json);
  if (!parsed.success) {
    // a failed parse has at least one issue
    const issue = parsed.error.issues[0]!;
    throw new ResultShapeError(tool, fieldPath(issue.path), `does not match: ${issue.message}`);
  }
  const data = parsed.data;
  if (tool === 'knowledge_search') checkKnowledgeHit(data);
  return data;
}

function checkKnowledgeHit(data: unknown): void {
  const d = data as { sources?: unknown[]; counts?: { vector?: number; fulltext?: number } };
  if (Array.isArray(d.sources) && d.sources.length === 0) {
    throw new KnowledgeMissError(
      'the search returned no passages (empty sources)',
      d.counts?.vector,
      d.counts?.fulltext,
      undefined,
      undefined,
      undefined,
    );
  }
}
