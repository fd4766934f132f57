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
    assert.equal(pairs.length, 12, `read ${pairs.length} pairs`);
    for (const [alias, substance] of pairs)
      assert.ok(
        rules.rules.some((r) => r.substance === substance && r.names.includes(alias)),
        `${alias} names ${substance}`,
      );
    assert.ok(rules.rules.some((r) => r.substance === '六六六' && r.names.includes('666')));
    assert.ok(rules.rules.some((r) => r.substance === '丁酰肼' && r.names.includes('B9')));
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
