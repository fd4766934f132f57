/**
 * Tool input validation worded like the vendor's JSON-schema validator:
 * `Tool (knowledge_search) input validation failed: Validation failed: JSON schema validation errors: [: required property 'query' not found]`.
 * Each violation is `<path>: <message>`, the path being the parent object for a missing property
 * (empty at the top level) and the property path otherwise; several are joined with `, `.
 */
import { z } from 'zod';

/** Thrown by a tool implementation to produce `Error invoking method: <method>\n<reason>`. */
export class ToolFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !(key in (cur as object)))
      return { present: false, value: undefined };
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return { present: true, value: cur };
}

/** One issue in the validator's wording. */
function describe(issue: z.core.$ZodIssue, input: unknown): string {
  const path = issue.path.map(String).join('.');
  switch (issue.code) {
    case 'invalid_type': {
      const at = valueAt(input, issue.path);
      if (!at.present) {
        const parent = issue.path.slice(0, -1).map(String).join('.');
        return `${parent}: required property '${String(issue.path[issue.path.length - 1])}' not found`;
      }
      return `${path}: ${jsonType(at.value)} found, ${issue.expected === 'int' ? 'integer' : issue.expected} expected`;
    }
    case 'too_big':
      if (issue.origin === 'string') return `${path}: must be at most ${String(issue.maximum)} characters long`;
      return `${path}: must have a maximum value of ${String(issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'string') return `${path}: must be at least ${String(issue.minimum)} characters long`;
      return `${path}: must have a minimum value of ${String(issue.minimum)}`;
    case 'invalid_value':
      return `${path}: does not have a value in the enumeration [${issue.values.map(String).join(', ')}]`;
    case 'unrecognized_keys':
      return issue.keys
        .map(
          (k) =>
            `${path}: property '${k}' is not defined in the schema and the schema does not allow additional properties`,
        )
        .join(', ');
    default:
      return `${path}: ${issue.message}`;
  }
}

/** Validates tool arguments; returns the parsed value or the vendor-worded failure text. */
export function validateToolInput<T extends z.ZodType>(
  toolName: string,
  schema: T,
  args: unknown,
): { ok: true; value: z.output<T> } | { ok: false; text: string } {
  const r = schema.safeParse(args ?? {});
  if (r.success) return { ok: true, value: r.data };
  const msgs = r.error.issues.map((i) => describe(i, args ?? {}));
  return {
    ok: false,
    text: `Tool (${toolName}) input validation failed: Validation failed: JSON schema validation errors: [${msgs.join(', ')}]`,
  };
}
