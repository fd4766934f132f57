/** A prohibition is not a recommendation (src/safety/reading.ts and its words, cues.ts), through the lint. */
import assert from 'node:assert/strict';
import { lintSafety, shippedRules } from '../../../src/safety/index';

const rules = shippedRules();
const found = (text: string): string[] => lintSafety(text, rules, { today: '2026-12-02' }).map((f) => f.mention);

describe('safety lint: prohibitions and recommendations', () => {
  it('does not flag a sentence that forbids banned pesticides', () => {
    for (const text of [
      '严禁在茶园使用克百威、氧乐果等高毒农药。',
      '蔬菜上不得使用甲拌磷、克百威。',
      '禁止使用克百威（呋喃丹）防治地下害虫。',
      '请勿使用氧乐果。',
      '切勿将涕灭威用于蔬菜。',
      '克百威、氧乐果等高毒农药禁止在蔬菜上使用。',
      '克百威已被禁用，请改用其他药剂。',
      '禁用农药：克百威、甲拌磷、灭线磷。',
      '以辛硫磷替代克百威防治蛴螬。',
      '| 禁用农药 | 克百威、氧乐果 |',
      'Do not use carbofuran on vegetables.',
      'Never apply omethoate to tea.',
      'Carbofuran is banned from 1 June 2026.',
      'Use phoxim instead of carbofuran.',
      'Avoid methomyl on cabbage.',
    ])
      assert.deepEqual(found(text), [], text);
  });

  it('flags a sentence that recommends one, also beside a prohibition in another clause', () => {
    const cases: Array<[string, string[]]> = [
      ['防治蛴螬、地老虎，可每亩撒施 3% 克百威颗粒剂 2 千克。', ['克百威']],
      ['地下害虫严重时，用呋喃丹拌种效果好。', ['呋喃丹']],
      ['不要等到虫口密度高了再防治，发现蚜虫即喷氧乐果。', ['氧乐果']],
      ['严禁使用甲胺磷，可改用克百威。', ['克百威']],
      ['用克百威替代甲胺磷。', ['克百威']],
      ['克百威可替代已禁用的甲胺磷。', ['克百威']],
      ['| 蛴螬 | 克百威颗粒剂 | 2 千克/亩 |', ['克百威']],
      ['Apply carbofuran granules at sowing, and do not use phorate.', ['carbofuran']],
      ['Use carbofuran instead of phorate.', ['carbofuran']],
    ];
    for (const [text, expected] of cases) assert.deepEqual(found(text), expected, text);
  });

  it('reads each clause on its own: a prohibition after the next comma is not about this mention', () => {
    assert.deepEqual(found('可用克百威，严禁使用甲胺磷。'), ['克百威']);
    assert.deepEqual(found('Apply carbofuran, and never phorate.'), ['carbofuran']);
  });

  it('does not cut a clause at a decimal point, and reads prohibitions in any case', () => {
    assert.deepEqual(found('Avoid 0.5% carbofuran granules.'), []);
    assert.deepEqual(found('DO NOT USE CARBOFURAN.'), []);
  });

  it('a word of use between the mention and a later prohibition makes the mention the advice', () => {
    assert.deepEqual(found('Carbofuran we recommend is banned elsewhere.'), ['Carbofuran']);
    assert.deepEqual(found('Carbofuran recommended by some is banned elsewhere.'), ['Carbofuran']);
    assert.deepEqual(found('Carbofuran is banned.'), []);
  });
});
