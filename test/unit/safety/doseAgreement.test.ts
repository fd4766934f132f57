/**
 * The comparison rules of the dose check (doseAgreement.ts), each on a sentence and a passage read
 * by the dose reader: how far a value may stand from the passage's, which of the passage's doses a
 * sentence is compared with, how product and active ingredient meet, what is not compared, and the
 * passage's value said in the sentence's units. The notation is the project's dose reference
 * (dose-notation.md), quoted where a test pins one of its rules.
 */
import assert from 'node:assert/strict';
import { readDoses, targetPattern, type DoseReading } from '../../../src/safety/dose';
import {
  arithmeticErrors,
  clauseOf,
  disagreements,
  numberText,
  type Disagreement,
} from '../../../src/safety/doseAgreement';
import { dictionaryOf } from '../../../src/safety/lint';
import { shippedRules } from '../../../src/safety/ruleSet';

const rules = shippedRules();
const dictionary = dictionaryOf(rules);
const targets = targetPattern(rules);
const read = (text: string): DoseReading => readDoses(text, dictionary, targets);

/** The disagreements of a sentence (all its facts and products) with the passages it cites. */
function compare(sentence: string, ...passages: string[]): Disagreement[] {
  const reading = read(sentence);
  return disagreements(
    sentence,
    reading,
    reading.facts,
    reading.products.map((_, i) => i),
    passages.map((text) => ({ text, reading: read(text) })),
  );
}

/** Each disagreement as its code, kind and (a mismatch) the passage's value as the message shows it. */
const said = (sentence: string, ...passages: string[]): string[] =>
  compare(sentence, ...passages).map((d) =>
    d.code === 'dose-mismatch' ? `${d.kind} ${d.passage.shown}` : `${d.kind} unsupported${d.named ? '' : ' unnamed'}`,
  );

const RICE =
  '防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升，兑水30公斤喷雾；防治二化螟，每亩用20%氯虫苯甲酰胺悬浮剂5-10毫升。安全间隔期7天，每季最多使用2次。';
const PRODUCT = '每亩用20%氯虫苯甲酰胺悬浮剂';

describe('dose agreement: how far a value may stand from the passage', () => {
  it('a rate agrees inside the range and up to 0.5 % beyond either end (rounding), and not 1 % beyond', () => {
    for (const v of ['10', '15', '9.96', '15.05', '12', '9.95', '15.075'])
      assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}${v}毫升`, RICE), [], v);
    for (const v of ['9.9', '15.1'])
      assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}${v}毫升`, RICE), ['rate 10-15毫升'], v);
  });

  it('a range agrees only when all of it is within the passage range', () => {
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}10-15毫升`, RICE), []);
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}8-12毫升`, RICE), ['rate 10-15毫升']);
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}12-20毫升`, RICE), ['rate 10-15毫升']);
  });

  it('a 安全间隔期 no shorter than the passage’s (0.5 % for rounding), uses per season no more', () => {
    // "安全间隔期 N 天 … and 每季最多使用 N 次 … come from the product label and GB/T 8321; a bulletin must not exceed them."
    for (const s of ['安全间隔期7天', '安全间隔期10天', '安全间隔期6.965天', '每季最多使用2次', '每季最多使用1次'])
      assert.deepEqual(said(`氯虫苯甲酰胺${s}`, RICE), [], s);
    assert.deepEqual(said('氯虫苯甲酰胺安全间隔期6.9天', RICE), ['phi 7天']);
    assert.deepEqual(said('氯虫苯甲酰胺每季最多使用3次', RICE), ['maxUses 2次']);
  });

  it('water and the interval between sprays must be within the passage’s', () => {
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}12毫升，兑水30公斤`, RICE), []);
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}12毫升，兑水40公斤`, RICE), ['water 30公斤']);
    const aphids = '0.5%苦参碱水剂1000倍液喷雾，隔7天再喷1次。';
    assert.deepEqual(said('用0.5%苦参碱水剂1000倍液喷雾，隔7天再喷1次', aphids), []);
    assert.deepEqual(said('用0.5%苦参碱水剂1000倍液喷雾，隔10天再喷1次', aphids), ['interval 7天']);
  });
});

describe('dose agreement: which of the passage’s doses a sentence is compared with', () => {
  it('the dose the passage gives the pest the sentence names, however long its name (稻纵卷叶螟 or 纵卷叶螟)', () => {
    assert.deepEqual(said(`防治二化螟，${PRODUCT}8毫升`, RICE), []);
    assert.deepEqual(said(`防治二化螟，${PRODUCT}12毫升`, RICE), ['rate 5-10毫升']);
    assert.deepEqual(said(`防治纵卷叶螟，${PRODUCT}8毫升`, RICE), ['rate 10-15毫升']);
    const shortName =
      '防治纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升；防治二化螟，每亩用20%氯虫苯甲酰胺悬浮剂5-8毫升。';
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}12毫升`, shortName), []);
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}6毫升`, shortName), ['rate 10-15毫升']);
  });

  it('where the sentence or the passage names several pests, where one of them meets', () => {
    const several =
      '防治稻纵卷叶螟、稻飞虱，每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升；防治二化螟，每亩用20%氯虫苯甲酰胺悬浮剂5-10毫升。';
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}8毫升`, several), ['rate 10-15毫升']);
    assert.deepEqual(said(`防治稻纵卷叶螟和稻飞虱，${PRODUCT}8毫升`, RICE), ['rate 10-15毫升']);
  });

  it('where the passage gives doses that cannot be compared beside one that disagrees, it disagrees', () => {
    const seedAndMu = '每100千克种子用20%氯虫苯甲酰胺悬浮剂200-300毫升拌种；每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升。';
    assert.deepEqual(said(`${PRODUCT}20毫升`, seedAndMu), ['rate 10-15毫升']);
  });

  it('any of them where the sentence names no pest, or one the passage does not dose', () => {
    // "where it cannot be told, agreeing with any agrees"
    assert.deepEqual(said(`${PRODUCT}6毫升`, RICE), []);
    assert.deepEqual(said(`${PRODUCT}12毫升`, RICE), []);
    assert.deepEqual(said(`防治稻飞虱，${PRODUCT}6毫升`, RICE), []);
    assert.deepEqual(said(`${PRODUCT}16毫升`, RICE), ['rate 10-15毫升']);
  });

  it('only the doses of the sentence’s ingredient, though water and timing are shared by their sentence', () => {
    const two = '每亩用40%丙溴磷乳油80-100毫升，或20%氯虫苯甲酰胺悬浮剂10-15毫升，兑水30公斤喷雾。';
    assert.deepEqual(said(`${PRODUCT}90毫升`, two), ['rate 10-15毫升']);
    assert.deepEqual(said('每亩用40%丙溴磷乳油12毫升', two), ['rate 80-100毫升']);
    // `A或B，兑水30公斤`: the water of the sentence is 丙溴磷's as well.
    assert.deepEqual(said('每亩用40%丙溴磷乳油90毫升，兑水30公斤', two), []);
    assert.deepEqual(said('每亩用40%丙溴磷乳油90毫升，兑水40公斤', two), ['water 30公斤']);
  });

  it('a 安全间隔期 or uses per season given in a sentence naming several products is each one’s, not another sentence’s', () => {
    const shared = '每亩用40%丙溴磷乳油80-100毫升，或20%氯虫苯甲酰胺悬浮剂10-15毫升，安全间隔期14天，每季最多使用2次。';
    assert.deepEqual(said('40%丙溴磷乳油安全间隔期14天，每季最多使用2次', shared), []);
    assert.deepEqual(said('40%丙溴磷乳油安全间隔期10天，每季最多使用3次', shared), ['phi 14天', 'maxUses 2次']);
    const apart = '每亩用40%丙溴磷乳油80-100毫升。每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升，安全间隔期14天。';
    assert.deepEqual(said('40%丙溴磷乳油安全间隔期10天', apart), ['phi unsupported']);
    // A sentence of the passage that names no product speaks of every product before it.
    const after = '每亩用40%丙溴磷乳油80-100毫升。安全间隔期14天。';
    assert.deepEqual(said('40%丙溴磷乳油安全间隔期10天', after), ['phi 14天']);
  });

  it('a water or a dilution is the product’s it belongs to: another product’s does not spell this one’s dilution', () => {
    // 丙溴磷's 100 mL in 30 kg is 300×; 氯虫苯甲酰胺 is given a rate and no water, which a 倍液 is not compared with.
    const other = '每亩用40%丙溴磷乳油100毫升，兑水30公斤。每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升。';
    assert.deepEqual(said('用20%氯虫苯甲酰胺悬浮剂3000倍液', other), []);
    const besideOther = '每亩用20%氯虫苯甲酰胺悬浮剂10毫升，40%丙溴磷乳油100毫升兑水30公斤。';
    assert.deepEqual(said('用20%氯虫苯甲酰胺悬浮剂1000倍液', besideOther), []);
  });

  it('a rate and water spell a dilution only within one sentence, whichever comes first', () => {
    assert.deepEqual(
      said('用20%氯虫苯甲酰胺悬浮剂1000倍液', '20%氯虫苯甲酰胺悬浮剂兑水30公斤喷雾。每亩10-15毫升。'),
      [],
    );
    assert.deepEqual(said('用20%氯虫苯甲酰胺悬浮剂1000倍液', `${PRODUCT}10-15毫升。兑水30公斤。`), []);
    assert.deepEqual(said('用20%氯虫苯甲酰胺悬浮剂1000倍液', `兑水30公斤，${PRODUCT}10-15毫升。`), [
      'dilution 2000-3000倍液',
    ]);
  });

  it('a dilution of no named product is compared with any the passage spells out', () => {
    assert.deepEqual(said('用药1000倍液', `${PRODUCT}10-15毫升，兑水30公斤。`), ['dilution 2000-3000倍液']);
  });

  it('a water given after the sentence that names its product is compared with any product’s', () => {
    const passage = '每亩用40%丙溴磷乳油80-100毫升，兑水40公斤；每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升，兑水30公斤。';
    assert.deepEqual(said(`${PRODUCT}12毫升。兑水40公斤`, passage), []);
    assert.deepEqual(said(`${PRODUCT}12毫升，兑水40公斤`, passage), ['water 30公斤']);
  });

  it('water or timing in a sentence that names no product is compared with any product’s', () => {
    const passage = '每亩用0.5%苦参碱水剂30毫升，兑水30公斤，隔7天再喷1次。';
    assert.deepEqual(said('兑水30公斤，隔7天再喷1次', passage), []);
    assert.deepEqual(said('兑水40公斤，隔10天再喷1次', passage), ['water 30公斤', 'interval 7天']);
    assert.deepEqual(
      compare('兑水40公斤', passage).map((d) => d.ingredient),
      [''],
    );
  });
});

describe('dose agreement: product and active ingredient', () => {
  it('converts product to active ingredient by a concentration in % or in g/L', () => {
    // "a dose counts the product unless it says 有效成分 … the same number means very different amounts"
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}有效成分2-3克`, RICE), []);
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}有效成分4克`, RICE), ['rate 2-3克']);
    const perLitre = '每亩用200克/升氯虫苯甲酰胺悬浮剂10-15毫升。';
    assert.deepEqual(said('每亩用200克/升氯虫苯甲酰胺悬浮剂有效成分2-3克', perLitre), []);
    assert.deepEqual(said('每亩用200克/升氯虫苯甲酰胺悬浮剂有效成分4克', perLitre), ['rate 2-3克']);
  });

  it('converts a passage’s active ingredient to the sentence’s product by the sentence’s concentration', () => {
    const ai = '每亩用氯虫苯甲酰胺有效成分2-3克。';
    assert.deepEqual(said(`${PRODUCT}12毫升`, ai), []);
    assert.deepEqual(said(`${PRODUCT}20毫升`, ai), ['rate 10-15毫升']);
    assert.deepEqual(said('每亩用200克/升氯虫苯甲酰胺悬浮剂20毫升', ai), ['rate 10-15毫升']);
  });

  it('where no concentration converts them, disagrees, and offers the passage’s own value, not in place of the sentence’s', () => {
    const [d] = compare(`${PRODUCT}有效成分4克`, '每亩用氯虫苯甲酰胺悬浮剂10-15毫升。');
    assert.ok(d?.code === 'dose-mismatch');
    assert.deepEqual([d.passage.value, d.passage.shown, d.passage.replace], ['10-15', '10-15毫升', undefined]);
    const [e] = compare('每亩用氯虫苯甲酰胺悬浮剂10毫升', '每亩用氯虫苯甲酰胺有效成分2-3克。');
    assert.ok(e?.code === 'dose-mismatch');
    assert.deepEqual([e.passage.value, e.passage.shown, e.passage.replace], ['2-3', '2-3克', undefined]);
  });

  it('converts the passage’s product by the passage’s own concentration, or by the sentence’s where the passage names none', () => {
    assert.deepEqual(said(`${PRODUCT}有效成分2克`, '每亩用10%氯虫苯甲酰胺悬浮剂10-15毫升。'), [
      'product 10%',
      'rate 1-1.5克',
    ]);
    const named = '20%氯虫苯甲酰胺悬浮剂安全间隔期7天。';
    assert.deepEqual(said(`${PRODUCT}有效成分2-3克`, named, '每亩用药10-15毫升。'), []);
    assert.deepEqual(said(`${PRODUCT}有效成分4克`, named, '每亩用药10-15毫升。'), ['rate 2-3克']);
  });

  it('a product rate of no named product against active ingredient disagrees (nothing converts it)', () => {
    assert.deepEqual(said('每亩用药10毫升', '每亩用氯虫苯甲酰胺有效成分2-3克。'), ['rate 2-3克']);
    const ingredients = (sentence: string, passage: string) => compare(sentence, passage).map((d) => d.ingredient);
    assert.deepEqual(ingredients('每亩用药10毫升', '每亩用氯虫苯甲酰胺有效成分2-3克。'), ['']);
    assert.deepEqual(ingredients(`${PRODUCT}有效成分4克`, '每亩用氯虫苯甲酰胺悬浮剂10-15毫升。'), ['氯虫苯甲酰胺']);
  });

  it('compares mL with g as one measure, and the same count with the same count unconverted', () => {
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}12克`, RICE), []);
    assert.deepEqual(said('每亩用氯虫苯甲酰胺有效成分2.5克', '每亩用氯虫苯甲酰胺有效成分2-3克。'), []);
  });

  it('does not compare per 亩 with per 100 kg of seed', () => {
    assert.deepEqual(said('每100千克种子用20%氯虫苯甲酰胺悬浮剂500毫升拌种', RICE), []);
  });
});

describe('dose agreement: what the passage gives nothing of', () => {
  it('an ingredient the passage does not name: the product, and none of its facts', () => {
    assert.deepEqual(said('每亩用70%吡虫啉水分散粒剂4克，安全间隔期3天', RICE), ['product unsupported unnamed']);
  });

  it('a kind the passage gives nothing of for a named ingredient', () => {
    assert.deepEqual(said('用0.5%苦参碱水剂1000倍液喷雾，安全间隔期10天', '0.5%苦参碱水剂1000倍液喷雾。'), [
      'phi unsupported',
    ]);
  });

  it('says nothing of a 倍液 against a rate with no water, nor of a rate against a 倍液', () => {
    // "Facts of different kinds are not compared (a 倍液 against a per-亩 rate with no water says nothing)."
    assert.deepEqual(said('用20%氯虫苯甲酰胺悬浮剂3000倍液喷雾', `${PRODUCT}10-15毫升。`), []);
    assert.deepEqual(said(`${PRODUCT}10毫升`, '20%氯虫苯甲酰胺悬浮剂3000倍液喷雾。'), []);
  });

  it('says so of a rate or a 安全间隔期 where the passage gives the ingredient only other kinds', () => {
    const phiOnly = '20%氯虫苯甲酰胺悬浮剂安全间隔期7天。';
    assert.deepEqual(said(`${PRODUCT}12毫升`, phiOnly), ['rate unsupported']);
    assert.deepEqual(said('20%氯虫苯甲酰胺悬浮剂安全间隔期7天', `${PRODUCT}10-15毫升。`), ['phi unsupported']);
  });

  it('says nothing of a dose of no named product that the passage has nothing to compare with', () => {
    assert.deepEqual(said('每亩用药10毫升', '安全间隔期7天。'), []);
  });

  it('says nothing of water the passage does not give, nor of a rate per no area', () => {
    assert.deepEqual(said(`${PRODUCT}12毫升，兑水30公斤`, `${PRODUCT}10-15毫升。`), []);
    assert.deepEqual(said('用20%氯虫苯甲酰胺悬浮剂20毫升兑水16千克', `${PRODUCT}10-15毫升。`), []);
    assert.deepEqual(said('用20%氯虫苯甲酰胺悬浮剂20毫升兑水16千克', '20%氯虫苯甲酰胺悬浮剂安全间隔期7天。'), []);
  });
});

describe('dose agreement: dilutions', () => {
  it('a 倍液 within the passage’s range of 倍液 (0.5 % for rounding)', () => {
    const passage = '0.5%苦参碱水剂800~1000倍液喷雾。';
    for (const v of ['800', '1000', '900', '1004']) assert.deepEqual(said(`用0.5%苦参碱水剂${v}倍液`, passage), [], v);
    assert.deepEqual(said('用0.5%苦参碱水剂1200倍液', passage), ['dilution 800-1000倍液']);
  });

  it('a 倍液 within 10 % of the one a passage’s rate and water spell out, said rounded to tens', () => {
    // "product : water = 1 : 1000 by weight (1 mL in 1 kg of water)": 30 mL in 30 kg is 1000×.
    const passage = '每亩用0.5%苦参碱水剂30毫升，兑水30公斤。';
    for (const v of ['1000', '1080', '920']) assert.deepEqual(said(`用0.5%苦参碱水剂${v}倍液`, passage), [], v);
    assert.deepEqual(said('用0.5%苦参碱水剂1200倍液', passage), ['dilution 1000倍液']);
    // 30 kg / 7 mL is 4,285.7×
    assert.deepEqual(said('用20%氯虫苯甲酰胺悬浮剂5000倍液', `${PRODUCT}7毫升，兑水30公斤。`), ['dilution 4290倍液']);
  });
});

describe('dose agreement: the passage’s value in the sentence’s units', () => {
  it('per 公顷 when the sentence writes per 公顷 ("225毫升/公顷 = 15 毫升/亩")', () => {
    const [d] = compare(`防治稻纵卷叶螟，每公顷用20%氯虫苯甲酰胺悬浮剂300毫升`, RICE);
    assert.equal(d?.code === 'dose-mismatch' && d.passage.value, '150-225');
    assert.deepEqual(said('防治稻纵卷叶螟，每公顷用20%氯虫苯甲酰胺悬浮剂300毫升，兑水600公斤', RICE), [
      'rate 150-225毫升',
      'water 450公斤',
    ]);
  });

  it('in litres when the sentence writes litres, with the sentence’s own range separator', () => {
    assert.deepEqual(said('防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂0.1升', RICE), ['rate 0.01-0.015升']);
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}16~20毫升`, RICE), ['rate 10~15毫升']);
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}16至20毫升`, RICE), ['rate 10至15毫升']);
    assert.deepEqual(said(`防治稻纵卷叶螟，${PRODUCT}16 - 20毫升`, RICE), ['rate 10 - 15毫升']);
    // the value's own separator, not another of its sentence's
    assert.deepEqual(
      said(
        `防治稻纵卷叶螟，${PRODUCT}16毫升，隔7~10天再喷`,
        '防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升，隔7-10天再喷。',
      ),
      ['rate 10-15毫升'],
    );
  });

  it('replaces the sentence’s number, names the ingredient, and quotes the passage’s clause', () => {
    const sentence = `防治稻纵卷叶螟，${PRODUCT}16毫升`;
    const [d] = compare(sentence, RICE);
    assert.ok(d?.code === 'dose-mismatch');
    assert.equal(d.ingredient, '氯虫苯甲酰胺');
    assert.equal(sentence.slice(d.passage.replace!.start, d.passage.replace!.end), '16');
    assert.equal(d.passage.quote, '防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升，兑水30公斤喷雾；');
  });
});

describe('dose agreement: the product', () => {
  it('a concentration the passage gives in the same unit, its value put in place of the sentence’s', () => {
    const passage = '每亩用10%氯虫苯甲酰胺悬浮剂20-30毫升，或20%氯虫苯甲酰胺悬浮剂10-15毫升。';
    assert.deepEqual(said(`${PRODUCT}12毫升`, passage), []);
    // another ingredient's concentration is not this one's
    assert.deepEqual(said(`${PRODUCT}12毫升`, '每亩用40%丙溴磷乳油80-100毫升，或氯虫苯甲酰胺悬浮剂10-15毫升。'), []);
    const sentence = '每亩用5%氯虫苯甲酰胺悬浮剂12毫升';
    const [d] = compare(sentence, passage);
    assert.ok(d?.code === 'dose-mismatch' && d.kind === 'product');
    assert.deepEqual([d.passage.value, d.passage.shown], ['10', '10%']);
    assert.equal(sentence.slice(d.passage.replace!.start, d.passage.replace!.end), '5');
    assert.equal(d.passage.quote, passage);
    for (const [written, number] of [
      ['0.25', '0.25'],
      ['15', '15'],
    ]) {
      const text = `用${written}%苦参碱水剂1000倍液`;
      const [e] = compare(text, '0.5%苦参碱水剂1000倍液喷雾。');
      assert.ok(e?.code === 'dose-mismatch');
      assert.deepEqual(
        [e.passage.shown, text.slice(e.passage.replace!.start, e.passage.replace!.end)],
        ['0.5%', number],
      );
    }
    // 200克/升 is not compared with 20%
    assert.deepEqual(said('每亩用200克/升氯虫苯甲酰胺悬浮剂12毫升', RICE), []);
    assert.deepEqual(said('每亩用100克/升氯虫苯甲酰胺悬浮剂12毫升', '每亩用200克/升氯虫苯甲酰胺悬浮剂10-15毫升。'), [
      'product 200克/升',
    ]);
  });

  it('a formulation the passage gives, any of those it gives agreeing', () => {
    assert.deepEqual(
      said('每亩用20%氯虫苯甲酰胺乳油12毫升', `${PRODUCT}10-15毫升，或20%氯虫苯甲酰胺乳油10-15毫升。`),
      [],
    );
    assert.deepEqual(said('每亩用20%氯虫苯甲酰胺乳油12毫升', RICE), ['product 悬浮剂']);
    assert.deepEqual(said('每亩用20%氯虫苯甲酰胺乳油12毫升', '每亩用20%氯虫苯甲酰胺10-15毫升。'), []);
  });
});

describe('dose agreement: a sentence’s own arithmetic', () => {
  const spelled = (text: string): number[] => arithmeticErrors(read(text).facts).map((a) => a.spelled.min);

  it('a dilution agrees with the rate and water beside it within 10 % (the reference’s 1,125×)', () => {
    // "`1500倍液（即20毫升兑水22.5千克）` is 1,125×, an error real notices do contain."
    assert.deepEqual(spelled('用0.5%苦参碱水剂1500倍液（即20毫升兑水22.5千克）'), [1125]);
    assert.deepEqual(spelled('用0.5%苦参碱水剂800倍液（即20毫升兑水16千克）'), []);
    assert.deepEqual(spelled('用0.5%苦参碱水剂1000倍液（即20毫升兑水22千克）'), []);
    assert.deepEqual(spelled('用0.5%苦参碱水剂1000倍液（即20毫升兑水18.5千克）'), []);
    // 10 % each way, the bounds included: 900× and 1,100×
    assert.deepEqual(spelled('用0.5%苦参碱水剂1000倍液（即20毫升兑水18千克）'), []);
    assert.deepEqual(spelled('用0.5%苦参碱水剂1000倍液（即20毫升兑水17.9千克）'), [895]);
  });

  it('a range of dilution agrees when any of it is within 10 %', () => {
    assert.deepEqual(spelled('用0.5%苦参碱水剂800-1000倍液（即20毫升兑水21千克）'), []);
    assert.deepEqual(spelled('用0.5%苦参碱水剂800-1000倍液（即20毫升兑水25千克）'), [1250]);
  });

  it('the rate and water of another product spell nothing of a dilution', () => {
    assert.deepEqual(spelled('用0.5%苦参碱水剂1000倍液兑水30公斤，或每亩用20%氯虫苯甲酰胺悬浮剂10毫升'), []);
    assert.deepEqual(spelled('用0.5%苦参碱水剂20毫升，1000倍液，或20%氯虫苯甲酰胺悬浮剂兑水30公斤'), []);
  });

  it('a rate of active ingredient, or per 100 kg of seed, spells out no dilution', () => {
    assert.deepEqual(spelled('用0.5%苦参碱水剂有效成分20毫升，兑水50千克，1000倍液'), []);
    assert.deepEqual(spelled('每100千克种子用0.5%苦参碱水剂20毫升，兑水50千克，1000倍液'), []);
    assert.deepEqual(spelled('用0.5%苦参碱水剂20毫升，兑水50千克，1000倍液'), [2500]);
  });
});

describe('dose agreement: the words it quotes', () => {
  it('a clause runs between 。；;！？ or a line break', () => {
    const text = '甲。防治稻纵卷叶螟，每亩用10毫升；乙';
    const at = text.indexOf('10');
    assert.equal(clauseOf(text, at, at + 4), '防治稻纵卷叶螟，每亩用10毫升；');
    assert.equal(clauseOf('一\n 每亩10毫升 \n二', 3, 9), '每亩10毫升');
    assert.equal(clauseOf('每亩10毫升', 2, 6), '每亩10毫升');
    assert.equal(clauseOf('一！每亩10毫升？二', 4, 8), '每亩10毫升？');
  });

  it('a number is written with at most three decimals and no trailing zeros', () => {
    assert.equal(numberText(4285.714), '4285.714');
    assert.equal(numberText(0.0155), '0.016');
    assert.equal(numberText(15), '15');
  });
});
