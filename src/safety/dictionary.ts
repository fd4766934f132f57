/**
 * Finding the names of a rule set in text without a segmenter: Chinese has no spaces, so the text
 * is read left to right taking the longest known entry at each place — pesticide names (those the
 * rules name and the allowed ones), crops, uses, and ordinary words that hold a name's characters.
 * So 乙酰甲胺磷 is read whole and never as 甲胺磷, and 快乐果园 as 快乐 + 果园, never 乐果. Names
 * in Latin letters or digits (carbofuran, 1605, B9) must stand alone: no letter or digit on either
 * side, and a code followed by a unit (1605年, B9栋) is a number, not a pesticide. Pure, no native code.
 */
import { toSimplified } from '../text/simplified';
import { FORMULATIONS } from './product';
import type { RuleSet, SafetyRule } from './types';

/** What an entry of the dictionary is. */
export type Entry =
  | { kind: 'pesticide'; name: string; rules: SafetyRule[] }
  | { kind: 'crop'; name: string; crop: string }
  | { kind: 'use'; name: string; use: string }
  | { kind: 'other'; name: string };

/** A place the dictionary found an entry. */
export interface Hit {
  entry: Entry;
  start: number;
  end: number;
}

const WORDISH = /[A-Za-z0-9]/;
/** What follows a number that is a quantity, a year or an address, not a pesticide code. */
const UNIT = /^[年月日号亩元斤克米个次只头株倍%℃份期届栋楼层室户人块吨升]/;

/** Where a number is part of something else: a decimal, a range, a standard, a date, a footnote label, a citation's chunk. */
const NOT_A_CODE_BEFORE = /(?:[#^.．\-–—/:_~～]|\b(?:gb|ny|hg|db|ly|sn|nb)(?:\/t)?\s*[-/]?\s*)$/;
const NOT_A_CODE_AFTER = /^(?:[.．\-–—/:~～]\d|\])/;
/** What makes a number a pesticide's code: a concentration before it, a formulation after it, a verb of use before it. */
const CODE_BEFORE = /(?:[%％]|用|施|喷|拌|撒|选|和|或|、|\b(?:apply|use|spray|with|or|and))\s*$/;
const CODE_AFTER = new RegExp(`^\\s*(?:${FORMULATIONS.join('|')})`, 'i');

/**
 * A number that names a pesticide (1605, 3911, 666) only where it is written as one — `1%1605颗粒剂`,
 * `3911颗粒剂`, `用1605乳油`, `用3911拌种` — and never inside a standard's number, a date, a
 * measurement (每666.7平方米), a footnote label or a citation (`#1605`).
 */
function isCode(before: string, after: string): boolean {
  if (NOT_A_CODE_BEFORE.test(before) || NOT_A_CODE_AFTER.test(after)) return false;
  return CODE_BEFORE.test(before) || CODE_AFTER.test(after);
}

/**
 * Latin lower case and simplified script (氧化樂果 reads as 氧化乐果, 嚴禁 as 严禁), character for
 * character, so the text keeps its length and offsets: a finding is where the author wrote it.
 */
export function fold(s: string): string {
  // Stryker disable next-line Regex: with or without `+`, every capital is lowered
  return toSimplified(s).replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** The dictionary of a rule set. */
export class Dictionary {
  /** Entries by the code of their first (folded) character, longest first. */
  private readonly byFirst = new Map<number, Array<{ key: string; entry: Entry; latin: boolean }>>();

  constructor(rules: RuleSet) {
    const entries = new Map<string, Entry>();
    const add = (name: string, entry: Entry): void => {
      const key = fold(name.trim());
      const old = entries.get(key);
      // A pesticide name wins over a crop or an ordinary word spelt the same; rules of one name gather.
      if (old?.kind === 'pesticide' && entry.kind === 'pesticide') old.rules.push(...entry.rules);
      else if (!old || (entry.kind === 'pesticide' && old.kind !== 'pesticide')) entries.set(key, entry);
    };
    for (const w of rules.ordinaryWords) add(w, { kind: 'other', name: w });
    for (const n of rules.otherNames) add(n, { kind: 'pesticide', name: n, rules: [] });
    for (const u of rules.uses) for (const n of [u.name, ...u.aliases]) add(n, { kind: 'use', name: n, use: u.name });
    for (const c of rules.crops)
      for (const n of [c.name, ...c.aliases]) add(n, { kind: 'crop', name: n, crop: c.name });
    for (const r of rules.rules)
      for (const n of new Set([r.substance, ...r.names])) add(n, { kind: 'pesticide', name: n, rules: [r] });
    for (const [key, entry] of entries) {
      const first = key.charCodeAt(0);
      let list = this.byFirst.get(first);
      if (!list) this.byFirst.set(first, (list = []));
      list.push({ key, entry, latin: WORDISH.test(key[0]!) || WORDISH.test(key[key.length - 1]!) });
    }
    for (const list of this.byFirst.values()) list.sort((a, b) => b.key.length - a.key.length);
  }

  /** Every entry in `text`, left to right, each the longest that starts where the last ended. */
  scan(text: string): Hit[] {
    return this.scanFolded(fold(text));
  }

  /** {@link scan} of a text already folded by {@link fold}. */
  scanFolded(folded: string): Hit[] {
    const hits: Hit[] = [];
    let i = 0;
    // Stryker disable next-line EqualityOperator: no entry starts past the end
    while (i < folded.length) {
      const hit = this.at(folded, i);
      if (hit) {
        hits.push(hit);
        i = hit.end;
      } else i++;
    }
    return hits;
  }

  private at(text: string, i: number): Hit | undefined {
    const list = this.byFirst.get(text.charCodeAt(i));
    if (!list) return undefined;
    for (const { key, entry, latin } of list) {
      if (!text.startsWith(key, i)) continue;
      const end = i + key.length;
      if (latin && !this.standsAlone(text, i, end, key)) continue;
      return { entry, start: i, end };
    }
    return undefined;
  }

  /** A Latin or numeric name has no letter or digit beside it, and a code no unit after it. */
  private standsAlone(text: string, start: number, end: number, key: string): boolean {
    if (WORDISH.test(key[0]!) && start > 0 && WORDISH.test(text[start - 1]!)) return false;
    if (WORDISH.test(key[key.length - 1]!) && end < text.length && WORDISH.test(text[end]!)) return false;
    if (/^[a-z]?\d+$/.test(key) && UNIT.test(text.slice(end, end + 8).trimStart())) return false;
    if (/^\d+$/.test(key)) return isCode(text.slice(Math.max(0, start - 12), start), text.slice(end, end + 12));
    return true;
  }
}
