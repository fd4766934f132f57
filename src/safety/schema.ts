/**
 * The rules file's shape, checked with zod: the shipped `rules.json` and a station's own file
 * (`shunong.safety.rulesFile`), whose problems name the line they are on. Pure.
 */
import { findNodeAtLocation, parseTree, type Node, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { z } from 'zod';
import type { RulesProblem } from './types';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is written YYYY-MM-DD');
const name = z.string().trim().min(1, 'a name cannot be empty');

const rule = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'an id is lower-case letters, digits and hyphens'),
  substance: name,
  en: name.optional(),
  names: z.array(name).min(1, 'a rule names its substance at least once'),
  kind: z.enum(['banned', 'scope', 'restricted']),
  scope: z
    .strictObject({
      crops: z.array(name).optional(),
      uses: z.array(name).optional(),
      except: z.array(name).optional(),
      exceptOn: z.array(name).optional(),
    })
    .optional(),
  effective: date,
  announcement: name,
  note: z.string().optional(),
  noteZh: z.string().optional(),
});

const crop = z.strictObject({
  name,
  en: name.optional(),
  parents: z.array(name).default([]),
  aliases: z.array(name).default([]),
});

const use = z.strictObject({ name, en: name.optional(), aliases: z.array(name).default([]) });

/** The shipped file: everything present. */
export const shippedSchema = z.strictObject({
  version: z.number().int().positive(),
  asOf: date,
  sources: z.string(),
  rules: z.array(rule),
  crops: z.array(crop),
  uses: z.array(use),
  otherNames: z.array(name),
  ordinaryWords: z.array(name),
});

/** A station's file: what it adds or overrides (rules by id, crops and uses by name). */
export const stationSchema = z.strictObject({
  version: z.number().int().positive().optional(),
  asOf: date.optional(),
  sources: z.string().optional(),
  rules: z.array(rule).optional(),
  crops: z.array(crop).optional(),
  uses: z.array(use).optional(),
  otherNames: z.array(name).optional(),
  ordinaryWords: z.array(name).optional(),
});

export type StationFile = z.infer<typeof stationSchema>;

/** A parsed file, or the problems that keep it from being used, each on its line. */
export function parseRulesText<T>(
  text: string,
  schema: z.ZodType<T>,
): { value: T; problems: [] } | { value?: undefined; problems: RulesProblem[] } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0)
    return {
      problems: errors.map((e) => ({
        ...lineColumn(text, e.offset),
        message: `not JSON: ${printParseErrorCode(e.error)}`,
      })),
    };
  // Stryker disable next-line all: unreachable, jsonc-parser reports an empty text as ValueExpected; for the type checker
  if (!tree) return { problems: [{ line: 1, column: 1, message: 'the file is empty' }] };
  const result = schema.safeParse(JSON.parse(text));
  if (result.success) return { value: result.data, problems: [] };
  return {
    problems: result.error.issues.map((issue) => {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      const at = deepest(tree, path);
      const where = path.length > 0 ? `${path.join('.')}: ` : '';
      return { ...lineColumn(text, at.offset), message: `${where}${issue.message}` };
    }),
  };
}

/** The node at `path`, or its nearest ancestor that exists. */
function deepest(tree: Node, path: Array<string | number>): Node {
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(tree, path.slice(0, n));
    if (node) return node;
  }
  return tree;
}

/** 1-based line and column of an offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}
