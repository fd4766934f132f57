/** Text into HTML, one way for every page and article (src/text/html.ts). */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { escapeHtml } from '../../../src/text/html';

/** Reads numeric character references back (what an HTML parser does with them). */
const unescape = (s: string): string => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

describe('text/html', () => {
  it('writes & < > " and \' as character references, so no tag, entity or attribute end starts in the text', () => {
    assert.equal(
      escapeHtml(`<img src=x onerror='y'> "&amp;"`),
      '&#60;img src=x onerror=&#39;y&#39;&#62; &#34;&#38;amp;&#34;',
    );
  });

  it('property: the escaped text holds none of the five and reads back as the same characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', '&', '"', "'", 'a', '茶', '#', ';', '1', ' ') }), (s) => {
        const e = escapeHtml(s);
        assert.ok(!/[<>"']|&(?!#\d+;)/.test(e), e);
        assert.equal(unescape(e), s);
      }),
    );
  });
});
