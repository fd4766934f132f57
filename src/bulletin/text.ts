/**
 * Words of the weather brief, the calendar line and the bulletin template, in zh-CN and en.
 * Pure data (no vscode import) so the renderers are unit-testable; the feature passes
 * `vscode.env.language` as `lang`.
 */
export type Lang = 'zh' | 'en';

/** Picks the bulletin language from a VS Code display language tag. */
export function langOf(displayLanguage: string): Lang {
  return displayLanguage.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

const zh = {
  weatherTitle: '天气 · {0}',
  now: '实时：{0}，{1}，湿度 {2}，{3}（{4} 更新）',
  forecastTitle: '未来 7 天',
  head: ['日期', '星期', '天气', '最高 / 最低', '风', '湿度'],
  missing: '—',
  notesTitle: '农事提示（由预报推算，非平台数据；预报用于趋势判断，不宜作为精确到小时的作业依据）',
  rainRun: '{0} 至 {1} 连续 {2} 天有雨：注意清沟排水，雨前抢收抢晒，雨后防病。',
  humidRun: '{0} 至 {1} 连续 {2} 天湿度不低于 {3}%：病害易发，注意田间通风和预防。',
  frost: '{0} 最低气温 {1}℃，不高于 {2}℃：有霜冻风险，注意防冻覆盖。',
  heat: '{0} 最高气温 {1}℃，不低于 {2}℃：有高温风险，注意灌溉降温，避开中午作业。',
  source: '来源：{0} · {1} · {2} · 更新于 {3}',
  provider: '中国天气网（经蜀农 weather_search）',
  week: '星期{0}',
  calendarFormat: '{year}年{month}月{day}日 {weekday} · {term}（距{nextTerm} {days} 天）',
  termsTitle: '{0} 年二十四节气',
  unresolvedNote: '> 注：〔标题 · 知识库编码〕为平台返回的知识条目，未能定位到具体片段，未作为片段引用。',
};

const en: typeof zh = {
  weatherTitle: 'Weather · {0}',
  now: 'Now: {0}, {1}, humidity {2}, {3} (updated {4})',
  forecastTitle: 'Next 7 days',
  head: ['Date', 'Day', 'Weather', 'High / Low', 'Wind', 'Humidity'],
  missing: '—',
  notesTitle:
    'Farm notes (derived from the forecast, not platform data; use the forecast for trends, not for hour-exact work)',
  rainRun:
    '{0} to {1}: rain on {2} days in a row — clear drainage ditches, harvest and dry before the rain, prevent disease after it.',
  humidRun:
    '{0} to {1}: humidity at or above {3}% on {2} days in a row — disease pressure is high; keep fields ventilated.',
  frost: '{0}: low of {1}℃, at or below {2}℃ — frost risk; protect sensitive crops.',
  heat: '{0}: high of {1}℃, at or above {2}℃ — heat risk; irrigate and avoid midday field work.',
  source: 'Source: {0} · {1} · {2} · updated {3}',
  provider: 'China Weather (via Shunong weather_search)',
  week: '{0}',
  calendarFormat: '{weekday}, {monthName} {day}, {year} · {term} ({days} days to {nextTerm})',
  termsTitle: 'Solar terms of {0}',
  unresolvedNote:
    '> Note: 〔title · knowledge base〕 marks a knowledge entry the platform named that could not be matched to a passage; it is not a passage citation.',
};

export const TEXT: Record<Lang, typeof zh> = { zh, en };

/** Fills `{0}`, `{1}`… in a template. */
export function fill(template: string, ...args: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (m, i: string) => {
    const v = args[Number(i)];
    return v === undefined ? m : String(v);
  });
}

/** English names of the 24 solar terms. */
export const SOLAR_TERM_EN: Record<string, string> = {
  小寒: 'Minor Cold',
  大寒: 'Major Cold',
  立春: 'Start of Spring',
  雨水: 'Rain Water',
  惊蛰: 'Awakening of Insects',
  春分: 'Spring Equinox',
  清明: 'Pure Brightness',
  谷雨: 'Grain Rain',
  立夏: 'Start of Summer',
  小满: 'Grain Buds',
  芒种: 'Grain in Ear',
  夏至: 'Summer Solstice',
  小暑: 'Minor Heat',
  大暑: 'Major Heat',
  立秋: 'Start of Autumn',
  处暑: 'End of Heat',
  白露: 'White Dew',
  秋分: 'Autumn Equinox',
  寒露: 'Cold Dew',
  霜降: "Frost's Descent",
  立冬: 'Start of Winter',
  小雪: 'Minor Snow',
  大雪: 'Major Snow',
  冬至: 'Winter Solstice',
};

/** A solar term's name as shown: the Chinese name, with its English name in en. */
export function termName(name: string, lang: Lang): string {
  return lang === 'zh' || !SOLAR_TERM_EN[name] ? name : `${name} ${SOLAR_TERM_EN[name]}`;
}

const WEEK_EN: Record<string, string> = {
  一: 'Mon',
  二: 'Tue',
  三: 'Wed',
  四: 'Thu',
  五: 'Fri',
  六: 'Sat',
  日: 'Sun',
  天: 'Sun',
};
const WEEKDAY_EN: Record<string, string> = {
  星期一: 'Monday',
  星期二: 'Tuesday',
  星期三: 'Wednesday',
  星期四: 'Thursday',
  星期五: 'Friday',
  星期六: 'Saturday',
  星期日: 'Sunday',
  星期天: 'Sunday',
};

/** The forecast's one-character `week` as shown. */
export function weekName(week: string, lang: Lang): string {
  return lang === 'zh' ? fill(TEXT.zh.week, week) : (WEEK_EN[week] ?? week);
}

/** get_current_time's `weekday` (星期日) as shown. */
export function weekdayName(weekday: string, lang: Lang): string {
  return lang === 'zh' ? weekday : (WEEKDAY_EN[weekday] ?? weekday);
}
