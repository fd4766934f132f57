/**
 * The safety lint of a Markdown bulletin: every mention of a pesticide that a rule in force on the
 * bulletin's date (bulletin/date.ts) concerns. Only a recommendation (reading.ts: a dose, a
 * dilution, an instruction of use) is an error, or a warning "if used on …" where a scope ban's
 * crop cannot be told; a prohibition, a list under one, history and the like are not. The crop of a
 * mention is that of its clause, else the nearest one named before it in its block, else the one
 * carried down from the paragraphs and headings above it in its section, else the title's, else
 * the front matter's `crop:`. A note (a ban coming within six months, restricted use) is given
 * once per list. One finding per mention, the gravest. Pure.
 */
import { bulletinDate } from '../bulletin/date';
import { frontMatter } from '../bulletin/frontMatter';
import { blocksOf } from './blocks';
import { Crops } from './crops';
import type { LeadIn } from './cues';
import { countBelow, Matches } from './matches';
import { around, boundsOf, readMentions, type Bounds } from './reading';
import { escapeRegExp } from '../text/regExp';
import { Dictionary, fold, type Hit } from './dictionary';
import type { RuleSet, SafetyFinding, SafetyRule } from './types';

/** The lint's inputs beside the text: today in Beijing (YYYY-MM-DD), and a crop when the caller knows one. */
export interface SafetyOptions {
  today: string;
  crop?: string;
}

/** How far ahead a ban is worth telling the author about. */
export const UPCOMING_MONTHS = 6;

type Relative = Omit<SafetyFinding, 'line' | 'character'>;
/** What a rule says of one mention. */
type Judged = Pick<SafetyFinding, 'severity' | 'upcoming' | 'crop' | 'conditional'>;

interface Compiled {
  dictionary: Dictionary;
  crops: Crops;
}

const compiled = new WeakMap<RuleSet, Compiled>();

function compile(rules: RuleSet): Compiled {
  let c = compiled.get(rules);
  // Stryker disable next-line ConditionalExpression: a cache; compiling again gives the same dictionary
  if (!c) compiled.set(rules, (c = { dictionary: new Dictionary(rules), crops: new Crops(rules) }));
  return c;
}

/** The dictionary of a rule set, built once (the forecast check reads its pesticide names too). */
export function dictionaryOf(rules: RuleSet): Dictionary {
  return compile(rules).dictionary;
}

/** The date `months` after a YYYY-MM-DD date (the day kept, or the month's last). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  // Stryker disable next-line StringLiteral: the year's padding matters only before the year 1000
  const yyyy = String(year).padStart(4, '0');
  return `${yyyy}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** Lints a bulletin once. */
export function lintSafety(markdown: string, rules: RuleSet, options: SafetyOptions): SafetyFinding[] {
  return new SafetyLinter(rules).lint(markdown, options);
}

/** A block as the dictionary reads it: its pesticide names, crops (with their clauses) and uses. */
interface Scan {
  /** The block folded to simplified script and Latin lower case, as every reading sees it. */
  folded: string;
  bounds: Bounds;
  pesticides: Hit[];
  crops: { start: number; crop: string; clause: number }[];
  /** The crops each clause names (by its index), in order, once each. */
  byClause: Map<number, string[]>;
  uses: string[];
}

/** What a block reads as under what precedes it: its findings and the lead-in it leaves. */
interface Linted {
  found: Relative[];
  lead: LeadIn | undefined;
}

const HEADING_LEVEL = /^ {0,3}(#{1,6})/;
/**
 * A crop word that begins a pest's species name or a product's (甘蓝夜蛾, 甘蓝夜蛾核型多角体病毒, 玉米螟,
 * 棉铃虫) does not name the crop; one before a pest it only hosts (白菜蚜虫) does.
 */
const PEST_AFTER = /(?:夜蛾|螟|铃虫|食心虫|吸浆虫|象甲|潜叶蝇|卷叶|尺蠖|瘿蚊|核型多角体)/y;

/**
 * The lint for a document being typed in: a block whose text, bulletin date, carried crops and
 * lead-in are as they were is not read again, and a block's dictionary scan is kept by its text,
 * so a keystroke costs one block's scan (and the cut into blocks).
 */
export class SafetyLinter {
  private readonly c: Compiled;
  private previous = new Map<string, Linted>();
  private scans = new Map<string, Scan>();

  constructor(rules: RuleSet) {
    this.c = compile(rules);
  }

  lint(markdown: string, options: SafetyOptions): SafetyFinding[] {
    const fm = frontMatter(markdown);
    const { date } = bulletinDate(markdown, options.today);
    const fallback = this.cropsOfText(fm.fields['title']);
    const bulletinCrops = this.cropsOfText(fm.fields['crop'] ?? options.crop);
    const document = fallback.length > 0 ? fallback : bulletinCrops;
    // What the whole bulletin is about (its title's crops and its `crop:`): a group named in a block (果园) means these.
    const known = [...new Set([...fallback, ...bulletinCrops])];
    const next = new Map<string, Linted>();
    const scans = new Map<string, Scan>();
    const out: SafetyFinding[] = [];
    const lines = lineStarts(markdown);
    // The crops carried down each heading level: [0] the document's, [n] those of the section under an hn.
    const carried: (readonly string[])[] = [document];
    let lead: LeadIn | undefined;
    for (const block of blocksOf(withoutComments(fm.blanked))) {
      const scan = scans.get(block.text) ?? this.scans.get(block.text) ?? this.scan(block.text);
      scans.set(block.text, scan);
      if (block.heading) {
        const level = HEADING_LEVEL.exec(block.text)![1]!.length;
        const parent = carried[Math.min(level - 1, carried.length - 1)]!;
        // A level skipped (an h3 right under an h1) carries its parent's crops, so every level has some.
        while (carried.length < level) carried.push(parent);
        carried.length = level;
        carried[level] = scan.crops.length > 0 ? lastCrops(scan) : parent;
      }
      const above = carried[carried.length - 1]!;
      const key = `${date}\u0000${known.join(',')}\u0000${above.join(',')}\u0000${lead ?? ''}\u0000${block.heading}\u0000${block.text}`;
      // Stryker disable next-line LogicalOperator,ConditionalExpression: a cache; a block linted again gives the same findings
      const linted =
        next.get(key) ??
        this.previous.get(key) ??
        this.lintBlock(block.text, block.heading, scan, date, above, known, lead);
      next.set(key, linted);
      lead = linted.lead;
      if (!block.heading && scan.crops.length > 0) carried[carried.length - 1] = lastCrops(scan);
      for (const f of linted.found) {
        const offset = block.start + f.offset;
        const line = lineAt(lines, offset);
        out.push({ ...f, offset, line, character: offset - lines[line]! });
      }
    }
    this.previous = next;
    this.scans = scans;
    return out;
  }

  /** The crops a front matter value or a caller names: a known name, else those named in it. */
  private cropsOfText(value: string | undefined): string[] {
    if (!value) return [];
    const known = this.c.crops.crop(value);
    return known ? [known] : [...new Set(this.scan(value).crops.map((c) => c.crop))];
  }

  /** A block's names, read in its folded text (simplified script, the same length: offsets stay the author's). */
  private scan(original: string): Scan {
    const text = fold(original);
    const hits = this.c.dictionary.scanFolded(text);
    const bounds = boundsOf(text);
    const clauses = bounds.clauses;
    const scan: Scan = { folded: text, bounds, pesticides: [], crops: [], byClause: new Map(), uses: [] };
    let clause = 0;
    for (const h of hits) {
      if (h.entry.kind === 'pesticide') scan.pesticides.push(h);
      else if (h.entry.kind === 'use') scan.uses.push(h.entry.use);
      else if (h.entry.kind === 'crop' && !pestAfter(text, h.end)) {
        while (clause < clauses.length && clauses[clause]! < h.start) clause++;
        scan.crops.push({ start: h.start, crop: h.entry.crop, clause });
        const named = scan.byClause.get(clause) ?? [];
        if (!named.includes(h.entry.crop)) scan.byClause.set(clause, [...named, h.entry.crop]);
      }
    }
    return scan;
  }

  /** The findings of one block, offsets relative to it. */
  private lintBlock(
    text: string,
    heading: boolean,
    scan: Scan,
    date: string,
    above: readonly string[],
    bulletinCrops: readonly string[],
    lead: LeadIn | undefined,
  ): Linted {
    const original = text;
    text = scan.folded;
    const ruled = (i: number): boolean => {
      const { entry } = scan.pesticides[i]!;
      return entry.kind === 'pesticide' && entry.rules.length > 0;
    };
    const read = readMentions(text, scan.pesticides, ruled, lead, heading, date, scan.bounds);
    const { clauses, sentences } = scan.bounds;
    const soon = addMonths(date, UPCOMING_MONTHS);
    const found: Relative[] = [];
    const noted = new Set<number>();
    const exceptions = new Map<SafetyRule, Matches>();
    const exceptedIn = (rule: SafetyRule): Matches => {
      let m = exceptions.get(rule);
      if (!m) exceptions.set(rule, (m = new Matches(text, exceptPattern(rule))));
      return m;
    };
    let clause = 0;
    let cropAt = 0;
    scan.pesticides.forEach((h, i) => {
      const reading = read.readings[i];
      if (h.entry.kind !== 'pesticide' || !reading || reading.status === 'forbidden') return;
      while (clause < clauses.length && clauses[clause]! < h.start) clause++;
      while (cropAt < scan.crops.length && scan.crops[cropAt]!.start < h.start) cropAt++;
      const crops = this.narrowed(cropsFor(scan, clause, cropAt, above, bulletinCrops), bulletinCrops);
      const [from, to] = around(sentences, h.start, text.length);
      let best: { rule: SafetyRule; judged: Judged; rank: number } | undefined;
      for (const rule of h.entry.rules) {
        if (rule.scope?.except && exceptedIn(rule).within(from, to) && this.exceptedOn(rule, crops)) continue;
        const inForce = rule.effective <= date;
        const upcoming = !inForce && rule.effective <= soon;
        if (!inForce && !upcoming) continue;
        const judged = this.judge(rule, inForce, upcoming, crops, scan.uses, reading.status === 'recommended');
        if (!judged) continue;
        const r = rank(rule, judged);
        if (!best || r > best.rank) best = { rule, judged, rank: r };
      }
      if (!best) return;
      const { rule, judged } = best;
      const finding: Relative = {
        rule,
        mention: original.slice(h.start, h.end),
        offset: h.start,
        length: h.end - h.start,
        date,
        ...judged,
      };
      // A note (restricted use, a coming ban) is given once per list, not on every name.
      const list = reading.list * 8 + KIND_INDEX[rule.kind] * 2 + (judged.upcoming ? 1 : 0);
      if (judged.severity === 'information' && noted.has(list)) return;
      noted.add(list);
      found.push(finding);
    });
    return { found, lead: read.lead };
  }

  /**
   * A group of crops named (果树, 果园, 蔬菜) stands for the members of it the bulletin is about
   * (a 柑橘 bulletin's 果园 is its citrus orchard), where its title or `crop:` names one.
   */
  private narrowed(crops: readonly string[], known: readonly string[]): readonly string[] {
    if (known.length === 0) return crops;
    const out = crops.flatMap((c) => {
      const members = known.filter((k) => k !== c && this.c.crops.lineage(k).has(c));
      return members.length > 0 ? members : [c];
    });
    return [...new Set(out)];
  }

  /** Whether a rule's exception holds on these crops (any crop, or none named, when it names none). */
  private exceptedOn(rule: SafetyRule, crops: readonly string[]): boolean {
    const on = rule.scope?.exceptOn;
    return !on || crops.every((c) => on.some((o) => this.c.crops.lineage(c).has(this.c.crops.crop(o) ?? o)));
  }

  /** What a rule in force (or coming) says of a mention with these crops and uses around it. */
  private judge(
    rule: SafetyRule,
    inForce: boolean,
    upcoming: boolean,
    crops: readonly string[],
    uses: readonly string[],
    recommended: boolean,
  ): Judged | undefined {
    // Only a recommendation is an error or a warning; a mention that is not one may still be worth a note.
    const grave = inForce && recommended ? 'error' : inForce ? undefined : 'information';
    switch (rule.kind) {
      case 'banned':
        return grave && { severity: grave, upcoming, conditional: false };
      case 'scope': {
        const crop =
          crops.find((c) => this.c.crops.inScope(rule, c)) ?? uses.find((u) => rule.scope?.uses?.includes(u));
        if (crop) return grave && { severity: grave, upcoming, crop, conditional: false };
        if (crops.length > 0 || uses.length > 0) return undefined;
        // A ban on every crop needs no crop named: it is an error wherever it is recommended.
        if (this.c.crops.everyCrop(rule)) return grave && { severity: grave, upcoming, conditional: false };
        if (!inForce) return { severity: 'information', upcoming, conditional: true };
        return recommended ? { severity: 'warning', upcoming, conditional: true } : undefined;
      }
      case 'restricted':
        return inForce ? { severity: 'information', upcoming: false, conditional: false } : undefined;
    }
  }
}

/** Whether a pest's or a product's name goes on at `at` (a sticky match there, no slice made). */
function pestAfter(text: string, at: number): boolean {
  PEST_AFTER.lastIndex = at;
  return PEST_AFTER.test(text);
}

/** The crops of the last clause of a block that names any. */
function lastCrops(scan: Scan): readonly string[] {
  return scan.byClause.get(scan.crops[scan.crops.length - 1]!.clause)!;
}

/**
 * The crops a mention is about: those of its clause; else of the nearest clause before it in its
 * block that names one; else those carried from above (the paragraphs and headings of its section,
 * the title); else the front matter's `crop:`; else those named later in its block.
 */
function cropsFor(
  scan: Scan,
  clause: number,
  before: number,
  above: readonly string[],
  bulletinCrops: readonly string[],
): readonly string[] {
  const own = scan.byClause.get(clause);
  if (own) return own;
  if (before > 0) return scan.byClause.get(scan.crops[before - 1]!.clause)!;
  if (above.length > 0) return above;
  if (bulletinCrops.length > 0) return bulletinCrops;
  return scan.crops.length > 0 ? lastCrops(scan) : [];
}

const exceptPatterns = new WeakMap<SafetyRule, RegExp>();

/** A rule's exception words as one pattern (the text it is matched in is folded to lower case). */
function exceptPattern(rule: SafetyRule): RegExp {
  let p = exceptPatterns.get(rule);
  if (!p) {
    const words = (rule.scope?.except ?? []).map((w) => escapeRegExp(w.toLowerCase()));
    exceptPatterns.set(rule, (p = new RegExp(words.join('|'), 'g')));
  }
  return p;
}

const SEVERITY_RANK = { error: 4, warning: 3, information: 1 } as const;
/** A rule kind as a number, for the key of a note given once per list. */
const KIND_INDEX = { banned: 0, scope: 1, restricted: 2 } as const;
const KIND_RANK = { banned: 0.3, scope: 0.2, restricted: 0.1 } as const;

/** Graver first: a ban in force, then a scope ban that may apply, then a coming ban, then restricted use. */
function rank(rule: SafetyRule, judged: Judged): number {
  return SEVERITY_RANK[judged.severity] + (judged.upcoming ? 1 : 0) + KIND_RANK[rule.kind];
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * The text with its HTML comments blanked (their line breaks kept, so every offset stays): a comment
 * is not published (an author's note, a `shunong-disable-next-line carbofuran-736` directive).
 */
export function withoutComments(text: string): string {
  return text.includes('<!--') ? text.replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\r\n]/g, ' ')) : text;
}

/** The line that holds an offset: the last that starts at or before it. */
function lineAt(starts: readonly number[], offset: number): number {
  return countBelow(starts, offset + 1) - 1;
}
