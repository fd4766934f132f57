/**
 * Traditional Chinese folded to simplified, one UTF-16 code unit for one, so that a reader that
 * scans the folded text (the safety lint) reports its columns where the author wrote them. Pure.
 *
 * The data is OpenCC's (opencc-js), character tables only: Taiwan's and Hong Kong's variants to
 * OpenCC's traditional forms, then traditional to simplified, and CJK compatibility ideographs to
 * their unified forms (Unicode's canonical mapping, as OpenCC's normalisation does). Phrase tables
 * are not read: a phrase may change the length. A mapping kept is one code point to one code point
 * of the same UTF-16 length, after the steps from one to the next are followed to their end (so
 * folding twice is folding once); a regional variant is not applied to a character that the
 * library writes as a simplified form (the Taiwan table would turn 么 into 幺). Without phrases, a
 * few characters that simplified text also writes fold as the tables say (著 → 着 by Taiwan's, 薹 →
 * 苔, 乾 → 干): a reader that matches the folded text folds its own words with this too.
 */
// @ts-expect-error -- opencc-js ships no types for its data modules: each is one string, "源 目标|…"
import tsCharacters from 'opencc-js/dict/TSCharacters';
// @ts-expect-error -- as above
import twVariantsRev from 'opencc-js/dict/TWVariantsRev';
// @ts-expect-error -- as above
import hkVariantsRev from 'opencc-js/dict/HKVariantsRev';

/** The fold: BMP code unit → its simplified unit (0: none); astral code point → code point. */
interface Fold {
  readonly bmp: Uint16Array;
  readonly astral: ReadonlyMap<number, number>;
}

let built: Fold | undefined;

/** `text` with every traditional character folded to simplified; the same length, position for position. */
export function toSimplified(text: string): string {
  const fold = (built ??= buildFold());
  const first = firstFolded(text, fold);
  return first < 0 ? text : stringOf(folded(text, first, fold));
}

/** The code point the character at `i` folds to, or undefined when it stays. */
function foldedAt(text: string, i: number, fold: Fold): number | undefined {
  const unit = text.charCodeAt(i);
  const to = fold.bmp[unit]!;
  if (to !== 0) return to;
  // A lone high surrogate's code point is itself, which the fold does not hold.
  return unit >= 0xd800 && unit <= 0xdbff ? fold.astral.get(text.codePointAt(i)!) : undefined;
}

function firstFolded(text: string, fold: Fold): number {
  for (let i = 0; i < text.length; i++) if (foldedAt(text, i, fold) !== undefined) return i;
  return -1;
}

/** The code units of `text` folded, from `first` (the units before it stay). */
function folded(text: string, first: number, fold: Fold): Uint16Array {
  const out = new Uint16Array(text.length);
  for (let i = 0; i < first; i++) out[i] = text.charCodeAt(i);
  for (let i = first; i < text.length; i++) {
    const to = foldedAt(text, i, fold);
    if (to === undefined) out[i] = text.charCodeAt(i);
    else if (to <= 0xffff) out[i] = to;
    else {
      out[i] = 0xd800 + ((to - 0x10000) >> 10);
      out[++i] = 0xdc00 + ((to - 0x10000) & 0x3ff);
    }
  }
  return out;
}

/** The units as a string, in slices small enough to pass as arguments. */
function stringOf(units: Uint16Array): string {
  const parts: string[] = [];
  for (let i = 0; i < units.length; i += 8192) {
    parts.push(String.fromCharCode.apply(null, units.subarray(i, i + 8192) as unknown as number[]));
  }
  return parts.join('');
}

function buildFold(): Fold {
  const steps = stepsOf();
  const bmp = new Uint16Array(0x10000);
  const astral = new Map<number, number>();
  for (const from of steps.keys()) {
    const to = endOf(from, steps);
    if (to === from || unitsOf(from) !== unitsOf(to)) continue;
    if (from > 0xffff) astral.set(from, to);
    else bmp[from] = to;
  }
  return { bmp, astral };
}

function unitsOf(cp: number): number {
  return cp > 0xffff ? 2 : 1;
}

/** Each character's one step: traditional to simplified, a regional variant, a compatibility ideograph. */
function stepsOf(): Map<number, number> {
  const steps = new Map(pairsOf(tsCharacters));
  const simplified = new Set(steps.values());
  for (const [from, to] of [...pairsOf(twVariantsRev), ...pairsOf(hkVariantsRev), ...compatibilityPairs()]) {
    if (!steps.has(from) && !simplified.has(from)) steps.set(from, to);
  }
  return steps;
}

/** Where `from` ends after its steps (the data's longest chain is 薴 → 苧 → 苎); itself if they loop. */
function endOf(from: number, steps: ReadonlyMap<number, number>): number {
  let at = from;
  for (let hops = 0; hops < 8; hops++) {
    const next = steps.get(at);
    if (next === undefined || next === at) return at;
    at = next;
  }
  return from;
}

/** A dictionary's pairs of one code point each ("源 目标|…"), read in place. */
function pairsOf(dictionary: unknown): [number, number][] {
  if (typeof dictionary !== 'string') throw new TypeError('opencc-js: a dictionary is not a string');
  const pairs: [number, number][] = [];
  for (let at = 0; at < dictionary.length;) {
    const bar = dictionary.indexOf('|', at);
    const end = bar < 0 ? dictionary.length : bar;
    const space = dictionary.indexOf(' ', at);
    const from = dictionary.codePointAt(at)!;
    const to = dictionary.codePointAt(space + 1)!;
    if (at + unitsOf(from) === space && space + 1 + unitsOf(to) === end) pairs.push([from, to]);
    at = end + 1;
  }
  return pairs;
}

/** CJK compatibility ideographs to their canonical (unified) forms. */
function compatibilityPairs(): [number, number][] {
  const pairs: [number, number][] = [];
  for (const [start, end] of [
    [0xf900, 0xfaff],
    [0x2f800, 0x2fa1f],
  ] as const) {
    for (let cp = start; cp <= end; cp++) {
      const to = String.fromCodePoint(cp).normalize('NFC');
      const unified = to.codePointAt(0)!;
      if (unified !== cp && to.length === unitsOf(unified)) pairs.push([cp, unified]);
    }
  }
  return pairs;
}
