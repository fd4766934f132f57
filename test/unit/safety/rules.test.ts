/** The shipped rules against the reference they were written from, and a station's own file (src/safety/ruleSet.ts). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Crops } from '../../../src/safety/crops';
import { shippedRules, withStationRules, type SafetyRule } from '../../../src/safety/index';
import { shippedSchema } from '../../../src/safety/schema';

/** The team's reading of the rules (test/fixtures/vendor/SOURCE.md), verbatim. */
const REFERENCE = readFileSync(join(__dirname, '../../fixtures/vendor/pesticide-rules.md'), 'utf8');

const section = (title: string): string => {
  const start = REFERENCE.indexOf(title);
  assert.ok(start >= 0, title);
  const next = REFERENCE.indexOf('\n## ', start + 1);
  return REFERENCE.slice(start, next === -1 ? undefined : next);
};

/** The Chinese names of a list written `名 (english)` or `名,` in the reference's prose. */
const chineseNames = (text: string): string[] => [
  ...new Set(text.match(/(?:2,4-)?[\u4e00-\u9fff]{2,}(?=[ ,，;(（—]|\s|$)/g) ?? []),
];

const rules = shippedRules();
const hierarchy = new Crops(rules);
const ofKind = (kind: SafetyRule['kind']): Set<string> =>
  new Set(rules.rules.filter((r) => r.kind === kind).map((r) => r.substance));

describe('safety rules: the shipped file', () => {
  it('passes the schema and is already in its normal form (the extension reads it without the schema)', () => {
    // deepEqual, not only success: a default the schema would fill in or a name it would trim
    // would otherwise be missing from what the lint reads.
    assert.deepEqual(
      shippedSchema.parse(JSON.parse(readFileSync(join(__dirname, '../../../src/safety/rules.json'), 'utf8'))),
      rules,
    );
  });

  it('is versioned and dated, and every rule has a unique id, its substance among its names, a date and an announcement', () => {
    assert.ok(rules.version >= 1);
    assert.match(rules.asOf, /^\d{4}-\d{2}-\d{2}$/);
    const ids = rules.rules.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const r of rules.rules) {
      assert.ok(r.names.includes(r.substance), r.id);
      assert.match(r.effective, /^\d{4}-\d{2}-\d{2}$/, r.id);
      assert.match(r.announcement, /公告第\d+号|名录/, r.id);
    }
  });

  it('bans outright every substance of section A, from the date the reference gives', () => {
    const a = section('## A. Banned outright');
    const names = chineseNames(a.replace(/\*\*/g, '')).filter(
      (n) => !/公告|年|号|农业|检疫|熏蒸|任何|禁|之|列表|名录/.test(n),
    );
    const banned = ofKind('banned');
    for (const n of ['六六六', '甲胺磷', '三氯杀螨醇', '百草枯', '2,4-滴丁酯', '甲拌磷', '克百威', '涕灭威'])
      assert.ok(names.includes(n), `the reading of section A finds ${n}`);
    for (const n of names) assert.ok(banned.has(n), `${n} is banned outright`);
    const byName = (n: string): SafetyRule => rules.rules.find((r) => r.kind === 'banned' && r.substance === n)!;
    for (const n of ['甲拌磷', '甲基异柳磷', '水胺硫磷', '灭线磷']) {
      assert.equal(byName(n).effective, '2024-09-01');
      assert.match(byName(n).announcement, /公告第536号/);
    }
    for (const n of ['氧乐果', '克百威', '灭多威', '涕灭威']) {
      assert.equal(byName(n).effective, '2026-06-01');
      assert.match(byName(n).announcement, /公告第736号/);
    }
  });

  it('bans within their scope the substances of section B, on the crops its table names', () => {
    const table = section('## B. Banned within a scope');
    const rows = table.split('\n').filter((l) => /^\| [^-s]/.test(l) && !l.startsWith('| substance'));
    assert.equal(rows.length, 7);
    for (const row of rows) {
      const [substances, crops] = row.split('|').slice(1, 3) as [string, string];
      for (const s of chineseNames(substances)) {
        const rule = rules.rules.find((r) => r.kind === 'scope' && r.substance === s);
        assert.ok(rule, `${s} has a scope rule`);
        const first = chineseNames(crops)[0]!;
        assert.ok(hierarchy.inScope(rule, hierarchy.crop(first) ?? first), `${s} is banned on ${first}`);
      }
    }
  });

  it('lists as restricted use all 32 of section C', () => {
    const c = section('## C. Restricted use').replace(/C型|D型/g, (m) => m);
    const names = (c.match(/(?:2,4-|[CD]型)?[\u4e00-\u9fff]{2,}(?=[,，;( ])/g) ?? []).filter(
      (n) => !/名录|公告|定点|安全|限制|食品|标签|间隔/.test(n),
    );
    const restricted = ofKind('restricted');
    assert.equal(restricted.size, 32);
    for (const n of names) assert.ok(restricted.has(n), `${n} is restricted`);
  });

  it('knows every name used in the field as its substance', () => {
    const field = section('## Names used in the field');
    const pairs = [...field.matchAll(/([^\s;；:=,]+)\s+=\s+([\u4e00-\u9fff]+)/g)].map((m) => [m[1]!, m[2]!] as const);
    assert.equal(pairs.length, 14, `read ${pairs.length} pairs`);
    for (const [alias, substance] of pairs)
      assert.ok(
        rules.rules.some((r) => r.substance === substance && r.names.includes(alias)),
        `${alias} names ${substance}`,
      );
    assert.ok(rules.rules.some((r) => r.substance === '六六六' && r.names.includes('666')));
    assert.ok(rules.rules.some((r) => r.substance === '丁酰肼' && r.names.includes('B9')));
  });
});

/**
 * The reference as corrected on 2026-12-07 (docs/safety.md, "The rules data"): each scope ban dates
 * from the announcement that first made it, not from a later list that repeats it, and an alias
 * names its substance, not one rule. The fixture above is the reading of 2026-12-02; these are the
 * corrections, stated here.
 */
describe('safety rules: every scope ban from the announcement that made it', () => {
  const scopeRules = (substance: string): SafetyRule[] =>
    rules.rules.filter((r) => r.kind === 'scope' && r.substance === substance);
  /** The scope rule of a substance from an announcement, the only one. */
  const from = (substance: string, announcement: RegExp): SafetyRule => {
    const found = scopeRules(substance).filter((r) => announcement.test(r.announcement));
    assert.equal(found.length, 1, `${substance}: ${found.map((r) => r.id).join(', ')}`);
    return found[0]!;
  };
  const onAll = (rule: SafetyRule, crops: string[]): void => {
    for (const c of crops) assert.ok(hierarchy.inScope(rule, hierarchy.crop(c) ?? c), `${rule.id} on ${c}`);
  };

  it('公告第199号, from 2002-06-05: the 19 high-toxicity not on 蔬菜, 果树, 茶叶, 中草药材; 三氯杀螨醇 and 氰戊菊酯 not on 茶树', () => {
    const nineteen = [
      '甲胺磷',
      '甲基对硫磷',
      '对硫磷',
      '久效磷',
      '磷胺',
      '甲拌磷',
      '甲基异柳磷',
      '特丁硫磷',
      '甲基硫环磷',
      '治螟磷',
      '内吸磷',
      '克百威',
      '涕灭威',
      '灭线磷',
      '硫环磷',
      '蝇毒磷',
      '地虫硫磷',
      '氯唑磷',
      '苯线磷',
    ];
    assert.equal(nineteen.length, 19);
    for (const s of nineteen) {
      const rule = from(s, /公告第199号$/);
      assert.equal(rule.effective, '2002-06-05', rule.id);
      onAll(rule, ['蔬菜', '韭菜', '果树', '柑橘', '葡萄', '茶树', '中草药材']);
      assert.equal(hierarchy.inScope(rule, '水稻'), false, rule.id);
    }
    for (const s of ['三氯杀螨醇', '氰戊菊酯']) {
      const rule = from(s, /公告第199号$/);
      assert.equal(rule.effective, '2002-06-05');
      onAll(rule, ['茶树', '茶园']);
    }
    // a new rule of a substance banned outright later keeps the outright ban's id as it was
    assert.equal(rules.rules.find((r) => r.id === 'phorate-199')?.kind, 'scope');
    assert.equal(rules.rules.find((r) => r.id === 'phorate-536')?.kind, 'banned');
  });

  it('公告第1586号, from 2011-06-15: 氧乐果, 水胺硫磷, 灭多威, 硫线磷, 硫丹, 溴甲烷 each on its crops', () => {
    const pairs: Array<[string, string[]]> = [
      ['氧乐果', ['柑橘树']],
      ['水胺硫磷', ['柑橘树']],
      ['灭多威', ['柑橘树', '苹果树', '茶树', '十字花科蔬菜']],
      ['硫线磷', ['柑橘树', '黄瓜']],
      ['硫丹', ['苹果树', '茶树']],
      ['溴甲烷', ['草莓', '黄瓜']],
    ];
    for (const [s, crops] of pairs) {
      const rule = from(s, /公告第1586号$/);
      assert.equal(rule.effective, '2011-06-15', rule.id);
      onAll(rule, crops);
    }
    // ids kept where the rule is the same one, now with its source: a station file overrides by id
    assert.equal(from('硫丹', /1586/).id, 'endosulfan-scope-2019');
    assert.equal(from('溴甲烷', /1586/).id, 'methyl-bromide-scope-2019');
  });

  it('公告第2289号, from 2015-10-01: 杀扑磷 not on 柑橘树; 溴甲烷 and 氯化苦 only for soil fumigation', () => {
    const methidathion = from('杀扑磷', /公告第2289号$/);
    assert.equal(methidathion.effective, '2015-10-01');
    onAll(methidathion, ['柑橘树']);
    for (const s of ['溴甲烷', '氯化苦']) {
      const rule = from(s, /公告第2289号$/);
      assert.equal(rule.effective, '2015-10-01');
      onAll(rule, ['水稻', '草莓', '番茄']);
      assert.ok(rule.scope?.except?.includes('土壤熏蒸'), rule.id);
    }
  });

  it('公告第2445号, from 2018-10-01 (less certain): 甲拌磷, 甲基异柳磷, 克百威 not on 甘蔗', () => {
    for (const s of ['甲拌磷', '甲基异柳磷', '克百威']) {
      const rule = from(s, /公告第2445号$/);
      assert.equal(rule.effective, '2018-10-01');
      assert.deepEqual(rule.scope?.crops, ['甘蔗']);
      assert.match(rule.note ?? '', /less certain/);
    }
  });

  it("the 2019 list's wider wording for the eight, dated by the list and saying so", () => {
    for (const s of ['甲拌磷', '甲基异柳磷', '克百威', '水胺硫磷', '氧乐果', '灭多威', '涕灭威', '灭线磷']) {
      const rule = from(s, /名录/);
      assert.equal(rule.effective, '2019-12-31', rule.id);
      assert.deepEqual(rule.scope?.crops, ['蔬菜', '瓜果', '茶叶', '菌类', '中草药材'], rule.id);
      assert.deepEqual(rule.scope?.uses, ['卫生害虫', '水生植物'], rule.id);
      assert.match(rule.note ?? '', /best we know/, rule.id);
    }
  });

  it('names every scope crop by its name in the hierarchy, so its English is known', () => {
    for (const r of rules.rules)
      for (const c of r.scope?.crops ?? [])
        assert.ok(
          rules.crops.some((x) => x.name === c),
          `${r.id}: ${c}`,
        );
  });
});

describe('safety rules: an alias belongs to its substance', () => {
  it('every rule of a substance lists the same names', () => {
    const bySubstance = new Map<string, SafetyRule[]>();
    for (const r of rules.rules) bySubstance.set(r.substance, [...(bySubstance.get(r.substance) ?? []), r]);
    for (const [substance, of] of bySubstance)
      for (const r of of) assert.deepEqual(r.names, of[0]!.names, `${substance}: ${r.id}`);
  });

  it('knows the field names, trade names and mixtures of the reference on every rule of their substance', () => {
    const names: Array<[string, string]> = [
      ['氧化乐果', '氧乐果'],
      ['呋喃丹', '克百威'],
      ['3911', '甲拌磷'],
      ['1605', '对硫磷'],
      ['甲基1605', '甲基对硫磷'],
      ['1059', '内吸磷'],
      ['乐斯本', '毒死蜱'],
      ['杀灭菊酯', '氰戊菊酯'],
      ['速灭杀丁', '氰戊菊酯'],
      ['速扑杀', '杀扑磷'],
      ['锐劲特', '氟虫腈'],
      ['克无踪', '百草枯'],
      ['开乐散', '三氯杀螨醇'],
      ['铁灭克', '涕灭威'],
      ['比久', '丁酰肼'],
      ['B9', '丁酰肼'],
      ['退菌特', '福美甲胂'],
      ['丁硫·吡虫啉', '丁硫克百威'],
      ['乐·溴', '乐果'],
      ['乐溴', '乐果'],
    ];
    for (const [alias, substance] of names) {
      const of = rules.rules.filter((r) => r.substance === substance);
      assert.ok(of.length > 0, substance);
      for (const r of of) assert.ok(r.names.includes(alias), `${alias} names ${substance} in ${r.id}`);
    }
  });
});

describe('safety rules: the crops authors write', () => {
  const lineage = (word: string): Set<string> => hierarchy.lineage(hierarchy.crop(word) ?? word);

  it('knows the rice words as 水稻', () => {
    for (const w of ['单季稻', '双季晚稻', '双晚', '早稻', '晚稻', '粳稻', '籼稻', '秧田'])
      assert.equal(hierarchy.crop(w), '水稻', w);
  });

  it('knows 韭菜, 茭白 (an aquatic vegetable), 生姜 and 大白菜 as vegetables; 葡萄 as a fruit tree and a 瓜果; 大豆', () => {
    for (const w of ['韭菜', '茭白', '生姜', '大白菜']) assert.ok(lineage(w).has('蔬菜'), w);
    assert.ok(lineage('茭白').has('水生蔬菜'));
    assert.ok(lineage('葡萄').has('果树') && lineage('葡萄').has('瓜果'));
    assert.ok(lineage('大豆').has('作物'));
    assert.equal(lineage('胡萝卜').has('十字花科蔬菜'), false, '胡萝卜 is not a 萝卜');
  });

  it('groups 玉米 and the other dryland crops, which the fipronil exception names', () => {
    for (const w of ['玉米', '小麦', '大豆', '花生', '棉花', '高粱']) assert.ok(lineage(w).has('旱田作物'), w);
    assert.equal(lineage('水稻').has('旱田作物'), false);
  });
});

describe('safety rules: a station file', () => {
  const station = (rulesJson: unknown): string => JSON.stringify(rulesJson, null, 2);

  it('adds a rule and overrides one by id', () => {
    const { rules: merged, problems } = withStationRules(
      rules,
      station({
        rules: [
          {
            id: 'carbofuran-736',
            substance: '克百威',
            names: ['克百威', '呋喃丹'],
            kind: 'banned',
            effective: '2026-01-01',
            announcement: '县农业农村局通知第1号',
          },
          {
            id: 'local-1',
            substance: '某农药',
            names: ['某农药'],
            kind: 'banned',
            effective: '2026-01-01',
            announcement: '县通知第2号',
          },
        ],
      }),
      '.shunong/pesticide-rules.json',
    );
    assert.deepEqual(problems, []);
    assert.equal(merged.rules.filter((r) => r.id === 'carbofuran-736').length, 1);
    assert.equal(merged.rules.find((r) => r.id === 'carbofuran-736')!.effective, '2026-01-01');
    assert.ok(merged.rules.some((r) => r.id === 'local-1'));
    assert.equal(merged.rules.length, rules.rules.length + 1);
  });

  it('that is not JSON names the line and keeps the shipped rules', () => {
    const text = '{\n  "rules": [\n    { "id": "x", }\n  ]\n}\n';
    const { rules: kept, problems } = withStationRules(rules, text, 'rules.json');
    assert.equal(kept, rules);
    assert.ok(problems.length > 0);
    assert.equal(problems[0]!.line, 3);
    assert.match(problems[0]!.message, /^rules\.json: not JSON/);
  });

  it('with a rule of the wrong shape names the field and its line, and keeps the shipped rules', () => {
    const text = station({
      rules: [
        { id: 'ok-1', substance: '某', names: ['某'], kind: 'banned', effective: '2026/01/01', announcement: '通知' },
      ],
    });
    const { rules: kept, problems } = withStationRules(rules, text, 'station.json');
    assert.equal(kept, rules);
    assert.equal(problems.length, 1);
    const line = text.split('\n').findIndex((l) => l.includes('2026/01/01')) + 1;
    assert.equal(problems[0]!.line, line);
    assert.match(problems[0]!.message, /rules\.0\.effective: a date is written YYYY-MM-DD/);
  });

  it('with an unknown kind or field says so', () => {
    const text = station({
      rules: [
        { id: 'a', substance: '某', names: ['某'], kind: 'forbidden', effective: '2026-01-01', announcement: '通知' },
      ],
      extra: 1,
    });
    const { problems } = withStationRules(rules, text, 'f.json');
    assert.ok(problems.some((p) => /rules\.0\.kind/.test(p.message)));
    assert.ok(problems.some((p) => /extra/.test(p.message)));
  });
});
