/**
 * The template reader's XML (src/publish/xmlRead.ts): elements by namespace whatever their prefix,
 * each with where it starts and ends in the text as given (a byte order mark included), so a part
 * can be added to in place; and a part that is not well-formed refused with a 1-based line and
 * column and the parser's reason.
 */
import * as assert from 'node:assert/strict';
import { W_NS, XmlSyntaxError, readXml, wAttr } from '../../../src/publish/xmlRead';

const DOC = `<?xml version="1.0" encoding="UTF-8"?>\n<x:document xmlns:x="${W_NS}"><x:body>\n  <x:p x:rsidR="00A1"><x:r><x:t>茶</x:t></x:r></x:p>\n  <x:sectPr/>\n</x:body></x:document>`;

/** Each element as its start tag, its end tag and its depth, cut from `xml` by the positions read. */
function cuts(xml: string): [string, string, string, number][] {
  return readXml(xml).map((e) => [e.local, xml.slice(e.start, e.openEnd), xml.slice(e.closeStart, e.end), e.depth]);
}

describe('publish: reading a template’s XML', () => {
  it('gives every element in document order with its start and end tags where they are in the text', () => {
    const want: [string, string, string, number][] = [
      ['document', `<x:document xmlns:x="${W_NS}">`, '</x:document>', 0],
      ['body', '<x:body>', '</x:body>', 1],
      ['p', '<x:p x:rsidR="00A1">', '</x:p>', 2],
      ['r', '<x:r>', '</x:r>', 3],
      ['t', '<x:t>', '</x:t>', 4],
      ['sectPr', '<x:sectPr/>', '', 2],
    ];
    assert.deepEqual(cuts(DOC), want);
    // the same places in the text as given when it starts with a byte order mark
    assert.deepEqual(cuts(`\uFEFF${DOC}`), want);
  });

  it('an empty element’s end is its start tag’s end; the content lies between openEnd and closeStart', () => {
    const els = readXml(DOC);
    const empty = els.find((e) => e.local === 'sectPr')!;
    assert.equal(empty.closeStart, empty.openEnd);
    assert.equal(empty.end, empty.openEnd);
    const t = els.find((e) => e.local === 't')!;
    assert.equal(DOC.slice(t.openEnd, t.closeStart), '茶');
  });

  it('knows WordprocessingML by its namespace, whatever the prefix, attributes included', () => {
    for (const prefix of ['w', 'ns0', 'x']) {
      const xml = `<${prefix}:styles xmlns:${prefix}="${W_NS}"><${prefix}:style ${prefix}:styleId="Heading1"/></${prefix}:styles>`;
      const [styles, style] = readXml(xml);
      assert.deepEqual([styles?.uri, styles?.local, style?.local], [W_NS, 'styles', 'style'], prefix);
      assert.equal(wAttr(style!, 'styleId'), 'Heading1', prefix);
      assert.equal(wAttr(style!, 'type'), undefined, prefix);
    }
    const other = readXml('<styles xmlns="urn:other" styleId="x"/>')[0]!;
    assert.equal(other.uri, 'urn:other');
    assert.equal(wAttr(other, 'styleId'), undefined, 'an attribute outside the namespace is not WordprocessingML');
  });

  it('refuses XML that is not well-formed with the line and column (from 1) and the parser’s reason', () => {
    const refusal = (xml: string): string => {
      try {
        readXml(xml);
      } catch (e) {
        assert.ok(e instanceof XmlSyntaxError, String(e));
        return `${e.line}:${e.column} ${e.message}`;
      }
      return 'read';
    };
    assert.equal(refusal('<a>\n  <b>\n</a>'), '3:5 line 3, column 5: Unexpected close tag');
    assert.equal(refusal('<a><b></b>'), '1:11 line 1, column 11: Unclosed root tag');
    assert.equal(refusal('<a>&bad;</a>'), '1:9 line 1, column 9: Invalid character entity');
    assert.equal(refusal(''), '1:1 line 1, column 1: no root element');
    assert.equal(refusal('  \n '), '1:1 line 1, column 1: no root element');
  });
});
