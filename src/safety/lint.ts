/**
 * The safety lint of a Markdown bulletin: every mention of a pesticide that a rule in force on the
 * bulletin's date concerns, unless the mention forbids or replaces it (see clauses.ts). The date is
 * the front matter's `date:`, else today in Beijing; a scope rule applies when the crop the mention
 * is about is within its scope, the crop being the first named of: the mention's own block, the
 * headings above it (innermost first), the front matter's `crop:`. Where none is named, a scope ban
 * is reported as "if used on …". One finding per mention, the gravest. Pure.
 */
import { frontMatter } from '../bulletin/frontMatter';
import { blocksOf, type Block } from './blocks';
import { isProhibited } from './clauses';
import { Crops } from './crops';
import { Dictionary, type Hit } from './dictionary';
import type { RuleSet, SafetyFinding, SafetyRule } from './types';

/** The lint's inputs beside the text: today in Beijing (YYYY-MM-DD), and a crop when the caller knows one. */
export interface SafetyOptions {
  today: string;
  crop?: string;
}

/** How far ahead a ban is worth telling the author about. */
export const UPCOMING_MONTHS = 6;

type Relative = Omit<SafetyFinding, 'line' | 'character'>;

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

/** A real calendar date written YYYY-MM-DD at the start of `s`, if there is one. */
function dateIn(s: string | undefined): string | undefined {
  // Stryker disable next-line StringLiteral: any text without a date reads as no date, like ''
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s ?? '');
  if (!m) return undefined;
  const t = new Date(`${m[0]}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().startsWith(m[0]) ? m[0] : undefined;
}

/** Lints a bulletin once. */
export function lintSafety(markdown: string, rules: RuleSet, options: SafetyOptions): SafetyFinding[] {
  return new SafetyLinter(rules).lint(markdown, options);
}

/**
 * The lint for a document being typed in: a block whose text, headings and bulletin date and crop
 * are as they were is not read again, so a keystroke costs one block's scan (and the cut into blocks).
 */
export class SafetyLinter {
  private readonly c: Compiled;
  private previous = new Map<string, Relative[]>();
  private readonly headingCrops = new Map<string, string[]>();

  constructor(rules: RuleSet) {
    this.c = compile(rules);
  }

  lint(markdown: string, options: SafetyOptions): SafetyFinding[] {
    const fm = frontMatter(markdown);
    const date = dateIn(fm.fields['date']) ?? options.today;
    const bulletinCrop = this.cropOf(fm.fields['crop']) ?? this.cropOf(options.crop);
    const context = `${date}\u0000${bulletinCrop ?? ''}\u0000`;
    const next = new Map<string, Relative[]>();
    const out: SafetyFinding[] = [];
    const lines = lineStarts(markdown);
    for (const block of blocksOf(fm.blanked)) {
      const key = `${context}${block.headings.join('\u0001')}\u0000${block.text}`;
      // Stryker disable next-line LogicalOperator,ConditionalExpression: a cache; a block linted again gives the same findings
      let found = next.get(key) ?? this.previous.get(key);
      // Stryker disable next-line ConditionalExpression: the same cache
      if (!found) found = this.lintBlock(block, date, bulletinCrop);
      next.set(key, found);
      for (const f of found) {
        const offset = block.start + f.offset;
        const line = lineAt(lines, offset);
        out.push({ ...f, offset, line, character: offset - lines[line]! });
      }
    }
    this.previous = next;
    return out;
  }

  /** The crop a front matter value or caller names (a known name, or the first crop named in it). */
  private cropOf(value: string | undefined): string | undefined {
    if (!value) return undefined;
    return this.c.crops.crop(value) ?? this.cropsIn(this.c.dictionary.scan(value))[0];
  }

  private cropsIn(hits: readonly Hit[]): string[] {
    const out: string[] = [];
    for (const h of hits) if (h.entry.kind === 'crop' && !out.includes(h.entry.crop)) out.push(h.entry.crop);
    return out;
  }

  private cropsOfHeading(heading: string): string[] {
    let crops = this.headingCrops.get(heading);
    // Stryker disable next-line ConditionalExpression: a cache; a heading scanned again names the same crops
    if (!crops) this.headingCrops.set(heading, (crops = this.cropsIn(this.c.dictionary.scan(heading))));
    return crops;
  }

  /** The findings of one block, offsets relative to it. */
  private lintBlock(block: Block, date: string, bulletinCrop: string | undefined): Relative[] {
    const hits = this.c.dictionary.scan(block.text);
    // Stryker disable next-line all: a shortcut; without it the loop below finds nothing either
    if (!hits.some((h) => h.entry.kind === 'pesticide' && h.entry.rules.length > 0)) return [];
    let crops = this.cropsIn(hits);
    for (let i = block.headings.length - 1; crops.length === 0 && i >= 0; i--)
      crops = this.cropsOfHeading(block.headings[i]!);
    if (crops.length === 0 && bulletinCrop) crops = [bulletinCrop];
    const uses = hits.flatMap((h) => (h.entry.kind === 'use' ? [h.entry.use] : []));
    const lower = block.text.toLowerCase();
    const soon = addMonths(date, UPCOMING_MONTHS);
    const out: Relative[] = [];
    for (const h of hits) {
      // Stryker disable next-line ConditionalExpression: a name without rules loops over none
      if (h.entry.kind !== 'pesticide' || h.entry.rules.length === 0) continue;
      if (isProhibited(block.text, h.start, h.end)) continue;
      let best: Relative | undefined;
      for (const rule of h.entry.rules) {
        if (rule.scope?.except?.some((e) => lower.includes(e.toLowerCase()))) continue;
        const inForce = rule.effective <= date;
        const upcoming = !inForce && rule.effective <= soon;
        if (!inForce && !upcoming) continue;
        const f = this.judge(rule, inForce, upcoming, crops, uses);
        if (!f) continue;
        const candidate: Relative = {
          rule,
          mention: block.text.slice(h.start, h.end),
          offset: h.start,
          length: h.end - h.start,
          date,
          ...f,
        };
        if (!best || rank(candidate) > rank(best)) best = candidate;
      }
      if (best) out.push(best);
    }
    return out;
  }

  /** What a rule in force (or coming) says of a mention with these crops and uses around it. */
  private judge(
    rule: SafetyRule,
    inForce: boolean,
    upcoming: boolean,
    crops: readonly string[],
    uses: readonly string[],
  ): Pick<SafetyFinding, 'severity' | 'upcoming' | 'crop' | 'conditional'> | undefined {
    const grave = inForce ? 'error' : 'information';
    switch (rule.kind) {
      case 'banned':
        return { severity: grave, upcoming, conditional: false };
      case 'scope': {
        const crop =
          crops.find((c) => this.c.crops.inScope(rule, c)) ?? uses.find((u) => rule.scope?.uses?.includes(u));
        if (crop) return { severity: grave, upcoming, crop, conditional: false };
        if (crops.length > 0 || uses.length > 0) return undefined;
        return { severity: inForce ? 'warning' : 'information', upcoming, conditional: true };
      }
      case 'restricted':
        return inForce ? { severity: 'information', upcoming: false, conditional: false } : undefined;
    }
  }
}

const SEVERITY_RANK = { error: 4, warning: 3, information: 1 } as const;
const KIND_RANK = { banned: 0.3, scope: 0.2, restricted: 0.1 } as const;

/** Graver first: a ban in force, then a scope ban that may apply, then a coming ban, then restricted use. */
function rank(f: Relative): number {
  return SEVERITY_RANK[f.severity] + (f.upcoming ? 1 : 0) + KIND_RANK[f.rule.kind];
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
