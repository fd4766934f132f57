import assert from 'node:assert/strict';
import { analyzeDocument } from '../../../src/citations';

const doc = [
  '---',
  'title: "[^1] 〔f.docx#1〕"',
  '---',
  '# 周报[^1]',
  '',
  '正文 `[^2] 〔c.docx#2〕` 和[^1]，又见〔i.docx#3〕与〔2023〕。作者注[^a]。',
  '',
  '```',
  '[^1] 〔x.docx#1〕',
  '```',
  '',
  '<div>',
  '[^2]',
  '</div>',
  '',
  '| 作物 | 来源 |',
  '| --- | --- |',
  '| 茶\\|叶 | 见[^2] |',
  '',
  '> 引文[^2]',
  '',
  '[^a]: 作者注释。',
  '',
  '## 参考资料',
  '',
  '[^1]: a.docx#1 — 茶树管理 (TEA)',
  '[^2]: b.docx#0 — 茶树管理 (TEA)',
  '',
].join('\n');

describe('citations/analyze', () => {
  const m = analyzeDocument(doc);

  it('finds references outside code, HTML and front matter, with exact ranges', () => {
    assert.deepEqual(
      m.references.map((r) => [r.label, r.range.line, r.range.character, doc.slice(r.range.start, r.range.end)]),
      [
        ['1', 3, 4, '[^1]'],
        ['1', 5, 22, '[^1]'],
        ['a', 5, 50, '[^a]'],
        ['2', 17, 10, '[^2]'],
        ['2', 19, 4, '[^2]'],
      ],
    );
    assert.deepEqual(
      m.references.map((r) => r.ours),
      [true, true, false, true, true],
    );
  });

  it('a label holds no blank and no unescaped `[`: an unclosed `[^` never swallows the reference after it', () => {
    const labels = (t: string) =>
      analyzeDocument(t).references.map((r) => [r.label, t.slice(r.range.start, r.range.end)]);
    assert.deepEqual(labels('aa[^a[^1]aa 及 [^b c] 与 [^x\\[y]\n'), [
      ['1', '[^1]'],
      ['x\\[y', '[^x\\[y]'],
    ]);
  });

  it('reads our definitions, the author’s, inline citations and the references section', () => {
    assert.deepEqual(
      m.definitions.map((d) => [d.label, d.citation, d.kbName, d.kbCode, d.line]),
      [
        ['1', { docName: 'a.docx', chunkIndex: 1 }, '茶树管理', 'TEA', 25],
        ['2', { docName: 'b.docx', chunkIndex: 0 }, '茶树管理', 'TEA', 26],
      ],
    );
    assert.deepEqual(
      m.authorDefinitions.map((d) => [d.label, d.line]),
      [['a', 21]],
    );
    assert.deepEqual(m.authorLabels, ['a']);
    assert.deepEqual(
      m.inlineCitations.map((c) => [c.citation, doc.slice(c.range.start, c.range.end)]),
      [[{ docName: 'i.docx', chunkIndex: 3 }, '〔i.docx#3〕']],
    );
    assert.equal(m.referencesSection?.headingLine, 23);
    assert.equal(m.frontMatter?.endLine, 2);
    assert.deepEqual(m.problems, []);
  });

  it('keeps offsets right with CRLF line breaks', () => {
    const crlf = doc.replace(/\n/g, '\r\n');
    const c = analyzeDocument(crlf);
    assert.deepEqual(
      c.references.map((r) => crlf.slice(r.range.start, r.range.end)),
      ['[^1]', '[^1]', '[^a]', '[^2]', '[^2]'],
    );
    assert.deepEqual(
      c.references.map((r) => [r.range.line, r.range.character]),
      m.references.map((r) => [r.range.line, r.range.character]),
    );
    assert.equal(c.eol, '\r\n');
  });

  it('locates references in headings, list items, nested quotes and tables in quotes', () => {
    const t =
      '### 标题 #[^1] ###\n\n- 一\n  二[^1]\n\n> > 深[^1]\n\n> | a | b |\n> | - | - |\n> | x\\| | y[^1] |\n\n[^1]: a.docx#1 — k (K)\n';
    const r = analyzeDocument(t).references;
    assert.equal(r.length, 4);
    for (const x of r) assert.equal(t.slice(x.range.start, x.range.end), '[^1]');
  });

  it('a definition that is not one line of our form is the author’s', () => {
    const t = '[^1] [^2]\n\n[^1]: a.docx#1 — k (K)\n    more text\n[^2]: 参见某书\n';
    const m2 = analyzeDocument(t);
    assert.deepEqual(
      m2.definitions.map((d) => d.label),
      [],
    );
    assert.deepEqual(
      m2.authorDefinitions.map((d) => d.label),
      ['1', '2'],
    );
  });
});
