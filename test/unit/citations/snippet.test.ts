import assert from 'node:assert/strict';
import { formatSnippet } from '../../../src/citations';
import { RENDERERS } from '../../support/renderers';

/** The paragraphs each renderer shows of a snippet ending with `[^1]` (defined after it), as `quote` or `p`, with their text. */
function shown(snippet: string): string[][] {
  return Object.values(RENDERERS).map((render) => {
    const r = render(`${snippet}\n\n[^1]: x.docx#1 — k (K)\n`);
    assert.equal(r.refs, 1, r.html);
    const body = r.html.split(/<hr class="footnotes-sep">|<section data-footnotes=""/)[0]!;
    const quote = /^<blockquote>\n([\s\S]*)<\/blockquote>\n$/.exec(body);
    const paragraphs = [...(quote ? quote[1]! : body).matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) =>
      m[1]!.replace(/<sup[\s\S]*?<\/sup>/, '[^1]'),
    );
    assert.equal((quote ? quote[1]! : body).replace(/<p>[\s\S]*?<\/p>\n?/g, ''), '', r.html);
    return [quote ? 'quote' : 'p', ...paragraphs];
  });
}

describe('citations/snippet', () => {
  it('ends with its citation after a space on its last line; with no text it is the citation alone', () => {
    for (const [text, want] of [
      ['', '> [^1]'],
      ['\n\n', '> [^1]'],
      [' \n\t', '> [^1]'],
      ['浅修。', '> 浅修。 [^1]'],
    ] as const) {
      const s = formatSnippet(text, 'blockquote', '[^1]', '\n');
      assert.equal(s, want, JSON.stringify(text));
      for (const got of shown(s)) assert.deepEqual(got, ['quote', want.slice(2)]);
    }
    assert.equal(formatSnippet('浅修。', 'paragraph', '〔a.docx#1〕', '\n'), '浅修。 〔a.docx#1〕');
  });

  it('every kind of line break starts a new line (CR LF, CR, LF, U+2028, U+2029), one paragraph still', () => {
    const s = formatSnippet('甲\r\n乙\r丙\n丁\u2028戊\u2029己', 'blockquote', '[^1]', '\n');
    assert.equal(s, '> 甲\n> 乙\n> 丙\n> 丁\n> 戊\n> 己 [^1]');
    for (const got of shown(s)) assert.deepEqual(got, ['quote', '甲\n乙\n丙\n丁\n戊\n己 [^1]']);
  });

  it('drops blank lines at the start and the end and keeps a run of them as one, so its paragraphs stay apart', () => {
    const text = '\n \n甲\n\n\t\n乙\n\n';
    const quote = formatSnippet(text, 'blockquote', '[^1]', '\n');
    assert.equal(quote, '> 甲\n>\n> 乙 [^1]');
    for (const got of shown(quote)) assert.deepEqual(got, ['quote', '甲', '乙 [^1]']);
    const paragraphs = formatSnippet(text, 'paragraph', '[^1]', '\n');
    assert.equal(paragraphs, '甲\n\n乙 [^1]');
    for (const got of shown(paragraphs)) assert.deepEqual(got, ['p', '甲', '乙 [^1]']);
  });

  it("joins its lines with the document's line break", () => {
    assert.equal(formatSnippet('甲\n\n乙\n丙', 'blockquote', '[^1]', '\r\n'), '> 甲\r\n>\r\n> 乙\r\n> 丙 [^1]');
    assert.equal(formatSnippet('甲\n\n乙\n丙', 'paragraph', '[^1]', '\r\n'), '甲\r\n\r\n乙\r\n丙 [^1]');
  });
});
