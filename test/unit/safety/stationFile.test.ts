/** A station's rules file: its shape and where its problems are (src/safety/schema.ts), and how it merges (src/safety/ruleSet.ts). */
import assert from 'node:assert/strict';
import { shippedRules, withStationRules } from '../../../src/safety/index';
import { parseRulesText, stationSchema } from '../../../src/safety/schema';

const rules = shippedRules();
const RULE = {
  id: 'local-1',
  substance: '某农药',
  names: ['某农药'],
  kind: 'banned',
  effective: '2026-01-01',
  announcement: '县通知第2号',
};
const problems = (text: string): string[] => parseRulesText(text, stationSchema).problems.map((p) => p.message);
const withRule = (over: Record<string, unknown>): string[] =>
  problems(JSON.stringify({ rules: [{ ...RULE, ...over }] }));

describe('safety rules file: its shape', () => {
  it('takes a whole YYYY-MM-DD date, nothing before or after it', () => {
    assert.deepEqual(withRule({}), []);
    for (const effective of ['2026-01-01x', 'x2026-01-01', '2026-1-01', '2026/01/01'])
      assert.deepEqual(withRule({ effective }), ['rules.0.effective: a date is written YYYY-MM-DD'], effective);
  });

  it('takes an id of lower-case letters, digits and hyphens, starting with a letter or digit', () => {
    for (const id of ['a', '736', 'carbofuran-736']) assert.deepEqual(withRule({ id }), [], id);
    for (const id of ['Carbofuran', '-a', 'a_b', 'a b', 'a!', '!a'])
      assert.deepEqual(withRule({ id }), ['rules.0.id: an id is lower-case letters, digits and hyphens'], id);
  });

  it('refuses an empty name and a rule without names; trims names', () => {
    assert.deepEqual(withRule({ substance: '  ' }), ['rules.0.substance: a name cannot be empty']);
    assert.deepEqual(withRule({ names: [] }), ['rules.0.names: a rule names its substance at least once']);
    const parsed = parseRulesText(JSON.stringify({ rules: [{ ...RULE, substance: ' 某农药 ' }] }), stationSchema);
    assert.equal(parsed.value?.rules?.[0]?.substance, '某农药');
  });

  it('gives a crop and a use no parents or aliases unless written', () => {
    const parsed = parseRulesText(
      JSON.stringify({ crops: [{ name: '魔芋' }], uses: [{ name: '熏蒸' }] }),
      stationSchema,
    );
    assert.deepEqual(parsed.value?.crops, [{ name: '魔芋', parents: [], aliases: [] }]);
    assert.deepEqual(parsed.value?.uses, [{ name: '熏蒸', aliases: [] }]);
  });

  it('is strict JSON: no comments, no trailing commas', () => {
    assert.match(problems('{\n  // 本站规则\n  "rules": []\n}')[0] ?? '', /^not JSON/);
    assert.match(problems('{ "rules": [], }')[0] ?? '', /^not JSON/);
    assert.match(problems('')[0] ?? '', /^not JSON/, 'an empty file');
  });

  it('names the field of each problem and its line, or the nearest line that exists for a missing field', () => {
    const text =
      '{\n  "rules": [\n    {\n      "id": "a",\n      "substance": "某",\n      "names": ["某"],\n      "kind": "banned",\n      "effective": "2026-01-01"\n    }\n  ]\n}\n';
    const [p] = parseRulesText(text, stationSchema).problems;
    assert.equal(p?.message, 'rules.0.announcement: Invalid input: expected string, received undefined');
    assert.equal(p?.line, 3, 'the rule missing it');
    const root = parseRulesText('[]', stationSchema).problems;
    assert.equal(root.length, 1);
    assert.equal(root[0]!.line, 1);
    assert.doesNotMatch(root[0]!.message, /^[^ ]*: /, 'a problem of the whole file names no field');
  });
});

describe('safety rules file: over the shipped rules', () => {
  const merged = (file: Record<string, unknown>) => {
    const r = withStationRules(rules, JSON.stringify(file), 'station.json');
    assert.deepEqual(r.problems, []);
    return r.rules;
  };

  it('replaces a crop or a use by name and keeps the others', () => {
    const shipped = rules.crops.find((c) => c.name === '白菜')!;
    const out = merged({ crops: [{ name: '白菜', parents: ['叶菜'], aliases: ['大白菜'] }, { name: '魔芋' }] });
    assert.deepEqual(
      out.crops.filter((c) => c.name === '白菜'),
      [{ name: '白菜', parents: ['叶菜'], aliases: ['大白菜'] }],
    );
    assert.ok(shipped);
    assert.ok(out.crops.some((c) => c.name === '魔芋'));
    assert.equal(out.crops.length, rules.crops.length + 1);
    const use = rules.uses[0]!;
    const uses = merged({ uses: [{ name: use.name, aliases: ['别名'] }] }).uses;
    assert.equal(uses.length, rules.uses.length);
    assert.deepEqual(uses.find((u) => u.name === use.name)?.aliases, ['别名']);
    assert.deepEqual(merged({}).crops, rules.crops, 'no crops in the file: the shipped ones');
  });

  it('adds names and ordinary words to the shipped ones', () => {
    const out = merged({ otherNames: ['某新药'], ordinaryWords: ['某词'] });
    assert.deepEqual(out.otherNames, [...rules.otherNames, '某新药']);
    assert.deepEqual(out.ordinaryWords, [...rules.ordinaryWords, '某词']);
    assert.deepEqual(merged({}).otherNames, rules.otherNames);
    assert.deepEqual(merged({}).ordinaryWords, rules.ordinaryWords);
  });

  it('is as of the later of the two dates, and names its own sources after the shipped ones', () => {
    assert.equal(merged({ asOf: '2099-01-01' }).asOf, '2099-01-01');
    assert.equal(merged({ asOf: '2000-01-01' }).asOf, rules.asOf);
    assert.equal(merged({ asOf: rules.asOf }).asOf, rules.asOf);
    assert.equal(merged({}).asOf, rules.asOf);
    assert.equal(merged({ sources: '县农业局 2026' }).sources, `${rules.sources}; station.json: 县农业局 2026`);
    assert.equal(merged({}).sources, rules.sources);
    assert.equal(merged({ version: 7 }).version, 7);
    assert.equal(merged({}).version, rules.version);
  });
});
