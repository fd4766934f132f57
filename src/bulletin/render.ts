/**
 * Renders weather briefs, derived farm notes and the calendar line as Markdown.
 * Pure (no vscode import): the feature gathers the data, these functions only format it.
 */
import { fill, TEXT, termName, weekdayName, weekName, type Lang } from './text';

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

/** Thresholds of the derived farm notes (settings). */
export interface NoteThresholds {
  frostBelowC: number;
  heatAboveC: number;
  humidPercent: number;
  minRunDays: number;
}

export const DEFAULT_THRESHOLDS: NoteThresholds = { frostBelowC: 2, heatAboveC: 35, humidPercent: 85, minRunDays: 3 };

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
function shown(value: string | undefined, lang: Lang): string {
  return value === undefined || value.trim() === '' ? TEXT[lang].missing : escapeCell(value);
}

/** Escapes text for a Markdown table cell or line: pipes, HTML, emphasis and link brackets. */
export function escapeCell(value: string): string {
  return value
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[\\`*_[\]|<>#]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`))
    .trim();
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
  const w = TEXT[lang];
  const notes: FarmNote[] = [];
  for (const r of runs(days, (d) => /雨|雪/.test(d.weather ?? ''), t.minRunDays)) {
    notes.push({ kind: 'rain', from: r.from, to: r.to, text: fill(w.rainRun, r.from, r.to, r.length) });
  }
  for (const r of runs(days, (d) => (numberOf(d.humidity) ?? -1) >= t.humidPercent, t.minRunDays)) {
    notes.push({
      kind: 'humid',
      from: r.from,
      to: r.to,
      text: fill(w.humidRun, r.from, r.to, r.length, t.humidPercent),
    });
  }
  for (const d of days) {
    const low = numberOf(d.low);
    if (low !== undefined && low <= t.frostBelowC)
      notes.push({ kind: 'frost', from: d.date, to: d.date, text: fill(w.frost, d.date, low, t.frostBelowC) });
    const high = numberOf(d.high);
    if (high !== undefined && high >= t.heatAboveC)
      notes.push({ kind: 'heat', from: d.date, to: d.date, text: fill(w.heat, d.date, high, t.heatAboveC) });
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
  const w = TEXT[lang];
  const name = forecast.city.trim() || input.place;
  const code = /^\d{9}$/.test(now.city) ? now.city : /^\d{9}$/.test(input.place) ? input.place : '';
  const placeLabel = code && code !== name ? `${name}（${code}）` : name;
  const lines: string[] = [];
  lines.push(`### ${escapeCell(fill(w.weatherTitle, placeLabel))}`, '');
  lines.push(
    fill(
      w.now,
      shown(now.weather, lang),
      shown(now.temperature, lang),
      shown(now.humidity, lang),
      shown(now.wind, lang),
      shown(now.updateTime, lang),
    ),
    '',
  );
  lines.push(`**${w.forecastTitle}**`, '');
  lines.push(`| ${w.head.join(' | ')} |`, `| ${w.head.map(() => '---').join(' | ')} |`);
  for (const d of forecast.forecast) {
    const hl = `${shown(d.high, lang)} / ${shown(d.low, lang)}`;
    lines.push(
      `| ${escapeCell(d.date)} | ${d.week ? escapeCell(weekName(d.week, lang)) : w.missing} | ${shown(d.weather, lang)} | ${hl} | ${shown(d.wind, lang)} | ${shown(d.humidity, lang)} |`,
    );
  }
  const notes =
    input.notes === false ? [] : deriveFarmNotes(forecast.forecast, input.notes ?? DEFAULT_THRESHOLDS, lang);
  if (notes.length) {
    lines.push('', `*${w.notesTitle}*`, '');
    for (const n of notes) lines.push(`- ${n.text}`);
  }
  lines.push(
    '',
    `> ${fill(w.source, w.provider, escapeCell(placeLabel), escapeCell(input.retrievedOn), shown(now.updateTime, lang))}`,
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
  return `> ${fill(TEXT[lang].source, escape(w.provider), escape(w.location), escape(w.date), escape(w.updatedAt))}`;
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
  const template = format.trim() || TEXT[lang].calendarFormat;
  return template.replace(/\{(\w+)\}/g, (all, k: string) => values[k] ?? all);
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
    return `| ${escapeCell(termName(t.name, lang))} | ${escapeCell(t.date)}${mark} |`;
  });
  return [`**${fill(TEXT[lang].termsTitle, year)}**`, '', '| | |', '| --- | --- |', ...rows].join('\n');
}
