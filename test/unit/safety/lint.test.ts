/** The crop and the date decide (src/safety/lint.ts); the messages (src/safety/message.ts). */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findingMessage, lintSafety, SafetyLinter, shippedRules, type SafetyFinding } from '../../../src/safety/index';
import { addMonths } from '../../../src/safety/lint';

const rules = shippedRules();
const lint = (text: string, today = '2026-12-02'): SafetyFinding[] => lintSafety(text, rules, { today });
const one = (text: string, today?: string): SafetyFinding => {
  const f = lint(text, today);
  assert.equal(f.length, 1, `${JSON.stringify(text)}: ${f.map((x) => x.rule.id).join(', ')}`);
  return f[0]!;
};
const bulletin = (front: Record<string, string>, body: string): string =>
  `---\n${Object.entries(front)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n---\n\n${body}\n`;

describe('safety lint: the crop decides', () => {
  it('applies a scope ban through the crop hierarchy: 白菜 is a 十字花科蔬菜 is a 蔬菜', () => {
    const f = one(bulletin({ crop: '白菜' }, '可用毒死蜱防治菜青虫。'));
    assert.equal(f.rule.id, 'chlorpyrifos-2032');
    assert.equal(f.severity, 'error');
    assert.equal(f.crop, '白菜');
    assert.equal(f.conditional, false);
  });

  it('does not apply it to a crop outside the scope: on 水稻 毒死蜱 is only restricted', () => {
    const f = one(bulletin({ crop: '水稻' }, '可用毒死蜱防治稻纵卷叶螟。'));
    assert.equal(f.rule.kind, 'restricted');
    assert.equal(f.severity, 'information');
  });

  it('takes the crop from the paragraph, then the nearest heading, then the front matter', () => {
    const text = bulletin(
      { crop: '水稻' },
      [
        '# 冬季植保',
        '',
        '## 白菜',
        '',
        '可用毒死蜱。',
        '',
        '### 稻田',
        '',
        '可用毒死蜱。',
        '',
        '黄瓜上可用毒死蜱。',
      ].join('\n'),
    );
    const f = lint(text);
    assert.deepEqual(
      f.map((x) => [x.rule.kind, x.crop ?? null]),
      [
        ['scope', '白菜'],
        ['restricted', null],
        ['scope', '黄瓜'],
      ],
    );
  });

  it('says "if used on …" when no crop can be told', () => {
    const f = one('可用毒死蜱防治。');
    assert.equal(f.conditional, true);
    assert.equal(f.severity, 'warning');
    assert.match(
      findingMessage(f, 'en'),
      /^If used on vegetables: 毒死蜱 \(chlorpyrifos\) is banned there from 2016-12-31 \(Announcement No\. 2032\)/,
    );
    assert.match(findingMessage(f, 'zh'), /^如用于蔬菜：自2016-12-31起禁止在蔬菜上使用毒死蜱（农业部公告第2032号）/);
  });

  it('knows the uses a rule excepts: methyl bromide for quarantine fumigation, fipronil as a seed coating', () => {
    assert.deepEqual(
      lint('检疫熏蒸可用溴甲烷。').filter((f) => f.severity === 'error'),
      [],
    );
    assert.equal(one('土壤消毒可用溴甲烷。').rule.id, 'methyl-bromide-2019');
    assert.deepEqual(
      lint('玉米种子包衣可用氟虫腈。').filter((f) => f.rule.kind === 'scope'),
      [],
    );
    assert.equal(one(bulletin({ crop: '水稻' }, '稻飞虱可用氟虫腈。')).severity, 'error');
  });
});

describe('safety lint: the date decides', () => {
  const carbofuran = (date: string): SafetyFinding[] =>
    lint(bulletin({ date, crop: '玉米' }, '地下害虫可用克百威颗粒剂。'));

  it('a ban is in force from its effective date, not before', () => {
    assert.equal(carbofuran('2026-06-01')[0]!.rule.id, 'carbofuran-736');
    assert.equal(carbofuran('2026-06-01')[0]!.severity, 'error');
    // before the ban, on 玉米 (outside its earlier scope), 克百威 was restricted use
    const before = carbofuran('2025-11-30');
    assert.equal(before[0]!.rule.kind, 'restricted');
  });

  it('a ban taking effect within the next six months is an Information finding', () => {
    const f = carbofuran('2025-12-01')[0]!;
    assert.equal(f.rule.id, 'carbofuran-736');
    assert.equal(f.upcoming, true);
    assert.equal(f.severity, 'information');
    assert.equal(
      findingMessage(f, 'en'),
      '克百威 (carbofuran) will be banned from 2026-06-01 (Announcement No. 736); this bulletin is dated 2025-12-01.',
    );
    assert.equal(
      findingMessage(f, 'zh'),
      '克百威将自2026-06-01起禁止销售和使用（农业农村部公告第736号），本简报日期为2025-12-01。',
    );
  });

  it('the 536 bans (2024-09-01) and the 736 bans (2026-06-01) each from their own day', () => {
    const at = (date: string, name: string): SafetyFinding | undefined =>
      lint(bulletin({ date, crop: '玉米' }, `可用${name}。`)).find((f) => f.rule.kind === 'banned' && !f.upcoming);
    for (const n of ['甲拌磷', '甲基异柳磷', '水胺硫磷', '灭线磷']) {
      assert.equal(at('2024-08-31', n), undefined, n);
      assert.ok(at('2024-09-01', n), n);
    }
    for (const n of ['氧乐果', '克百威', '灭多威', '涕灭威']) {
      assert.equal(at('2026-05-31', n), undefined, n);
      assert.ok(at('2026-06-01', n), n);
    }
  });

  it('a scope ban is in force from the announcement that made it, not from a later list that repeats it', () => {
    const at = (date: string, body: string): SafetyFinding[] =>
      lint(bulletin({ date }, body)).filter((f) => f.severity === 'error');
    // 公告第199号, 2002-06-05: a 2010 韭菜…甲拌磷灌根 is an error, a 2001 one is not
    const leek = '韭菜韭蛆可用甲拌磷灌根。';
    assert.deepEqual(
      at('2010-05-01', leek).map((f) => [f.rule.id, f.crop]),
      [['phorate-199', '韭菜']],
    );
    assert.deepEqual(at('2002-06-04', leek), []);
    assert.equal(at('2005-03-01', '茶园可用三氯杀螨醇。')[0]?.rule.id, 'dicofol-199');
    // 公告第1586号, 2011-06-15
    const citrus = '柑橘红蜘蛛可用氧化乐果。';
    assert.equal(at('2011-06-15', citrus)[0]?.rule.id, 'omethoate-1586');
    assert.deepEqual(at('2011-06-14', citrus), []);
    // 公告第2289号, 2015-10-01; the 2019 list's outright ban wins once in force
    assert.equal(at('2016-03-01', '柑橘介壳虫可用速扑杀。')[0]?.rule.id, 'methidathion-2289');
    assert.equal(at('2023-03-01', '柑橘介壳虫可用速扑杀。')[0]?.rule.id, 'methidathion-2019');
    assert.equal(at('2016-03-01', '葡萄可用溴甲烷熏蒸。')[0]?.rule.id, 'methyl-bromide-2289');
    assert.deepEqual(at('2016-03-01', '番茄定植前用氯化苦土壤熏蒸。'), []);
  });

  it('an alias reaches every rule of its substance', () => {
    const first = (date: string, body: string): string | undefined =>
      lint(bulletin({ date }, body)).find((f) => f.severity === 'error')?.rule.id;
    assert.equal(first('2021-05-01', '白菜蚜虫可用氧化乐果喷雾。'), 'omethoate-scope-2019');
    assert.equal(first('2005-03-01', '茭白可用呋喃丹。'), 'carbofuran-199');
    assert.equal(first('2019-01-01', '甘蔗可用3911。'), 'phorate-2445');
    assert.equal(first('2005-03-01', '番茄可用1605喷雾。'), 'parathion-199');
    assert.equal(first('2016-03-01', '苹果园可用退菌特。'), 'urbacide-2032');
  });

  it('uses today when the bulletin has no date, and ignores a date that is not one', () => {
    assert.equal(lint('可用克百威。', '2026-06-01')[0]!.rule.id, 'carbofuran-736');
    assert.equal(lint(bulletin({ date: '2026-02-30' }, '可用克百威。'), '2026-07-01')[0]!.date, '2026-07-01');
  });

  it("six months on keeps the day, or takes the month's last", () => {
    assert.equal(addMonths('2025-12-01', 6), '2026-06-01');
    assert.equal(addMonths('2025-08-31', 6), '2026-02-28');
    assert.equal(addMonths('2023-08-31', 6), '2024-02-29');
  });
});

describe('safety lint: where it reads', () => {
  it('gives each finding its line and character in the whole text, front matter included', () => {
    const text = bulletin({ title: '简报', crop: '白菜' }, '第一段。\n\n防治蛴螬，可撒施克百威颗粒剂。');
    const f = one(text);
    const lines = text.split('\n');
    assert.equal(lines[f.line]!.slice(f.character, f.character + f.length), '克百威');
    assert.equal(text.slice(f.offset, f.offset + f.length), '克百威');
  });

  it('skips code, fenced or indented, and the front matter', () => {
    assert.deepEqual(lint('```\n可用克百威\n```\n\n~~~~\n可用克百威\n~~~~\n\n    可用克百威\n'), []);
    assert.deepEqual(lint('---\ntitle: 可用克百威\n---\n\n正文。'), []);
  });

  it('reads CRLF text and text without a final newline as it reads LF text', () => {
    const lf = '# 白菜\n\n可用毒死蜱。\n\n可用克百威。';
    const crlf = lf.replace(/\n/g, '\r\n');
    assert.deepEqual(
      lint(crlf).map((f) => [f.rule.id, f.line, f.character]),
      lint(lf).map((f) => [f.rule.id, f.line, f.character]),
    );
  });

  it('typing in a bulletin gives the findings a fresh lint gives', () => {
    const pieces = [
      '# 白菜\n\n',
      '可用毒死蜱。\n\n',
      '## 水稻\n\n',
      '严禁使用克百威。\n\n',
      '可用呋喃丹。\n\n',
      '- 可用甲拌磷\n',
      '| 蚜虫 | 氧乐果 |\n',
      '快乐果园。\n\n',
      // what is carried from one block to the next: a lead-in, a crop named above
      '一、禁止使用的农药\n\n',
      '限制使用的农药有：\n',
      '大白菜菜青虫发生较重。\n\n',
      '亩用40%氧乐果乳油50毫升喷雾。\n\n',
      '甲拌磷、克百威\n\n',
      '### 韭菜\n\n',
      '## 防治要点\n\n',
      '# 蔬菜\n\n',
    ];
    const linter = new SafetyLinter(rules);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 12 }),
        fc.array(fc.constantFrom(...pieces), { maxLength: 12 }),
        (a, b) => {
          for (const text of [a.join(''), b.join(''), a.join('')])
            assert.deepEqual(linter.lint(text, { today: '2026-12-02' }), lint(text));
        },
      ),
    );
  });
});

describe('safety lint: the allowed are never flagged', () => {
  it('text built from allowed names, crops and ordinary words has no finding', () => {
    const allowed = rules.otherNames.filter((n) => !/^2,4-D$/.test(n));
    const words = [
      '，',
      '。',
      '可用',
      '喷雾',
      '防治',
      '蚜虫',
      '每亩',
      '快乐',
      '欢乐',
      '果园',
      '森林',
      '百草枯萎',
      '\n',
      '\n\n',
      ' ',
      '1605年',
      '- ',
      '# ',
    ];
    const crops = rules.crops.map((c) => c.name);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...allowed, ...words, ...crops), { maxLength: 40 }), (parts) => {
        assert.deepEqual(lint(parts.join('')), []);
      }),
    );
  });
});

describe('safety messages', () => {
  it('name the substance, why, the announcement and its date, in both languages', () => {
    const f = one(bulletin({ crop: '白菜' }, '可用克百威。'));
    assert.equal(
      findingMessage(f, 'en'),
      '克百威 (carbofuran) is banned: its sale and use are prohibited from 2026-06-01 (Announcement No. 736).',
    );
    assert.equal(findingMessage(f, 'zh'), '克百威已禁用：自2026-06-01起禁止销售和使用（农业农村部公告第736号）。');
    const s = one(bulletin({ crop: '茶树' }, '可用氰戊菊酯。'));
    assert.equal(
      findingMessage(s, 'en'),
      '氰戊菊酯 (fenvalerate) must not be used on tea: it is banned on tea from 2002-06-05 (Announcement No. 199).',
    );
    assert.equal(
      findingMessage(s, 'zh'),
      '茶叶上不得使用氰戊菊酯：自2002-06-05起禁止在茶叶上使用（农业部公告第199号）。',
    );
    const alias = one('可用呋喃丹。');
    assert.match(findingMessage(alias, 'zh'), /^呋喃丹即克百威。/);
    assert.match(findingMessage(alias, 'en'), /^呋喃丹 \(carbofuran\) is banned/);
  });
});

describe('safety messages: announcements', () => {
  it("name the ministry's announcements by number in English, and keep another issuer's as written", async () => {
    const { announcementIn } = await import('../../../src/safety/message');
    assert.equal(announcementIn('农业农村部公告第736号', 'en'), 'Announcement No. 736');
    assert.equal(announcementIn('农业部公告第199号', 'en'), 'Announcement No. 199');
    assert.equal(announcementIn('县农业农村局通知第1号', 'en'), '县农业农村局通知第1号');
    assert.equal(announcementIn('《禁限用农药名录》(2019)', 'en'), 'the 2019 list of banned and restricted pesticides');
    assert.equal(announcementIn('农业农村部公告第736号', 'zh'), '农业农村部公告第736号');
  });
});

describe('safety: what a mention is about', () => {
  it("is the sentence's pieces without the pesticide and without quantities", async () => {
    const { mentionTopic } = await import('../../../src/safety/topic');
    const text = '# 标题\n\n防治蛴螬、地老虎，可每亩撒施 3% 克百威颗粒剂 2 千克。下一句。';
    assert.deepEqual(mentionTopic(text, text.indexOf('克百威'), '克百威'), ['防治蛴螬', '地老虎']);
    const en = 'First sentence. Against wireworms, apply carbofuran at 2 kg per mu.';
    assert.deepEqual(mentionTopic(en, en.indexOf('carbofuran'), 'carbofuran'), ['Against', 'wireworms']);
  });
});

describe('safety lint: the rules stated once more, at their edges', () => {
  it('reads a crop out of a front matter value that only names it among other words', () => {
    const f = one(bulletin({ crop: '白菜（秋播）' }, '可用毒死蜱防治菜青虫。'));
    assert.equal(f.rule.id, 'chlorpyrifos-2032');
    assert.equal(f.crop, '白菜');
  });

  it('looks up to the outermost heading for the crop', () => {
    const f = one('# 白菜\n\n## 病虫害\n\n### 虫害\n\n可用毒死蜱防治菜青虫。\n');
    assert.equal(f.rule.id, 'chlorpyrifos-2032');
    assert.equal(f.crop, '白菜');
  });

  it('does not read a front matter date written with something before it', () => {
    assert.equal(one(bulletin({ date: 'x2024-01-01' }, '可用甲拌磷防治地下害虫。'), '2026-12-02').severity, 'error');
    assert.equal(one(bulletin({ date: '2024-01-01' }, '可用克百威防治地下害虫。'), '2026-12-02').upcoming, false);
  });

  it('reads the excepted uses in any case', () => {
    const ids = (text: string): string[] => lint(text).map((f) => f.rule.id);
    assert.ok(!ids('Methyl bromide for QUARANTINE fumigation of logs.').includes('methyl-bromide-2019'));
    assert.ok(ids('Methyl bromide for soil fumigation of logs.').includes('methyl-bromide-2019'));
  });

  it('a restricted-use mention and a ban in force are neither coming nor conditional', () => {
    const restricted = one(bulletin({ crop: '水稻' }, '可用毒死蜱防治稻纵卷叶螟。'));
    assert.deepEqual([restricted.severity, restricted.upcoming, restricted.conditional], ['information', false, false]);
    const banned = one('可用甲拌磷防治地下害虫。');
    assert.deepEqual([banned.severity, banned.upcoming, banned.conditional], ['error', false, false]);
  });

  it('applies a scope ban by the use named in the sentence', () => {
    const f = lint('防治卫生害虫可用克百威。');
    assert.ok(
      f.some((x) => x.rule.id === 'carbofuran-scope-2019' || x.rule.kind === 'banned'),
      JSON.stringify(f.map((x) => x.rule.id)),
    );
  });

  it('gives a finding at the start of a line that line, and at the start of the text line 0', () => {
    const f = one('第一行。\n甲拌磷可防治地下害虫。\n');
    assert.deepEqual([f.line, f.character], [1, 0]);
    const g = one('甲拌磷可防治地下害虫。');
    assert.deepEqual([g.line, g.character], [0, 0]);
  });

  it('an incremental lint gives a block new findings when only the bulletin crop or date changes', () => {
    const linter = new SafetyLinter(rules);
    const body = '可用毒死蜱防治害虫。';
    assert.equal(
      linter.lint(bulletin({ crop: '白菜' }, body), { today: '2026-12-02' })[0]?.rule.id,
      'chlorpyrifos-2032',
    );
    assert.equal(linter.lint(bulletin({ crop: '水稻' }, body), { today: '2026-12-02' })[0]?.rule.kind, 'restricted');
    assert.equal(
      linter.lint(bulletin({ crop: '白菜' }, body), { today: '2026-12-02' })[0]?.rule.id,
      'chlorpyrifos-2032',
    );
  });
});
