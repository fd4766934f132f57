/** Silencing one safety finding with a comment on the line before it (src/safety/silence.ts). */
import assert from 'node:assert/strict';
import { lintSafety, shippedRules } from '../../../src/safety/index';
import { partitionSilenced, silenceComment, silencesIn, type Silence } from '../../../src/safety/silence';

/** A finding as the lint gives it, reduced to what the partition reads. */
const finding = (line: number, id: string): { line: number; rule: { id: string } } => ({ line, rule: { id } });

/** The ids (`line:rule`) of the active and the silenced findings. */
function partition(findings: { line: number; rule: { id: string } }[], markdown: string): [string[], string[]] {
  const { active, silenced } = partitionSilenced(findings, markdown);
  const ids = (fs: typeof findings): string[] => fs.map((f) => `${f.line}:${f.rule.id}`);
  return [ids(active), ids(silenced)];
}

describe('safety/silence: a comment on the line before a finding silences it', () => {
  it('without words, or with `pesticide`, silences every safety finding of the next line', () => {
    const all: Silence = { line: 1, rules: 'all', at: 0 };
    assert.deepEqual(silencesIn('<!-- shunong-disable-next-line -->\n用克百威'), [all]);
    assert.deepEqual(silencesIn('<!--shunong-disable-next-line-->\n用克百威'), [all]);
    assert.deepEqual(silencesIn('<!-- shunong-disable-next-line pesticide -->\n用克百威'), [all]);
    assert.deepEqual(silencesIn('<!-- shunong-disable-next-line carbofuran-736 PESTICIDE -->\n用克百威'), [all]);
    const md = '<!-- shunong-disable-next-line pesticide -->\n用克百威、甲拌磷\n用克百威';
    assert.deepEqual(
      partition([finding(1, 'carbofuran-736'), finding(1, 'phorate-536'), finding(2, 'carbofuran-736')], md),
      [['2:carbofuran-736'], ['1:carbofuran-736', '1:phorate-536']],
    );
  });

  it('with rule ids (spaces or commas between them), silences those rules only, whatever their case', () => {
    assert.deepEqual(silencesIn('<!-- shunong-disable-next-line carbofuran-736 -->\n用克百威'), [
      { line: 1, rules: ['carbofuran-736'], at: 0 },
    ]);
    assert.deepEqual(silencesIn('<!-- shunong-disable-next-line Carbofuran-736, phorate-536，x -->\n甲')[0]!.rules, [
      'carbofuran-736',
      'phorate-536',
      'x',
    ]);
    const md = '<!-- shunong-disable-next-line Phorate-536 -->\n用克百威、甲拌磷';
    assert.deepEqual(partition([finding(1, 'carbofuran-736'), finding(1, 'phorate-536')], md), [
      ['1:carbofuran-736'],
      ['1:phorate-536'],
    ]);
    assert.deepEqual(partition([finding(1, 'STATION-1')], '<!-- shunong-disable-next-line station-1 -->\n某某磷'), [
      [],
      ['1:STATION-1'],
    ]);
  });

  it('the keyword is read in any case; a longer word or another keyword is not a directive', () => {
    assert.equal(silencesIn('<!-- Shunong-Disable-Next-Line -->\n甲').length, 1);
    assert.deepEqual(silencesIn('<!-- shunong-disable-next-lines -->\n甲'), []);
    assert.deepEqual(silencesIn('<!-- shunong-disable-line -->\n甲'), []);
    assert.deepEqual(silencesIn('<!-- eslint-disable-next-line -->\n甲'), []);
    assert.deepEqual(silencesIn('<!-- shunong-disable-next-line\n-->\n甲'), [], 'not on one line');
  });

  it('silences the next line only, and nothing when that line is blank or there is none', () => {
    const md = '<!-- shunong-disable-next-line -->\n用克百威\n用克百威';
    assert.deepEqual(partition([finding(0, 'a'), finding(1, 'a'), finding(2, 'a')], md), [['2:a'], ['1:a']]);
    assert.deepEqual(silencesIn('<!-- shunong-disable-next-line -->\n\n用克百威'), []);
    assert.deepEqual(silencesIn('<!-- shunong-disable-next-line -->\n   \t\n用克百威'), []);
    assert.deepEqual(silencesIn('> <!-- shunong-disable-next-line -->\n>\n> 用克百威'), [], 'a quote’s blank line');
    assert.deepEqual(silencesIn('甲\n<!-- shunong-disable-next-line -->'), []);
    assert.deepEqual(silencesIn('甲\n<!-- shunong-disable-next-line -->\n'), []);
    assert.deepEqual(partition([finding(2, 'a')], '<!-- shunong-disable-next-line -->\n\n用克百威'), [['2:a'], []]);
  });

  it('a comment not alone on its line does nothing', () => {
    for (const md of [
      '用克百威 <!-- shunong-disable-next-line -->\n用克百威',
      '<!-- shunong-disable-next-line --> 用克百威\n用克百威',
      '<!-- shunong-disable-next-line --><!-- x -->\n用克百威',
      '<!-- shunong-disable-next-line --> -->\n用克百威',
      '- <!-- shunong-disable-next-line -->\n用克百威',
      '`<!-- shunong-disable-next-line -->`\n用克百威',
    ])
      assert.deepEqual(silencesIn(md), [], md);
  });

  it('may stand indented (in a list item) or after a quote’s markers, with blanks around it', () => {
    assert.deepEqual(silencesIn('- 甲\n  <!-- shunong-disable-next-line -->  \n- 用克百威')[0]?.line, 2);
    assert.deepEqual(silencesIn('\t<!-- shunong-disable-next-line -->\n用克百威')[0]?.line, 1);
    assert.deepEqual(silencesIn('> <!-- shunong-disable-next-line -->\n> 用克百威')[0]?.line, 1);
    assert.deepEqual(silencesIn('> > <!-- shunong-disable-next-line -->\n> > 用克百威')[0]?.line, 1);
    assert.deepEqual(silencesIn('>     <!-- shunong-disable-next-line -->\n> 用克百威')[0]?.line, 1);
  });

  it('is not read in fenced code (backticks or tildes, closed by a longer fence of the same kind) or in the front matter', () => {
    const d = '<!-- shunong-disable-next-line -->';
    assert.deepEqual(silencesIn('```md\n' + d + '\n用克百威\n```\n'), []);
    assert.deepEqual(silencesIn('~~~~\n' + d + '\n```\n' + d + '\n用克百威\n~~~~~\n' + d + '\n甲'), [
      { line: 7, rules: 'all', at: 6 },
    ]);
    assert.deepEqual(silencesIn('````\n```\n' + d + '\n甲\n'), [], 'an unclosed fence runs to the end');
    assert.deepEqual(silencesIn('---\nnote: x\n' + d + '\n---\n甲\n'), []);
    assert.deepEqual(silencesIn('---\nnote: x\n---\n' + d + '\n甲\n'), [{ line: 4, rules: 'all', at: 3 }]);
  });

  it('several comments: each silences its own next line (one right above another silences only that comment’s line)', () => {
    const md = [
      '<!-- shunong-disable-next-line a -->',
      '<!-- shunong-disable-next-line b -->',
      '甲',
      '乙',
      '<!-- shunong-disable-next-line c -->',
      '丙',
    ].join('\n');
    // the first comment's next line is the second comment: it silences the findings in that comment
    assert.deepEqual(
      silencesIn(md).map((s) => [s.at, s.line]),
      [
        [0, 1],
        [1, 2],
        [4, 5],
      ],
    );
    assert.deepEqual(
      partition([finding(2, 'a'), finding(2, 'b'), finding(3, 'c'), finding(5, 'c'), finding(5, 'a')], md),
      [
        ['2:a', '3:c', '5:a'],
        ['2:b', '5:c'],
      ],
    );
  });

  it('reads CRLF line ends as LF', () => {
    const md =
      '# 标题\r\n\r\n<!-- shunong-disable-next-line carbofuran-736 -->\r\n用克百威\r\n\r\n<!-- shunong-disable-next-line -->\r\n\r\n乙\r\n';
    assert.deepEqual(silencesIn(md), [{ line: 3, rules: ['carbofuran-736'], at: 2 }]);
    assert.deepEqual(partition([finding(3, 'carbofuran-736'), finding(7, 'x')], md), [['7:x'], ['3:carbofuran-736']]);
  });

  it('a finding on the comment’s own line (its rule id names a substance) is in neither list', () => {
    const md =
      '<!-- shunong-disable-next-line carbofuran-736 -->\n用克百威\n<!-- shunong-disable-next-line carbofuran-736 -->\n';
    assert.deepEqual(partition([finding(0, 'x'), finding(1, 'carbofuran-736'), finding(2, 'x')], md), [
      [],
      ['1:carbofuran-736'],
    ]);
  });

  it('without a directive the findings are all active, in their order', () => {
    const fs = [finding(3, 'b'), finding(1, 'a')];
    assert.deepEqual(partition(fs, '甲\n乙\n丙\n丁'), [['3:b', '1:a'], []]);
    assert.deepEqual(partition(fs, '<!-- shunong-disable-next-line b -->\n\n丙\n丁'), [['3:b', '1:a'], []]);
  });

  it('the comment a quick fix writes: one rule, or `pesticide` for every finding of the line; both read back', () => {
    assert.equal(silenceComment('carbofuran-736'), '<!-- shunong-disable-next-line carbofuran-736 -->');
    assert.equal(silenceComment(), '<!-- shunong-disable-next-line pesticide -->');
    assert.deepEqual(silencesIn(`${silenceComment('carbofuran-736')}\n甲`)[0]!.rules, ['carbofuran-736']);
    assert.deepEqual(silencesIn(`${silenceComment()}\n甲`)[0]!.rules, 'all');
  });

  it('with the lint: the silenced recommendation is set apart, the others stay', () => {
    const md = [
      '---',
      'date: 2026-12-02',
      'crop: 白菜',
      '---',
      '',
      '防治蛴螬，可每亩撒施 3% 克百威颗粒剂 2 千克。',
      '',
      silenceComment('carbofuran-736'),
      '防治蛴螬，可每亩撒施 3% 克百威颗粒剂 2 千克。',
      '',
    ].join('\n');
    const findings = lintSafety(md, shippedRules(), { today: '2026-12-02' });
    const { active, silenced } = partitionSilenced(findings, md);
    assert.deepEqual(
      active.map((f) => [f.line, f.mention]),
      [[5, '克百威']],
    );
    assert.deepEqual(
      silenced.map((f) => [f.line, f.mention]),
      [[8, '克百威']],
    );
  });
});
