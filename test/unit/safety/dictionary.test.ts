/** Recognising a pesticide's mention without a segmenter (src/safety/dictionary.ts), through the lint. */
import assert from 'node:assert/strict';
import { lintSafety, shippedRules } from '../../../src/safety/index';

const rules = shippedRules();
/** A day on which every shipped rule is in force. */
const TODAY = '2026-12-02';
const found = (text: string): string[] => lintSafety(text, rules, { today: TODAY }).map((f) => f.mention);
const ids = (text: string): string[] => lintSafety(text, rules, { today: TODAY }).map((f) => f.rule.id);

describe('safety lint: recognising a mention', () => {
  it('finds every name and alias of every rule, alone in a sentence of advice', () => {
    for (const rule of rules.rules)
      for (const name of rule.names) {
        const latin = /^[\x20-\x7e]+$/.test(name);
        const text = latin ? `Growers may apply ${name} here.` : `可选用${name}防治。`;
        const hits = lintSafety(text, rules, { today: TODAY });
        assert.ok(
          hits.some((f) => f.mention.toLowerCase() === name.toLowerCase() && f.rule.names.includes(name)),
          `${rule.id}: ${name} in ${JSON.stringify(text)} → ${hits.map((h) => h.mention).join(',')}`,
        );
      }
  });

  it('reads a longer name that is another substance whole, never as the shorter one it contains', () => {
    // The reference's pairs: 乙酰甲胺磷 ⊃ 甲胺磷; 丁硫克百威 ⊃ 克百威; 氧乐果 ⊃ 乐果; 甲基硫环磷 ⊃ 硫环磷; 2,4-滴丁酯 vs 2,4-滴.
    assert.deepEqual(ids('可用乙酰甲胺磷防治'), ['acephate-2552']);
    assert.deepEqual(ids('可用丁硫克百威拌种'), ['carbosulfan-2552']);
    assert.deepEqual(ids('可用氧乐果喷雾'), ['omethoate-736']);
    assert.deepEqual(ids('可用氧化乐果喷雾'), ['omethoate-736']);
    assert.deepEqual(ids('可用甲基硫环磷'), ['phosfolan-methyl-1586']);
    assert.deepEqual(ids('可用甲基对硫磷'), ['parathion-methyl-322']);
    assert.deepEqual(ids('可用甲基1605'), ['parathion-methyl-322']);
    assert.deepEqual(ids('Spray dimethoate, not omethoate.').slice(0, 1), ['dimethoate-2552']);
  });

  it('leaves alone the other salts and esters of 2,4-滴 and the allowed names that hold a banned one', () => {
    for (const allowed of [
      '2,4-滴异辛酯',
      '2,4-滴二甲胺盐',
      '2,4-滴钠盐',
      '2,4-滴',
      '甲基硫菌灵',
      '2,4-D isooctyl ester',
    ])
      assert.deepEqual(found(`可用${allowed}除草。`), [], allowed);
    assert.deepEqual(found('可用2,4-滴丁酯除草。'), ['2,4-滴丁酯']);
  });

  it('does not read ordinary words as the names whose characters they hold', () => {
    for (const text of [
      '欢乐果园采摘节',
      '快乐果农增收',
      '森林丹霞地貌',
      '秋后百草枯萎',
      '入冬百草枯黄',
      '相比久旱之年',
      '长乐果蔬合作社',
      '永乐果园',
      '园林丹桂',
      '迅速扑杀病株',
      '对比久旱',
    ])
      assert.deepEqual(found(text), [], text);
    // the place name does not hide a name that follows a word ending in its first character
    assert.deepEqual(found('可延长乐果的持效期'), ['乐果']);
  });

  it('reads a code as a pesticide only when it stands alone and is not a quantity, a year or an address', () => {
    assert.deepEqual(found('可用1605防治'), ['1605']);
    assert.deepEqual(found('可用3911拌种'), ['3911']);
    for (const text of ['1605年的记载', '全村1605亩', '售价1059元', '电话16051234', 'B9栋', '第666号', '6666'])
      assert.deepEqual(found(text), [], text);
  });

  it('finds English names as whole words, in any case', () => {
    assert.deepEqual(found('Apply Carbofuran at sowing.'), ['Carbofuran']);
    assert.deepEqual(found('Apply CARBOFURAN at sowing.'), ['CARBOFURAN']);
    assert.deepEqual(found('Apply carbofurans at sowing.'), []);
    assert.deepEqual(found('Apply xcarbofuran.'), []);
  });
});
