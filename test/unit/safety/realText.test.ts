/**
 * The safety lint on text as authors write it (each way the lint went wrong on real advisories, with examples of each):
 * lists under prohibitions, mentions that are not recommendations, crops carried through the
 * document, numbers that are not codes, names by every alias, dates written other ways, the
 * fipronil exception for its mention only.
 */
import assert from 'node:assert/strict';
import { lintSafety, shippedRules, type SafetyFinding } from '../../../src/safety/index';

const rules = shippedRules();
const lint = (text: string, today = '2026-12-02'): SafetyFinding[] => lintSafety(text, rules, { today });
/** The errors and warnings, as `severity substance@line` (1-based). */
const flags = (text: string, today?: string): string[] =>
  lint(text, today)
    .filter((f) => f.severity !== 'information')
    .map((f) => `${f.severity} ${f.rule.substance}@${f.line + 1}`);
const dated = (date: string, body: string, crop?: string): string =>
  `---\ndate: ${date}\n${crop ? `crop: ${crop}\n` : ''}---\n\n${body}\n`;

describe('safety lint on real text: lists under a prohibition are not recommendations', () => {
  const LIST = '六六六（HCH），滴滴涕（DDT），毒杀芬，甲胺磷、甲基对硫磷；对硫磷;久效磷,磷胺、氧乐果及克百威';

  it('a heading that forbids governs the list under it, whatever separates the names', () => {
    assert.deepEqual(flags(dated('2026-12-02', `## 一、国家明令禁止使用的农药\n\n${LIST}`)), []);
    assert.deepEqual(flags(dated('2026-12-02', `一、国家明令禁止使用的农药\n\n${LIST}`)), []);
    assert.deepEqual(
      flags(dated('2026-12-02', `（1）蔬菜上禁止使用的农药：\n${LIST.replace(/[，；;,、]/g, '\n')}`)),
      [],
    );
    const items = LIST.split(/[，；;,、及]/).map((n, i) => `${i + 1}. ${n}`);
    assert.deepEqual(flags(dated('2026-12-02', `下列农药自2024年9月1日起禁止销售和使用：\n\n${items.join('\n')}`)), []);
    assert.deepEqual(
      flags(dated('2026-12-02', `国家明令禁止使用的农药有：\n\n- 甲拌磷\n- 克百威\n\n| 名称 |\n| --- |\n| 氧乐果 |`)),
      [],
    );
  });

  it('a lead-in in the same sentence governs its list after the colon, past commas and semicolons', () => {
    assert.deepEqual(flags(dated('2026-12-02', `下列农药自2024年9月1日起禁止销售和使用：${LIST}。`)), []);
    assert.deepEqual(flags(dated('2026-12-02', '撤销甲拌磷、甲基异柳磷、克百威在甘蔗上的登记。')), []);
    assert.deepEqual(flags(dated('2026-12-02', `${LIST}等高毒农药禁止在蔬菜上使用。`)), []);
  });

  it('a restricted list and a monitoring list are listings, each with one note at most', () => {
    const restricted = lint(dated('2026-12-02', '限制使用的农药有：毒死蜱、三唑磷、氰戊菊酯。', '水稻'));
    assert.deepEqual(
      restricted.filter((f) => f.severity !== 'information'),
      [],
    );
    assert.equal(
      restricted.filter((f) => f.rule.kind === 'restricted').length,
      1,
      'one restricted-use note for the list',
    );
    assert.deepEqual(flags(dated('2026-12-02', '对蔬菜实施监测的农药：甲胺磷、氧乐果、毒死蜱、克百威。')), []);
  });

  it('the lead-in ends at the next heading or numbered part, and a dose under it is still a recommendation', () => {
    const text = dated(
      '2026-12-02',
      [
        '一、禁止使用的农药',
        '',
        '甲拌磷、克百威',
        '',
        '二、防治方法',
        '',
        '玉米蚜亩用40%氧乐果乳油50毫升兑水喷雾。',
      ].join('\n'),
      '玉米',
    );
    assert.deepEqual(flags(text), ['error 氧乐果@12']);
  });
});

describe('safety lint on real text: a mention is not a recommendation', () => {
  const none = (body: string, crop?: string): void =>
    assert.deepEqual(flags(dated('2026-12-02', body, crop)), [], body);

  it('history, chemistry, a registration revoked, misuse reported, a trial', () => {
    none('上世纪五十年代用六六六粉防治螟虫。');
    none('乙酰甲胺磷在储存中可能降解产生甲胺磷。', '白菜');
    none('乙酰甲胺磷已于2018年撤销登记。', '白菜');
    none('少数菜农仍使用甲胺磷。', '白菜');
    none('去年在白菜地喷洒毒死蜱被罚。');
    none('三羟基克百威是克百威的代谢物。', '白菜');
    none('1983年我县改用甲胺磷防治水稻螟虫。');
    none('家里还有没用完的克百威颗粒剂怎么办？');
  });

  it('a permission beside a prohibition: each name on its own crop', () => {
    none('毒死蜱可用在柑橘树上；三唑磷允许用于水稻，但蔬菜大棚里绝对禁止。');
  });

  it('a dose, a dilution, a product with a use verb, an instruction are recommendations', () => {
    const body = [
      '玉米田亩用40%氧乐果乳油50毫升兑水30公斤喷雾。',
      '玉米田用氧乐果1000倍液灌心。',
      '玉米田可选用氧乐果喷雾防治。',
      '玉米播种时用3%克百威颗粒剂撒施。',
    ].join('\n\n');
    assert.deepEqual(flags(dated('2026-12-02', body)), [
      'error 氧乐果@5',
      'error 氧乐果@7',
      'error 氧乐果@9',
      'error 克百威@11',
    ]);
  });
});

describe('safety lint on real text: the crop is carried', () => {
  it('from the clause, the paragraph, the section above, the title, the front matter', () => {
    const text = [
      '---',
      'title: 大白菜病虫害防治意见',
      'date: 2021-05-10',
      '---',
      '',
      '## 一、大白菜',
      '',
      '菜青虫发生普遍。',
      '',
      '亩用40%乙酰甲胺磷乳油80毫升喷雾。',
      '',
      '## 二、双晚',
      '',
      '稻纵卷叶螟亩用48%毒死蜱乳油80毫升喷雾。',
    ].join('\n');
    assert.deepEqual(flags(text), ['error 乙酰甲胺磷@10'], '毒死蜱 on 双晚 is not "if used on vegetables"');
    const titled = ['---', 'title: 韭菜韭蛆防治', 'date: 2010-04-10', '---', '', '用3911颗粒剂灌根。'].join('\n');
    assert.deepEqual(flags(titled), ['error 甲拌磷@6'], 'the title names the crop');
  });

  it('carries crops past skipped heading levels, and back up to a shallower heading', () => {
    const text = dated(
      '2021-05-10',
      [
        '# 大白菜',
        '',
        '### 菜青虫',
        '',
        '亩用40%乙酰甲胺磷乳油80毫升喷雾。',
        '',
        '## 水稻',
        '',
        '#### 螟虫',
        '',
        '亩用40%乙酰甲胺磷乳油80毫升喷雾。',
        '',
        '## 防治要点',
        '',
        '亩用40%乙酰甲胺磷乳油80毫升喷雾。',
      ].join('\n'),
    );
    assert.deepEqual(
      flags(text),
      ['error 乙酰甲胺磷@9', 'error 乙酰甲胺磷@19'],
      'the h1 names the crop of its whole section',
    );
    const noTitle = dated(
      '2021-05-10',
      ['### 菜青虫', '', '## 防治要点', '', '白菜亩用40%乙酰甲胺磷乳油80毫升喷雾。'].join('\n'),
    );
    assert.deepEqual(flags(noTitle), ['error 乙酰甲胺磷@9'], 'a deeper heading before a shallower one, no title');
  });

  it('every crop word authors write for rice and vegetables is known', () => {
    for (const rice of ['单季稻', '双季晚稻', '双晚', '早稻', '粳稻', '籼稻', '秧田'])
      assert.deepEqual(flags(dated('2021-05-10', `${rice}亩用48%毒死蜱乳油80毫升喷雾。`)), [], rice);
    for (const veg of ['韭菜', '茭白', '生姜', '大白菜'])
      assert.deepEqual(flags(dated('2021-05-10', `${veg}亩用48%毒死蜱乳油80毫升喷雾。`)), ['error 毒死蜱@5'], veg);
  });

  it('several crops in one clause are each checked; a crop word in a product name names no crop', () => {
    assert.deepEqual(flags(dated('2021-05-10', '小麦、白菜亩用48%毒死蜱乳油80毫升喷雾。')), ['error 毒死蜱@5']);
    const wheat = dated('2021-05-10', '小麦田亩用甘蓝夜蛾核型多角体病毒50毫升加48%毒死蜱乳油80毫升喷雾。');
    assert.deepEqual(flags(wheat), []);
  });

  it('a ban on every crop reaches every crop named, and with no crop named is an error', () => {
    assert.deepEqual(flags(dated('2021-05-10', '大豆亩用5%氟虫腈悬浮剂30毫升喷雾。')), ['error 氟虫腈@5']);
    assert.deepEqual(flags(dated('2021-05-10', '亩用5%锐劲特悬浮剂30毫升喷雾。')), ['error 氟虫腈@5']);
  });
});

describe('safety lint on real text: the fipronil exception is for its own mention', () => {
  it('seed coating of maize and other dryland crops only, in the sentence that says so', () => {
    assert.deepEqual(flags(dated('2021-05-10', '玉米播种前用8%氟虫腈悬浮种衣剂拌种。')), []);
    assert.deepEqual(flags(dated('2021-05-10', '花生用氟虫腈种衣剂包衣。')), []);
    assert.deepEqual(flags(dated('2021-05-10', '水稻种子用氟虫腈拌种。')), ['error 氟虫腈@5']);
    const paragraph = '玉米用种衣剂拌种。水稻田亩用5%氟虫腈悬浮剂30毫升喷雾。';
    assert.deepEqual(flags(dated('2021-05-10', paragraph)), ['error 氟虫腈@5'], '拌种 elsewhere excuses nothing');
  });
});

describe('safety lint on real text: numbers are not codes', () => {
  it('a measurement, a standard, a year, a phone, a footnote label, a chunk index, a list item', () => {
    const body = [
      '每666.7平方米用药量按GB 1605-2019执行，1605年。',
      '咨询电话0571-86661605。',
      '见脚注[^666]。',
      '引自某文档.docx#1605。',
      '层666的样品。',
      '',
      '[^666]: 农药手册.docx#3911',
    ].join('\n');
    assert.deepEqual(lint(dated('2021-05-10', body, '白菜')), []);
  });

  it('a code is a pesticide beside a concentration, a formulation or a verb of use', () => {
    const body = ['亩用1%1605颗粒剂2公斤。', '3911颗粒剂沟施。', '用1605乳油喷雾。', '用3911拌种。'].join('\n\n');
    assert.deepEqual(flags(dated('2005-03-01', body, '白菜')), [
      'error 对硫磷@6',
      'error 甲拌磷@8',
      'error 对硫磷@10',
      'error 甲拌磷@12',
    ]);
  });
});

describe('safety lint on real text: dates written other ways', () => {
  it('reads 2010/04/10, 2010-4-10 and 2010年4月10日 as the bulletin date', () => {
    for (const date of ['2010/04/10', '2010-4-10', '2010年4月10日', '2010.4.10'])
      assert.deepEqual(flags(dated(date, '韭菜用甲拌磷灌根。', undefined), '2026-12-02'), ['error 甲拌磷@5'], date);
    // Before 公告第199号 (2002-06-05) the same advice broke no rule of its day.
    assert.deepEqual(flags(dated('2002/06/04', '韭菜用甲拌磷灌根。')), []);
  });
});

describe('safety lint on real text: comments are not published', () => {
  it('reads no name inside an HTML comment, and keeps the offsets of what follows', () => {
    const body =
      '<!-- shunong-disable-next-line carbofuran-736 -->\n<!-- 旧稿：\n亩用克百威 -->\n\n玉米田亩用3%克百威颗粒剂2公斤撒施。';
    assert.deepEqual(flags(dated('2026-12-02', body)), ['error 克百威@9']);
    assert.equal(lint(dated('2026-12-02', body))[0]!.character, 7);
  });
});
