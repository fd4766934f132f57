import assert from 'node:assert/strict';
import { analyzeDocument } from '../../../src/citations';
import { analyze, headingText, recognisedHeadings } from '../../../src/citations/analyze';

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
  // analysed in each test, not when the file loads: Stryker tests a mutant of code run at load with every test
  const model = () => analyzeDocument(doc);

  it('finds references outside code, HTML and front matter, with exact ranges', () => {
    const m = model();
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
    const m = model();
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
    const m = model();
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

  it('a table cell is read from where its row’s text starts, after a list marker or a quote marker on the same line', () => {
    for (const t of [
      '- | 〔doc.docx#1〕 | [^1] |\n  | - | - |\n  | c | d[^1] |\n',
      '1. | 〔doc.docx#1〕 | [^1] |\n   | - | - |\n',
      '- > | 〔doc.docx#1〕 | [^1] |\n  > | - | - |\n  > | c | d[^1] |\n',
      '> - | 〔doc.docx#1〕 | [^1] |\n>   | - | - |\n>   | c | d[^1] |\n',
    ]) {
      const m = analyzeDocument(t);
      const found = [...m.inlineCitations, ...m.references].map((r) => t.slice(r.range.start, r.range.end));
      assert.deepEqual(found.slice(0, 2), ['〔doc.docx#1〕', '[^1]'], JSON.stringify(t));
      for (const x of found) assert.match(x, /^(?:〔doc\.docx#1〕|\[\^1\])$/, JSON.stringify(t));
    }
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
  it('the references section is the last heading named so, up to the next heading of its level or a higher one', () => {
    const t = '## 参考资料\n\n旧的\n\n# 周报\n\n## 参考资料\n\n### 附\n\n[^1]: a.docx#1 — k (K)\n\n## 后记\n\n正文\n';
    const s = analyzeDocument(t).referencesSection;
    assert.deepEqual(s && [s.headingLine, s.level, s.endLine, t.slice(s.headingRange.start, s.headingRange.end)], [
      6,
      2,
      12,
      '## 参考资料',
    ]);
    const last = analyzeDocument('#### References\n\n[^1]: a.docx#1 — k (K)\n\n##### 小节\n').referencesSection;
    assert.deepEqual(last && [last.headingLine, last.level, last.endLine], [0, 4, 6], 'to the end of the document');
  });

  it('a set heading is read without the `#` marks and blanks around it, a `#` inside it kept', () => {
    assert.equal(headingText({ referencesHeading: '  ##参考文献 \t' }), '参考文献');
    assert.equal(headingText({ referencesHeading: 'C# 文献' }), 'C# 文献');
    assert.deepEqual([...recognisedHeadings({ referencesHeading: ' # 文献' })], ['文献']);
    assert.equal(headingText(), '参考资料', 'Chinese when no language is given');
    assert.equal(headingText({ lang: 'en', referencesHeading: ' ' }), 'References');
  });

  it('a line starting with `#` and no blank after it is a paragraph: its references are found where they are', () => {
    const t = '#话题 [^1] 与 〔a.docx#2〕\n\n[^1]: a.docx#1 — k (K)\n';
    const m = analyzeDocument(t);
    assert.deepEqual(
      [...m.references, ...m.inlineCitations].map((r) => t.slice(r.range.start, r.range.end)),
      ['[^1]', '〔a.docx#2〕'],
    );
    assert.equal(m.referencesSection, undefined);
  });

  it('an author’s definition runs from `[^` to its last line of text; a later one of the same label is a duplicate', () => {
    const t = 'a[^a] b[^1] c[^x]\n\n> [^1]: a.docx#1 — k (K)\n\n[^a]: 一\n\n    二\n\n\n[^a]: 再\n';
    const m = analyzeDocument(t);
    assert.deepEqual(
      m.authorDefinitions.map((d) => [
        d.label,
        t.slice(d.range.start, d.range.end),
        d.line,
        d.endLine,
        d.duplicateLabel,
      ]),
      [
        ['1', '[^1]: a.docx#1 — k (K)', 2, 3, false],
        ['a', '[^a]: 一\n\n    二', 4, 9, false],
        ['a', '[^a]: 再', 9, 10, true],
      ],
    );
    assert.deepEqual(m.definitions, [], 'one of our form inside a quote is the author’s');
  });

  it('a reference is ours only when the first definition of its label is ours; author labels are every other label, once each', () => {
    const t =
      'a[^2] b[^1] c[^x] d[^x] e[^2]\n\n[^2]: 作者的\n[^1]: a.docx#1 — k (K)\n[^2]: b.docx#2 — k (K)\n[^1]: c.docx#3 — k (K)\n';
    const m = analyzeDocument(t);
    assert.deepEqual(
      m.references.map((r) => [r.label, r.ours, r.defined]),
      [
        ['2', false, true],
        ['1', true, true],
        ['x', false, false],
        ['x', false, false],
        ['2', false, true],
      ],
    );
    assert.deepEqual(
      m.definitions.map((d) => [d.label, d.duplicateLabel]),
      [
        ['1', false],
        ['2', true],
        ['1', true],
      ],
    );
    assert.deepEqual(m.authorLabels, ['2', 'x']);
  });

  it('our definition: its number, the citation as written and where, the line without trailing blanks; a bad index is an error', () => {
    const t = '[^12]: a〔b#1〕.docx#x — k (K)  \n\n〔c#y〕\n';
    const m = analyzeDocument(t);
    const d = m.definitions[0]!;
    assert.deepEqual(
      [
        d.number,
        d.citationRaw,
        t.slice(d.citationRange.start, d.citationRange.end),
        t.slice(d.range.start, d.range.end),
      ],
      [12, 'a〔b#1〕.docx#x', 'a〔b#1〕.docx#x', '[^12]: a〔b#1〕.docx#x — k (K)'],
    );
    assert.deepEqual([d.citation, d.error?.error, d.error?.subject], [undefined, 'bad-chunk-index', 'x']);
    assert.deepEqual(
      m.inlineCitations.map((c) => [c.raw, c.citation, c.error?.error, c.range.line]),
      [['c#y', undefined, 'bad-chunk-index', 2]],
      'the brackets inside our definition are its doc name, not an inline citation',
    );
  });

  it('the line break is the first line’s: CRLF only when the first line ends with one', () => {
    const eol = (t: string) => analyzeDocument(t).eol;
    assert.deepEqual(['a\nb\r\n', 'a\r\nb\n', 'a', '\r\n', 'a\rb\r\n'].map(eol), ['\n', '\r\n', '\n', '\r\n', '\n']);
  });
  it('tells insertion the top-level blocks, the last one, the code, HTML and front matter, and for each text the top-level block holding it', () => {
    const t = '---\nt: 1\n---\n- a\n\n  | x | y |\n  | - | - |\n  | z | w[^1] |\n\n<div>\nh\n</div>\n\n```\nopen';
    const a = analyze(t);
    assert.deepEqual(
      a.blocks.map((b) => [b.kind, b.startLine, b.endLine, b.content, b.leafEndLine]),
      [
        ['front-matter', 0, 3, undefined, undefined],
        ['inline', 3, 4, 'a', 9],
        ['inline', 5, 6, 'x', 9],
        ['inline', 5, 6, 'y', 9],
        ['inline', 7, 8, 'z', 9],
        ['inline', 7, 8, 'w[^1]', 9],
        ['html', 9, 12, undefined, undefined],
        ['code', 13, 15, undefined, undefined],
      ],
    );
    assert.deepEqual(a.tops, [
      [0, 3],
      [3, 9],
      [9, 12],
      [13, 15],
    ]);
    assert.deepEqual(a.lastBlock, { type: 'fence', map: [13, 15], markup: '```' });
    assert.deepEqual(
      analyze('a\n\n    code\n').blocks.map((b) => [b.kind, b.startLine, b.endLine]),
      [
        ['inline', 0, 1],
        ['code', 2, 3],
      ],
    );
    assert.equal('lastBlock' in analyze(''), false, 'none in an empty document');
  });

  it('a setext heading’s text starting with `#` is found where it is', () => {
    const t = '#话题[^1]\n===\n\n[^1]: a.docx#1 — k (K)\n';
    assert.deepEqual(
      analyzeDocument(t).references.map((r) => t.slice(r.range.start, r.range.end)),
      ['[^1]'],
    );
  });

  it('a definition of our form under a label not a number is the author’s', () => {
    const m = analyzeDocument('x[^a]\n\n[^a]: x.docx#1 — k (K)\n');
    assert.deepEqual([m.definitions.length, m.authorDefinitions.map((d) => d.label)], [0, ['a']]);
  });

  it('glued to a URL: emphasis marks are read into it, a link, code span or line start before it starts none', () => {
    const glued = (t: string) => analyzeDocument(`${t}\n`).references.map((r) => r.gluedToUrl ?? false);
    assert.deepEqual(glued('a*www.a.cn*[^1]'), [true], 'www. after an emphasis mark');
    assert.deepEqual(glued('http://a.cn/*x*[^1]'), [true], 'a path holding emphasis');
    assert.deepEqual(glued('[l](u)www.a.cn/x[^1]'), [false], 'www. right after a link');
    assert.deepEqual(glued('`c`www.a.cn/x[^1]'), [false], 'www. right after a code span');
    assert.deepEqual(glued('www.a.cn/x[^1]'), [true], 'www. at the line start');
    // markdown-it 15 and GFM take it into the link (test/support/renderers.ts)
    assert.deepEqual(glued('http://a.cn/x/*[^1]*'), [true], 'in an emphasis opened right after a URL');
  });
});
