/**
 * The dose reader: text → the dose facts it states, each with its span, in normalised units
 * (reference: dose-notation.md). It extends the product reader of product.ts (the same formulation
 * words, the same dictionary of ingredients, doseProducts.ts) with numbers:
 * - a rate: a value or range (`80-100`, `6~8`, `15—25`, `10至15`) of product or active ingredient
 *   (`有效成分`, `a.i.`) in mL or g (毫升/mL, 升/L = 1000 mL, 克/g, 千克/公斤/kg = 1000 g, 斤 = 500 g)
 *   per 亩 (`亩用`, `每亩`, `/亩`, `667m²`, `666.7平方米`; `公顷`, `hm²`, `hm-2` = 15 亩), per 100 kg of
 *   seed (`拌种`), per knapsack (`每桶水`, `每15千克水`), or none (a recipe: `20毫升兑水16千克`);
 * - a dilution (`1000倍液`, `稀释1000倍`) and water (`兑水30公斤`, `对水`, `亩喷液量10升`: kg, 1 L = 1 kg);
 * - timing: the interval between sprays (`隔7天`, `间隔7-10天`, `药后5-7天补治`, `15 d后再防治1次`), the
 *   安全间隔期 in days and the uses per season (`每季最多使用2次`).
 * Each fact belongs to a product: the last named before it in its sentence, else the first after it
 * there, else the last before it in the text. Each carries the pests, diseases and crops its sentence
 * names. A table row is read cell by cell under its header (`亩用量`, `稀释倍数`, `安全间隔期（天）`).
 * Pure, linear in the text.
 */
import { fold, type Dictionary } from './dictionary';
import { foldForDoses, productsIn, type ProductMention } from './doseProducts';
import { DISEASES, PESTS } from './pests';
import type { RuleSet } from './types';

export type { ProductMention } from './doseProducts';

/** A closed range; a single value is a range of one. */
export interface Range {
  min: number;
  max: number;
}

/** What a rate is counted per. */
export type Basis = 'mu' | 'seed' | 'knapsack' | 'none';

/** What all facts have: their span, the span of their number, the product they belong to, their sentence's targets. */
export interface FactBase {
  start: number;
  end: number;
  /** The number (or range) as written: what a quick fix replaces. */
  valueStart: number;
  valueEnd: number;
  /** Index in the reading's products, if any was named. */
  product?: number | undefined;
  /** The product is named in the fact's own sentence (else it is the last named before). */
  own?: boolean | undefined;
  /** The pests, diseases and crops named in its sentence. */
  targets: string[];
  value: Range;
}

export type DoseFact =
  | (FactBase & {
      kind: 'rate';
      /** mL (volume) or g (mass) per basis (per 亩 for `mu`, per 100 kg of seed for `seed`). */
      measure: 'volume' | 'mass';
      basis: Basis;
      /** Counts the active ingredient, not the product. */
      ai: boolean;
      /** Written value × factor = the normalised value (1 for 毫升/亩, 1/15 for 毫升/公顷, 1000 for 升/亩). */
      factor: number;
    })
  | (FactBase & { kind: 'dilution' })
  | (FactBase & { kind: 'water'; factor: number })
  | (FactBase & { kind: 'interval' | 'phi' | 'maxUses' });

export type FactKind = DoseFact['kind'];

/** What a text states of doses. */
export interface DoseReading {
  products: ProductMention[];
  facts: DoseFact[];
}

const NUM = String.raw`\d+(?:\.\d+)?`;
const CN_NUM = '[一二两三四五六七八九十]';
/** A value or range, captured whole. */
const VALUE = String.raw`(${NUM}(?:\s*(?:-|~|—|–|至|到)\s*${NUM})?)`;
const COUNT = String.raw`(${NUM}(?:\s*(?:-|~|—|–|至|到)\s*${NUM})?|${CN_NUM}{1,2})`;
const DAYS = String.raw`\s*(?:天|d|日)(?![a-z])`;
const UNIT = String.raw`(毫升|ml|升|l|千克|公斤|kg|克|g|斤)(?![a-z])`;
const AREA = String.raw`(?:亩|667\s*(?:m2|m²|平方米)|666\.7\s*(?:m2|m²|平方米)|hm2|hm²|公顷|ha)`;

const WATER = new RegExp(
  String.raw`(?:兑水|对水|加水|喷液量|药液量|用水量)\s*(?:为|约|不少于|不低于|至少|达)?\s*${VALUE}\s*(公斤|千克|kg|升|l|斤)(?![a-z])`,
  'g',
);
const RATE = new RegExp(String.raw`${VALUE}\s*${UNIT}`, 'g');
const DILUTION = new RegExp(String.raw`${VALUE}\s*倍(?:液|稀释|溶液)?`, 'g');
const INTERVAL = new RegExp(
  String.raw`(?:隔|间隔)\s*${VALUE}${DAYS}|(?:药后|施药后)?${VALUE}${DAYS}\s*(?:左右)?\s*后?\s*(?:再|补|复|重)`,
  'g',
);
const PHI = new RegExp(
  String.raw`安全间隔期\s*(?:为|是|:)?\s*(?:不少于|至少)?\s*${VALUE}${DAYS}|(?:收获|采收|采摘)前\s*${VALUE}${DAYS}\s*(?:内)?\s*(?:停止|停|禁止)`,
  'g',
);
const MAX_USES = new RegExp(
  String.raw`(?:最多|至多|不超过|不得超过|限用)\s*(?:使用|施用|用药|喷施|喷药|施药|喷|用)?\s*${COUNT}\s*次`,
  'g',
);

const HAS_PHI = /安全间隔期|收获前|采收前|采摘前/;
const HAS_USES = /次/;
const HAS_DAYS = /[天日d]/;
const HAS_WATER = /水|液量/;
const HAS_DILUTION = /倍/;

const BASIS_AFTER = new RegExp(
  String.raw`^\s*(?:/|每|·)\s*(${AREA})|^\s*·?\s*(hm-2)|^\s*/\s*(100\s*(?:千克|公斤|kg)\s*种子)`,
);
/** What follows the seed's own weight (`每100千克种子`): not a dose. */
const SEED = /^\s*(?:种子|种)/;
const BASIS_BEFORE = new RegExp(
  String.raw`(亩用|每亩|亩施|亩喷|亩需|/亩|每${AREA}|${AREA}用|公顷用|每100\s*(?:千克|公斤|kg)种子|拌种|种子处理|每桶水|每喷雾器|每桶|每\s*15\s*(?:千克|公斤|kg|升|l)水)`,
  'g',
);
const AI_BEFORE = /有效成分(?:用量)?\s*(?:为|:)?\s*(?:每亩|亩用)?\s*$/;
const AI_AFTER = /^\s*(?:\(有效成分\)|有效成分|a\.?i\.?)/;
const SENTENCE_END = /[。！？;!?\n]|；/g;

const TARGETS = [...PESTS, ...DISEASES].sort((a, b) => b.length - a.length);

/** The pattern of the pests, diseases and crops of a rule set, built once per rule set by the caller. */
export function targetPattern(rules: RuleSet): RegExp {
  const crops = rules.crops.flatMap((c) => [c.name, ...c.aliases]).filter((n) => n.length > 1 && n !== '作物');
  // Chinese names only: the text read is a Chinese bulletin's (an English crop name would cost every sentence a longer pattern).
  const han = crops.map((c) => fold(c)).filter((c) => /^[\u4e00-\u9fff]+$/.test(c));
  const names = [...new Set([...TARGETS, ...han])].sort((a, b) => b.length - a.length);
  return new RegExp(names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
}

/** A written value or range (`80-100`, `6~8`, `两`) as numbers. */
export function rangeOf(written: string): Range {
  const cn = '零一二三四五六七八九';
  if (/^[一二两三四五六七八九十]+$/.test(written)) {
    const digit = (c: string): number => (c === '两' ? 2 : cn.indexOf(c));
    const n = written === '十' ? 10 : written.startsWith('十') ? 10 + digit(written[1]!) : digit(written[0]!);
    return { min: n, max: n };
  }
  const [a, b] = written.split(/\s*(?:-|~|—|–|至|到)\s*/).map(Number) as [number, number?];
  return b === undefined ? { min: a, max: a } : { min: Math.min(a, b), max: Math.max(a, b) };
}

function scale(r: Range, f: number): Range {
  return { min: r.min * f, max: r.max * f };
}

/** The offsets where the sentences of a text end, ascending (the text's length last). */
function sentenceEnds(text: string): number[] {
  const out: number[] = [];
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) out.push(m.index);
  out.push(text.length);
  return out;
}

interface Taken {
  start: number;
  end: number;
}

function overlaps(spans: readonly Taken[], s: number, e: number): boolean {
  return spans.some((t) => s < t.end && t.start < e);
}

/** The rate's basis and the factor to per-亩 from the words after or before it in its sentence. */
function basisOf(
  text: string,
  from: number,
  valueStart: number,
  end: number,
): { basis: Basis; factor: number; end: number } {
  const after = BASIS_AFTER.exec(text.slice(end, end + 20));
  if (after?.[3]) return { basis: 'seed', factor: 1, end: end + after[0].length };
  if (after) {
    const area = after[1] ?? after[2]!;
    return { basis: 'mu', factor: /亩|66/.test(area) ? 1 : 1 / 15, end: end + after[0].length };
  }
  let last: RegExpExecArray | undefined;
  BASIS_BEFORE.lastIndex = from;
  const window = text.slice(0, valueStart);
  for (let m = BASIS_BEFORE.exec(window); m; m = BASIS_BEFORE.exec(window)) last = m;
  if (!last) return { basis: 'none', factor: 1, end };
  const w = last[1]!;
  if (/种子|拌种/.test(w)) return { basis: 'seed', factor: 1, end };
  if (/桶|喷雾器|水$/.test(w)) return { basis: 'knapsack', factor: 1, end };
  return { basis: 'mu', factor: /公顷|hm|ha/.test(w) ? 1 / 15 : 1, end };
}

const UNIT_FACTOR: Readonly<Record<string, [number, 'volume' | 'mass']>> = {
  毫升: [1, 'volume'],
  ml: [1, 'volume'],
  升: [1000, 'volume'],
  l: [1000, 'volume'],
  克: [1, 'mass'],
  g: [1, 'mass'],
  千克: [1000, 'mass'],
  公斤: [1000, 'mass'],
  kg: [1000, 'mass'],
  斤: [500, 'mass'],
};

/** Every fact of one kind found by a pattern whose first group is the value. */
function factsOf(
  text: string,
  pattern: RegExp,
  taken: Taken[],
  make: (m: RegExpExecArray, valueStart: number) => DoseFact | undefined,
): DoseFact[] {
  const out: DoseFact[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const g = m.findIndex((v, i) => i > 0 && v !== undefined);
    if (g < 0 || overlaps(taken, m.index, m.index + m[0].length)) continue;
    const valueStart = m.index + m[0].indexOf(m[g]!);
    const fact = make(m, valueStart);
    if (!fact) continue;
    taken.push({ start: fact.start, end: fact.end });
    out.push(fact);
  }
  return out;
}

function base(m: RegExpExecArray, valueStart: number, written: string): FactBase {
  return {
    start: m.index,
    end: m.index + m[0].length,
    valueStart,
    valueEnd: valueStart + written.length,
    targets: [],
    value: rangeOf(written),
  };
}

/** The facts of a text already read by {@link foldForDoses}, before they are given their products. */
function rawFacts(text: string, products: readonly ProductMention[], sentences: readonly number[]): DoseFact[] {
  const taken: Taken[] = products.flatMap((p) => (p.concentration ? [p.concentration] : []));
  // Each pattern runs only where its word is in the text (most blocks hold one or two kinds).
  const has = (word: RegExp): boolean => word.test(text);
  const firstOf = (m: RegExpExecArray): string => {
    for (let i = 1; i < m.length; i++) if (m[i] !== undefined) return m[i]!;
    return '';
  };
  const facts: DoseFact[] = [
    ...(!has(HAS_PHI) ? [] : factsOf(text, PHI, taken, (m, v) => ({ ...base(m, v, firstOf(m)), kind: 'phi' }))),
    ...(!has(HAS_USES)
      ? []
      : factsOf(text, MAX_USES, taken, (m, v) => ({ ...base(m, v, firstOf(m)), kind: 'maxUses' }))),
    ...(!has(HAS_DAYS)
      ? []
      : factsOf(text, INTERVAL, taken, (m, v) => ({ ...base(m, v, firstOf(m)), kind: 'interval' }))),
    ...(!has(HAS_WATER)
      ? []
      : factsOf(text, WATER, taken, (m, v) => {
          const f =
            (m[2] === '斤' ? 0.5 : 1) *
            (perHectare(text, sentenceStartOf(sentences, m.index), m.index + m[0].length) ? 1 / 15 : 1);
          const b = base(m, v, m[1]!);
          return { ...b, kind: 'water', factor: f, value: scale(b.value, f) };
        })),
    ...(!has(HAS_DILUTION)
      ? []
      : factsOf(text, DILUTION, taken, (m, v) => ({ ...base(m, v, m[1]!), kind: 'dilution' }))),
  ];
  facts.push(
    ...factsOf(text, RATE, taken, (m, v) => {
      if (SEED.test(text.slice(m.index + m[0].length, m.index + m[0].length + 4))) return undefined;
      const [unitFactor, measure] = UNIT_FACTOR[m[2]!]!;
      const sentenceStart = sentenceStartOf(sentences, m.index);
      const b = base(m, v, m[1]!);
      const basis = recipe(text, sentenceStart, v)
        ? { basis: 'none' as const, factor: 1, end: b.end }
        : basisOf(text, sentenceStart, v, b.end);
      const ai =
        AI_BEFORE.test(text.slice(Math.max(sentenceStart, v - 14), v)) ||
        AI_AFTER.test(text.slice(basis.end, basis.end + 8));
      const factor = unitFactor * basis.factor;
      return {
        ...b,
        end: basis.end,
        kind: 'rate',
        measure,
        basis: basis.basis,
        ai,
        factor,
        value: scale(b.value, factor),
      };
    }),
  );
  return facts.sort((a, b) => a.start - b.start);
}

/** Whether water at `end` is counted per hectare: the last area its sentence names up to it (or right after it) is one. */
function perHectare(text: string, sentenceStart: number, end: number): boolean {
  const after = BASIS_AFTER.exec(text.slice(end, end + 16));
  if (after) return !/亩|66/.test(after[1] ?? after[2] ?? '亩');
  let last: string | undefined;
  for (const m of text.slice(sentenceStart, end).matchAll(/亩|66[67]|公顷|hm|ha(?![a-z])/g)) last = m[0];
  return last !== undefined && !/亩|66/.test(last);
}

/** A rate inside the brackets that spell a dilution out (`1500倍液（即20毫升兑水30千克）`): a recipe, per no area. */
function recipe(text: string, sentenceStart: number, at: number): boolean {
  const open = text.lastIndexOf('(', at);
  if (open < sentenceStart) return false;
  const close = text.indexOf(')', open);
  if (close !== -1 && close < at) return false;
  return /倍液?\s*$/.test(text.slice(Math.max(0, open - 4), open)) || /^\(\s*即/.test(text.slice(open, at));
}

function sentenceStartOf(sentences: readonly number[], pos: number): number {
  let start = 0;
  for (const e of sentences) {
    if (e >= pos) break;
    start = e + 1;
  }
  return start;
}

/** The sentence [start, end) holding `pos`. */
function sentenceOf(sentences: readonly number[], pos: number): [number, number] {
  let start = 0;
  for (const e of sentences) {
    if (e >= pos) return [start, e];
    start = e + 1;
  }
  return [start, Number.MAX_SAFE_INTEGER];
}

/** The product a fact belongs to: the last before it in its sentence, else the first after it there, else the last before it. */
function productOf(products: readonly ProductMention[], sentence: [number, number], at: number): number | undefined {
  let before: number | undefined;
  let after: number | undefined;
  for (let i = 0; i < products.length; i++) {
    const p = products[i]!;
    if (p.start < at) before = i;
    else if (after === undefined && p.start < sentence[1]) after = i;
  }
  if (before !== undefined && products[before]!.start >= sentence[0]) return before;
  return after ?? before;
}

/**
 * The dose facts of `text` (a block of a bulletin, or a passage). `dictionary` and `targets` are
 * those of the rules in force ({@link targetPattern}); without `targets`, no fact gets its targets
 * (a block that cites nothing compares nothing).
 */
export function readDoses(text: string, dictionary: Dictionary, targets: RegExp | undefined): DoseReading {
  const folded = foldForDoses(fold(text));
  if (isTableRow(folded)) return { products: productsIn(folded, dictionary), facts: [] };
  return readFolded(folded, dictionary, targets);
}

/** {@link readDoses} of a text already folded. */
export function readFolded(folded: string, dictionary: Dictionary, targets: RegExp | undefined): DoseReading {
  const products = productsIn(folded, dictionary);
  const sentences = sentenceEnds(folded);
  const facts = rawFacts(folded, products, sentences);
  const targetsBySentence = new Map<number, string[]>();
  for (const f of facts) {
    const s = sentenceOf(sentences, f.start);
    f.product = productOf(products, s, f.start);
    f.own = f.product !== undefined && products[f.product]!.start >= s[0] && products[f.product]!.start < s[1];
    let t = targetsBySentence.get(s[0]);
    if (!t) {
      t = targets ? targetsIn(folded.slice(s[0], Math.min(s[1], folded.length)), targets) : [];
      targetsBySentence.set(s[0], t);
    }
    f.targets = t;
  }
  return { products, facts };
}

/** The pests, diseases and crops a sentence names. */
function targetsIn(sentence: string, targets: RegExp): string[] {
  const out: string[] = [];
  targets.lastIndex = 0;
  for (let m = targets.exec(sentence); m; m = targets.exec(sentence)) out.push(m[0]);
  return out;
}

function isTableRow(folded: string): boolean {
  return /^\s*\|/.test(folded);
}
