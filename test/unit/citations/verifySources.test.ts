/** The sources of bulletins and the text each citation cites (pure). */
import { strict as assert } from 'node:assert';
import { analyzeDocument, formatDefinition } from '../../../src/citations/index';
import { VerifyCache } from '../../../src/citations/verifyCache';
import { collectSources, sourceKey } from '../../../src/citations/verifySources';

const TEA = { kbName: '茶树管理', kbCode: 'TEA_MANAGER_001' };

function sources(text: string) {
  return collectSources([{ file: 'a.md', text, model: analyzeDocument(text) }]);
}

function withDefs(body: string[], defs: [string, string, number][]): string {
  return [
    ...body,
    '',
    '## 参考资料',
    '',
    ...defs.map(([l, d, i]) => formatDefinition(l, { docName: d, chunkIndex: i, ...TEA })),
    '',
  ].join('\n');
}

describe('citations: verify sources (pure)', () => {
  it('a blockquote over several lines that ends with its citation: the whole quote, markers left out', () => {
    const text = withDefs(['> 第一行内容，', '> 第二行内容。[^1]'], [['1', '甲.docx', 0]]);
    assert.equal(sources(text)[0]?.citedText, '第一行内容， 第二行内容。');
  });

  it('a citation inside a paragraph: the sentence that ends at it, other citations left out', () => {
    const text = withDefs(
      ['前一句在这里。被引用的这一句[^1]，后面还有话[^2]。'],
      [
        ['1', '甲.docx', 0],
        ['2', '乙.docx', 1],
      ],
    );
    const [a, b] = sources(text);
    assert.equal(a?.citedText, '被引用的这一句');
    // [^2] stands before the paragraph's last full stop: it cites that last sentence.
    assert.equal(b?.citedText, '被引用的这一句，后面还有话');
  });

  it('a list item: the item text; a heading above is not part of it', () => {
    const text = withDefs(['## 小标题', '- 列表项的内容[^1]'], [['1', '甲.docx', 0]]);
    assert.equal(sources(text)[0]?.citedText, '列表项的内容');
  });

  it('a definition nobody cites: no cited text (the query falls back to the document name)', () => {
    const text = withDefs(['正文。'], [['1', '甲.docx', 3]]);
    const [s] = sources(text);
    assert.equal(s?.citedText, '');
    assert.equal(s?.key, sourceKey('TEA_MANAGER_001', '甲.docx#3'));
  });

  it('the same passage as an inline citation and a definition: two sources (one names no knowledge base)', () => {
    const text = withDefs(['内容〔甲.docx#0〕', '', '内容[^1]'], [['1', '甲.docx', 0]]);
    const keys = sources(text).map((s) => s.key);
    assert.deepEqual(
      keys.sort(),
      [sourceKey('TEA_MANAGER_001', '甲.docx#0'), sourceKey(undefined, '甲.docx#0')].sort(),
    );
  });

  it('outcomes keep their Beijing date; unverified ones are not kept; malformed data is dropped', () => {
    const c = new VerifyCache();
    c.put('k1', '2026-12-01', { status: 'not-located', kbCode: 'X' });
    c.put('k2', '2026-12-01', { status: 'unverified', reason: 'network', message: 'offline' });
    c.setKnowledgeBases('2026-12-01', [{ code: 'X', name: '某库' }]);
    const back = VerifyCache.fromJSON(JSON.parse(JSON.stringify(c.toJSON())));
    assert.equal(back.size, 1);
    assert.equal(back.onDate('k1', '2026-12-01')?.outcome.status, 'not-located');
    assert.equal(back.onDate('k1', '2026-12-02'), undefined);
    assert.deepEqual(back.knowledgeBases('2026-12-01'), [{ code: 'X', name: '某库' }]);
    assert.equal(back.knowledgeBases('2026-12-02'), undefined);
    assert.equal(
      VerifyCache.fromJSON({ outcomes: [{ key: 1 }, null, { key: 'x', date: 'd', outcome: { status: 'bogus' } }] })
        .size,
      0,
    );
    assert.equal(VerifyCache.fromJSON('nonsense').size, 0);
  });
});
