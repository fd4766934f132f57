/** The "New Bulletin" template: built-in defaults in zh-CN and en, and `{{name}}` filling. Pure. */
import type { Lang } from './text';

/** Values a bulletin template can use as `{{name}}`. */
export interface BulletinValues {
  title: string;
  date: string;
  weekday: string;
  solarTerm: string;
  nextSolarTerm: string;
  daysToNextSolarTerm: string;
  calendarLine: string;
  place: string;
  referencesHeading: string;
}

/** The front matter, title and date line of every built-in template. */
const HEAD = `---
title: "{{title}}"
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

const BUILTIN: Record<Lang, string> = {
  zh: `${HEAD}## 天气与农事提示

<!-- 运行“蜀农：插入天气简报”，在此插入 {{place}} 的实时天气与 7 日预报。 -->

## 当前农事建议

<!-- 用“蜀农：检索知识库”找到依据，插入带引用的片段。 -->

## 病虫害防控

<!-- 待补充 -->

## {{referencesHeading}}
`,
  en: `${HEAD}## Weather and farm notes

<!-- Run "Shunong: Insert Weather Brief" to insert the current weather and 7-day forecast for {{place}} here. -->

## Farm advice

<!-- Find sources with "Shunong: Search Knowledge" and insert cited snippets. -->

## Pests and diseases

<!-- To do -->

## {{referencesHeading}}
`,
};

/** The built-in template of a language. */
export function builtinTemplate(lang: Lang): string {
  return BUILTIN[lang];
}

/**
 * Fills `{{name}}` placeholders. Values going into the YAML front matter are quoted by the
 * template; quotes and newlines inside values are neutralised so they cannot break it.
 * Unknown placeholders are left as they are, for the author to see.
 */
export function fillTemplate(template: string, values: BulletinValues): string {
  const safe = (v: string): string => v.replace(/[\r\n]+/g, ' ').replace(/"/g, '”');
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, k: string) =>
    k in values ? safe(values[k as keyof BulletinValues]) : all,
  );
}
