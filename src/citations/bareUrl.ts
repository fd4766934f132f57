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
const GFM_OPEN = /(?:^|[^a-z])https?:\/\/[^\s<]*$|(?:^|[\s(*_~])www\.[^\s<]*$/i;

/**
 * True when a citation written right after `before` (the plain text on its line up to it, without
 * links, code spans or autolinks) would be taken into a bare URL by one of those renderers.
 */
export function gluedToUrl(before: string): boolean {
  const run = /\S*$/.exec(before)![0];
  return /\/\/|www\./i.test(run) && (GFM_OPEN.test(run) || LINKIFY_OPEN.test(run));
}
