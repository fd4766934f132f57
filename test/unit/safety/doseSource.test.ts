/**
 * The sources offered for a dose recommended without one: a passage is a source when it gives a
 * dose (a rate or a dilution) of an ingredient the sentence names; it is marked agreeing when the
 * dose check would find nothing once it is cited. The words: "a quick action that searches
 * the knowledge base for the sentence and offers passages that give that ingredient's dose".
 */
import assert from 'node:assert/strict';
import { doseSources } from '../../../src/safety/doseSource';
import { shippedRules } from '../../../src/safety/ruleSet';

const RULES = shippedRules();
const SENTENCE = '每亩用20%氯虫苯甲酰胺悬浮剂10毫升，兑水30公斤喷雾，防治稻纵卷叶螟。';

const sources = (sentence: string, ...passages: string[]) => doseSources(sentence, passages, RULES).sources;

describe('dose sources: the passages that give a recommended ingredient its dose', () => {
  it('offers a passage giving a rate of the ingredient, with its clause, agreeing when the dose is within its range', () => {
    const [s] = sources(
      SENTENCE,
      '稻纵卷叶螟卵孵高峰期施药。防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升，兑水30公斤喷雾；其他时期不宜。',
    );
    assert.deepEqual(s, {
      ingredients: ['氯虫苯甲酰胺'],
      quote: '防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升，兑水30公斤喷雾；',
      agrees: true,
    });
  });

  it('offers a passage whose dose differs, marked as not agreeing', () => {
    const [s] = sources(SENTENCE, '防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂5-8毫升，兑水30公斤喷雾。');
    assert.equal(s?.agrees, false);
    assert.deepEqual(s?.ingredients, ['氯虫苯甲酰胺']);
  });

  it('offers a passage giving a dilution of the ingredient (a dose too)', () => {
    const [s] = sources('用0.5%苦参碱水剂1000倍液喷雾防治蚜虫。', '0.5%苦参碱水剂800-1000倍液喷雾，隔7天再喷1次。');
    assert.equal(s?.agrees, true);
    assert.deepEqual(s?.ingredients, ['苦参碱']);
  });

  it('offers nothing for a passage naming the ingredient without a dose, or giving another ingredient its dose', () => {
    assert.deepEqual(
      sources(
        SENTENCE,
        '氯虫苯甲酰胺对稻纵卷叶螟高效，注意轮换用药。',
        '防治稻纵卷叶螟，每亩用40%丙溴磷乳油80-100毫升喷雾。',
        '安全间隔期7天，每季最多使用2次。',
      ),
      [undefined, undefined, undefined],
    );
  });

  it('offers nothing for a passage giving the ingredient only timing or water, which are no dose', () => {
    assert.deepEqual(
      sources(
        SENTENCE,
        '20%氯虫苯甲酰胺悬浮剂安全间隔期7天，每季最多使用2次。',
        '20%氯虫苯甲酰胺悬浮剂兑水30公斤，隔7天再喷1次。',
      ),
      [undefined, undefined],
    );
  });

  it('offers nothing when the sentence names no ingredient the dictionary knows', () => {
    assert.deepEqual(doseSources('每亩用药10毫升，兑水30公斤。', ['每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升。'], RULES), {
      ingredients: [],
      sources: [undefined],
    });
  });

  it("names the sentence's ingredients once each, in order, whatever the passages give", () => {
    const both = '每亩用20%氯虫苯甲酰胺悬浮剂10毫升加40%丙溴磷乳油80毫升，兑水30公斤；氯虫苯甲酰胺每季最多使用2次。';
    assert.deepEqual(doseSources(both, [], RULES), { ingredients: ['氯虫苯甲酰胺', '丙溴磷'], sources: [] });
  });

  it('gives each passage its own answer, in order, and names every ingredient of a mixture sentence it doses', () => {
    const both = '每亩用20%氯虫苯甲酰胺悬浮剂10毫升加40%丙溴磷乳油80毫升喷雾。';
    const out = sources(
      both,
      '每亩用40%丙溴磷乳油80-100毫升喷雾。',
      '每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升；或40%丙溴磷乳油60-80毫升。',
    );
    assert.deepEqual(out[0]?.ingredients, ['丙溴磷']);
    assert.deepEqual(out[1]?.ingredients, ['氯虫苯甲酰胺', '丙溴磷']);
    assert.equal(out[1]?.agrees, true);
    // The first passage does not name 氯虫苯甲酰胺, so the sentence's dose of it is unsupported there.
    assert.equal(out[0]?.agrees, false);
  });

  it('a rate counted in active ingredient is a dose of that ingredient as well', () => {
    const [s] = sources(
      '每亩用43%戊唑醇悬浮剂20毫升喷雾防治赤霉病。',
      '防治赤霉病，戊唑醇有效成分用量每亩8-10克，兑水15公斤喷雾。',
    );
    assert.deepEqual(s?.ingredients, ['戊唑醇']);
  });
});
