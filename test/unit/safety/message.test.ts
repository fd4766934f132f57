/** A finding's words (src/safety/message.ts) and the topic of its sentence (src/safety/topic.ts). */
import assert from 'node:assert/strict';
import { findingMessage, lintSafety, shippedRules } from '../../../src/safety/index';
import {
  announcementIn,
  noteIn,
  ruleName,
  ruleSummary,
  scopeIn,
  substanceIn,
  writtenName,
} from '../../../src/safety/message';
import { mentionTopic } from '../../../src/safety/topic';
import type { SafetyFinding, SafetyRule } from '../../../src/safety/types';

const rules = shippedRules();
const rule = (id: string): SafetyRule => {
  const r = rules.rules.find((x) => x.id === id);
  assert.ok(r, id);
  return r;
};

describe('safety/message: the parts of a finding in a language', () => {
  it("names the ministry's announcements by number in English, the yearly list by its year, anything else as written", () => {
    assert.equal(announcementIn('农业农村部公告第736号', 'en'), 'Announcement No. 736');
    assert.equal(announcementIn('农业部公告第 2032 号', 'en'), 'Announcement No. 2032');
    assert.equal(announcementIn('农业农村部公告第736号', 'zh'), '农业农村部公告第736号');
    assert.equal(
      announcementIn('禁限用农药名录（2022年版）', 'en'),
      'the 2022 list of banned and restricted pesticides',
    );
    for (const other of ['某县农业局通知第3号', '农业农村部公告第736号附件', '见农业农村部公告第736号'])
      assert.equal(announcementIn(other, 'en'), other, other);
  });

  it("gives the substance's English name in English when the rules have one, the Chinese otherwise", () => {
    const carbofuran = rule('carbofuran-736');
    assert.equal(substanceIn(carbofuran, 'en'), carbofuran.en);
    assert.equal(substanceIn(carbofuran, 'zh'), '克百威');
    assert.equal(substanceIn({ ...carbofuran, en: undefined }, 'en'), '克百威');
  });

  it("gives the note in the language asked, or the other language's when it has only that one", () => {
    const both = { ...rule('carbofuran-736'), note: 'in English', noteZh: '中文' };
    assert.equal(noteIn(both, 'zh'), '中文');
    assert.equal(noteIn(both, 'en'), 'in English');
    assert.equal(noteIn({ ...both, noteZh: undefined }, 'zh'), 'in English');
    assert.equal(noteIn({ ...both, note: undefined }, 'en'), '中文');
    assert.equal(noteIn({ ...both, note: undefined, noteZh: undefined }, 'en'), undefined);
  });

  it('writes a scope as one phrase: crops then uses, 、 in Chinese, commas and English names in English', () => {
    const scoped = rule('chlorpyrifos-2032');
    const crops = scoped.scope?.crops ?? [];
    assert.ok(crops.length > 0);
    assert.equal(scopeIn(scoped, 'zh'), crops.join('、'));
    const withUse: SafetyRule = { ...scoped, scope: { crops: ['蔬菜', '茶叶'], uses: ['卫生害虫'] } };
    assert.equal(scopeIn(withUse, 'zh'), '蔬菜、茶叶、卫生害虫');
    const en = scopeIn(withUse, 'en').split(', ');
    assert.equal(en.length, 3);
    for (const part of en) assert.doesNotMatch(part, /\p{Script=Han}/u, part);
    assert.equal(scopeIn({ ...scoped, scope: undefined }, 'en'), '');
  });
});

describe('safety/topic: what the flagged sentence is about', () => {
  const topic = (text: string, mention: string, max?: number): string[] =>
    mentionTopic(text, text.indexOf(mention), mention, max);

  it('the first pieces of its own sentence, without the pesticide and without quantities', () => {
    assert.deepEqual(topic('防治蚜虫，每亩3千克，用克百威，沟施。', '克百威', 5), ['防治蚜虫', '沟施']);
    assert.deepEqual(
      topic('防治蚜虫，每亩3千克，用克百威，沟施，覆土。', '克百威'),
      ['防治蚜虫', '沟施'],
      'two by default',
    );
    assert.deepEqual(topic('防治蚜虫 地老虎 蛴螬 用克百威', '克百威', 1), ['防治蚜虫']);
  });

  it('stops at the sentence ends on both sides: 。！？； a line break, and ". " in English', () => {
    for (const end of ['。', '！', '？', '；', '\n']) {
      const text = `上一句，前文${end}防治蛴螬，用克百威${end}下一句，后文`;
      assert.deepEqual(topic(text, '克百威', 5), ['防治蛴螬'], JSON.stringify(end));
    }
    assert.deepEqual(topic('Before, this. 防治蛴螬，用克百威。', '克百威', 5), ['防治蛴螬'], '". " before');
    assert.deepEqual(
      topic('防治蛴螬，用克百威。下一句，后文！再一句', '克百威', 5),
      ['防治蛴螬'],
      'the nearest end after it',
    );
    assert.deepEqual(topic('防治蛴螬，用克百威', '克百威'), ['防治蛴螬'], 'the whole text is the sentence');
  });

  it('cuts at commas of both scripts, 、, semicolons, colons and spaces', () => {
    assert.deepEqual(topic('蛴螬,地老虎、蝼蛄;金针虫，线虫:根蛆：蚜虫\t蓟马 用克百威', '克百威', 10), [
      '蛴螬',
      '地老虎',
      '蝼蛄',
      '金针虫',
      '线虫',
      '根蛆',
      '蚜虫',
      '蓟马',
    ]);
  });
});

describe('safety/message: a mention by another name', () => {
  const first = (text: string) => lintSafety(text, rules, { today: '2026-12-02' })[0]!;

  it('says which substance an alias is: its own sentence in Chinese, the English name after it in English', () => {
    const f = first('可用呋喃丹防治地下害虫。');
    assert.equal(
      findingMessage(f, 'zh'),
      '呋喃丹即克百威。克百威已禁用：自2026-06-01起禁止销售和使用（农业农村部公告第736号）。',
    );
    assert.equal(
      findingMessage(f, 'en'),
      '呋喃丹 (carbofuran) is banned: its sale and use are prohibited from 2026-06-01 (Announcement No. 736).',
    );
  });

  it("does not call the substance's own name, in any case, an alias", () => {
    assert.equal(
      findingMessage(first('Apply Carbofuran granules.'), 'en'),
      'Carbofuran is banned: its sale and use are prohibited from 2026-06-01 (Announcement No. 736).',
    );
    assert.match(findingMessage(first('可用克百威防治蛴螬。'), 'zh'), /^克百威已禁用/);
  });
});

describe('safety/message: the substance as the bulletin wrote it, in grammatical sentences', () => {
  /** A finding of a rule, as the lint would give it, for the mention as written. */
  const finding = (id: string, mention: string, more: Partial<SafetyFinding> = {}): SafetyFinding => ({
    rule: rule(id),
    mention,
    offset: 0,
    length: mention.length,
    line: 0,
    character: 0,
    severity: 'error',
    upcoming: false,
    conditional: false,
    date: '2026-12-02',
    ...more,
  });

  it('names it as written, with its English name after it in English and alone in Chinese', () => {
    const f = finding('methamidophos-322', '甲胺磷');
    assert.equal(writtenName(f, 'en'), '甲胺磷 (methamidophos)');
    assert.equal(writtenName(f, 'zh'), '甲胺磷');
    assert.match(findingMessage(f, 'en'), /^甲胺磷 \(methamidophos\) is banned: its sale and use are prohibited from /);
    assert.match(findingMessage(f, 'zh'), /^甲胺磷已禁用：/);
    assert.doesNotMatch(findingMessage(f, 'zh'), /methamidophos/);
    const english = finding('methamidophos-322', 'Methamidophos');
    assert.equal(writtenName(english, 'en'), 'Methamidophos', 'the English name is not said twice');
  });

  it('a name without an English one is written as it is, an alias of it with the substance after it', () => {
    const station: SafetyRule = { ...rule('carbofuran-736'), id: 's-1', substance: '草甘膦', en: undefined };
    assert.equal(writtenName({ rule: station, mention: '草甘膦' }, 'en'), '草甘膦');
    assert.equal(writtenName({ rule: station, mention: '农达' }, 'en'), '农达 (草甘膦)');
  });

  it('a class of compounds written in English takes a plural verb; written in Chinese, its name is the subject', () => {
    const english = finding('mercury-199', 'mercury compounds');
    const { effective, announcement } = rule('mercury-199');
    assert.equal(
      findingMessage(english, 'en'),
      `mercury compounds are banned: their sale and use are prohibited from ${effective} (${announcementIn(announcement, 'en')}).`,
    );
    assert.match(
      findingMessage(finding('mercury-199', '汞制剂'), 'en'),
      /^汞制剂 \(mercury compounds\) is banned: its sale/,
    );
    const restricted: SafetyRule = { ...rule('mercury-199'), kind: 'restricted' };
    assert.match(
      findingMessage({ ...english, rule: restricted, severity: 'information' }, 'en'),
      /^mercury compounds are restricted-use pesticides \(.*\): follow their labels and, on food crops, their safety intervals\.$/,
    );
    const scoped: SafetyRule = { ...rule('chlorpyrifos-2032'), en: 'mercury compounds' };
    assert.match(
      findingMessage({ ...english, rule: scoped, crop: '白菜' }, 'en'),
      /^mercury compounds must not be used on .*: they are banned on /,
    );
    assert.match(
      findingMessage({ ...english, rule: scoped, conditional: true, severity: 'warning' }, 'en'),
      /^If used on .*: mercury compounds are banned there from /,
    );
    for (const f of [english, { ...english, rule: scoped, crop: '白菜' }])
      assert.doesNotMatch(findingMessage(f, 'en'), /compounds is|compounds must not be used on .*: it is/);
  });

  it('a scope ban names the crop the bulletin names, in each language', () => {
    const f = finding('chlorpyrifos-2032', '毒死蜱', { crop: '白菜' });
    assert.match(findingMessage(f, 'en'), /^毒死蜱 \(chlorpyrifos\) must not be used on \S.*: it is banned on /);
    assert.match(findingMessage(f, 'zh'), /^白菜上不得使用毒死蜱：/);
  });
});

describe("safety/message: a rule's summary (a SARIF rule's description)", () => {
  it('says what the rule bans or restricts, from when and by which announcement, in each language', () => {
    assert.equal(
      ruleSummary(rule('carbofuran-736'), 'en'),
      'Ban on 克百威 (carbofuran) from 2026-06-01 (Announcement No. 736)',
    );
    assert.equal(ruleSummary(rule('carbofuran-736'), 'zh'), '自2026-06-01起禁用克百威（农业农村部公告第736号）');
    const scoped = rule('chlorpyrifos-2032');
    assert.equal(
      ruleSummary(scoped, 'en'),
      `Ban on 毒死蜱 (chlorpyrifos) on ${scopeIn(scoped, 'en')} from ${scoped.effective} (${announcementIn(scoped.announcement, 'en')})`,
    );
    assert.equal(
      ruleSummary(scoped, 'zh'),
      `自${scoped.effective}起禁止在${scopeIn(scoped, 'zh')}上使用毒死蜱（${scoped.announcement}）`,
    );
    const restricted = rules.rules.find((r) => r.kind === 'restricted')!;
    assert.match(ruleSummary(restricted, 'en'), /^Restricted use of \S+ \(\S[^)]*\) from \d{4}-\d\d-\d\d \(/);
    assert.match(ruleSummary(restricted, 'zh'), /^自\d{4}-\d\d-\d\d起限制使用/);
    assert.equal(ruleName({ ...restricted, en: undefined }, 'en'), restricted.substance);
  });
});
