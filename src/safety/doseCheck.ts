/**
 * The dose check of a bulletin: each sentence, list item or table row that carries a citation
 * (`[^n]` with our definition, or `〔doc#idx〕`) and a dose fact is compared with the passages it
 * cites (doseAgreement.ts); every sentence's own dilution is checked against its rate and water; a
 * recommendation with a dose and no citation is `source-needed`; a cited passage the caller cannot
 * give is `passage-not-at-hand` (never a guess). Citations that name no platform passage (the
 * author's own footnotes, a draft's `〔title · kb_id〕`) are not checked. The passages come from the
 * caller's `lookup` (the citation cache, the verification cache). Line by line, without a Markdown
 * parser: the same blocks as the safety lint (blocks.ts). Pure.
 */
import { frontMatter } from '../bulletin/frontMatter';
import { parseDefinitionBody, parseRawCitation } from '../citations/citation';
import { blocksOf, type Block } from './blocks';
import { fold } from './dictionary';
import { readDoses, readFolded, targetPattern, type DoseFact, type DoseReading, type FactKind } from './dose';
import { foldForDoses } from './doseProducts';
import { arithmeticErrors, disagreements, numberText, type PassageValue, type ReadPassage } from './doseAgreement';
import { isDelimiterRow, readTableRow } from './doseTable';
import { dictionaryOf } from './lint';
import { boundsOf, readMentions } from './reading';
import { partitionSilenced } from './silence';
import type { RuleSet } from './types';

export type DoseCode =
  'dose-mismatch' | 'dose-arithmetic' | 'dose-unsupported' | 'source-needed' | 'passage-not-at-hand';

/** The codes, in the order of their gravity. */
export const DOSE_CODES: readonly DoseCode[] = [
  'dose-mismatch',
  'dose-arithmetic',
  'dose-unsupported',
  'source-needed',
  'passage-not-at-hand',
];

/** The codes that tell of a wrong dose, which must not be published: `shunong check` counts them as problems, and the export asks first. */
export const DOSE_PROBLEMS: ReadonlySet<DoseCode> = new Set(['dose-mismatch', 'dose-arithmetic']);

/** A passage as the caller keeps it; `changed`: verification found the platform's text changed, and this is the current text. */
export interface PassageText {
  text: string;
  changed?: boolean | undefined;
}

/** One finding of the dose check. Offsets are UTF-16 in the bulletin; line and character 0-based. */
export interface DoseFinding {
  code: DoseCode;
  offset: number;
  length: number;
  line: number;
  character: number;
  /** The ingredient concerned (its dictionary name; a mixture joined by `·`). */
  ingredient?: string | undefined;
  /** The kind of fact. */
  kind?: FactKind | 'product' | undefined;
  /** The sentence's value as written. */
  written?: string | undefined;
  /** The cited passages (`doc#idx`): those compared, or the one not at hand. */
  citations: string[];
  /** What the passage says instead (a mismatch): its words, its value in the sentence's units, where it goes. */
  passage?: PassageValue | undefined;
  /** The passage compared was the platform's current text, which differs from the one cited. */
  changed?: boolean | undefined;
  /** A dilution's arithmetic: the dilution written and the one its rate and water spell out. */
  arithmetic?: { written: string; spelled: string } | undefined;
  /** The sentence's text (for a search for a source). */
  sentence: string;
  /** Silenced by a `shunong-disable-next-line` comment. */
  silenced?: true | undefined;
}

export interface DoseCheckOptions {
  rules: RuleSet;
  /** The passage cited as `doc#idx`, or undefined when it is not at hand. */
  lookup: (citation: string) => PassageText | undefined;
  /** The bulletin's date (YYYY-MM-DD), for reading a recommendation. */
  date: string;
}

const REF = /\[\^([^\]\s]+)\](?!:)/g;
const INLINE = /〔([^〔〕\n]+)〕/g;
const DEFINITION = /^\[\^([^\]\s]+)\]:(.*)$/;
const SENTENCE_END = /[。！？；;!?\n]/g;

/** Our definitions' `doc#idx`, by label. */
function definitionsOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = DEFINITION.exec(line.replace(/\r$/, ''));
    if (!m || out.has(m[1]!)) continue;
    const body = parseDefinitionBody(m[2]!);
    if (body?.parsed.ok) out.set(m[1]!, `${body.parsed.citation.docName}#${body.parsed.citation.chunkIndex}`);
  }
  return out;
}

interface Cite {
  at: number;
  citation: string;
}

/** The platform passages a block cites, with where. */
function citesOf(text: string, defs: ReadonlyMap<string, string>): Cite[] {
  const out: Cite[] = [];
  REF.lastIndex = 0;
  for (let m = REF.exec(text); m; m = REF.exec(text)) {
    const c = defs.get(m[1]!);
    if (c) out.push({ at: m.index, citation: c });
  }
  INLINE.lastIndex = 0;
  for (let m = INLINE.exec(text); m; m = INLINE.exec(text)) {
    const p = parseRawCitation(m[1]!);
    if (p.ok) out.push({ at: m.index, citation: `${p.citation.docName}#${p.citation.chunkIndex}` });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** The sentences of a block: [start, end) each, a citation right after a sentence's end counted in it. */
function sentencesOf(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) {
    let end = m.index + 1;
    const tail = /^(?:\s*(?:\[\^[^\]\s]+\]|〔[^〔〕\n]+〕))+/.exec(text.slice(end));
    if (tail && m[0] !== '\n') end += tail[0].length;
    out.push([start, end]);
    start = end;
    SENTENCE_END.lastIndex = end;
  }
  if (start < text.length) out.push([start, text.length]);
  return out;
}

/** Line starts of a text, for positions. */
function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

function position(starts: readonly number[], offset: number): { line: number; character: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - starts[lo]! };
}

/** A number with a unit of dose, dilution, days or times: a block without one states no dose fact. */
const DOSE_CUE =
  // Stryker disable next-line Regex: the cue only spares reading a block that states no dose; a wider cue lets the reader find none there itself
  /[\d０-９一二两三四五六七八九十][\s\d０-９.．%％~～\-—–至到]*(?:毫升|[mMＭｍ][lLＬｌ]|升|[lLＬｌ]|千克|公斤|[kKＫｋ][gGＧｇ]|克|[gGＧｇ]|斤|倍|天|[dDＤｄ]|日|次)/;

const HEADER_CUE = /用量|用药量|剂量|倍|间隔|次数|兑水|喷液量/;

const LIST_OR_ROW = /^\s*(?:[-*+]|\d{1,9}[.)])[ \t]|^\s*\|/;

/** The dose check's memo of one run: the rules' dictionary and targets, the passages read. */
class Run {
  readonly dictionary;
  readonly targets: RegExp;
  private readonly passages = new Map<string, (ReadPassage & { changed: boolean }) | null>();

  constructor(readonly options: DoseCheckOptions) {
    this.dictionary = dictionaryOf(options.rules);
    this.targets = targetPattern(options.rules);
  }

  passage(citation: string): (ReadPassage & { changed: boolean }) | undefined {
    let p = this.passages.get(citation);
    if (p === undefined) {
      const got = this.options.lookup(citation);
      p = got
        ? { text: got.text, reading: readDoses(got.text, this.dictionary, this.targets), changed: !!got.changed }
        : null;
      this.passages.set(citation, p);
    }
    return p ?? undefined;
  }
}

/** The dose findings of a bulletin, silenced ones marked, in document order. */
export function checkDoses(markdown: string, options: DoseCheckOptions): DoseFinding[] {
  // Stryker disable next-line BooleanLiteral: a memo kept changes how soon, not what, a check finds
  return new DoseChecker(false).check(markdown, options);
}

/** A finding relative to its block (offsets from the block's start), as the memo keeps it. */
type Relative = Omit<DoseFinding, 'line' | 'character' | 'silenced'>;

function moved(f: Relative, by: number): DoseFinding {
  const passage = f.passage && {
    ...f.passage,
    replace: f.passage.replace && { start: f.passage.replace.start + by, end: f.passage.replace.end + by },
  };
  return { ...f, offset: f.offset + by, line: 0, character: 0, ...(passage ? { passage } : {}) };
}

/**
 * The dose check of one document as it is edited: each block's findings are kept by what they
 * depend on (its text, its table's header, the passages it cites, the date), so a keystroke
 * re-checks its block, and an edited definition or a passage arriving re-checks the blocks that
 * cite it. A memo per document, held by its caller; new rules start it afresh.
 */
export class DoseChecker {
  private memo = new Map<string, Relative[]>();
  private rules: RuleSet | undefined;

  /** `keep`: remember each block's findings for the next check (a one-off check need not). */
  // Stryker disable next-line BooleanLiteral: a memo kept changes how soon, not what, a check finds
  constructor(private readonly keep = true) {}

  check(markdown: string, options: DoseCheckOptions): DoseFinding[] {
    if (options.rules !== this.rules) {
      this.memo.clear();
      this.rules = options.rules;
    }
    const blanked = frontMatter(markdown).blanked;
    // Stryker disable next-line ConditionalExpression,Regex: a text without a digit states no dose; the return only spares reading it
    if (!/\d/.test(blanked)) return [];
    const run = new Run(options);
    const defs = definitionsOf(blanked);
    const kept = new Map<string, Relative[]>();
    const out: DoseFinding[] = [];
    let header: string | undefined;
    let lastRowEnd = -1;
    for (const block of blocksOf(blanked)) {
      if (block.heading || DEFINITION.test(block.text)) continue;
      const row = /^\s*\|/.test(block.text);
      if (row) {
        const next = /^\r?\n$/.test(blanked.slice(lastRowEnd, block.start));
        if (!next || header === undefined) header = block.text;
        lastRowEnd = block.start + block.text.length;
        if (header === block.text || isDelimiterRow(block.text)) continue;
      } else header = undefined;
      // A table row's units may be in its header (`亩用量（毫升）`, `安全间隔期（天）`).
      // Stryker disable next-line ConditionalExpression,LogicalOperator,Regex: the cue only spares reading a block that states no dose
      if (!DOSE_CUE.test(block.text) && !(row && /\d/.test(block.text) && HEADER_CUE.test(header!))) continue;
      const cites = citesOf(block.text, defs);
      // Stryker disable next-line BooleanLiteral,ConditionalExpression,BlockStatement: both ways find the same; this one keeps no memo
      if (!this.keep) {
        out.push(...(blockFindings(block, header, row, cites, run) as DoseFinding[]));
        continue;
      }
      const key = [
        block.text,
        row ? header : '',
        options.date,
        ...cites.map((c) => {
          const p = options.lookup(c.citation);
          return `${c.citation}\u0001${p ? `${p.changed ? 1 : 0}${p.text}` : ''}`;
        }),
      ].join('\u0000');
      let found = kept.get(key) ?? this.memo.get(key);
      // Stryker disable next-line ConditionalExpression: a block found in the memo, checked again, finds the same
      if (!found) found = blockFindings({ ...block, start: 0 }, header, row, cites, run);
      kept.set(key, found);
      for (const f of found) out.push(moved(f, block.start));
    }
    this.memo = kept;
    const starts = lineStarts(markdown);
    for (const f of out) Object.assign(f, position(starts, f.offset));
    const { silenced } = partitionSilenced(
      out.map((f) => ({ f, line: f.line, rule: { id: f.code } })),
      markdown,
    );
    for (const { f } of silenced) f.silenced = true;
    return out.sort((a, b) => a.offset - b.offset);
  }
}

/** The findings of one block, read (offsets from `block.start`). */
function blockFindings(
  block: Block,
  header: string | undefined,
  row: boolean,
  cites: readonly Cite[],
  run: Run,
): Relative[] {
  const folded = foldForDoses(fold(block.text));
  // The pests and crops a sentence names matter only where it is compared with a passage.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a sentence citing nothing is compared with nothing, so its targets are never read
  const targets = cites.length > 0 ? run.targets : undefined;
  const reading = row
    ? readTableRow(block.text, header!, run.dictionary, targets)
    : readFolded(folded, run.dictionary, targets);
  // Stryker disable next-line ConditionalExpression: a block without facts has no sentence to check; the return only spares looking
  if (reading.facts.length === 0) return [];
  return checkBlock(block, folded, reading, cites, run);
}

/** The findings of one block (a paragraph, list item or table row) whose doses have been read. */
function checkBlock(
  block: Block,
  folded: string,
  reading: DoseReading,
  cites: readonly Cite[],
  run: Run,
): DoseFinding[] {
  const text = block.text;
  const out: DoseFinding[] = [];
  const sentences = /^\s*\|/.test(text) ? [[0, text.length] as [number, number]] : sentencesOf(text);
  const blockCites = LIST_OR_ROW.test(text) ? cites : [];
  for (const [s, e] of sentences) {
    const facts = reading.facts.filter((f) => f.start >= s && f.start < e);
    if (facts.length === 0) continue;
    const sentence = text.slice(s, e);
    const at = (start: number, end: number) => ({
      offset: block.start + start,
      length: end - start,
      line: 0,
      character: 0,
    });
    for (const a of arithmeticErrors(facts)) {
      out.push({
        code: 'dose-arithmetic',
        ...at(a.dilution.start, a.dilution.end),
        kind: 'dilution',
        written: text.slice(a.dilution.valueStart, a.dilution.valueEnd),
        citations: [],
        arithmetic: {
          written: text.slice(a.dilution.valueStart, a.dilution.valueEnd),
          spelled: numberText(Math.round((a.spelled.min + a.spelled.max) / 2)),
        },
        sentence,
      });
    }
    const own = cites.filter((c) => c.at >= s && c.at < e);
    const cited = [...new Set((own.length ? own : blockCites).map((c) => c.citation))];
    const products = reading.products.flatMap((p, i) => (p.start >= s && p.start < e ? [i] : []));
    if (cited.length === 0) {
      if (!hasCitation(sentence) && recommends(run, folded, reading, facts, s, e))
        out.push({ code: 'source-needed', ...at(s + lead(sentence), e), citations: [], sentence: sentence.trim() });
      continue;
    }
    const missing = cited.filter((c) => run.passage(c) === undefined);
    if (missing.length > 0) {
      const first = facts[0]!;
      for (const c of missing)
        out.push({
          code: 'passage-not-at-hand',
          ...at(first.start, first.end),
          citations: [c],
          sentence: sentence.trim(),
        });
      continue;
    }
    const passages = cited.map((c) => run.passage(c)!);
    const changed = passages.some((p) => p.changed);
    for (const d of disagreements(text, reading, facts, products, passages)) {
      const span = d.fact;
      out.push({
        code: d.code,
        ...at(span.start, span.end),
        ingredient: d.ingredient || undefined,
        kind: d.kind,
        written: 'valueStart' in span ? text.slice(span.valueStart, span.end) : text.slice(span.start, span.end),
        citations: cited,
        ...(d.code === 'dose-mismatch'
          ? { passage: { ...d.passage, replace: d.passage.replace && shift(d.passage.replace, block.start) } }
          : {}),
        ...(changed ? { changed: true } : {}),
        sentence: sentence.trim(),
      });
    }
  }
  return out;
}

function shift(r: { start: number; end: number }, by: number): { start: number; end: number } {
  return { start: r.start + by, end: r.end + by };
}

function lead(s: string): number {
  return s.length - s.trimStart().replace(/^(?:[-*+]|\d{1,9}[.)])\s+/, '').length;
}

/** A citation of any kind (the author's own footnote, a draft's `〔title · kb_id〕`): not a sentence without a source. */
function hasCitation(sentence: string): boolean {
  return /\[\^[^\]\s]+\]|〔[^〔〕\n]+〕/.test(sentence);
}

/** Whether a sentence recommends a product with a dose (the safety lint's reading of its mentions). */
function recommends(
  run: Run,
  folded: string,
  reading: DoseReading,
  facts: readonly DoseFact[],
  s: number,
  e: number,
): boolean {
  if (!facts.some((f) => f.kind === 'rate' || f.kind === 'dilution')) return false;
  // The sentence alone is read: what it does with the products it names.
  const mentions = reading.products
    .filter((p) => p.start >= s && p.start < e)
    .map((p) => ({ start: p.start - s, end: Math.min(p.end, e) - s }));
  if (mentions.length === 0) return false;
  const sentence = folded.slice(s, e);
  const { readings } = readMentions(
    sentence,
    mentions,
    () => true,
    undefined,
    false,
    run.options.date,
    boundsOf(sentence),
  );
  return readings.some((r) => r?.status === 'recommended');
}
