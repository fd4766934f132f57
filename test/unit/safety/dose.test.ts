/**
 * The dose reader: the notation of the project's dose reference (its examples quoted below) read into facts in normalised units, and a property: a dose written any documented way
 * reads back to the same fact.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readDoses, targetPattern, type DoseFact, type DoseReading } from '../../../src/safety/dose';
import { readTableRow } from '../../../src/safety/doseTable';
import { dictionaryOf } from '../../../src/safety/lint';
import { shippedRules } from '../../../src/safety/ruleSet';
import { runs } from '../fast-check-seed';

const rules = shippedRules();
const dictionary = dictionaryOf(rules);
const targets = targetPattern(rules);
const read = (text: string): DoseReading => readDoses(text, dictionary, targets);

function only(text: string, kind: DoseFact['kind']): DoseFact {
  const facts = read(text).facts.filter((f) => f.kind === kind);
  assert.equal(facts.length, 1, `${text}: ${JSON.stringify(read(text).facts)}`);
  return facts[0]!;
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

describe('dose reader: products', () => {
  it('reads the products of the reference: concentration, ingredient, formulation', () => {
    const cases: Array<[string, string, number, string | undefined]> = [
      ['20%氯虫苯甲酰胺悬浮剂', '氯虫苯甲酰胺', 20, '悬浮剂'],
      ['40%丙溴磷乳油', '丙溴磷', 40, '乳油'],
      ['70%吡虫啉水分散粒剂', '吡虫啉', 70, '水分散粒剂'],
      ['25%吡蚜酮可湿性粉剂', '吡蚜酮', 25, '可湿性粉剂'],
      ['0.5%苦参碱水剂', '苦参碱', 0.5, '水剂'],
      ['5%藜芦碱可溶液剂', '藜芦碱', 5, '可溶液剂'],
      ['15%茚虫威EC', '茚虫威', 15, '乳油'],
      ['25%氟环唑 SC', '氟环唑', 25, '悬浮剂'],
      ['48%氰烯·戊唑醇悬浮剂', '氰烯菌酯·戊唑醇', 48, '悬浮剂'],
      ['3%阿维·氟铃脲', '阿维菌素·氟铃脲', 3, undefined],
      ['20％氯虫苯甲酰胺悬浮剂', '氯虫苯甲酰胺', 20, '悬浮剂'],
    ];
    for (const [text, ingredient, concentration, formulation] of cases) {
      const [p, ...rest] = read(`用${text}喷雾`).products;
      assert.equal(rest.length, 0, text);
      assert.equal(p?.ingredient, ingredient, text);
      assert.equal(p?.concentration?.value, concentration, text);
      assert.equal(p?.formulation, formulation, text);
    }
  });

  it('reads 200克/升 and 200g/L as grams per litre', () => {
    for (const text of ['200克/升丙环唑乳油', '200g/L丙环唑乳油']) {
      const p = read(`用${text}`).products[0]!;
      assert.deepEqual([p.ingredient, p.concentration?.value, p.concentration?.unit], ['丙环唑', 200, 'g/L']);
    }
  });

  it('does not read a percentage before other words as a product', () => {
    assert.deepEqual(
      read('病株率达20%以上的田块用70%吡虫啉水分散粒剂4克/亩').products.map((p) => p.ingredient),
      ['吡虫啉'],
    );
  });
});

describe('dose reader: doses, dilution, water, timing', () => {
  it('converts the reference examples: 225毫升/公顷 is 15 毫升/亩, 150-225 mL/hm² is 10-15 mL/亩', () => {
    const a = only('225毫升/公顷', 'rate');
    assert.ok(close(a.value.min, 15) && close(a.value.max, 15));
    const b = only('150-225 mL/hm²', 'rate');
    assert.ok(close(b.value.min, 10) && close(b.value.max, 15));
  });

  it('reads the basis before or after: 亩用, 每亩, /亩, 每667平方米, /667m2, 666.7平方米', () => {
    for (const t of [
      '亩用50毫升',
      '每亩50毫升',
      '50毫升/亩',
      '每667平方米用50毫升',
      '50毫升/667m2',
      '每666.7平方米50毫升',
    ]) {
      const f = only(t, 'rate');
      assert.equal(f.kind === 'rate' && f.basis, 'mu', t);
      assert.deepEqual(f.value, { min: 50, max: 50 }, t);
    }
  });

  it('reads 有效成分 and a.i. as active ingredient, a dose without them as product', () => {
    const ai = only('亩用有效成分6-8克', 'rate');
    assert.equal(ai.kind === 'rate' && ai.ai, true);
    const ai2 = only('每亩8 g a.i.', 'rate');
    assert.equal(ai2.kind === 'rate' && ai2.ai, true);
    const product = only('每亩用20%氯虫苯甲酰胺悬浮剂10毫升', 'rate');
    assert.equal(product.kind === 'rate' && product.ai, false);
  });

  it('reads 斤 as half a kilogram, 升 as 1000 mL, 公斤 as 1000 g', () => {
    assert.deepEqual(only('每亩2斤', 'rate').value, { min: 1000, max: 1000 });
    assert.deepEqual(only('每亩0.5升', 'rate').value, { min: 500, max: 500 });
    assert.deepEqual(only('每亩2-3公斤', 'rate').value, { min: 2000, max: 3000 });
  });

  it('reads dilution and water: 1000倍液, 稀释1000倍, 兑水30公斤, 对水30千克, 亩喷液量10升', () => {
    for (const t of ['1000倍液', '1000倍', '稀释1000倍'])
      assert.deepEqual(only(t, 'dilution').value, { min: 1000, max: 1000 });
    for (const t of ['兑水30公斤', '对水30千克', '亩喷液量30升', '兑水60斤'])
      assert.deepEqual(only(t, 'water').value, { min: 30, max: 30 }, t);
  });

  it('reads timing: 隔7天再喷1次, 间隔7-10天, 药后5-7天补治, 15 d后再防治1次, 安全间隔期14天, 每季最多使用2次', () => {
    assert.deepEqual(only('隔7天再喷1次', 'interval').value, { min: 7, max: 7 });
    assert.deepEqual(only('间隔7-10天', 'interval').value, { min: 7, max: 10 });
    assert.deepEqual(only('药后5-7天补治', 'interval').value, { min: 5, max: 7 });
    assert.deepEqual(only('15 d后再防治1次', 'interval').value, { min: 15, max: 15 });
    assert.deepEqual(only('安全间隔期14天', 'phi').value, { min: 14, max: 14 });
    assert.deepEqual(only('每季最多使用2次', 'maxUses').value, { min: 2, max: 2 });
    assert.deepEqual(only('每季最多使用两次', 'maxUses').value, { min: 2, max: 2 });
    assert.equal(read('安全间隔期14天').facts.length, 1, 'a 安全间隔期 is not an interval between sprays');
  });

  it('reads the other ways a dose and its limits are written', () => {
    assert.deepEqual(only('亩用量为10~15mL', 'rate').value, { min: 10, max: 15 });
    assert.deepEqual(only('制剂用量10-15毫升/亩', 'rate').value, { min: 10, max: 15 });
    const ai = only('有效成分用量为每亩6-8克', 'rate');
    assert.equal(ai.kind === 'rate' && ai.ai, true);
    assert.deepEqual(only('450～600克/公顷', 'rate').value, { min: 30, max: 40 });
    assert.deepEqual(only('亩用水量30公斤', 'water').value, { min: 30, max: 30 });
    assert.deepEqual(only('每季使用不超过2次', 'maxUses').value, { min: 2, max: 2 });
    assert.deepEqual(only('用药间隔7～10 d', 'interval').value, { min: 7, max: 10 });
    assert.deepEqual(only('距收获前14天停止用药', 'phi').value, { min: 14, max: 14 });
  });

  it('reads a seed treatment per 100 kg of seed, and the seed’s own weight as no dose', () => {
    for (const t of ['100 mL/100 kg种子', '每100千克种子用30%噻虫嗪种子处理悬浮剂100毫升拌种']) {
      const f = only(t, 'rate');
      assert.equal(f.kind === 'rate' && f.basis, 'seed', t);
      assert.deepEqual(f.value, { min: 100, max: 100 }, t);
    }
  });

  it('gives each dose its product when several are joined by 或, and the sentence its pest', () => {
    const r = read('防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂10毫升或5%甲维盐水分散粒剂15克，兑水30公斤喷雾。');
    const rates = r.facts.filter((f) => f.kind === 'rate');
    assert.deepEqual(
      rates.map((f) => [r.products[f.product!]!.ingredient, f.value.min]),
      [
        ['氯虫苯甲酰胺', 10],
        ['甲氨基阿维菌素苯甲酸盐', 15],
      ],
    );
    assert.deepEqual(rates[0]!.targets, ['稻纵卷叶螟']);
  });

  it('reads a dilution spelled out in brackets as a recipe, not a dose per 亩 (the reference: 1500倍液（即20毫升兑水22.5千克）)', () => {
    const f = only('每亩用0.5%苦参碱水剂1500倍液喷雾（即20毫升兑水22.5千克）', 'rate');
    assert.equal(f.kind === 'rate' && f.basis, 'none');
  });

  it('gives each fact its span and the span of its number', () => {
    const text = '每亩用40%丙溴磷乳油80～100毫升';
    const f = only(text, 'rate');
    assert.equal(text.slice(f.valueStart, f.valueEnd), '80～100');
    assert.equal(text.slice(f.start, f.end), '80～100毫升');
  });

  it('reads a table row under its header, spans in the row as written', () => {
    const header = '| 防治对象 | 药剂 | 亩用量（毫升） | 稀释倍数 | 安全间隔期（天） | 每季最多使用次数 |';
    const row = '| 稻纵卷叶螟 | 20%氯虫苯甲酰胺悬浮剂 | 10-15 | 2000 | 7 | 2 |';
    const r = readTableRow(row, header, dictionary, targets);
    const byKind = Object.fromEntries(r.facts.map((f) => [f.kind, f]));
    assert.deepEqual(byKind.rate?.value, { min: 10, max: 15 });
    assert.equal(row.slice(byKind.rate!.valueStart, byKind.rate!.valueEnd), '10-15');
    assert.deepEqual(byKind.dilution?.value, { min: 2000, max: 2000 });
    assert.deepEqual(byKind.phi?.value, { min: 7, max: 7 });
    assert.deepEqual(byKind.maxUses?.value, { min: 2, max: 2 });
    assert.equal(r.products[byKind.rate!.product!]!.ingredient, '氯虫苯甲酰胺');
    assert.deepEqual(byKind.rate!.targets, ['稻纵卷叶螟']);
  });
});

/** A number as an author writes it. */
function written(n: number): string {
  return String(Math.round(n * 1e6) / 1e6);
}

describe('dose reader: a dose written any documented way reads back the same', () => {
  const SEPARATORS = ['-', '~', '～', '—', '–', '至'];
  const UNITS: Array<{ unit: string; scale: number; measure: 'volume' | 'mass' }> = [
    { unit: '毫升', scale: 1, measure: 'volume' },
    { unit: 'mL', scale: 1, measure: 'volume' },
    { unit: 'ml', scale: 1, measure: 'volume' },
    { unit: '升', scale: 1000, measure: 'volume' },
    { unit: 'L', scale: 1000, measure: 'volume' },
    { unit: '克', scale: 1, measure: 'mass' },
    { unit: 'g', scale: 1, measure: 'mass' },
    { unit: '千克', scale: 1000, measure: 'mass' },
    { unit: '公斤', scale: 1000, measure: 'mass' },
    { unit: 'kg', scale: 1000, measure: 'mass' },
  ];
  /** The basis: written before or after the value, and how many 亩 it counts. */
  const BASES: Array<{ before?: string; after?: string; mu: number }> = [
    { before: '亩用', mu: 1 },
    { before: '每亩用', mu: 1 },
    { before: '每667平方米用', mu: 1 },
    { before: '每666.7平方米', mu: 1 },
    { after: '/亩', mu: 1 },
    { after: '/667m²', mu: 1 },
    { after: '/667m2', mu: 1 },
    { after: '/666.7平方米', mu: 1 },
    { before: '每公顷用', mu: 15 },
    { after: '/hm²', mu: 15 },
    { after: '/hm2', mu: 15 },
    { after: ' hm-2', mu: 15 },
    { after: '/公顷', mu: 15 },
  ];
  const PRODUCTS = ['20%氯虫苯甲酰胺悬浮剂', '20％氯虫苯甲酰胺SC', '20%氯虫苯甲酰胺 SC', '氯虫苯甲酰胺'];

  it('a rate per 亩 or per hectare, of product or active ingredient', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 100 }),
        fc.constantFrom(...SEPARATORS),
        fc.constantFrom(...UNITS),
        fc.constantFrom(...BASES),
        fc.constantFrom(...PRODUCTS),
        fc.boolean(),
        (lo, width, sep, unit, basis, product, ai) => {
          const hi = lo + width;
          const w = (n: number): string => written((n * basis.mu) / unit.scale);
          const value = lo === hi ? w(lo) : `${w(lo)}${sep}${w(hi)}`;
          const dose = `${ai ? '有效成分' : ''}${value}${unit.unit}`;
          const text = basis.before
            ? `防治稻纵卷叶螟，${basis.before}${product}${dose}，兑水30公斤喷雾。`
            : `防治稻纵卷叶螟，用${product}${dose}${basis.after}，兑水30公斤喷雾。`;
          const r = read(text);
          const rates = r.facts.filter((f) => f.kind === 'rate');
          assert.equal(rates.length, 1, text);
          const f = rates[0]!;
          assert.ok(f.kind === 'rate');
          assert.equal(f.basis, 'mu', text);
          assert.equal(f.measure, unit.measure, text);
          assert.equal(f.ai, ai, text);
          assert.ok(close(f.value.min, lo) && close(f.value.max, hi), `${text}: ${JSON.stringify(f.value)}`);
          assert.equal(r.products[f.product!]?.ingredient, '氯虫苯甲酰胺', text);
          assert.equal(text.slice(f.valueStart, f.valueEnd), value, text);
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('a dilution, water and timing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }).map((n) => n * 100),
        fc.constantFrom('{n}倍液', '{n}倍', '稀释{n}倍'),
        fc.integer({ min: 10, max: 60 }),
        fc.constantFrom('兑水{n}公斤', '对水{n}千克', '兑水{n}kg', '亩喷液量{n}升', '兑水{n}L'),
        fc.integer({ min: 3, max: 15 }),
        fc.constantFrom('隔{n}天再喷1次', '间隔{n}天', '药后{n}天补治', '{n} d后再防治1次', '{n}天后再喷一次'),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom('安全间隔期{n}天', '安全间隔期为{n} d', '安全间隔期{n}日'),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom('每季最多使用{n}次', '每季作物最多使用{n}次', '最多施药{n}次'),
        (d, dw, w, ww, i, iw, p, pw, u, uw) => {
          const text = `用0.5%苦参碱水剂${dw.replace('{n}', String(d))}，${ww.replace('{n}', String(w))}，${iw.replace('{n}', String(i))}；${pw.replace('{n}', String(p))}，${uw.replace('{n}', String(u))}。`;
          const facts = read(text).facts;
          const get = (k: DoseFact['kind']) => facts.filter((f) => f.kind === k).map((f) => f.value.min);
          assert.deepEqual(get('dilution'), [d], text);
          assert.deepEqual(get('water'), [w], text);
          assert.deepEqual(get('interval'), [i], text);
          assert.deepEqual(get('phi'), [p], text);
          assert.deepEqual(get('maxUses'), [u], text);
          assert.deepEqual(get('rate'), [], text);
        },
      ),
      { numRuns: runs(200) },
    );
  });
});
