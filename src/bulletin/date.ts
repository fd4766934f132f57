/**
 * A bulletin's date, the day the pesticide rules are applied on: its front matter's `date:` as
 * authors write it (`2018-03-15`, `2018/03/15`, `2014-3-5`, `2014.3.5`, `2018年3月15日`), else today.
 * A `date:` that is not a real day is not silently replaced: the caller is told its line and the
 * date used instead. The one place bulletin dates are read. Pure.
 */
import { frontMatter, type FrontMatter } from './frontMatter';

/** A calendar day written with year, month and day (four-digit year first), as YYYY-MM-DD; undefined if it is none. */
export function readDate(value: string): string | undefined {
  const m =
    /^\s*(\d{4})\s*(?:[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})|年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]?)(?=$|[\sT])/.exec(
      value,
    );
  if (!m) return undefined;
  const [year, month, day] = [m[1]!, m[2] ?? m[4]!, m[3] ?? m[5]!];
  const iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const t = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().startsWith(iso) ? iso : undefined;
}

/** The date a bulletin's rules are applied on, and, when its `date:` could not be read, where it is. */
export interface BulletinDate {
  /** YYYY-MM-DD. */
  date: string;
  /** Where it came from: the front matter, or `today` (no `date:`, or one that is not a date). */
  from: 'front-matter' | 'today';
  /** A `date:` that is not a date: its 0-based line and column, and its value as written. */
  unreadable?: { line: number; character: number; value: string };
}

/**
 * The bulletin's date: its front matter's `date:` when it is a day, else `today` (YYYY-MM-DD). Takes
 * the text, or its front matter already read.
 */
export function bulletinDate(markdown: string | FrontMatter, today: string): BulletinDate {
  const fm = typeof markdown === 'string' ? frontMatter(markdown) : markdown;
  const value = fm.fields['date'];
  if (value === undefined || value.trim() === '') return { date: today, from: 'today' };
  const date = readDate(value);
  if (date) return { date, from: 'front-matter' };
  const at = fm.positions['date'] ?? { line: 0, character: 0 };
  return { date: today, from: 'today', unreadable: { line: at.line, character: at.character, value } };
}
