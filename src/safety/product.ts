/**
 * Products and doses as advisories write them (reference: dose-notation.md): a product is a
 * concentration, an ingredient and a formulation (`20%氯虫苯甲酰胺悬浮剂`, `1%1605颗粒剂`, `25%氟环唑SC`);
 * a dose is a value or range with a unit and a basis (`亩用…50毫升`, `80-100 mL/亩`, `2～3公斤`); a
 * dilution is `1000倍液`; water is `兑水30公斤`. The ingredient names come from the one dictionary of
 * the rules (dictionary.ts); this module reads what stands around them. The safety lint asks it
 * whether a mention is written as a product or beside a dose; the dose-agreement check reads the
 * same facts. Pure.
 */

/** Formulation words and abbreviations (GB/T 19378 names as written in advisories), longest first. */
export const FORMULATIONS = [
  '可湿性粉剂',
  '水分散粒剂',
  '悬浮种衣剂',
  '微囊悬浮剂',
  '可分散油悬浮剂',
  '油悬浮剂',
  '水乳剂',
  '微乳剂',
  '悬乳剂',
  '悬浮剂',
  '种衣剂',
  '颗粒剂',
  '可溶粉剂',
  '可溶液剂',
  '可溶粒剂',
  '水剂',
  '乳油',
  '粉剂',
  '烟剂',
  '熏蒸剂',
  '粒剂',
  '毒饵',
  '胶悬剂',
  '原药',
  '母药',
  '粉',
  'WDG',
  'WG',
  'WP',
  'SC',
  'EC',
  'EW',
  'ME',
  'SL',
  'SP',
  'FS',
  'CS',
  'GR',
  'OD',
  'DP',
  'G',
] as const;

const FORMULATION = new RegExp(`^\\s*(?:${FORMULATIONS.join('|')})(?![A-Za-z])`);

/** A concentration written right before an ingredient: `40%`, `0.5 %`, `40％`, `200克/升`, `1.8 g/L`. */
const CONCENTRATION = /(?:\d+(?:\.\d+)?\s*[%％]|\d+(?:\.\d+)?\s*(?:克|g)\s*\/\s*(?:升|L))\s*$/;

/** The product an ingredient mention at [start, end) of `text` is written as, if it is one. */
export interface ProductForm {
  concentration?: string;
  formulation?: string;
}

/** The concentration before and the formulation after an ingredient mention; undefined when neither is there. */
export function productForm(text: string, start: number, end: number): ProductForm | undefined {
  const before = CONCENTRATION.exec(text.slice(Math.max(0, start - 16), start));
  const after = FORMULATION.exec(text.slice(end, end + 12));
  if (!before && !after) return undefined;
  return {
    ...(before ? { concentration: before[0].trim() } : {}),
    ...(after ? { formulation: after[0].trim() } : {}),
  };
}

/** A number or range (`80-100`, `6~8`, `15—25`, `10～15`, `2至3`). */
const VALUE = String.raw`\d+(?:\.\d+)?(?:\s*(?:-|~|～|—|–|至|到)\s*\d+(?:\.\d+)?)?`;
/** The units of a dose: volume and mass of product (or active ingredient). */
const UNIT = String.raw`(?:毫升|mL|ml|ML|克|g|千克|公斤|kg|斤|升|L)(?![A-Za-z])`;

/** A dose (`50毫升`, `80-100 mL`, `2～3公斤`), a dilution (`1000倍液`, `1500倍`) or water (`兑水30公斤`, `亩喷液量10升`). */
export const DOSE = new RegExp(String.raw`${VALUE}\s*${UNIT}|${VALUE}\s*倍(?:液|稀释)?|兑水|对水|加水|喷液量`, 'g');

/** Whether `text` holds a dose, a dilution or an amount of water. */
export function hasDose(text: string): boolean {
  DOSE.lastIndex = 0;
  return DOSE.test(text);
}
