/** The "New Bulletin" template: built-in defaults in zh-CN and en, and `{{name}}` filling. Pure. */
import { wordsOf, type Lang } from '../text/words';

/** Values a bulletin template can use as `{{name}}`. */
export interface BulletinValues {
  title: string;
  /** The bulletin's language as a BCP-47 tag (`zh-CN`, `en`), written as `lang:` in its front matter. */
  lang: string;
  date: string;
  weekday: string;
  solarTerm: string;
  nextSolarTerm: string;
  daysToNextSolarTerm: string;
  calendarLine: string;
  place: string;
  referencesHeading: string;
  /** The issue (`2026年第13期`), in a forecast's front matter. */
  issue: string;
}

/** The front matter, title and date line of every built-in template. */
const HEAD = `---
title: "{{title}}"
lang: {{lang}}
date: {{date}}
weekday: {{weekday}}
solar_term: {{solarTerm}}
next_solar_term: {{nextSolarTerm}}
days_to_next_solar_term: {{daysToNextSolarTerm}}
place: "{{place}}"
---

# {{title}}

{{calendarLine}}

`;

/**
 * The front matter of the built-in pest forecast (病虫情报): the parts the 2021 forecast rules ask
 * of it that the front matter holds (`type`, the issuer, the issue date) and its masthead and issue.
 * The issuer is left for the author: the forecast check names it until it is filled in.
 */
const FORECAST_HEAD = `---
title: "{{title}}"
lang: {{lang}}
type: forecast
masthead: "{{masthead}}"
issue: "{{issue}}"
issuer: ""
date: {{date}}
place: "{{place}}"
---

# {{title}}

`;

/** The built-in pest forecast of a language: the sections a forecast states, with hints. */
export function builtinForecastTemplate(lang: Lang): string {
  const words = wordsOf(lang);
  const section = (heading: string, hint: string): string => `## ${heading}\n\n<!-- ${hint} -->\n\n`;
  return (
    FORECAST_HEAD.replace('{{masthead}}', words.t('Pest forecast')) +
    section(
      words.t('Current situation'),
      words.t('The pest or disease, where it was surveyed, and what was found (counts, incidence).'),
    ) +
    section(
      words.t('Forecast'),
      words.t('When and where it will occur, and how severely (a level 1–5, or 轻发生 … 大发生).'),
    ) +
    section(
      words.t('Control advice'),
      words.t('When to treat, with what product and dose; find sources with "Shunong: Search Knowledge".'),
    ) +
    '## {{referencesHeading}}\n'
  );
}

/** The built-in template of a language: its headings and hints from the catalogue. */
export function builtinTemplate(lang: Lang): string {
  const words = wordsOf(lang);
  const section = (heading: string, hint: string): string => `## ${heading}\n\n<!-- ${hint} -->\n\n`;
  return (
    HEAD +
    section(
      words.t('Weather and farm notes'),
      words.t(
        'Run "Shunong: Insert Weather Brief" to insert the current weather and 7-day forecast for {0} here.',
        '{{place}}',
      ),
    ) +
    section(
      words.t('Farm advice'),
      words.t('Find sources with "Shunong: Search Knowledge" and insert cited snippets.'),
    ) +
    section(words.t('Pests and diseases'), words.t('To do')) +
    '## {{referencesHeading}}\n'
  );
}

/** Whether a template writes the value `name` (a `{{name}}` placeholder), so it is worth finding. */
export function usesValue(template: string, name: keyof BulletinValues): boolean {
  return [...template.matchAll(PLACEHOLDER)].some((m) => m[1] === name);
}

/** A `{{name}}` placeholder; group 1 is the name. */
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/**
 * Fills `{{name}}` placeholders. Values going into the YAML front matter are quoted by the
 * template; quotes and newlines inside values are neutralised so they cannot break it.
 * Unknown placeholders are left as they are, for the author to see.
 */
export function fillTemplate(template: string, values: BulletinValues): string {
  const safe = (v: string): string => v.replace(/[\r\n]+/g, ' ').replace(/"/g, '”');
  return template.replace(PLACEHOLDER, (all, k: string) =>
    k in values ? safe(values[k as keyof BulletinValues]) : all,
  );
}
