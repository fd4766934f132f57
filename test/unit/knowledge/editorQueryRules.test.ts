import assert from 'node:assert/strict';
import { cleanMarkdown, queryFromContext } from '../../../src/knowledge/editorQuery';

/**
 * The starting query of "Search Knowledge" at the cursor (‸), one Markdown rule per row: what an
 * author sees in the search box is the words of the sentence, never the syntax around them.
 */
function query(marked: string, maxLength?: number): string {
  const cursor = marked.indexOf('‸');
  assert.ok(cursor >= 0, `no cursor in ${marked}`);
  return queryFromContext(marked.replace('‸', ''), cursor, maxLength ? { maxLength } : {}).query;
}

const table = (rows: readonly (readonly [string, string])[]): void => {
  for (const [marked, expected] of rows) assert.equal(query(marked), expected, JSON.stringify(marked));
};

describe('knowledge/editorQuery: the Markdown rules of the starting query', () => {
  it('block markers are not words: headings of every level (indented up to three spaces), quotes, list and task markers, footnote labels', () => {
    table([
      ['###### 六‸级标题', '六级标题'],
      ['   ### 缩‸进三格的标题', '缩进三格的标题'],
      ['>引‸用没有空格', '引用没有空格'],
      ['* 星‸号列表项', '星号列表项'],
      ['+ 加‸号列表项', '加号列表项'],
      ['- [x] 已‸完成的任务', '已完成的任务'],
      ['1. [ ] 待‸办事项', '待办事项'],
      ['2) 括‸号编号项', '括号编号项'],
      ['10. 第‸十项', '第十项'],
      ['[^备注]: 脚‸注的说明', '脚注的说明'],
    ]);
  });

  it('a heading\'s closing hashes go; a "#" that ends a word stays', () => {
    table([
      ['# 标‸题文字 ##', '标题文字'],
      ['# 标‸题文字   #  ', '标题文字'],
      ['# 学‸习 C#', '学习 C#'],
    ]);
  });

  it('a paragraph ends at a thematic break, a setext underline and a fence of either kind', () => {
    table([
      ['第一段\n***\n第‸二段', '第二段'],
      ['第一段\n- - -\n第‸二段', '第二段'],
      ['第‸一段\n___\n第二段', '第一段'],
      ['标‸题文字\n===\n正文', '标题文字'],
      ['说‸明文字\n```\n代码\n```', '说明文字'],
      ['说‸明文字\n   ~~~\n代码', '说明文字'],
    ]);
  });

  it('the lines of one paragraph are one query, from its first line to its last (blank lines and the ends of the file bound it)', () => {
    table([
      ['前段\n\n第一行\n第‸二行\n第三行\n\n后段', '第一行第二行第三行'],
      ['前段\n\n第一行\n第二行\n第‸三行', '第一行第二行第三行'],
      ['第‸一行\n第二行\n\n后段', '第一行第二行'],
      ['> 引用第一行\n> 引用第‸二行', '引用第一行引用第二行'],
      ['> 引‸用第一行\n> - 引用里的列表', '引用第一行'],
    ]);
  });

  it('soft-wrapped lines join with a space only between Latin words or numbers', () => {
    table([
      ['Version 2.\n3 ‸rules apply', 'Version 2. 3 rules apply'],
      ['茶树\n‸abc', '茶树abc'],
      ['‸abc\n茶树', 'abc茶树'],
    ]);
  });

  it('inline syntax goes and its words stay: comments, escapes, images, footnote references, links, autolinks, HTML, URLs, code, emphasis, table cells', () => {
    table([
      ['‸茶树<!-- 注释 -->修剪', '茶树修剪'],
      ['茶树\\*‸修剪\\*要点', '茶树*修剪*要点'],
      ['![茶‸园照片](img/tea.png)', '茶园照片'],
      ['![](img/tea.png)‸茶园', '茶园'],
      ['茶树修剪[^note1]‸要点', '茶树修剪要点'],
      ['[茶树修剪][ref]‸要点', '茶树修剪要点'],
      ['<https://example.org/a>‸茶树', '茶树'],
      ['<mailto:a@b.cn>‸茶树', '茶树'],
      ['<http://x.cn/p?q=1>‸茶树', '茶树'],
      ['茶树<br/>修‸剪</span>要点<span class="x">', '茶树修剪要点'],
      ['1<2 ‸茶树', '1<2 茶树'],
      ['见 http://example.org/a/b ‸茶树', '见 茶树'],
      ['``双‸反引号``', '双反引号'],
      ['***粗‸斜体***和__粗体__和~~删除~~和==高亮==和snake_case', '粗斜体和粗体和删除和高亮和snake_case'],
      ['| 作物 | 要‸点 |', '要点'],
    ]);
  });

  it('the sentence under the cursor; right after a sentence end, the sentence just written; at the start of the next line, that line', () => {
    table([
      ['‸第一句。第二句。', '第一句'],
      ['第一句。第‸二句。', '第二句'],
      ['第一句。‸第二句。', '第一句'],
      ['第一句。第二句。‸', '第二句'],
      ['第一句。\n‸第二句', '第二句'],
      ['第一句 ‸第二句', '第一句 第二句'],
      // the start of a line that opens a block of its own is that block, not the one before
      ['第一段\n‸# 标题', '标题'],
      ['- 项一\n‸- 项二', '项二'],
      ['> 引用\n‸> - 列表', '列表'],
      ['- 项一‸\n- 项二', '项一'],
    ]);
  });

  it('cleanMarkdown marks the boundaries between blocks, never before the first', () => {
    assert.deepEqual(cleanMarkdown('# 标题'), { text: '标题', origins: [2, 3] });
    assert.deepEqual(cleanMarkdown('段落\n# 标题').text, '段落\n标题');
  });

  it('the front matter gives no query up to the end of its closing line; the first body line does', () => {
    const doc = '---\ntitle: x\n---\n正文';
    assert.deepEqual(queryFromContext(doc, doc.indexOf('正') - 1), { query: '', source: 'none' });
    assert.deepEqual(queryFromContext(doc, doc.indexOf('正')), { query: '正文', source: 'cursor' });
  });

  it('a selection over several paragraphs is one line of words', () => {
    assert.deepEqual(queryFromContext('茶树修剪\n\n施肥', 0, { selectionEnd: 8 }), {
      query: '茶树修剪 施肥',
      source: 'selection',
    });
  });

  it('a sentence of exactly maxLength stays whole; one longer keeps its clause, then a window around the cursor', () => {
    assert.equal(queryFromContext('一二三四五，六七八九十', 1, { maxLength: 11 }).query, '一二三四五，六七八九十');
    assert.equal(queryFromContext('一二三四五，六七八九十', 1, { maxLength: 10 }).query, '一二三四五');
    // the long clause is not the sentence's first: the window is centred on the cursor within it
    const long = '短句，' + '甲'.repeat(30) + '乙' + '丙'.repeat(30);
    assert.equal(queryFromContext(long, long.indexOf('乙'), { maxLength: 10 }).query, '甲甲甲甲甲乙丙丙丙丙');
  });

  it('a capped selection ends before a Latin word cut in half, unless that would drop more than half of it', () => {
    const cap = (s: string, maxLength: number): string =>
      queryFromContext(s, 0, { selectionEnd: s.length, maxLength }).query;
    assert.equal(cap('Pruning tea bushes after', 18), 'Pruning tea bushes', 'the cut falls between words');
    assert.equal(cap('Pruning tea bushes after', 21), 'Pruning tea bushes', 'no half word');
    assert.equal(cap('ab cdefghij', 8), 'ab cdefg', 'the last space is too early');
    assert.equal(cap('ab cdef', 4), 'ab c', 'a space at exactly half is too early');
  });
});
