/**
 * Text shown through `vscode.MarkdownString.appendText` (tooltips, hovers) exactly as it is. Pure,
 * no `vscode`.
 *
 * `appendText` backslash-escapes Markdown punctuation, which is right for text, but VS Code's
 * renderer (marked with GFM) still finds autolinks in the escaped source — `https://…`, `www.…`,
 * `<https://…>` — and takes their text and address from that source, escaping backslashes
 * included: a passage's `(见 https://x.cn/a/track.png)` would show the link
 * `https://x.cn/a/track.png\`. Entities it leaves alone, so `&amp;` reads as `&`.
 */

/**
 * The text to give `appendText` so that it reads as `s`: `&` and `<` written as `&amp;` and `&lt;`
 * (no character reference, tag or `<…>` autolink starts in it), the `:` of `://` as `&colon;` and
 * the `.` of `www.` as `&period;`, `@` as `&commat;` (no autolink literal starts), and the `.` or `)`
 * after a number that starts a line as `&period;` / `&rpar;` (no ordered list starts: `appendText`
 * escapes `-` and `+` but not those). The references hold no character `appendText` escapes, and
 * render as the characters themselves.
 */
export function plainForMarkdown(s: string): string {
  const text = s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/:(?=\/\/)/g, '&colon;')
    .replace(/(www)\./gi, '$1&period;')
    .replace(/@/g, '&commat;');
  // Stryker disable next-line Regex: without `^`, a number's `.` or `)` mid-line is written as a reference too, which reads the same
  return text.replace(/^(\d{1,9})([.)])/gm, (_, n: string, c: string) => n + (c === '.' ? '&period;' : '&rpar;'));
}
