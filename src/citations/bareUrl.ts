/**
 * A citation written right after a bare URL (`详见 https://www.agri.gov.cn/notice[^1]`) is read as
 * part of the link by renderers that turn bare URLs into links — VS Code's preview (markdown-it,
 * linkify on, fuzzyLink off) and GitHub (GFM autolink literals) — and the footnote disappears.
 * Our parser runs with linkify off, so this module tells, for the plain text before a citation,
 * whether such a renderer would glue them. The insertion then separates the two with a space; the
 * lint flags the same text written by hand.
 *
 * Measured with markdown-it 12 and 15 (linkify-it 3 and 5) and micromark + GFM
 * (test/unit/citations/render.test.ts): linkify takes a following `[^1]` or `〔…〕` into a schema
 * link (`https:`, `http:`, `ftp:` or `//`) once a path, query or fragment has started; GFM takes it
 * into any `http(s)://` or `www.` literal (after a non-letter / at a word start). Fuzzy links
 * (`a.cn/x`) and e-mail addresses never take it.
 */

/** A linkify schema link (`https://`, `ftp://`, `//` …) with its path, query or fragment still open at the end. */
const LINKIFY_OPEN = /\/\/[^\s<>\uff5c]*[/?#][^\s<>\uff5c]*$/;
/** A GFM autolink literal still open at the end. */
const GFM_OPEN = /(?:^|[^a-z])https?:\/\/[^\s<]*$|(?:^|[\s(*_~[\]])www\.[^\s<]*$/i;

/**
 * True when a citation written right after `before` (the plain text on its line up to it, without
 * links, code spans or autolinks) would be taken into a bare URL by one of those renderers.
 */
export function gluedToUrl(before: string): boolean {
  const run = /\S*$/.exec(before)![0];
  return /\/\/|www\./i.test(run) && (GFM_OPEN.test(run) || LINKIFY_OPEN.test(run));
}

/**
 * A bare link's URL as written in ASCII: from its start (a schema's `//` with the schema, `www.` or
 * `mailto:`) up to a space, `<`, `>` or the first character that is not ASCII. The renderers may
 * take Chinese text glued after it into the link too; where it ends then is theirs to guess.
 */
const URL_RUN = /(?:(?:[a-z][a-z\d+.-]*:)?\/\/|www\.|mailto:)[\x21-\x3b\x3d\x3f-\x7e]*/gi;

/**
 * Where a citation goes when the cursor is inside a bare link's URL in `line` (plain text): after
 * the URL, so the link stays whole (`https://a.cn/x [^1]，请查阅`). Also when letters are glued
 * before the URL (`a|https://…`, `wwww|www.…`, `茶园|www.…`): no renderer links it there, and the
 * citation's `]` would make it a link. A cursor after a space before a URL, or before a link in the
 * same run of Chinese text (`要点|如下，详见 https://…`), stays where it is.
 */
export function pastBareLink(line: string, at: number): number {
  const start = at - /\S*$/.exec(line.slice(0, at))![0].length;
  const end = at + /^\S*/.exec(line.slice(at))![0].length;
  for (const m of line.slice(start, end).matchAll(URL_RUN)) {
    const s = start + m.index;
    const e = s + m[0].length;
    const before = line.slice(start, s);
    const glued = s - /[^\p{Script=Han}]*$/u.exec(before)![0].length;
    if ((glued < at && at < e) || (at === s && /[\p{L}\p{N}]$/u.test(before))) return e;
  }
  return at;
}
