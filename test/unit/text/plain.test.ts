/**
 * `plainForMarkdown` (src/text/plain.ts): text given to `MarkdownString.appendText` reads as it is
 * once rendered by a GFM renderer (micromark with GFM stands in for VS Code's marked): no link, no
 * escaping backslash, no entity or tag taking effect.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runs } from '../fast-check-seed';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { plainForMarkdown } from '../../../src/text/plain';

/**
 * What VS Code's `MarkdownString.appendText` does to one line of text (vs/base/common/htmlContent.ts,
 * as documented there): Markdown punctuation backslash-escaped, runs of blanks as `&nbsp;`, `>` escaped.
 */
function appendText(s: string): string {
  return s
    .replace(/[\\`*_{}[\]()#+\-!~]/g, (c) => `\\${c}`)
    .replace(/[ \t]/g, '&nbsp;')
    .replace(/>/g, '\\>');
}

/** What a reader sees of rendered HTML: tags dropped, the references micromark writes decoded. */
function seen(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
}

const render = (markdown: string): string => micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
const asShown = (s: string): string => s.replace(/[ \t]/g, '\u00a0');

describe('text/plain', () => {
  it('the defect: appendText alone lets a URL become a link holding the escaping backslash', () => {
    const html = render(appendText('见图(https://x.cn/a/track.png)'));
    assert.match(html, /<a href="[^"]*">https:\/\/x\.cn\/a\/track\.png\\<\/a>/);
  });

  it('keeps URLs, www, e-mail addresses, autolinks, entities and tags as text', () => {
    for (const s of [
      '见图(https://x.cn/a/track.png)',
      'https://x.cn/a_b/track.png',
      'WWW.a-b.cn/track.png!',
      '<https://a.cn/track.png>',
      'R&amp;D <b>粗</b> &#x202E; a_b@c-d.cn',
      'ftp://a.cn/x',
      '1.',
      '12.',
      '123456789.',
      '1234567890.',
      '2) 清园',
      '123456789. 施肥',
    ]) {
      const html = render(appendText(plainForMarkdown(s)));
      assert.doesNotMatch(html, /<a |<b>/, html);
      assert.equal(seen(html), asShown(s), html);
    }
  });

  it('property: any line reads as it is, with no link', () => {
    const piece = fc.constantFrom(
      'https://',
      'http://',
      'ftp://',
      'www.',
      'WWW.',
      'a.cn',
      '/track.png',
      '@',
      '&',
      '&amp;',
      '&#35;',
      '<',
      '>',
      '<b>',
      '\\',
      '(',
      ')',
      '_',
      '*',
      '-',
      '~',
      '`',
      '[',
      ']',
      '!',
      '#',
      ':',
      '.',
      ';',
      ' ',
      'a',
      '茶',
      '1',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 20 }), (ps) => {
        const s = ps.join('');
        fc.pre(s.trim() !== '' && !/^[ \t]|[ \t]$/.test(s));
        const html = render(appendText(plainForMarkdown(s)));
        assert.doesNotMatch(html, /<a /, html);
        assert.equal(seen(html), asShown(s), html);
      }),
      { numRuns: runs(500) },
    );
  });
});
