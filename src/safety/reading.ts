/**
 * What a block of a bulletin does with each pesticide it names. A mention is
 * - `forbidden`: a prohibition governs it — in its clause (严禁使用克百威), as the predicate after the
 *   list it ends (克百威、氧乐果等禁止在蔬菜上使用), or as the lead-in above it (a heading or a line
 *   ending with a colon: 一、国家明令禁止使用的农药 / 下列农药禁止销售和使用：);
 * - `listed`: it is one of a list that is neither forbidden nor recommended (限制使用的农药有：…,
 *   对蔬菜实施监测的农药：…);
 * - `recommended`: its sentence tells someone to use it — a dose, a dilution, a product with a use
 *   verb, an instruction (亩用, …倍液喷雾, 选用, 可用, 拌种, 灌根, 撒施, 兑水);
 * - `told`: anything else — history, misuse reported, chemistry, a trial, a plain mention.
 * Names in a list (separated by 、，,；; and line breaks, with their English names in brackets) are
 * read together: the prohibition before the first or after the last governs them all. Each mention
 * costs its clause and a bounded window around it, so a block of any length is read in linear time.
 * The text is already folded to simplified script. Pure.
 */
import {
  EXAMPLES,
  FORBIDS_AFTER,
  FORBIDS_BEFORE,
  HISTORY,
  leadIn,
  NAMED_AFTER,
  NAMED_BEFORE,
  TELLS_OF,
  USE,
  USE_BETWEEN,
  type LeadIn,
} from './cues';
import { countBelow, Matches } from './matches';
import { DOSE, hasDose, productForm } from './product';

export type MentionStatus = 'forbidden' | 'listed' | 'recommended' | 'told';

/** A place in the block: a pesticide name the dictionary found. */
export interface Span {
  start: number;
  end: number;
}

/** How a mention reads, and which list (run of names) it belongs to. */
export interface Reading {
  status: MentionStatus;
  list: number;
}

/** How far around a mention its sentence is read (a pasted text may have a sentence of any length). */
const WINDOW = 120;

const SENTENCE_END = /[。！？；;!?\n]|\.(?=\s|$)/g;
const CLAUSE_END = /[。！？；;!?\n]|[，,](?!\d)|\.(?=\s|$)/g;
/** What may stand between two names of one list. */
const LIST_GAP =
  /^(?:[\s、，,；;和及与或跟/·]|以及|[（(][^（()）\n]{0,40}[)）]|[（(]?\d{1,2}[)）.、]|\[\^?[^\]\n]{0,20}\]|[-*+>|])*$/;
/** A line that opens a numbered part of a notice (一、 （二） （1） 2、): a lead-in when it names no pesticide. */
const ORDINAL =
  /^\s*(?:[#>*+-]\s*)*(?:[一二三四五六七八九十]+[、.．]|[（(][一二三四五六七八九十\d]+[)）]|\d{1,2}[、．])/;
const ENDS_WITH_COLON = /[：:]\s*$/;

/** Offsets where clauses (or sentences) end, ascending. */
function ends(text: string, pattern: RegExp): number[] {
  const out: number[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) out.push(m.index);
  return out;
}

/** Where a block's clauses and sentences end (ascending offsets), found once per block. */
export interface Bounds {
  clauses: number[];
  sentences: number[];
}

export function boundsOf(text: string): Bounds {
  return { clauses: ends(text, CLAUSE_END), sentences: ends(text, SENTENCE_END) };
}

/** The [start, end) of the clause or sentence that holds `pos`, given where they end. */
export function around(list: readonly number[], pos: number, length: number): [number, number] {
  const lo = countBelow(list, pos);
  return [lo > 0 ? list[lo - 1]! + 1 : 0, lo < list.length ? list[lo]! : length];
}

/** The lead-in each line of the block reads under, and the one the next block starts with. */
function leadIns(text: string, incoming: LeadIn | undefined, heading: boolean, mentions: readonly Span[]) {
  if (heading) {
    const own = leadIn(text);
    return { at: () => incoming, next: own };
  }
  const starts: number[] = [];
  const leads: (LeadIn | undefined)[] = [];
  let lead = incoming;
  let m = 0;
  for (let pos = 0; pos <= text.length;) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(pos, end);
    while (m < mentions.length && mentions[m]!.start < pos) m++;
    const names = m < mentions.length && mentions[m]!.start < end;
    if (ORDINAL.test(line) && !names) lead = leadIn(line);
    starts.push(pos);
    leads.push(lead);
    if (ENDS_WITH_COLON.test(line)) lead = leadIn(line);
    if (nl === -1) break;
    pos = nl + 1;
  }
  // The line that holds an offset: the last that starts at or before it (the first starts at 0).
  const at = (offset: number): LeadIn | undefined => leads[countBelow(starts, offset + 1) - 1];
  return { at, next: lead };
}

/**
 * Reads the mentions of a block (`mentions`: the pesticide names found, in order, allowed ones
 * included since they belong to lists too) that `wanted` asks about: a mention no rule concerns
 * is not read, though it still joins its list. `incoming` is the lead-in the block sits under;
 * `heading` says the block is a heading; `bounds` are where its clauses and sentences end
 * ({@link boundsOf}, found once per block by the caller). Returns a reading per wanted mention (at
 * its index; undefined for the others) and the lead-in the next block sits under.
 */
export function readMentions(
  text: string,
  mentions: readonly Span[],
  wanted: (index: number) => boolean,
  incoming: LeadIn | undefined,
  heading: boolean,
  date: string,
  { clauses, sentences }: Bounds,
): { readings: (Reading | undefined)[]; lead: LeadIn | undefined } {
  const leads = leadIns(text, incoming, heading, mentions);
  const readings: (Reading | undefined)[] = new Array<Reading | undefined>(mentions.length);
  let cues: Cues | undefined;
  let first = 0;
  for (let i = 0; i < mentions.length; i++) {
    const next = mentions[i + 1];
    if (next && next.start - mentions[i]!.end <= 60 && LIST_GAP.test(text.slice(mentions[i]!.end, next.start)))
      continue;
    let governs: MentionStatus | undefined | null = null;
    for (let j = first; j <= i; j++) {
      if (!wanted(j)) continue;
      if (governs === null) governs = listGovernor(text, mentions[first]!, mentions[i]!, clauses, sentences);
      const status =
        governs ?? statusOf(text, mentions[j]!, sentences, leads.at(mentions[j]!.start), (cues ??= cuesOf(text, date)));
      readings[j] = { status, list: first };
    }
    first = i + 1;
  }
  return { readings, lead: leads.next };
}

/** What governs a whole list (`head` its first name, `tail` its last) from before or after it: a prohibition, or a lead-in ending in a colon. */
function listGovernor(
  text: string,
  head: Span,
  tail: Span,
  clauses: readonly number[],
  sentences: readonly number[],
): MentionStatus | undefined {
  const [clauseStart] = around(clauses, head.start, text.length);
  const [sentenceStart] = around(sentences, head.start, text.length);
  const clause = text.slice(Math.max(clauseStart, head.start - WINDOW), head.start);
  // A list of examples (…，如甲胺磷、对硫磷) is governed by the clause before it as well.
  const from = EXAMPLES.test(clause) ? sentenceStart : clauseStart;
  if (FORBIDS_BEFORE.test(text.slice(Math.max(from, head.start - WINDOW), head.start))) return 'forbidden';
  // A prohibition after the list in its clause, or later in its sentence when the list is what the
  // sentence is about (nothing before it in its clause: 毒死蜱，自2016年起不得在蔬菜上使用), with no
  // word of use between.
  const subject = /^[\s\p{P}\p{S}\d]*$/u.test(text.slice(clauseStart, head.start));
  const [, end] = around(subject ? sentences : clauses, tail.end, text.length);
  const after = text.slice(tail.end, Math.min(end, tail.end + WINDOW));
  const a = FORBIDS_AFTER.exec(after);
  if (a && !USE_BETWEEN.test(after.slice(0, a.index))) return 'forbidden';
  // A lead-in in the same sentence: 限制使用的农药有：甲拌磷、…; 下列农药自2024年9月1日起禁止销售和使用：…
  const before = text.slice(Math.max(sentenceStart, head.start - WINDOW), head.start);
  if (!ENDS_WITH_COLON.test(before)) return undefined;
  const lead = leadIn(before);
  if (lead === 'forbids') return 'forbidden';
  if (lead === 'lists' && !hasDose(text.slice(tail.end, tail.end + WINDOW))) return 'listed';
  return undefined;
}

/** What a block holds once: where its cues are, where its colons are, and whether it tells of the past. */
interface Cues {
  tells: Matches;
  use: Matches;
  dose: Matches;
  pastYear: Matches;
  colons: number[];
  history: boolean;
}

function cuesOf(text: string, date: string): Cues {
  const year = Number(date.slice(0, 4));
  return {
    tells: new Matches(text, TELLS_OF),
    use: new Matches(text, USE),
    dose: new Matches(text, DOSE),
    // A year written in a sentence (1983年, not an edition's 2022年版) earlier than the year before the bulletin's: history.
    pastYear: new Matches(text, /(?:19|20)\d\d(?=\s*年(?!版|度|第))/, (m) => Number(m[0]) < year - 1),
    colons: ends(text, /[：:]/g),
    history: HISTORY.test(text),
  };
}

/** The last colon in [from, to), or -1. */
function lastColon(colons: readonly number[], from: number, to: number): number {
  const lo = countBelow(colons, to);
  const at = lo > 0 ? colons[lo - 1]! : -1;
  return at >= from ? at : -1;
}

/** How one name reads in its sentence, under the lead-in above it. */
function statusOf(
  text: string,
  span: Span,
  sentences: readonly number[],
  lead: LeadIn | undefined,
  cues: Cues,
): MentionStatus {
  const [sentenceStart, sentenceEnd] = around(sentences, span.start, text.length);
  const from = Math.max(sentenceStart, span.start - WINDOW);
  const to = Math.min(sentenceEnd + 1, span.end + WINDOW);
  // After a colon in its sentence, what precedes the colon is a lead-in, not this mention's instruction.
  const colon = lastColon(cues.colons, from, span.start);
  const own = colon >= 0 ? colon + 1 : from;
  if (cues.tells.within(from, span.start) || cues.tells.within(span.end, to) || cues.pastYear.within(own, span.start))
    return 'told';
  if (NAMED_BEFORE.test(text.slice(Math.max(from, span.start - 8), span.start))) return 'told';
  if (NAMED_AFTER.test(text.slice(span.end, span.end + 8))) return 'told';
  const dose = cues.dose.within(own, span.start) || cues.dose.within(span.end, to);
  if (cues.history && !dose) return 'told';
  if (dose) return 'recommended';
  const use = cues.use.within(own, span.start) || cues.use.within(span.end, to);
  if (use && productForm(text, span.start, span.end)) return 'recommended';
  if (lead === 'forbids') return 'forbidden';
  if (lead === 'lists') return 'listed';
  if (lead === 'recommends' || use) return 'recommended';
  return 'told';
}
