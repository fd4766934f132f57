/** The dictionary's scan itself (src/safety/dictionary.ts), over a small rule set written for it. */
import assert from 'node:assert/strict';
import { Dictionary } from '../../../src/safety/dictionary';
import type { RuleSet, SafetyRule } from '../../../src/safety/types';

const rule = (id: string, names: string[]): SafetyRule => ({
  id,
  substance: names[0]!,
  names,
  kind: 'banned',
  effective: '2026-01-01',
  announcement: '公告',
});
const RULES: RuleSet = {
  version: 1,
  asOf: '2026-12-02',
  sources: 'test',
  // the shorter name first: the longest must still win
  rules: [
    rule('short', ['甲胺']),
    rule('long', ['甲胺磷']),
    rule('latin', ['abc', '2,4-滴']),
    rule('code', ['b9', 'xb9', 'b9x']),
    rule('twice', ['果园']),
  ],
  crops: [
    { name: '白菜', parents: [], aliases: ['大白菜'] },
    { name: '果园', parents: [], aliases: [] },
  ],
  uses: [{ name: '熏蒸', aliases: ['熏杀'] }],
  otherNames: ['某药'],
  ordinaryWords: [' 甲胺路 ', '某药店'],
};
const dict = new Dictionary(RULES);
/** Each hit as `kind:text`. */
const scan = (text: string): string[] => dict.scan(text).map((h) => `${h.entry.kind}:${text.slice(h.start, h.end)}`);

describe('safety/dictionary: the scan', () => {
  it('takes the longest entry at each place, whatever order the rules give them in', () => {
    assert.deepEqual(scan('甲胺磷和甲胺'), ['pesticide:甲胺磷', 'pesticide:甲胺']);
    assert.deepEqual(scan('甲胺路上'), ['other:甲胺路'], 'an ordinary word written with spaces around it in the rules');
    assert.deepEqual(scan('某药店卖某药'), ['other:某药店', 'pesticide:某药']);
  });

  it('reads crops and uses by their aliases too', () => {
    const hits = dict.scan('大白菜熏杀');
    assert.deepEqual(
      hits.map((h) => h.entry),
      [
        { kind: 'crop', name: '大白菜', crop: '白菜' },
        { kind: 'use', name: '熏杀', use: '熏蒸' },
      ],
    );
  });

  it('lets a pesticide win over a crop spelt the same', () => {
    assert.deepEqual(scan('果园'), ['pesticide:果园']);
  });

  it('reads a Latin or digit name only when no letter or digit touches it, in any case', () => {
    for (const text of ['abc', '用ABC防治', '(abc)', 'abc。'])
      assert.deepEqual(scan(text), [`pesticide:${/abc/i.exec(text)![0]}`], text);
    for (const text of ['xabc', 'abcx', '1abc', 'abc1']) assert.deepEqual(scan(text), [], text);
    assert.deepEqual(scan('用2,4-滴'), ['pesticide:2,4-滴']);
    assert.deepEqual(scan('12,4-滴'), [], 'a digit before a name that starts with one');
  });

  it('reads a code followed by a unit as a number: a quantity, a year, an address', () => {
    assert.deepEqual(scan('b9，种植一年'), ['pesticide:b9']);
    for (const text of ['b9年', 'b9 栋', 'b9号']) assert.deepEqual(scan(text), [], text);
    assert.deepEqual(scan('xb9年'), ['pesticide:xb9'], 'two letters before the digits: a name, not a code');
    assert.deepEqual(scan('b9x年'), ['pesticide:b9x'], 'a letter after the digits: a name, not a code');
  });
});
