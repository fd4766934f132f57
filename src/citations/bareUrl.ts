/**
 * A citation written right after a bare URL (`详见 https://www.agri.gov.cn/notice[^1]`) is read as
 * part of the link by renderers that turn bare URLs into links — VS Code's preview (markdown-it,
 * linkify on, fuzzyLink off) and GitHub (GFM autolink literals) — and the citation disappears.
 * Our parser runs with linkify off, so this module tells, for the plain text before a citation,
 * whether such a renderer would glue them. The insertion then separates the two with a space; the
 * lint flags the same text written by hand.
 *
 * Measured with markdown-it 12 and 15 (linkify-it 3 and 5) and micromark + GFM, and held by
 * properties of test/unit/citations/render.test.ts (the lint flags a footnote reference exactly
 * when one of them loses it and an inline citation whenever one does; an inserted one is never lost). GFM takes a following citation of either kind into
 * any `http(s)://` or `www.` literal. markdown-it 15 links a schema as it parses the line, so it takes
 * a footnote reference into an `ftp://` link once a path has started (and into `http(s)://` ones,
 * where GFM already does); markdown-it 12 links only once the line is parsed, so a footnote
 * reference, a token by then, is never taken, but an inline citation, text to a renderer without our
 * plugin, is taken into an `http(s)://`, `ftp://` or `//` link. Fuzzy links (`a.cn/x`) and e-mail
 * addresses never take either.
 */

/** What follows the text: a footnote reference `[^1]` or an inline citation `〔…〕`. */
export type CitationKind = 'reference' | 'inline';

/**
 * True when a citation written right after `before` (the plain text on its line up to it, without
 * links, code spans or autolinks) would be taken into a bare URL by one of those renderers.
 */
export function gluedToUrl(before: string, kind: CitationKind): boolean {
  // GFM: an `http(s)://` literal after anything but an ASCII letter, or a `www.` one after a space, a
  // tab, a line break, `(`, `*`, `_`, `~` or `]`, runs on to a space or `<`
  if (/(?:^|[^a-z])https?:\/\/[^\s<]*$|(?:^|[\t\n\r (*_~\]])www\.[^\s<]*$/i.test(before)) return true;
  return kind === 'reference'
    ? // markdown-it 15: an `ftp://` link after anything but an ASCII letter or digit, `.`, `+` or `-`, once
      // its path, query or fragment has started, runs on to a space, `<`, `>`, `｜`, a bracket that
      // closes nothing or any punctuation outside ASCII
      /(?:^|[^a-z\d.+-])ftp:\/\/(?:[!-.0-;=@-~]|[^\0-\x7f\p{P}\p{Z}\p{Cc}\uff5c])*[/?#](?:[!-'*-;=?-Z\\^-z|~]|\([^\s()]*\)|\[[^\s[\]]*\]|\{[^\s{}]*\}|[^\0-\x7f\p{P}\p{Z}\p{Cc}\uff5c])*$/iu.test(
        before,
      )
    : // markdown-it 12: a link with a `//` (a schema's or none), once its path, query or fragment has
      // started, runs on to a space, `>` or `｜`, except that a `.`, `,`, `;`, `!` or `?` takes the
      // character after it along, whatever it is (`ftp://a.cn/f?>` is one link). Where it starts is not
      // judged: linkify-it 3 also starts one right after a link it found, and ends some earlier than
      // this (before a quote or a bracket that closes nothing, for one); a space too many is harmless,
      // a citation lost is not
      /\/\/[^\s/?#<>\uff5c]*[/?#](?:[^\s>\uff5c.,;!?]|[.,;!?](?:\S|$))*$/.test(before);
}

/**
 * Where a citation goes when the cursor is inside a bare link's URL in `line` (plain text): after
 * the URL, so the link stays whole (`https://a.cn/x [^1]，请查阅`). Also when letters are glued
 * before the URL (`a|https://…`, `wwww|www.…`, `茶园|www.…`): no renderer links it there, and the
 * citation's `]` would make it a link. A cursor after a space before a URL, or before a link in the
 * same run of Chinese text (`要点|如下，详见 https://…`), stays where it is.
 */
export function pastBareLink(line: string, at: number): number {
  const start = at - /\S*$/.exec(line.slice(0, at))![0].length;
  const end = at + line.slice(at).search(/\s|$/);
  // a bare link's URL as written in ASCII: from its start (a schema's `//` with the schema, `www.` or
  // `mailto:`) up to a space, `<`, `>` or the first character that is not ASCII (the renderers may take
  // Chinese text glued after it into the link too; where it ends then is theirs to guess)
  for (const m of line
    .slice(start, end)
    .matchAll(/(?:(?:[a-z][a-z\d+.-]*:)?\/\/|www\.|mailto:)[\x21-\x3b\x3d\x3f-\x7e]*/gi)) {
    const s = start + m.index;
    const e = s + m[0].length;
    const before = line.slice(start, s);
    const glued = s - /[^\p{Script=Han}]*$/u.exec(before)![0].length;
    // Stryker disable next-line EqualityOperator: for a cursor at a URL's end, the end it would return is the cursor itself
    if ((glued < at && at < e) || (at === s && start < s)) return e;
  }
  return at;
}
