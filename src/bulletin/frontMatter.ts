/**
 * A bulletin's YAML front matter (`---` … `---` at the very top): where it is and its top-level
 * scalar fields (`title: "…"`, `date: 2026-12-01`, `lang: zh-CN`). Only what bulletins use is read —
 * one `key: value` per line, plain, single- or double-quoted — so no YAML library is needed. Pure.
 * The one reader of front matter outside the Markdown parsers: the document language, the editor's
 * starting query and publishing all find it here.
 */

/**
 * The front matter at the top of a text (after an optional BOM); group 1 is its content (absent when
 * empty: the closing `---` right on the second line closes it, as in every Markdown reader).
 */
export const FRONT_MATTER = /^(?:\uFEFF)?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)??(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** What {@link frontMatter} finds. */
export interface FrontMatter {
  /** Top-level scalar fields, unquoted. Empty without front matter. */
  fields: Record<string, string>;
  /** The text with the front matter's characters (not its line breaks) blanked: same lines, same length. */
  blanked: string;
}

/** Reads the front matter of a text. */
export function frontMatter(text: string): FrontMatter {
  const m = FRONT_MATTER.exec(text);
  if (!m) return { fields: {}, blanked: text };
  const fields: Record<string, string> = {};
  // Stryker disable next-line StringLiteral: any text without a colon reads as no field, like the empty one
  for (const line of (m[1] ?? '').split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$/.exec(line);
    if (kv) fields[kv[1]!] = unquote(kv[2]!);
  }
  return { fields, blanked: m[0].replace(/[^\r\n]/g, ' ') + text.slice(m[0].length) };
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
