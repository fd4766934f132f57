/**
 * Where the quick fix writes its comment (src/safety/silenceEdit.ts): above the finding's line, read
 * back as silencing it, and rendered as before by markdown-it 12 and 15, micromark with GFM and the
 * exports' reader.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import markdownIt from 'markdown-it';
import { readBulletin } from '../../../src/publish/read';
import { silencesIn } from '../../../src/safety/silence';
import { silenceEdit } from '../../../src/safety/silenceEdit';
import { runs } from '../fast-check-seed';
import { RENDERERS } from '../../support/renderers';

const ID = 'carbofuran-736';
const COMMENT = `<!-- shunong-disable-next-line ${ID} -->`;

/** The text with an edit applied (the line end of the text's first line). */
function applied(text: string, line: number, ruleId: string | undefined = ID): string | undefined {
  const edit = silenceEdit(text, line, ruleId);
  if (!edit) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  if (edit.replace) lines[edit.line] = edit.text;
  else lines.splice(edit.line, 0, edit.text);
  return lines.join(eol);
}

/**
 * The HTML as a reader sees it: comments dropped (micromark writes raw HTML as text; in code they
 * stay), blanks around tags dropped, runs collapsed.
 */
function seen(html: string): string {
  return html
    .split(/(<pre>[\s\S]*?<\/pre>)/)
    .map((part, i) => (i % 2 ? part : part.replace(/<!--[\s\S]*?-->|&lt;!--[\s\S]*?--&gt;/g, '')))
    .join('')
    .replace(/\s*(<[^>]+>)\s*/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What the exports read, without the lines things start on (the comment moves them down). */
function exported(text: string): unknown {
  const doc = readBulletin(text, { lang: 'zh' });
  return JSON.parse(JSON.stringify({ blocks: doc.blocks, warnings: doc.warnings.map((w) => w.code) }), (k, v) =>
    k === 'line' ? undefined : (v as unknown),
  );
}

/** Checks that the comment above `line` silences it and changes nothing a reader sees. */
function assertSilent(text: string, line: number): string {
  const after = applied(text, line);
  assert.ok(after !== undefined, `no edit for line ${line} of ${JSON.stringify(text)}`);
  const moved = silenceEdit(text, line)!.replace ? line : line + 1;
  assert.ok(
    silencesIn(after).some((s) => s.line === moved && s.rules !== 'all' && s.rules.includes(ID)),
    `line ${line} not silenced in ${JSON.stringify(after)}`,
  );
  for (const [name, render] of Object.entries(RENDERERS))
    assert.equal(seen(render(after).html), seen(render(text).html), `${name}: ${JSON.stringify(after)}`);
  assert.deepEqual(exported(after), exported(text), `the exports: ${JSON.stringify(after)}`);
  return after;
}

/** The line the edit writes. */
const written = (text: string, line: number, ruleId?: string): string | undefined =>
  silenceEdit(text, line, ruleId ?? ID)?.text;

describe('safety/silenceEdit: the comment above a finding renders as nothing and keeps every block whole', () => {
  it('above the first line of a paragraph or a heading: at its indentation', () => {
    assert.equal(written('# 标题\n\n用克百威防治\n', 2), COMMENT);
    assert.equal(written('用克百威防治', 0), COMMENT);
    assert.equal(written('---\ndate: 2026-12-02\n---\n用克百威防治\n', 3), COMMENT, 'right under the front matter');
    assert.equal(written('段\n## 克百威\n', 1), COMMENT);
    assert.equal(written('标题\n===\n用克百威\n', 2), COMMENT, 'under a setext heading');
    assert.equal(written('- 甲\n\n  用克百威\n', 2), `  ${COMMENT}`, 'a list item’s second paragraph');
    for (const [text, line] of [
      ['# 标题\n\n用克百威防治\n', 2],
      ['用克百威防治', 0],
      ['---\ndate: 2026-12-02\n---\n用克百威防治\n', 3],
      ['段\n## 克百威\n', 1],
      ['标题\n===\n用克百威\n', 2],
      ['- 甲\n\n  用克百威\n', 2],
    ] as const)
      assertSilent(text, line);
  });

  it('above a line that continues a paragraph: four columns deeper than its text, so the paragraph stays one', () => {
    assert.equal(written('防治蛴螬，\n用克百威\n', 1), `    ${COMMENT}`);
    assert.equal(written('- 防治蛴螬，\n  用克百威\n', 1), `      ${COMMENT}`);
    assert.equal(written('- 防治蛴螬，\n用克百威\n', 1), `      ${COMMENT}`, 'a lazy line');
    assert.equal(written('1. 甲\n   防治蛴螬，\n   用克百威\n', 2), `       ${COMMENT}`);
    assert.equal(written('  防治蛴螬，\n用克百威\n', 1), `      ${COMMENT}`);
    for (const [text, line] of [
      ['防治蛴螬，\n用克百威\n', 1],
      ['防治蛴螬，\n可用\n克百威\n', 2],
      ['- 防治蛴螬，\n  用克百威\n', 1],
      ['- 防治蛴螬，\n用克百威\n- 乙\n', 1],
      ['1. 甲\n   防治蛴螬，\n   用克百威\n', 2],
      ['- 甲\n  - 防治蛴螬，\n    用克百威\n', 2],
      ['  防治蛴螬，\n用克百威\n', 1],
    ] as const)
      assertSilent(text, line);
  });

  it('above a list item: indented to the item’s text, so the list stays one', () => {
    assert.equal(written('- 甲\n- 用克百威\n', 1), `  ${COMMENT}`);
    assert.equal(written('9. 甲\n10. 用克百威\n', 1), `   ${COMMENT}`, 'at the text of the item above');
    assert.equal(written('段\n\n- 用克百威\n', 2), COMMENT, 'a first item after a blank line: at its marker');
    assert.equal(written('- 甲\n\n- 用克百威\n', 2), `  ${COMMENT}`, 'a loose list');
    for (const [text, line] of [
      ['- 甲\n- 用克百威\n', 1],
      ['* 甲\n* 用克百威\n* 丙\n', 1],
      ['9. 甲\n10. 用克百威\n11. 丙\n', 1],
      ['9. 甲\n\n10. 用克百威\n', 2],
      ['说明：\n- 用克百威\n', 1],
      ['段\n\n- 用克百威\n', 2],
      ['- 用克百威\n', 0],
      ['- 甲\n\n- 用克百威\n', 2],
      ['- 甲\n  - 乙\n  - 用克百威\n- 丁\n', 2],
      ['- 甲\n\n  - 用克百威\n', 2],
      ['- 甲\n  - 乙\n- 用克百威\n', 2],
      ['1) 甲\n2)  用克百威\n', 1],
      ['-\t甲\n-\t用克百威\n', 1],
      ['## 地下害虫\n- 用克百威\n', 1],
    ] as const)
      assertSilent(text, line);
  });

  it('in a quote: after its markers, at any depth', () => {
    assert.equal(written('> 用克百威\n', 0), `> ${COMMENT}`);
    assert.equal(written('> 甲\n> 用克百威\n', 1), `>     ${COMMENT}`);
    assert.equal(written('> 甲\n>\n> 用克百威\n', 2), `> ${COMMENT}`);
    assert.equal(written('> - 甲\n> - 用克百威\n', 1), `>   ${COMMENT}`);
    for (const [text, line] of [
      ['> 用克百威\n', 0],
      ['> 甲\n> 用克百威\n', 1],
      ['> 甲\n>\n> 用克百威\n', 2],
      ['> 甲\n用克百威\n', 1],
      ['段\n> 用克百威\n', 1],
      ['> > 甲\n> > 用克百威\n', 1],
      ['> - 甲\n> - 用克百威\n', 1],
      ['> - 甲\n>   用克百威\n', 1],
      ['- 甲\n  > 用克百威\n', 1],
    ] as const)
      assertSilent(text, line);
  });

  it('a table: above its header row only; a body row has no place for it', () => {
    const table = '| 药剂 | 用量 |\n| --- | --- |\n| 克百威 | 2 千克 |\n| 用克百威 | x |\n';
    assertSilent(table, 0);
    assert.equal(silenceEdit(table, 2, ID), undefined);
    assert.equal(silenceEdit(table, 3, ID), undefined);
    const bare = '药剂 | 用量\n--- | ---\n克百威 | 2 千克\n用克百威 | x\n';
    assert.equal(silenceEdit(bare, 2, ID), undefined);
    assert.equal(silenceEdit(bare, 3, ID), undefined);
  });

  it('a line that already has a directive: the rule joins it, or nothing when it already silences it', () => {
    const text = '> <!-- shunong-disable-next-line phorate-536 -->\n> 用克百威、甲拌磷\n';
    assert.deepEqual(silenceEdit(text, 1, ID), {
      line: 0,
      text: `> <!-- shunong-disable-next-line phorate-536 ${ID} -->`,
      replace: true,
    });
    assertSilent(text, 1);
    assert.deepEqual(silenceEdit(text, 1), {
      line: 0,
      text: '> <!-- shunong-disable-next-line pesticide -->',
      replace: true,
    });
    assert.equal(silenceEdit(text, 1, 'Phorate-536'), undefined);
    assert.equal(silenceEdit('<!-- shunong-disable-next-line -->\n用克百威\n', 1, ID), undefined);
    assert.equal(silenceEdit('<!-- shunong-disable-next-line -->\n用克百威\n', 1), undefined);
  });

  it('without a rule id, the comment silences every safety finding of the line; past the end, no edit', () => {
    assert.equal(written('用克百威', 0, ''), '<!-- shunong-disable-next-line pesticide -->');
    assert.equal(silenceEdit('用克百威', 0)!.text, '<!-- shunong-disable-next-line pesticide -->');
    assert.equal(silenceEdit('用克百威', 1), undefined);
  });

  it('CRLF: the same lines (the caller writes the document’s line end)', () => {
    const text = '# 标题\r\n\r\n防治蛴螬，\r\n用克百威\r\n';
    assert.deepEqual(silenceEdit(text, 3, ID), { line: 3, text: `    ${COMMENT}`, replace: false });
    assertSilent(text, 3);
  });

  it('lazy lines, code, footnotes and other lists around it (cases a random run found)', () => {
    assert.equal(
      written('> 1. 辛\n    用克百威\n> 用克百威\n', 2),
      `>        ${COMMENT}`,
      'back in the quote after a lazy line',
    );
    assert.equal(written('> > 甲\n    用克百威\n', 1), `> >     ${COMMENT}`, 'a lazy line: in the paragraph’s quotes');
    assert.equal(written('[^1]: 注\n用克百威\n', 1), `        ${COMMENT}`, 'a footnote holds its text four in');
    assert.equal(written('     庚\n用克百威\n', 1), COMMENT, 'nothing continues indented code');
    assert.equal(written('* 丙\n- 用克百威\n', 1), COMMENT, 'another kind of list opens a list');
    assert.equal(written('- 甲\n  - 乙\n\n- 用克百威\n', 3), `  ${COMMENT}`, 'the item above in the same list');
    assert.equal(written('  - 乙\n- 用克百威\n', 1), `    ${COMMENT}`, 'a sibling indented otherwise');
    assert.equal(written('防治蛴螬，\n9. 甲\n', 1), `    ${COMMENT}`, 'a 9. continues a paragraph');
    for (const [text, line] of [
      ['> 1. 辛\n    用克百威\n> 用克百威\n', 2],
      ['- 甲\n> - 甲\n用克百威\n> 用克百威\n     用克百威\n', 4],
      ['> > 甲\n    用克百威\n', 1],
      ['> > 甲\n| a | b |\n用克百威\n', 2],
      ['[^1]: 注\n用克百威\n', 1],
      ['[^1]: 注\n  用克百威\n', 1],
      ['     庚\n用克百威\n', 1],
      ['9. 甲\n>\n    用克百威\n用克百威\n', 3],
      ['<!-- x -->\n10. 用克百威\n', 1],
      ['## 标题\n10. 用克百威\n', 1],
      ['* 丙\n- 用克百威\n', 1],
      ['* 丙\n\n- 用克百威\n', 2],
      ['- 甲\n  - 乙\n\n- 用克百威\n', 3],
      ['* 丙\n防治蛴螬，\n  - 乙\n\n- 用克百威\n', 4],
      ['  - 乙\n- 用克百威\n', 1],
      ['  - 乙\n\n  用克百威\n- 用克百威\n- 甲\n', 3],
      ['  用克百威\n- 甲\n\n  用克百威\n| a | b |\n- 用克百威\n', 5],
      ['  - 用克百威\n>\n  - 用克百威\n', 2],
      ['防治蛴螬，\n9. 甲\n', 1],
      ['-\n  用克百威\n', 1],
      ['| a | b |\n| --- | --- |\n| x | y |\n> 用克百威\n', 3],
      ['| a | b |\n用克百威\n', 1],
    ] as const)
      assertSilent(text, line);
  });

  it('property: above any prose line of bulletins written from common lines, the comment silences it and renders as nothing', () => {
    const md = markdownIt({ html: true });
    const shapes = [
      ...['用克百威', '防治蛴螬，', '  用克百威', '     用克百威', '## 标题', '---', '<!-- x -->', '```', '', ''],
      ...[
        '- 甲',
        '- 用克百威',
        '  - 用克百威',
        '  - 乙',
        '* 丙',
        '1. 甲',
        '2. 用克百威',
        '9. 甲',
        '10. 用克百威',
        '1) 戊',
      ],
      ...['> 用克百威', '> - 甲', '>', '> > 甲', '> > 用克百威', '> 1. 辛', '| a | b |', '    用克百威', '[^1]: 注'],
      '\n| a | b |\n| --- | --- |\n| 用克百威 | x |\n| y | 用克百威 |\n',
    ];
    // as authors write them: front matter aside, a list numbered on from its item above, a table or
    // a footnote after a blank line, indented code after a blank line (renderers disagree otherwise)
    const written = (s: readonly string[]): boolean =>
      s[0] !== '---' &&
      s.every((l, i) => {
        const before = s[i - 1] ?? '';
        if (/^(?:2|10)\./.test(l)) return /^(?:1|9)\./.test(before);
        if (/^9\./.test(l) || l.startsWith('\n') || l.startsWith('[^') || l.startsWith('    用')) return before === '';
        return true;
      });
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...shapes), { minLength: 1, maxLength: 8 }).filter(written), (s) => {
        const text = s.join('\n') + '\n';
        const lines = text.split('\n');
        for (const t of md.parse(text, {}))
          if ((t.type === 'paragraph_open' || t.type === 'heading_open') && t.map)
            for (let line = t.map[0]; line < t.map[1]; line++)
              if (lines[line]!.includes('用克百威')) assertSilent(text, line);
      }),
      { numRuns: runs(150) },
    );
  });

  it('every prose line of a bulletin: silenced, and rendered as before', () => {
    const bulletin = [
      '---',
      'title: 蔬菜冬季病虫害防治',
      'date: 2026-12-02',
      '---',
      '',
      '# 蔬菜冬季病虫害防治',
      '',
      '## 地下害虫',
      '',
      '防治蛴螬、地老虎，',
      '可每亩撒施 3% 克百威颗粒剂 2 千克，',
      '   或用甲拌磷拌种。',
      '',
      '1. 韭菜：用克百威灌根；',
      '   灌后覆土。',
      '2. 白菜：',
      '   - 用氧乐果喷雾，',
      '     每亩 50 毫升。',
      '   - 甲拌磷拌种。',
      '',
      '   两种都不可用。',
      '10. 芹菜：用克百威。',
      '',
      '> 注意：',
      '> 严禁在蔬菜上使用克百威，',
      '用者重罚。',
      '>',
      '> - 甲拌磷',
      '> - 氧乐果',
      '',
      '蚜虫',
      '---',
      '',
      '可选用吡虫啉**喷雾**[^1]。',
      '',
      '[^1]: 说明 — 农技站',
      '',
    ].join('\n');
    let lines = 0;
    bulletin.split('\n').forEach((text, line) => {
      if (line < 4 || text.trim() === '' || /^\s*(?:>\s*)?(?:-{3,}|=+)\s*$/.test(text) || text.trim() === '>') return;
      assertSilent(bulletin, line);
      lines++;
    });
    assert.equal(lines, 21);
  });
});
