/**
 * Renders weather briefs, derived farm notes and the calendar line as Markdown.
 * Pure (no vscode import): the feature gathers the data, these functions only format it.
 */
import { inlineText, tableCell } from '../text/markdown';
import { fill, termName, weekdayName, weekName, wordsOf, type Lang, type Words } from '../text/words';
import { DEFAULT_THRESHOLDS, type NoteThresholds } from './thresholds';

/** The mark of a value the endpoint left empty. */
const MISSING = '—';

/** weather_search in now mode (the page: `city` is the internal city code). */
export interface WeatherNowData {
  city: string;
  weather?: string;
  temperature?: string;
  humidity?: string;
  wind?: string;
  updateTime?: string;
}

/** One day of weather_search's 7-day forecast. */
export interface ForecastDay {
  date: string;
  weather?: string;
  high?: string;
  low?: string;
  wind?: string;
  humidity?: string;
  week?: string;
}

/** weather_search in forecast mode (the page: `city` echoes the name passed). */
export interface WeatherForecastData {
  city: string;
  forecast: ForecastDay[];
}

/** A note derived from the forecast (never platform data). */
export interface FarmNote {
  kind: 'rain' | 'humid' | 'frost' | 'heat';
  from: string;
  to: string;
  text: string;
}

/** Parses "20℃", "-3°C", "23%" into a number; missing or empty values are undefined (not 0). */
export function numberOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /-?\d+(?:\.\d+)?/.exec(value);
  return m ? Number(m[0]) : undefined;
}

/** Shows a value, or the missing mark when the endpoint left it empty. */
function shown(value: string | undefined): string {
  return value === undefined || value.trim() === '' ? MISSING : tableCell(value);
}

/** Finds runs of at least `min` consecutive days matching `test`. */
function runs(
  days: ForecastDay[],
  test: (d: ForecastDay) => boolean,
  min: number,
): Array<{ from: string; to: string; length: number }> {
  const out: Array<{ from: string; to: string; length: number }> = [];
  let start = -1;
  for (let i = 0; i <= days.length; i++) {
    const day = days[i];
    if (day && test(day)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= min)
      out.push({ from: (days[start] as ForecastDay).date, to: (days[i - 1] as ForecastDay).date, length: i - start });
    start = -1;
  }
  return out;
}

/** Derives farm notes from the forecast: rain and humid spells, frost and heat risks. */
export function deriveFarmNotes(days: ForecastDay[], t: NoteThresholds, lang: Lang): FarmNote[] {
  const words = wordsOf(lang);
  const notes: FarmNote[] = [];
  // Stryker disable next-line StringLiteral: any stand-in without 雨 or 雪 reads as no rain, like ''
  for (const r of runs(days, (d) => /雨|雪/.test(d.weather ?? ''), t.minRunDays)) {
    const text = words.t(
      '{0} to {1}: rain on {2} days in a row — clear drainage ditches, harvest and dry before the rain, prevent disease after it.',
      r.from,
      r.to,
      r.length,
    );
    notes.push({ kind: 'rain', from: r.from, to: r.to, text });
  }
  for (const r of runs(days, (d) => (numberOf(d.humidity) ?? -1) >= t.humidPercent, t.minRunDays)) {
    notes.push({
      kind: 'humid',
      from: r.from,
      to: r.to,
      text: words.t(
        '{0} to {1}: humidity at or above {3}% on {2} days in a row — disease pressure is high; keep fields ventilated.',
        r.from,
        r.to,
        r.length,
        t.humidPercent,
      ),
    });
  }
  for (const d of days) {
    const low = numberOf(d.low);
    if (low !== undefined && low <= t.frostBelowC)
      notes.push({
        kind: 'frost',
        from: d.date,
        to: d.date,
        text: words.t(
          '{0}: low of {1}℃, at or below {2}℃ — frost risk; protect sensitive crops.',
          d.date,
          low,
          t.frostBelowC,
        ),
      });
    const high = numberOf(d.high);
    if (high !== undefined && high >= t.heatAboveC)
      notes.push({
        kind: 'heat',
        from: d.date,
        to: d.date,
        text: words.t(
          '{0}: high of {1}℃, at or above {2}℃ — heat risk; irrigate and avoid midday field work.',
          d.date,
          high,
          t.heatAboveC,
        ),
      });
  }
  return notes;
}

/** What the weather brief is made of. */
export interface WeatherBriefInput {
  /** The place as the user asked for it (name or code). */
  place: string;
  now: WeatherNowData;
  forecast: WeatherForecastData;
  /** The date the data was retrieved (YYYY-MM-DD, Beijing time). */
  retrievedOn: string;
  lang: Lang;
  notes?: NoteThresholds | false;
}

/**
 * The weather brief: current conditions (now mode: `city` is a code), the 7-day table
 * (forecast mode: `city` is the name), optional derived notes, and a source line.
 */
export function renderWeatherBrief(input: WeatherBriefInput): string {
  const { lang, now, forecast } = input;
  const words = wordsOf(lang);
  // The platform echoes a code asked for as the city: then the place as asked (a name, if the caller knows it).
  const city = forecast.city.trim();
  const name = city && !/^\d{9}$/.test(city) ? city : input.place;
  const code = /^\d{9}$/.test(now.city) ? now.city : /^\d{9}$/.test(input.place) ? input.place : '';
  const placeLabel = code && code !== name ? `${name}（${code}）` : name;
  const lines: string[] = [];
  lines.push(`### ${inlineText(words.t('Weather · {0}', placeLabel))}`, '');
  lines.push(
    words.t(
      'Now: {0}, {1}, humidity {2}, {3} (updated {4})',
      shown(now.weather),
      shown(now.temperature),
      shown(now.humidity),
      shown(now.wind),
      shown(now.updateTime),
    ),
    '',
  );
  lines.push(`**${words.t('Next 7 days')}**`, '');
  const head = [
    words.t('Date'),
    words.t('Day'),
    words.t('Weather'),
    words.t('High / Low'),
    words.t('Wind'),
    words.t('Humidity'),
  ];
  lines.push(`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`);
  for (const d of forecast.forecast) {
    const hl = `${shown(d.high)} / ${shown(d.low)}`;
    lines.push(
      `| ${tableCell(d.date)} | ${d.week ? tableCell(weekName(d.week, lang)) : MISSING} | ${shown(d.weather)} | ${hl} | ${shown(d.wind)} | ${shown(d.humidity)} |`,
    );
  }
  const notes =
    input.notes === false ? [] : deriveFarmNotes(forecast.forecast, input.notes ?? DEFAULT_THRESHOLDS, lang);
  if (notes.length) {
    const title = words.t(
      'Farm notes (derived from the forecast, not platform data; use the forecast for trends, not for hour-exact work)',
    );
    lines.push('', `*${title}*`, '');
    for (const n of notes) lines.push(`- ${n.text}`);
  }
  const provider = words.t('China Weather (via Shunong weather_search)');
  lines.push(
    '',
    `> ${sourceLine(words, provider, inlineText(placeLabel), inlineText(input.retrievedOn), shown(now.updateTime))}`,
  );
  return lines.join('\n') + '\n';
}

/** A weather citation of a drafted answer (the REST chat's `weather_citation`). */
export interface WeatherSource {
  provider: string;
  location: string;
  date: string;
  summary: string;
  updatedAt: string;
}

/** The weather brief's source line for a weather citation; `escape` keeps server text from opening Markdown. */
export function weatherSourceLine(w: WeatherSource, lang: Lang, escape: (s: string) => string): string {
  return `> ${sourceLine(wordsOf(lang), escape(w.provider), escape(w.location), escape(w.date), escape(w.updatedAt))}`;
}

/** The source line's words: provider, place, date, update time. */
function sourceLine(words: Words, provider: string, place: string, date: string, updated: string): string {
  return words.t('Source: {0} · {1} · {2} · updated {3}', provider, place, date, updated);
}

/** get_current_time's fields used by the calendar line. */
export interface CalendarData {
  date: string;
  weekday: string;
  solar_term: string;
  solar_term_date?: string;
  next_solar_term: string;
  next_solar_term_date?: string;
  days_to_next_solar_term: number;
}

const MONTHS_EN = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * The calendar line, e.g. `2026年10月25日 星期日 · 霜降（距立冬 13 天）`.
 * `format` tokens: {year} {month} {day} {monthName} {weekday} {term} {nextTerm} {days} {date};
 * an empty format uses the language's default.
 */
export function calendarLine(t: CalendarData, lang: Lang, format = ''): string {
  // Stryker disable next-line StringLiteral: only for the type checker; a date not in YYYY-MM-DD makes no sense either way
  const [y = '', m = '', d = ''] = t.date.split('-');
  const values: Record<string, string> = {
    year: y,
    month: String(Number(m)),
    day: String(Number(d)),
    monthName: MONTHS_EN[Number(m) - 1] ?? m,
    date: t.date,
    weekday: weekdayName(t.weekday, lang),
    term: termName(t.solar_term, lang),
    nextTerm: termName(t.next_solar_term, lang),
    days: String(t.days_to_next_solar_term),
  };
  if (format.trim()) return fill(format, values);
  const words = wordsOf(lang);
  return t.days_to_next_solar_term === 1
    ? words.t('{weekday}, {monthName} {day}, {year} · {term} (1 day to {nextTerm})', values)
    : words.t('{weekday}, {monthName} {day}, {year} · {term} ({days} days to {nextTerm})', values);
}

/** The year's solar-term table as Markdown (for the status bar tooltip). */
export function solarTermTable(
  year: number,
  terms: Array<{ name: string; date: string }>,
  lang: Lang,
  today: string,
): string {
  const rows = terms.map((t) => {
    const mark = t.date === today ? ' ◀' : '';
    return `| ${tableCell(termName(t.name, lang))} | ${tableCell(t.date)}${mark} |`;
  });
  return [`**${wordsOf(lang).t('Solar terms of {0}', year)}**`, '', '| | |', '| --- | --- |', ...rows].join('\n');
}
