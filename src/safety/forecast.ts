/**
 * The parts a forecast must state (农业农村部令2021年第6号《农作物病虫害监测与预报管理办法》, "the 2021
 * forecast rules"): the pest or disease, the time, the area, the severity, the control measures,
 * the issuing body and the issue date. A bulletin is a forecast when its front matter's `type:` is
 * `forecast`, 预报, 病虫情报 or 警报 (either script); each part it does not state is one finding, on
 * that `type:` line. The parts are read from the body's prose (code, comments and the front matter
 * left out, as the safety lint reads it) and the front matter's other fields (its `title:`, …):
 *
 * - pest: a name of the vocabulary (pests.ts);
 * - time, area, severity: their words (forecastCues.ts); the masthead's and closing block's lines
 *   (发布日期, 抄送, …) give no time or area;
 * - measures: a pesticide the safety reader (reading.ts) reads as recommended, or, for a product
 *   its dictionary does not know, a sentence with a dose and a word of use (product.ts, cues.ts);
 * - issuer: the front matter's `issuer:`, or a `发布单位：…` line;
 * - date: the front matter's `date:` (a value that is no day is the date note's, not this).
 *
 * The text is folded to simplified script first (dictionary.ts). Pure; linear in the text.
 */
import { bulletinDate } from '../bulletin/date';
import { frontMatter, type FrontMatter } from '../bulletin/frontMatter';
import { blocksOf, type Block } from './blocks';
import { USE, type LeadIn } from './cues';
import { fold, type Hit } from './dictionary';
import {
  CLOSING_LINE,
  DATED,
  FORECAST_TYPES,
  ISSUER_LINE,
  lineText,
  namesArea,
  PEST,
  SEVERITY,
  TIME,
} from './forecastCues';
import { dictionaryOf, withoutComments } from './lint';
import { hasDose } from './product';
import { boundsOf, readMentions } from './reading';
import type { RuleSet } from './types';

/** The parts, in the order their findings are given. */
export const FORECAST_PARTS = ['pest', 'time', 'area', 'severity', 'measures', 'issuer', 'date'] as const;
export type ForecastPart = (typeof FORECAST_PARTS)[number];

/** A finding's code (its rule id in `shunong check`). */
export type ForecastCode = `forecast-missing-${ForecastPart}`;

export function forecastCode(part: ForecastPart): ForecastCode {
  return `forecast-missing-${part}`;
}

/** A part a forecast does not state, and where its finding goes. */
export interface MissingForecastPart {
  part: ForecastPart;
  code: ForecastCode;
  /** The front matter's `type:` line: 0-based line and character, UTF-16 offset, and its length. */
  line: number;
  character: number;
  offset: number;
  length: number;
}

/**
 * The front matter fields not read for the pest, time, area and severity: what kind of bulletin it
 * is, its language, and who issued it when (an issuer's county is not the forecast's area).
 */
const OWN_FIELDS = new Set(['type', 'lang', 'date', 'issuer', 'author', 'issue']);

/** Whether a front matter `type:` value names a forecast. */
export function isForecastType(value: string | undefined): boolean {
  return value !== undefined && FORECAST_TYPES.includes(fold(value.trim()));
}

/** The parts a bulletin that is a forecast does not state; none for any other bulletin. */
export function missingForecastParts(
  markdown: string,
  rules: RuleSet,
  options: { today: string },
): MissingForecastPart[] {
  const fm = frontMatter(markdown);
  if (!isForecastType(fm.fields['type'])) return [];
  const blocks = blocksOf(withoutComments(fm.blanked));
  const lines = blocks.flatMap((b) => fold(b.text).split('\n').map(lineText));
  const fields = Object.entries(fm.fields)
    .filter(([key]) => !OWN_FIELDS.has(key))
    .map(([, value]) => fold(value));
  const said = [...fields, ...lines.filter((l) => !CLOSING_LINE.test(l))].join('\n');
  const given = (key: string): boolean => (fm.fields[key] ?? '').trim() !== '';
  const stated: Record<ForecastPart, () => boolean> = {
    pest: () => PEST.test(said),
    time: () => TIME.test(said.replace(DATED, ' ')),
    area: () => namesArea(said),
    severity: () => SEVERITY.test(said),
    measures: () => recommendsMeasures(blocks, rules, bulletinDate(fm, options.today).date),
    issuer: () => given('issuer') || lines.some((l) => ISSUER_LINE.test(l)),
    date: () => given('date'),
  };
  const at = typeLine(markdown, fm);
  return FORECAST_PARTS.filter((part) => !stated[part]()).map((part) => ({ part, code: forecastCode(part), ...at }));
}

/** Where the front matter's `type:` line is (it has one: the bulletin is a forecast by it), from its start to its last character. */
function typeLine(markdown: string, fm: FrontMatter): Omit<MissingForecastPart, 'part' | 'code'> {
  const line = fm.positions['type']?.line ?? 0;
  let offset = 0;
  for (let i = 0; i < line; i++) offset = markdown.indexOf('\n', offset) + 1;
  const end = markdown.indexOf('\n', offset);
  const length = markdown.slice(offset, end < 0 ? undefined : end).trimEnd().length;
  return { line, character: 0, offset, length };
}

/**
 * Whether the bulletin recommends a control measure: a pesticide the safety reader reads as
 * recommended (its lead-ins carried from block to block, as the lint carries them), or a sentence
 * that names no pesticide it knows and gives a dose with a word of use (亩用20%烯啶虫胺水剂30毫升).
 */
function recommendsMeasures(blocks: readonly Block[], rules: RuleSet, date: string): boolean {
  const dictionary = dictionaryOf(rules);
  let lead: LeadIn | undefined;
  for (const block of blocks) {
    const text = fold(block.text);
    const names = dictionary.scanFolded(text).filter((h) => h.entry.kind === 'pesticide');
    const bounds = boundsOf(text);
    const read = readMentions(text, names, () => true, lead, block.heading, date, bounds);
    lead = read.lead;
    if (read.readings.some((r) => r?.status === 'recommended')) return true;
    if (unnamedDose(text, names, bounds.sentences)) return true;
  }
  return false;
}

/** A sentence of `text` (ending at `ends`) with no pesticide name in it, a dose and a word of use. */
function unnamedDose(text: string, names: readonly Hit[], ends: readonly number[]): boolean {
  let start = 0;
  let n = 0;
  for (const end of [...ends, text.length]) {
    let named = false;
    while (n < names.length && names[n]!.start < end) {
      named ||= names[n]!.start >= start;
      n++;
    }
    const sentence = text.slice(start, end);
    if (!named && hasDose(sentence) && USE.test(sentence)) return true;
    start = end + 1;
  }
  return false;
}
