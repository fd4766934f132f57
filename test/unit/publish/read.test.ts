/**
 * A bulletin read for publishing (src/publish/read.ts and walk.ts): the one model every writer
 * renders from — its blocks and runs, its notes, its title, the references section it leaves out,
 * the pictures it lists and what it warns about.
 */
import * as assert from 'node:assert/strict';
import { newPublishEngine, readBulletin } from '../../../src/publish/read';
import type { Block, Inline, PublishDocument } from '../../../src/publish/model';
import { exported, paragraphs, readDocx } from './helpers';

const read = (text: string): PublishDocument => readBulletin(text, { lang: 'zh' });
/** The runs of the first paragraph. */
const runsOf = (text: string): Inline[] => {
  const p = read(text).blocks.find((b) => b.kind === 'paragraph');
  return p?.kind === 'paragraph' ? p.content : [];
};
const plainText = (text: string, marks = {}): Inline => ({ kind: 'text', text, marks });

describe('publish: reading a bulletin’s text runs', () => {
  it('adjacent text of the same marks is one run; a soft break is a space; each emphasis starts and ends where written', () => {
    assert.deepEqual(runsOf('甲 * 乙\n丙 **粗*斜粗*粗** ~~删~~ `码`'), [
      plainText('甲 * 乙 丙 '),
      plainText('粗', { bold: true }),
      plainText('斜粗', { bold: true, italic: true }),
      plainText('粗', { bold: true }),
      plainText(' '),
      plainText('删', { strike: true }),
      plainText(' '),
      plainText('码', { code: true }),
    ]);
  });

  it('reads as VS Code’s preview does: a bare web or mail address is a link, a bare domain is not, quotes and dashes stay as typed, a line break is a space', () => {
    assert.deepEqual(runsOf('见 example.com 与 www.agri.gov.cn 和 https://x.cn 及 a@b.cn\n"引号" -- (c)'), [
      plainText('见 example.com 与 www.agri.gov.cn 和 '),
      { kind: 'link', href: 'https://x.cn', children: [plainText('https://x.cn')] },
      plainText(' 及 '),
      { kind: 'link', href: 'mailto:a@b.cn', children: [plainText('a@b.cn')] },
      plainText(' "引号" -- (c)'),
    ]);
    assert.deepEqual(runsOf('example.com 与 www.agri.gov.cn\n'), [plainText('example.com 与 www.agri.gov.cn')]);
  });

  it('inline code inside emphasis keeps the emphasis; text after it is a run of its own', () => {
    assert.deepEqual(runsOf('**粗`码`粗**'), [
      plainText('粗', { bold: true }),
      plainText('码', { bold: true, code: true }),
      plainText('粗', { bold: true }),
    ]);
  });

  it('a hard break is a line break; <br> in any spelling too; a comment is dropped; other HTML is left out with its line', () => {
    const doc = read('甲  \n乙<br>丙<BR />丁<!-- 注 -->戊<span>己</span>\n\n段二\n\n庚<b>辛');
    assert.deepEqual(doc.blocks[0], {
      kind: 'paragraph',
      content: [
        plainText('甲'),
        { kind: 'break' },
        plainText('乙'),
        { kind: 'break' },
        plainText('丙'),
        { kind: 'break' },
        plainText('丁戊己'),
      ],
    });
    assert.deepEqual(doc.warnings, [
      { code: 'html-left-out', line: 0 },
      { code: 'html-left-out', line: 5 },
    ]);
  });

  it('a block of comments is dropped silently; a block with anything else is left out with its line', () => {
    const doc = read(
      '<!-- 一 -->\n<!-- 二 -->\n\n段\n\n  <!-- 三 -->  <!-- 四 -->\n\n<!-- 五 --><div>块</div>\n\n<div>\n<!-- 六 -->\n</div>\n\n<div>七</div> <!-- 注 -->\n',
    );
    assert.deepEqual(
      doc.blocks.map((b) => b.kind),
      ['paragraph'],
    );
    assert.deepEqual(doc.warnings, [
      { code: 'html-left-out', line: 7 },
      { code: 'html-left-out', line: 9 },
      { code: 'html-left-out', line: 13 },
    ]);
    assert.deepEqual(read('段\n\n甲<span title="x<!--">乙\n').warnings, [{ code: 'html-left-out', line: 2 }]);
  });

  it('a comment ends at its first -->: HTML between two comments is left out with its line; comments back to back, or last without a line break, are dropped', () => {
    const doc = read('段\n\n<!-- 甲 --><div>块</div><!-- 乙 -->\n\n<!-- 丙 --><!-- 丁 -->\n\n<!-- 戊 -->');
    assert.deepEqual(doc.blocks.length, 1);
    assert.deepEqual(doc.warnings, [{ code: 'html-left-out', line: 2 }]);
  });

  it('a comment on a line of its own (a safety directive) is dropped with its line break, in a paragraph, a list or a quote, without a word', () => {
    const d = '<!-- shunong-disable-next-line carbofuran-736 -->';
    const without = read('甲，\n乙。\n\n- 丙\n- 丁\n\n> 戊\n> 己\n');
    const doc = read(`甲，\n    ${d}\n乙。\n\n- 丙\n  ${d}\n- 丁\n\n> 戊\n>     ${d}\n> 己\n`);
    // the same, but for the list's line, one down (the paragraph's comment)
    assert.deepEqual(doc, {
      ...without,
      blocks: without.blocks.map((b) => (b.kind === 'list' ? { ...b, line: 4 } : b)),
    });
    assert.deepEqual(runsOf(`甲，\n    ${d}\n乙。`), [plainText('甲， 乙。')]);
    assert.deepEqual(
      runsOf('甲 <!-- 注 -->\n乙'),
      [plainText('甲  乙')],
      'after text on its line, a comment keeps the line break',
    );
    assert.deepEqual(doc.warnings, []);
  });

  it('in a line, a comment is dropped without a word, and a declaration that ends in <br> is left out, not read as a break', () => {
    const doc = read('段<!-- 注 -->落\n\n甲 <!X <br> 乙\n');
    assert.deepEqual(doc.blocks[0], { kind: 'paragraph', content: [plainText('段落')] });
    assert.deepEqual(doc.blocks[1], { kind: 'paragraph', content: [plainText('甲  乙')] });
    assert.deepEqual(doc.warnings, [{ code: 'html-left-out', line: 2 }]);
  });

  it('a link keeps its formatted text; an image its alt text’s plain words, its title, and the line it is on', () => {
    const doc = read(
      '段\n\n[看 **这里**](https://a.cn/)\n\n![茶 *芽*\n特写](p.png "标题") ![无题 ![*内*](r.png)](q.png)\n',
    );
    assert.deepEqual(doc.blocks[1], {
      kind: 'paragraph',
      content: [
        {
          kind: 'link',
          href: 'https://a.cn/',
          children: [plainText('看 '), plainText('这里', { bold: true })],
        },
      ],
    });
    assert.deepEqual(doc.blocks[2], {
      kind: 'paragraph',
      content: [
        { kind: 'image', src: 'p.png', alt: '茶 芽 特写', title: '标题' },
        plainText(' '),
        { kind: 'image', src: 'q.png', alt: '无题 内' },
      ],
    });
    assert.deepEqual(doc.images, [
      { src: 'p.png', line: 4 },
      { src: 'q.png', line: 4 },
    ]);
  });

  it('a malformed inline citation and a reference without a definition stay as written, where they stand', () => {
    assert.deepEqual(runsOf('甲〔a.docx#x〕乙[^无]丙〔a.docx#2〕'), [
      plainText('甲〔a.docx#x〕乙[^无]丙'),
      { kind: 'note', note: { kind: 'source', key: 'a.docx#2' } },
    ]);
    assert.deepEqual(runsOf('**甲〔a.docx#x〕**'), [plainText('甲〔a.docx#x〕', { bold: true })]);
  });
});

describe('publish: reading a bulletin’s blocks', () => {
  it('a code block: its language is the first word of its info string, its text without the last line break', () => {
    const doc = read('```  js  title="x"\nlet a;\n\n```\n\n    缩进\n');
    assert.deepEqual(doc.blocks, [
      { kind: 'code', lang: 'js', text: 'let a;\n' },
      { kind: 'code', lang: '', text: '缩进' },
    ]);
  });

  it('a heading keeps its level; a thematic break is a rule; a quote holds its blocks', () => {
    const doc = read('段\n\n### 三级\n\n***\n\n> 引\n>\n> - 项\n');
    assert.deepEqual(doc.blocks.slice(1), [
      { kind: 'heading', level: 3, content: [plainText('三级')] },
      { kind: 'rule' },
      {
        kind: 'quote',
        blocks: [
          { kind: 'paragraph', content: [plainText('引')] },
          {
            kind: 'list',
            ordered: false,
            start: 1,
            items: [[{ kind: 'paragraph', content: [plainText('项')] }]],
            line: 8,
          },
        ],
      },
    ]);
  });

  it('a list: numbered from its first number (1 when it has none), each item its blocks, the line it starts on', () => {
    const doc = read('段\n\n7. 七\n8. 八\n\n   续\n\n- 甲\n-\n');
    const [, numbered, bullets] = doc.blocks as [
      Block,
      Extract<Block, { kind: 'list' }>,
      Extract<Block, { kind: 'list' }>,
    ];
    assert.deepEqual([numbered.ordered, numbered.start, numbered.line, numbered.items.length], [true, 7, 2, 2]);
    assert.equal(numbered.items[1]!.length, 2, 'the second item: two paragraphs');
    assert.deepEqual([bullets.ordered, bullets.start, bullets.line], [false, 1, 7]);
    assert.deepEqual(bullets.items[1], [], 'an empty item is an item');
  });

  it('a list inside an item: what follows it stays in that item, and the next items in the outer list', () => {
    const doc = read('- 甲\n  - 乙\n\n  续\n- 丙\n');
    const para = (text: string): Block => ({ kind: 'paragraph', content: [plainText(text)] });
    assert.deepEqual(doc.blocks, [
      {
        kind: 'list',
        ordered: false,
        start: 1,
        items: [
          [para('甲'), { kind: 'list', ordered: false, start: 1, items: [[para('乙')]], line: 1 }, para('续')],
          [para('丙')],
        ],
        line: 0,
      },
    ]);
  });

  it('a table: each column’s alignment, the head’s cells, each row’s cells with their runs, the line it starts on', () => {
    const doc = read('段\n\n| 左 | 中 | 右 | 无 |\n|:--|:-:|--:|---|\n| **1** | 2 |\n| a | b | c | d |\n');
    assert.deepEqual(doc.blocks[1], {
      kind: 'table',
      align: ['left', 'center', 'right', undefined],
      head: [[plainText('左')], [plainText('中')], [plainText('右')], [plainText('无')]],
      rows: [
        [[plainText('1', { bold: true })], [plainText('2')], [], []],
        [[plainText('a')], [plainText('b')], [plainText('c')], [plainText('d')]],
      ],
      line: 2,
    });
  });
});

describe('publish: reading a bulletin’s title, notes and references section', () => {
  it('the title is the front matter’s, else the first level-1 heading’s text; a heading of only a picture gives none', () => {
    assert.equal(read('---\ntitle: 前言\n---\n\n# 标题\n').title, '前言');
    assert.equal(read('## 二\n\n# 一 *号*\n\n# 又一\n').title, '一 号');
    assert.equal(read('# ![图](p.png)\n').title, undefined);
    assert.equal(read('## 二\n').title, undefined);
    assert.equal(read('\uFEFF---\ndate: 2026-12-01\n---\n\n正文\n').date, '2026-12-01', 'behind a byte order mark');
    assert.equal(read('正文\n').date, undefined);
    const { blocks, images, warnings, broken, ...rest } = read('正文\n');
    assert.deepEqual([blocks.length, images, warnings, broken], [1, [], [], []]);
    assert.deepEqual(rest, { lang: 'zh' }, 'no title, no date, no references heading: none is there at all');
  });

  it('the references heading is left out of the body when only definitions and comments are under it', () => {
    const defs = '[^1]: a.docx#1 — 茶 (K)\n';
    const headings = (text: string): string[] =>
      read(`正文[^1]。\n\n${text}`).blocks.flatMap((b) =>
        b.kind === 'heading' ? [b.content.map((i) => (i.kind === 'text' ? i.text : '')).join('')] : [],
      );
    assert.deepEqual(headings(`## 参考资料\n\n<!-- 自动生成 -->\n\n${defs}`), []);
    assert.deepEqual(
      headings(`## 参考资料\n\n${defs}\n## 附录\n\n附文\n`),
      ['附录'],
      'what follows the next heading is not the section’s',
    );
    assert.deepEqual(
      headings(`## 参考资料\n\n${defs}\n### 细目\n`),
      ['参考资料', '细目'],
      'a lower heading is in the section',
    );
    assert.deepEqual(headings(`## 参考资料\n\n说明文字\n\n${defs}`), ['参考资料'], 'text under it: kept');
    assert.deepEqual(headings(`## 参考资料\n\n${defs}\n> 引\n`), ['参考资料']);
    assert.deepEqual(
      headings(`## 参考资料\n\n\`\`\`\n<!-- 注 -->\n\`\`\`\n\n${defs}`),
      ['参考资料'],
      'a code block showing a comment: kept',
    );
    const quoted = read(`正文[^1]。\n\n> ## 参考资料\n>\n> 说明\n\n${defs}`).blocks[1];
    assert.equal(quoted?.kind === 'quote' && quoted.blocks[0]?.kind, 'heading', 'text under it in its quote: kept');
    const listed = read(`正文[^1]。\n\n- ## 参考资料\n\n  说明\n\n${defs}`).blocks[1];
    assert.equal(
      listed?.kind === 'list' && listed.items[0]![0]?.kind,
      'heading',
      'text under it in its list item: kept',
    );
    assert.deepEqual(
      headings(`## 参考资料\n\n旧文\n\n## References\n\n${defs}`),
      ['参考资料'],
      'the last recognised heading is the section',
    );
    assert.equal(read(`正文[^1]。\n\n## 参考资料\n\n${defs}\n## 附录\n`).referencesHeading, '参考资料');
  });

  it('a definition that cannot be read is a note of its text as written, in Word a footnote saying so', async () => {
    const text = '正文[^1]。\n\n[^1]: 茶.docx#第二段 — 茶 (K)\n';
    const doc = read(text);
    assert.deepEqual(runsOf(text)[1], { kind: 'note', note: { kind: 'broken', text: '茶.docx#第二段 — 茶 (K)' } });
    assert.deepEqual(
      doc.warnings.map((w) => w.code),
      ['broken-citation'],
    );
    const { footnotes } = await readDocx((await exported({ text, format: 'docx' })).bytes);
    assert.deepEqual(footnotes, ['茶.docx#第二段 — 茶 (K)']);
  });

  it('a broken citation is an error of the citation analysis, not one of its warnings (a definition nothing cites)', () => {
    const doc = read('甲[^1][^9]。\n\n[^1]: a.docx#1 — 茶 (K)\n[^2]: b.docx#2 — 茶 (K)\n');
    assert.deepEqual(
      doc.broken.map((p) => p.code),
      ['undefined-reference'],
    );
    assert.deepEqual(
      doc.warnings.map((w) => (w.code === 'broken-citation' ? w.problem.code : w.code)),
      ['undefined-reference'],
    );
  });

  it('an author’s note with more than a source in it is the author’s, its blocks read; its pictures follow the body’s', () => {
    const doc = read(
      '甲[^a]乙[^b]。\n\n![正文图](a.png)\n\n[^a]: 见 a.docx#1 — 茶 (K)\n[^b]: 图：\n\n    ![注图](b.png)\n',
    );
    const notes = runsOf('甲[^a]乙[^b]。\n\n[^a]: 见 a.docx#1 — 茶 (K)\n[^b]: 图\n').filter((r) => r.kind === 'note');
    assert.deepEqual(
      notes.map((n) => n.kind === 'note' && n.note.kind),
      ['author', 'author'],
    );
    assert.deepEqual(doc.images, [
      { src: 'a.png', line: 2 },
      { src: 'b.png', line: 7 },
    ]);
  });

  it('in Word, an author’s note that cites itself is named there by its label, as written', async () => {
    const { footnotes } = await readDocx(
      (await exported({ text: '甲[^a]。\n\n[^a]: 见[^a]。\n', format: 'docx' })).bytes,
    );
    assert.match(footnotes[0]!, /\[a\]/);
  });

  it('a definition of ours with a table under it is the author’s note it then is, its first line as written', () => {
    const [, ref] = runsOf('甲[^1]\n\n[^1]: a.docx#1 — 茶 (K)\n\n    | x |\n    |---|\n    | y |\n');
    assert.ok(ref?.kind === 'note' && ref.note.kind === 'author');
    assert.deepEqual(ref.note.blocks[0], { kind: 'paragraph', content: [plainText('a.docx#1 — 茶 (K)')] });
    assert.equal(ref.note.blocks[1]?.kind, 'table');
  });

  it('a note referenced twice is one note; a warning met twice on a line is given once', () => {
    const doc = read('甲[^1]乙[^1]<i>丙</i>。\n\n[^1]: a.docx#1 — 茶 (K)\n');
    const notes = (doc.blocks[0] as Extract<Block, { kind: 'paragraph' }>).content.filter((r) => r.kind === 'note');
    assert.equal(notes.length, 2);
    assert.equal(notes[0]!.kind === 'note' && notes[0]!.note, notes[1]!.kind === 'note' && notes[1]!.note);
    assert.deepEqual(notes[0], {
      kind: 'note',
      note: { kind: 'source', key: 'a.docx#1', kbName: '茶', kbCode: 'K' },
    });
    assert.deepEqual(doc.warnings, [{ code: 'html-left-out', line: 0 }]);
  });

  it('in Word, the heading of a references section with only definitions under it is not in the document', async () => {
    const text = '# 周报\n\n正文[^1]。\n\n## 参考资料\n\n<!-- 自动生成 -->\n\n[^1]: a.docx#1 — 茶 (K)\n';
    const { document } = await readDocx((await exported({ text, format: 'docx' })).bytes);
    assert.ok(!paragraphs(document).some((p) => p.text === '参考资料'));
  });
});

describe('publish: the title block and the first heading', () => {
  /** The headings of the WeChat article, title first, as `h<n> text`. */
  const headings = async (text: string): Promise<string[]> => {
    const { article } = await exported({ text, format: 'wechat' });
    return [...article!.matchAll(/<h(\d) style="[^"]*">(.*?)<\/h\1>/g)].map((m) => `h${m[1]} ${m[2]}`);
  };

  it('a first level-1 heading that repeats the title is the title block, spaces aside', async () => {
    assert.deepEqual(await headings('---\ntitle: 茶园 \n---\n\n#  茶园\n\n正文\n'), ['h1 茶园']);
    assert.deepEqual(await headings('# 茶园\n\n正文\n'), ['h1 茶园'], 'the title taken from it');
    assert.deepEqual(await headings('---\ntitle: "茶园 "\n---\n\n# 茶园\n'), ['h1 茶园 ']);
    assert.deepEqual(await headings('---\ntitle: 茶园\n---\n\n# 茶园&#32;\n'), ['h1 茶园']);
  });

  it('stays in the body when it says something else, carries more than text, is not first or not level 1', async () => {
    assert.deepEqual(await headings('---\ntitle: 茶园\n---\n\n# 茶园管理\n'), ['h1 茶园', 'h1 茶园管理']);
    assert.deepEqual(
      (await headings('---\ntitle: 茶园\n---\n\n# 茶园〔a.docx#1〕\n')).map((h) => h.replace(/<sup.*$/, '')),
      ['h1 茶园', 'h1 茶园'],
    );
    assert.deepEqual(await headings('---\ntitle: 茶园\n---\n\n段\n\n# 茶园\n'), ['h1 茶园', 'h1 茶园']);
    assert.deepEqual(await headings('---\ntitle: 茶园\n---\n\n## 茶园\n'), ['h1 茶园', 'h2 茶园']);
    assert.deepEqual(await headings('# ![图](p.png)\n'), ['h1 '], 'no title: the heading stays');
  });
});

describe('publish: the reader reads as VS Code’s preview does', () => {
  // made afresh here: the export keeps one per process, made under whichever test runs first
  const html = (src: string): string => newPublishEngine().render(src);

  it('raw HTML is HTML, a bare URL is a link but a bare domain is not, a single line break is a space, quotes stay straight', () => {
    assert.equal(html('<div>x</div>'), '<div>x</div>');
    assert.equal(html('见 https://a.cn/x'), '<p>见 <a href="https://a.cn/x">https://a.cn/x</a></p>\n');
    assert.equal(html('见 agriwis.com'), '<p>见 agriwis.com</p>\n');
    assert.equal(html('甲\n乙'), '<p>甲\n乙</p>\n');
    assert.equal(html('"茶" -- \'树\''), "<p>&quot;茶&quot; -- '树'</p>\n");
  });
});
