/** The sources of bulletins and the text each citation cites (pure). */
import { strict as assert } from 'node:assert';
import { analyzeDocument, formatDefinition } from '../../../src/citations/index';
import { VerifyCache } from '../../../src/citations/verifyCache';
import { applyEdits } from '../../../src/citations/edits';
import { collectSources, removeCitationEdits, sourceKey } from '../../../src/citations/verifySources';

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

/** The text the only source of `lines` (a bulletin ending with one definition of 甲.docx#0) cites. */
function citedText(lines: string[]): string | undefined {
  const s = sources(withDefs(lines, [['1', '甲.docx', 0]]));
  assert.equal(s.length, 1);
  return s[0]?.citedText;
}

describe('citations: verify sources, rule by rule (pure)', () => {
  it('a source: its base, document and chunk, and each use with its file, label and the range of its doc#idx', () => {
    const text = withDefs(['内容[^1]'], [['1', '甲.docx', 3]]);
    const def = analyzeDocument(text).definitions[0]!;
    assert.deepEqual(sources(text), [
      {
        key: sourceKey('TEA_MANAGER_001', '甲.docx#3'),
        kbCode: 'TEA_MANAGER_001',
        kbName: '茶树管理',
        docName: '甲.docx',
        chunkIndex: 3,
        citation: '甲.docx#3',
        uses: [{ file: 'a.md', label: '1', range: def.citationRange }],
        citedText: '内容',
      },
    ]);
    assert.equal(text.slice(def.citationRange.start, def.citationRange.end), '甲.docx#3');
  });

  it('only our well-formed definitions naming their base, once per label, and well-formed inline citations are sources', () => {
    const text = [
      '正文[^1][^2][^3]〔甲.docx#x〕，又〔乙.docx#1〕',
      '',
      '## 参考资料',
      '',
      '[^1]: 甲.docx#x — 库 (K)',
      '[^2]: 甲.docx#2 — 库 ()',
      '[^3]: 甲.docx#3 — 库 (K)',
      '[^3]: 甲.docx#4 — 库 (K)',
      '',
    ].join('\n');
    assert.deepEqual(
      sources(text).map((s) => [s.kbCode, s.citation]),
      [
        ['K', '甲.docx#3'],
        [undefined, '乙.docx#1'],
      ],
    );
  });

  it('a footnote cited twice: the text is what its first reference cites', () => {
    assert.equal(citedText(['首次引用的句子[^1]。', '', '再次引用[^1]。']), '首次引用的句子');
  });

  it('a source cited in several files keeps the text of its first use; a file citing nothing gives way to the next', () => {
    const files = [['正文。'], ['第二个文件的句子。[^1]'], ['第三个文件的句子。[^1]']].map((body, i) => {
      const text = withDefs(body, [['1', '甲.docx', 0]]);
      return { file: `${i}.md`, text, model: analyzeDocument(text) };
    });
    const [s, ...rest] = collectSources(files);
    assert.equal(rest.length, 0);
    assert.deepEqual(
      s?.uses.map((u) => u.file),
      ['0.md', '1.md', '2.md'],
    );
    assert.equal(s?.citedText, '第二个文件的句子。');
  });

  it('quote and list markers of every kind are left out, nested ones too', () => {
    assert.equal(
      citedText(['> > 第一行，', '>> 10. 第二行', '> 2) 第三行', '> * 第四行', '  + 第五行', '- 第六行。[^1]']),
      '第一行， 第二行 第三行 第四行 第五行 第六行。',
    );
  });

  it('an empty list item above, however many blanks follow its marker, ends the block as a blank line does', () => {
    assert.equal(citedText(['- 上一项', '-   ', '内容。[^1]']), '内容。');
  });

  it('the block ends at a blank line, an empty quote line, a heading or a footnote definition above it', () => {
    assert.equal(citedText(['> 第一段。', '>', '> 第二段[^1]']), '第二段');
    assert.equal(citedText(['前一段。', '', '本段[^1]']), '本段');
    assert.equal(citedText(['###### 六级标题', '本段[^1]']), '本段');
    assert.equal(citedText(['[^9]: 作者的注释', '本段[^1]']), '本段');
  });

  it('a line that only looks like a heading (seven #, or no blank after #) is text of the block', () => {
    assert.equal(citedText(['####### 七个井号', '本段[^1]']), '####### 七个井号 本段');
    assert.equal(citedText(['#标签', '本段[^1]']), '#标签 本段');
  });

  it('mid-paragraph: the sentence that ends at the citation, whatever mark ended the one before', () => {
    for (const end of ['。', '！', '？', '!', '?', '；', ';'])
      assert.equal(citedText([`前一句${end}本句[^1]，后文。`]), '本句', end);
    assert.equal(citedText(['第一句。第二句。[^1]第三句。']), '第二句。');
    assert.equal(citedText(['只有一句[^1]，后文。']), '只有一句');
    assert.equal(citedText(['前一句！  本句[^1]，后文。']), '本句');
  });

  it('whitespace is collapsed: line breaks of any kind and runs of blanks are one space', () => {
    assert.equal(citedText(['甲  乙\t丙[^1]']), '甲 乙 丙');
    const cr = withDefs(['> 第一行，', '> 第二行。[^1]'], [['1', '甲.docx', 0]]);
    for (const eol of ['\r\n', '\r']) {
      const [s] = sources(cr.replace(/\n/g, eol));
      assert.equal(s?.citedText, '第一行， 第二行。', JSON.stringify(eol));
    }
  });

  it('at most the last 2,000 characters of the cited text', () => {
    const long = '长'.repeat(2500) + '尾';
    assert.equal(citedText([`${long}[^1]`]), long.slice(-2000));
  });

  it('an inline citation that ends the file without a line break cites its line', () => {
    const [s] = sources('内容〔甲.docx#0〕');
    assert.equal(s?.citedText, '内容');
  });

  it('the same doc#idx in two knowledge bases is two sources; the key the cache file keeps names the base, or * for any', () => {
    const text = [
      '甲[^1]',
      '',
      '乙[^2]〔甲.docx#0〕',
      '',
      '## 参考资料',
      '',
      '[^1]: 甲.docx#0 — 库一 (K1)',
      '[^2]: 甲.docx#0 — 库二 (K2)',
      '',
    ].join('\n');
    assert.deepEqual(
      sources(text).map((s) => s.key),
      ['K1\u0000甲.docx#0', 'K2\u0000甲.docx#0', '*\u0000甲.docx#0'],
    );
  });

  it('other citations in the cited text are left out, whatever their label or document', () => {
    const text = withDefs(['前文[^note]，又〔乙.docx#12〕被引用[^1]'], [['1', '甲.docx', 0]]);
    assert.equal(sources(text).find((s) => s.citation === '甲.docx#0')?.citedText, '前文，又被引用');
  });

  it('a paragraph going on after the citation on the next line: the sentence that ends at it', () => {
    assert.equal(citedText(['前一句。被引用的这一句[^1]', '后面的行。']), '被引用的这一句');
  });

  it('a citation ending a block of several lines cites the whole block, not what follows the blank line', () => {
    assert.equal(citedText(['第一行，', '第二句。被引用[^1]', '', '另一段。']), '第一行， 第二句。被引用');
  });

  it('list and footnote markers count only at the line start; a footnote definition of any label ends the block', () => {
    assert.equal(citedText(['温度 - 湿度 1) 偏高[^1]']), '温度 - 湿度 1) 偏高');
    assert.equal(citedText(['温度- 偏高[^1]']), '温度- 偏高');
    assert.equal(citedText(['比例为 [^x]: 不是脚注', '本段[^1]']), '比例为 : 不是脚注 本段');
    assert.equal(citedText(['[^note]: 作者的注释', '本段[^1]']), '本段');
  });

  it('the blanks and sentence marks before the citation are not a sentence of their own', () => {
    assert.equal(citedText(['本段 [^1]']), '本段');
    assert.equal(citedText(['第一句。第二句！。[^1]第三句。']), '第二句！。');
  });

  it('removing an inline citation leaves the text around it as it was', () => {
    const text = '内容〔甲.docx#0〕后文。\n';
    const model = analyzeDocument(text);
    const [s] = collectSources([{ file: 'a.md', text, model }]);
    assert.equal(applyEdits(text, removeCitationEdits(text, model, s!.uses[0]!)), '内容后文。\n');
  });

  it("removing our definition of a label the author defined first leaves the author's references", () => {
    const text = '正文[^1]。\n\n[^1]: 作者的注释。\n\n## 参考资料\n\n[^1]: 甲.docx#1 — 库 (K)\n';
    const model = analyzeDocument(text);
    const def = model.definitions[0]!;
    const out = applyEdits(text, removeCitationEdits(text, model, { label: '1', range: def.citationRange }));
    assert.equal(out, '正文[^1]。\n\n[^1]: 作者的注释。\n\n## 参考资料\n\n');
  });

  it('removing a citation gives its edits in document order, a definition above its references included', () => {
    const text = '[^2]: 乙.docx#2 — 库 (K)\n\n甲[^2]，又[^2]。\n';
    const model = analyzeDocument(text);
    const [s] = collectSources([{ file: 'a.md', text, model }]);
    const edits = removeCitationEdits(text, model, s!.uses[0]!);
    assert.deepEqual(
      edits.map((e) => e.start),
      [...edits.map((e) => e.start)].sort((a, b) => a - b),
    );
    assert.equal(edits.length, 3);
    assert.equal(applyEdits(text, edits), '\n甲，又。\n');
  });
});
