/**
 * Whether a sentence's dose facts agree with the facts of the passage it cites, and whether a
 * sentence's own dilution adds up. Facts are compared for the same ingredient, and, where the
 * passage gives that ingredient several doses for different pests, diseases or crops, for the
 * sentence's (where it cannot be told, agreeing with any agrees):
 * - the concentration and formulation of the product;
 * - a rate within the passage's range (product and active ingredient converted by the
 *   concentration where it is known; where it is not, they disagree); mL and g are compared as one
 *   measure (a density of 1), rates per 亩, per 100 kg of seed and per knapsack each with their own;
 * - a dilution within the passage's, or within 10 % of the one its rate and water spell out;
 * - water within the passage's, an interval within the passage's, a 安全间隔期 no shorter and uses
 *   per season no more than the passage's.
 * Facts of different kinds are not compared (a 倍液 against a per-亩 rate with no water says
 * nothing). A kind the passage gives nothing of for that ingredient is `dose-unsupported`. Pure.
 */
import type { DoseFact, DoseReading, FactKind, ProductMention, Range } from './dose';

/** How a fact disagrees, with what the passage says instead. */
export type Disagreement =
  | {
      code: 'dose-mismatch';
      fact: DoseFact | ProductMention;
      kind: FactKind | 'product';
      ingredient: string;
      passage: PassageValue;
    }
  | {
      code: 'dose-unsupported';
      fact: DoseFact | ProductMention;
      kind: FactKind | 'product';
      ingredient: string;
      named: boolean;
    };

/** What the passage gives: its words, and the value written in the sentence's units where it can be. */
export interface PassageValue {
  /** The passage's own words for the fact (its clause). */
  quote: string;
  /** The passage's value in the sentence's units (`10-15`, `悬浮剂`, `20`). */
  value: string;
  /** The value with the sentence's unit after it (`10-15毫升/亩`, `20%`), for a message. */
  shown: string;
  /** Where the value goes in the sentence (absolute in the reading's text), for a quick fix. */
  replace?: { start: number; end: number } | undefined;
}

/** A passage read: its text and its facts. */
export interface ReadPassage {
  text: string;
  reading: DoseReading;
}

const TOLERANCE = 0.005;
const ARITHMETIC_TOLERANCE = 0.1;

function within(outer: Range, inner: Range, tolerance = TOLERANCE): boolean {
  return inner.min >= outer.min * (1 - tolerance) && inner.max <= outer.max * (1 + tolerance);
}

function overlap(a: Range, b: Range): boolean {
  return a.min <= b.max && b.min <= a.max;
}

/** A pest, disease or crop named alike on both sides (稻纵卷叶螟 and 纵卷叶螟). */
function sameTarget(a: string, b: string): boolean {
  return a.endsWith(b) || b.endsWith(a);
}

/** The product a fact belongs to, if any (-1: none). */
function productOf(r: DoseReading, f: DoseFact): ProductMention | undefined {
  // Stryker disable next-line UnaryOperator: a fact has no product only in a text that names none, where no index finds one
  return r.products[f.product ?? -1];
}

function ingredientOf(r: DoseReading, f: DoseFact): string | undefined {
  return productOf(r, f)?.ingredient;
}

/** A number as a bulletin writes it: at most three decimals, no trailing zeros. */
export function numberText(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/** A range as written, with the sentence's own separator. */
function rangeText(r: Range, written: string): string {
  const sep = /\s*(?:-|~|—|–|至|到)\s*/.exec(written)?.[0] ?? '-';
  return r.min === r.max ? numberText(r.min) : `${numberText(r.min)}${sep}${numberText(r.max)}`;
}

/** The clause of a passage a fact sits in: its own words. */
export function clauseOf(text: string, start: number, end: number): string {
  const before = text.slice(0, start);
  const from = Math.max(...['。', '；', ';', '\n', '！', '？'].map((c) => before.lastIndexOf(c))) + 1;
  const stops = [...'。；;\n！？'].map((c) => text.indexOf(c, end)).filter((i) => i !== -1);
  const to = stops.length ? Math.min(...stops) + 1 : text.length;
  return text.slice(from, to).trim();
}

/** A rate's value in active ingredient, if it can be told (its product's concentration known). */
function asAi(f: Extract<DoseFact, { kind: 'rate' }>, product: ProductMention | undefined): Range | undefined {
  if (f.ai) return f.value;
  const c = product?.concentration;
  if (!c) return undefined;
  const per = c.unit === '%' ? c.value / 100 : c.value / 1000;
  return { min: f.value.min * per, max: f.value.max * per };
}

/** The dilution a rate and water of one product in one sentence spell out. */
function spelledDilution(rate: Range, water: Range): Range {
  return { min: (water.min * 1000) / rate.max, max: (water.max * 1000) / rate.min };
}

interface Candidate {
  fact: DoseFact;
  passage: ReadPassage;
  product: ProductMention | undefined;
  /** A dilution spelled out by a rate and water (10 % allowed). */
  spelled?: Range | undefined;
}

/** The passages' facts of one kind for one ingredient (`undefined`: the sentence named none, any ingredient). */
function candidates(passages: readonly ReadPassage[], kind: FactKind, ingredient: string | undefined): Candidate[] {
  const out: Candidate[] = [];
  for (const passage of passages) {
    const { reading } = passage;
    for (const f of reading.facts) {
      if (f.kind !== kind) continue;
      const own = ingredientOf(reading, f);
      // Water and timing belong to every product of their sentence (`A或B，兑水30公斤`).
      const shared =
        SENTENCE_WIDE.has(kind) && ingredient !== undefined && (!f.own || namedBeside(passage, f, ingredient));
      if (ingredient !== undefined && own !== undefined && own !== ingredient && !shared) continue;
      out.push({ fact: f, passage, product: productOf(reading, f) });
    }
    if (kind === 'dilution') out.push(...spelled(passage, ingredient));
  }
  return out;
}

const SENTENCE_WIDE: ReadonlySet<FactKind> = new Set(['water', 'interval', 'phi', 'maxUses']);

/** Whether `ingredient` is named in the sentence of a passage's fact. */
function namedBeside(passage: ReadPassage, f: DoseFact, ingredient: string): boolean {
  return passage.reading.products.some(
    (p) =>
      p.ingredient === ingredient &&
      !/[。！？;；\n]/.test(passage.text.slice(Math.min(p.end, f.start), Math.max(p.start, f.end))),
  );
}

/** The dilutions a passage spells out with a rate and water in one sentence. */
function spelled(passage: ReadPassage, ingredient: string | undefined): Candidate[] {
  const { reading } = passage;
  const out: Candidate[] = [];
  for (const r of reading.facts) {
    if (r.kind !== 'rate' || r.ai) continue;
    if (ingredient !== undefined && ingredientOf(reading, r) !== ingredient) continue;
    const w = reading.facts.find(
      (f) => f.kind === 'water' && f.product === r.product && sameSentence(passage.text, r, f),
    );
    if (!w) continue;
    out.push({ fact: r, passage, product: undefined, spelled: spelledDilution(r.value, w.value) });
  }
  return out;
}

function sameSentence(text: string, a: DoseFact, b: DoseFact): boolean {
  const [from, to] = a.start < b.start ? [a.end, b.start] : [b.end, a.start];
  return !/[。！？;；\n]/.test(text.slice(from, to));
}

/** The candidates for the sentence's targets, or all when none names them. */
function forTargets(list: Candidate[], targets: readonly string[]): Candidate[] {
  const named = list.filter((c) => c.fact.targets.some((t) => targets.some((s) => sameTarget(s, t))));
  return named.length > 0 ? named : list;
}

/** Whether a sentence's fact agrees with one candidate; undefined when they cannot be compared. */
function agrees(f: DoseFact, product: ProductMention | undefined, c: Candidate): boolean | undefined {
  const p = c.fact;
  if (f.kind === 'dilution')
    return c.spelled ? within(c.spelled, f.value, ARITHMETIC_TOLERANCE) : within(p.value, f.value);
  if (f.kind === 'phi') return f.value.min >= p.value.min * (1 - TOLERANCE);
  if (f.kind === 'maxUses') return f.value.max <= p.value.max;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a candidate is of the sentence's kind, and facts that are not rates have neither basis nor ai, so they reach the same within() below
  if (f.kind !== 'rate' || p.kind !== 'rate') return within(p.value, f.value);
  if (f.basis !== p.basis) return undefined;
  if (f.ai === p.ai) return within(p.value, f.value);
  const a = asAi(f, product);
  const b = asAi(p, c.product ?? product);
  return a && b ? within(b, a) : false;
}

/**
 * The passage's value in the sentence's units, for the message and the quick fix; undefined where a
 * rate of product and one of active ingredient cannot be converted (no concentration known).
 */
function valueFor(f: DoseFact, written: string, product: ProductMention | undefined, c: Candidate): string | undefined {
  const p = c.fact;
  let v: Range = c.spelled ?? p.value;
  if (f.kind === 'rate' && p.kind === 'rate') {
    if (f.ai !== p.ai) {
      const ai = asAi(p, c.product ?? product);
      const per = product?.concentration;
      if (f.ai && ai) v = ai;
      else if (!f.ai && p.ai && per)
        v = {
          min: p.value.min / (per.unit === '%' ? per.value / 100 : per.value / 1000),
          max: p.value.max / (per.unit === '%' ? per.value / 100 : per.value / 1000),
        };
      else return undefined;
    }
    v = { min: v.min / f.factor, max: v.max / f.factor };
  }
  if (f.kind === 'water') v = { min: v.min / f.factor, max: v.max / f.factor };
  if (c.spelled) v = { min: Math.round(v.min / 10) * 10, max: Math.round(v.max / 10) * 10 };
  return rangeText(v, written);
}

/**
 * The disagreements of one sentence's facts (`facts`, of `reading`, whose text is `text`) with the
 * passages it cites. A product named is checked for its concentration and formulation.
 */
export function disagreements(
  text: string,
  reading: DoseReading,
  facts: readonly DoseFact[],
  products: readonly number[],
  passages: readonly ReadPassage[],
): Disagreement[] {
  const out: Disagreement[] = [];
  const unnamed = new Set<string>();
  const named = (ingredient: string): boolean =>
    passages.some((p) => p.reading.products.some((q) => q.ingredient === ingredient));
  for (const i of products) {
    const product = reading.products[i]!;
    if (!named(product.ingredient)) {
      unnamed.add(product.ingredient);
      out.push({
        code: 'dose-unsupported',
        fact: product,
        kind: 'product',
        ingredient: product.ingredient,
        named: false,
      });
      continue;
    }
    const d = productDisagreement(text, product, passages);
    if (d) out.push(d);
  }
  for (const f of facts) {
    const product = productOf(reading, f);
    if (product && unnamed.has(product.ingredient)) continue;
    const d = factDisagreement(text, f, product, passages);
    if (d) out.push(d);
  }
  return out;
}

function factDisagreement(
  text: string,
  f: DoseFact,
  product: ProductMention | undefined,
  passages: readonly ReadPassage[],
): Disagreement | undefined {
  if (f.kind === 'rate' && f.basis === 'none') return undefined;
  const ingredient = product?.ingredient;
  // Water or timing in a sentence that names no product is said of any product the passage names.
  const wide = SENTENCE_WIDE.has(f.kind) && !f.own;
  const all = candidates(passages, f.kind, wide ? undefined : ingredient);
  if (all.length === 0) {
    if (ingredient === undefined || f.kind === 'water' || wide) return undefined;
    // A 倍液 against a rate with no water, or a rate against a 倍液, says nothing.
    const other = f.kind === 'rate' ? 'dilution' : f.kind === 'dilution' ? 'rate' : undefined;
    if (other && candidates(passages, other, ingredient).length > 0) return undefined;
    return { code: 'dose-unsupported', fact: f, kind: f.kind, ingredient, named: true };
  }
  const list = forTargets(all, f.targets);
  const verdicts = list.map((c) => agrees(f, product, c));
  if (verdicts.some((v) => v === true) || verdicts.every((v) => v === undefined)) return undefined;
  const c = list[verdicts.findIndex((v) => v === false)]!;
  const quote = clauseOf(c.passage.text, c.fact.start, c.fact.end);
  const value = valueFor(f, text.slice(f.valueStart, f.valueEnd), product, c);
  // A rate of product against one of active ingredient, neither convertible: the passage's own
  // value and unit, and nothing to put in place of the sentence's (it counts something else).
  const theirs = c.passage.text;
  const passage: PassageValue =
    value === undefined
      ? {
          quote,
          value: theirs.slice(c.fact.valueStart, c.fact.valueEnd),
          shown: theirs.slice(c.fact.valueStart, c.fact.end),
        }
      : {
          quote,
          value,
          shown: value + text.slice(f.valueEnd, f.end),
          replace: { start: f.valueStart, end: f.valueEnd },
        };
  return { code: 'dose-mismatch', fact: f, kind: f.kind, ingredient: ingredient ?? '', passage };
}

function productDisagreement(
  text: string,
  product: ProductMention,
  passages: readonly ReadPassage[],
): Disagreement | undefined {
  const theirs = passages.flatMap((p) =>
    p.reading.products.filter((q) => q.ingredient === product.ingredient).map((q) => ({ q, p })),
  );
  const c = product.concentration;
  if (c) {
    const stated = theirs.filter(({ q }) => q.concentration?.unit === c.unit);
    if (stated.length > 0 && !stated.some(({ q }) => Math.abs(q.concentration!.value - c.value) < 1e-9)) {
      const { q, p } = stated[0]!;
      return {
        code: 'dose-mismatch',
        fact: product,
        kind: 'product',
        ingredient: product.ingredient,
        passage: {
          quote: clauseOf(p.text, q.start, q.end),
          value: numberText(q.concentration!.value),
          shown: text.slice(c.start, c.end).replace(/^\d+(?:\.\d+)?/, numberText(q.concentration!.value)),
          replace: { start: c.start, end: c.start + /^\d+(?:\.\d+)?/.exec(text.slice(c.start))![0].length },
        },
      };
    }
  }
  const form = product.formulation;
  if (form) {
    const stated = theirs.filter(({ q }) => q.formulation !== undefined);
    if (stated.length > 0 && !stated.some(({ q }) => q.formulation === form)) {
      const { q, p } = stated[0]!;
      return {
        code: 'dose-mismatch',
        fact: product,
        kind: 'product',
        ingredient: product.ingredient,
        passage: { quote: clauseOf(p.text, q.start, q.end), value: q.formulation!, shown: q.formulation! },
      };
    }
  }
  return undefined;
}

/** A sentence's dilution that its own rate and water do not spell out (beyond 10 %). */
export interface ArithmeticError {
  dilution: DoseFact;
  rate: DoseFact;
  water: DoseFact;
  /** The dilution the rate and water spell out. */
  spelled: Range;
}

/** The dilutions of one sentence's facts that do not add up with its rate and water. */
export function arithmeticErrors(facts: readonly DoseFact[]): ArithmeticError[] {
  const out: ArithmeticError[] = [];
  for (const d of facts) {
    if (d.kind !== 'dilution') continue;
    const rate = facts.find((f) => f.kind === 'rate' && !f.ai && f.product === d.product && f.basis !== 'seed');
    const water = facts.find((f) => f.kind === 'water' && f.product === d.product);
    if (!rate || !water) continue;
    const s = spelledDilution(rate.value, water.value);
    const tolerant = { min: d.value.min * (1 - ARITHMETIC_TOLERANCE), max: d.value.max * (1 + ARITHMETIC_TOLERANCE) };
    if (!overlap(tolerant, s)) out.push({ dilution: d, rate, water, spelled: s });
  }
  return out;
}
