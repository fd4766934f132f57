/**
 * A bulletin's YAML front matter (`---` … `---` at the very top): where it is, its top-level fields
 * and lists, where each is written, and what a YAML reader finds wrong with it. Read by the `yaml`
 * library in its failsafe schema, so every value stays the text the author wrote (`date: 2026-12-01`
 * and `issue: 012` are strings, never a Date or a number). A front matter YAML rejects but a person
 * reads (`title: 2026年第12期: 稻飞虱`) is reported on its line and read line by line, one
 * `key: value` a line; a line nested deeper than {@link MAX_DEPTH} levels and a field whose aliases
 * expand past {@link MAX_ALIASES} are refused on their line and not read. Never throws. Pure.
 * The one reader of front matter: the document language, the bulletin's date, the editor's starting
 * query, the forecast check and publishing all find it here.
 */
import type { Document, Node, Pair } from 'yaml';

/**
 * The YAML library, required where a front matter is read, not where this module loads: the
 * bundles that import this module start without it, and a text with no front matter never loads it
 * (in the extension it is its own bundle, `dist/yaml.js`). Node's module cache holds it once.
 */
function yaml(): typeof import('yaml') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('yaml') as typeof import('yaml');
}

/**
 * The front matter at the top of a text (after an optional BOM); group 1 is its content (absent when
 * empty: the closing `---` right on the second line closes it, as in every Markdown reader).
 */
export const FRONT_MATTER = /^(?:\uFEFF)?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)??(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** The levels of nesting (indentation or brackets) a front matter line may reach; deeper lines are refused. */
export const MAX_DEPTH = 8;
/** The aliases one field may expand; a field past it (an alias bomb) is refused. */
export const MAX_ALIASES = 50;

/** Where a field's value is written: a 0-based line and column (UTF-16) in the whole text. */
export interface FieldPosition {
  line: number;
  character: number;
}

/**
 * What a YAML reader finds wrong with a front matter, on its line:
 * - `yaml`: YAML rejects the front matter here (`reason`, the library's words); it was read line by line;
 * - `depth`: the line nests deeper than {@link MAX_DEPTH} levels; it was not read;
 * - `aliases`: the field's aliases expand past {@link MAX_ALIASES}; it was not read.
 */
export interface FrontMatterProblem {
  kind: 'yaml' | 'depth' | 'aliases';
  line: number;
  character: number;
  /** YAML's reason, in English, for a `yaml` problem. */
  reason?: string;
}

/** What {@link frontMatter} finds. */
export interface FrontMatter {
  /** Top-level scalar fields, as written (unquoted; a line break read as a space). Empty without front matter. */
  fields: Record<string, string>;
  /** Top-level lists of scalars (`cc:` with `- item` lines, or `[a, b]`), each item as written. */
  lists: Record<string, string[]>;
  /** Where each field's or list's value begins. */
  positions: Record<string, FieldPosition>;
  problems: FrontMatterProblem[];
  /** The text with the front matter's characters (not its line breaks) blanked: same lines, same length. */
  blanked: string;
}

/** Reads the front matter of a text. */
export function frontMatter(text: string): FrontMatter {
  const m = FRONT_MATTER.exec(text);
  const read: Fields = { fields: {}, lists: {}, positions: {}, problems: [] };
  if (!m) return { ...read, blanked: text };
  const content = m[1] ?? '';
  const lines = content.split('\n');
  const deep = tooDeep(lines);
  for (const line of deep) read.problems.push({ kind: 'depth', line: line + 1, character: 0 });
  const kept = lines.map((l, i) => (deep.has(i) ? '' : l)).join('\n');
  const parsed = readYaml(kept);
  const fields = parsed.problems.some((p) => p.kind === 'yaml') ? readLines(kept, parsed.problems) : parsed;
  read.problems.push(...fields.problems);
  read.problems.sort((a, b) => a.line - b.line || a.character - b.character);
  return {
    fields: fields.fields,
    lists: fields.lists,
    positions: fields.positions,
    problems: read.problems,
    blanked: m[0].replace(/[^\r\n]/g, ' ') + text.slice(m[0].length),
  };
}

type Fields = Omit<FrontMatter, 'blanked'>;

/**
 * The lines (0-based in the front matter) nesting deeper than {@link MAX_DEPTH}: by indentation (one
 * level per indented block, counted by the stack of indents above) or by open brackets, counted
 * across lines outside quotes.
 */
function tooDeep(lines: readonly string[]): Set<number> {
  const deep = new Set<number>();
  const indents: number[] = [];
  let brackets = 0;
  lines.forEach((line, i) => {
    const indent = /^[ \t-]*/.exec(line)![0].length;
    if (line.trim() !== '' && !line.trimStart().startsWith('#')) {
      while (indents.length > 0 && indents.at(-1)! >= indent) indents.pop();
      indents.push(indent);
    }
    let most = brackets;
    for (const ch of line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|\s#.*$/g, '')) {
      if (ch === '[' || ch === '{') most = Math.max(most, ++brackets);
      else if (ch === ']' || ch === '}') brackets = Math.max(0, brackets - 1);
    }
    if (indents.length + most > MAX_DEPTH) deep.add(i);
  });
  return deep;
}

/** The front matter as YAML reads it: a problem for each error, the fields of its top-level mapping. */
function readYaml(content: string): Fields {
  const { isMap, LineCounter, parseDocument } = yaml();
  const counter = new LineCounter();
  const doc = parseDocument(content, { schema: 'failsafe', lineCounter: counter, prettyErrors: false });
  const at = (offset: number): FieldPosition => {
    const { line, col } = counter.linePos(offset);
    return { line, character: col - 1 };
  };
  const out: Fields = { fields: {}, lists: {}, positions: {}, problems: [] };
  for (const e of doc.errors) out.problems.push({ kind: 'yaml', ...at(e.pos[0]), reason: firstLine(e.message) });
  if (out.problems.length > 0 || !isMap(doc.contents)) return out;
  for (const pair of doc.contents.items as Pair<Node, Node | null>[]) readPair(doc, pair, at, out);
  return out;
}

/** One top-level `key: value` into the fields: a scalar as text, a list of scalars as a list; a bomb refused. */
function readPair(doc: Document, pair: Pair<Node, Node | null>, at: (offset: number) => FieldPosition, out: Fields) {
  const { isScalar, isSeq } = yaml();
  if (!isScalar(pair.key)) return;
  const key = String(pair.key.value);
  const value = pair.value;
  const position = at(value?.range?.[0] ?? pair.key.range?.[1] ?? 0);
  let js: unknown;
  try {
    js = value ? value.toJS(doc, { maxAliasCount: MAX_ALIASES }) : '';
  } catch {
    out.problems.push({ kind: 'aliases', ...at(pair.key.range?.[0] ?? 0) });
    return;
  }
  if (typeof js === 'string' || js === null) {
    out.fields[key] = oneLine(js ?? '');
    out.positions[key] = position;
  } else if (isSeq(value) && Array.isArray(js) && js.every((v) => typeof v === 'string')) {
    out.lists[key] = js.map(oneLine).filter((v) => v !== '');
    out.positions[key] = position;
  }
}

/**
 * The fields read one line at a time, as a person reads them, where YAML rejects the front matter:
 * `key: value` (plain, single- or double-quoted), and `- item` lines under an empty `key:` as its list.
 */
function readLines(content: string, problems: FrontMatterProblem[]): Fields {
  const out: Fields = { fields: {}, lists: {}, positions: {}, problems };
  let listKey: string | undefined;
  content.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const item = /^[ \t]*-[ \t]+(.*?)[ \t]*$/.exec(line);
    if (item && listKey !== undefined) {
      (out.lists[listKey] ??= []).push(unquote(item[1]!));
      return;
    }
    const kv = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$/.exec(line);
    listKey = kv && kv[2] === '' ? kv[1] : undefined;
    if (!kv) return;
    out.fields[kv[1]!] = unquote(kv[2]!);
    out.positions[kv[1]!] = {
      line: i + 1,
      character: line.length - line.slice(line.indexOf(':') + 1).trimStart().length,
    };
  });
  return out;
}

/** A YAML scalar as written on one line: quotes removed, a trailing comment of a plain scalar dropped. */
function unquote(v: string): string {
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2)
    return v
      .slice(1, -1)
      .replace(/\\(["\\/])/g, '$1')
      .replace(/\\n/g, ' ')
      .replace(/\\t/g, ' ');
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) return v.slice(1, -1).replace(/''/g, "'");
  // Stryker disable next-line Regex: a line has no line break, so `.*` reaches its end with or without `$`
  return v.replace(/[ \t]+#.*$/, '');
}

/** A value on one line: a final line break dropped, the others (with the spaces around them) and tabs read as one space. */
function oneLine(v: string): string {
  return v
    .replace(/[\r\n]+$/, '')
    .replace(/[ \t]*[\r\n]+[ \t]*/g, ' ')
    .replace(/\t/g, ' ');
}

/** The first line of a library's message. */
function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}
