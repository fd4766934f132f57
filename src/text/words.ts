/**
 * The words written into documents, in the document's language: a pure catalogue over the
 * extension's own l10n bundle (the English text is the key, as for `vscode.l10n.t`; the Chinese
 * comes from l10n/bundle.l10n.zh-cn.json), so there is one copy of every string. `vscode.l10n.t`
 * answers only in VS Code's display language; inserters take a {@link Words} for the document's
 * language instead (see src/bulletin/language.ts). Pure: no vscode import.
 */
import zhCN from '../../l10n/bundle.l10n.zh-cn.json';

/** The languages text is written in. */
export type Lang = 'zh' | 'en';

/**
 * Words in one language: `t(message, ...args)` as `vscode.l10n.t` takes it (the English message is
 * the key; `{0}` or `{name}` placeholders). `vscode.l10n` itself is one (the UI language).
 * By convention a Words value is named `words`, so the l10n unit test sees every key.
 */
export interface Words {
  t(message: string, ...args: Array<string | number>): string;
  t(message: string, args: Record<string, string | number>): string;
}

/** Picks the language from a VS Code display language tag (`zh-cn`, `zh-tw`, `en`, `de`…): zh or en. */
export function langOf(displayLanguage: string): Lang {
  return displayLanguage.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** The BCP-47 tag written into a new bulletin's front matter (`lang:`). */
export function langTag(lang: Lang): 'zh-CN' | 'en' {
  return lang === 'zh' ? 'zh-CN' : 'en';
}

/** Fills `{0}`, `{1}`… (or `{name}` from one record) in a template; unknown placeholders stay. */
export function fill(template: string, ...args: Array<string | number | Record<string, string | number>>): string {
  const first = args[0];
  const named = typeof first === 'object' ? first : undefined;
  return template.replace(/\{(\w+)\}/g, (m, k: string) => {
    const v = named ? named[k] : /^\d+$/.test(k) ? args[Number(k)] : undefined;
    return v === undefined || typeof v === 'object' ? m : String(v);
  });
}

const BUNDLES: Record<Lang, Readonly<Record<string, string>>> = { zh: zhCN as Record<string, string>, en: {} };

const CATALOGUE: Record<Lang, Words> = {
  zh: catalogue(BUNDLES.zh),
  en: catalogue(BUNDLES.en),
};

function catalogue(bundle: Readonly<Record<string, string>>): Words {
  return {
    t: (message: string, ...args: Array<string | number | Record<string, string | number>>): string =>
      fill(bundle[message] ?? message, ...args),
  };
}

/** The words of a language. */
export function wordsOf(lang: Lang): Words {
  return CATALOGUE[lang];
}

/** The references heading of a language: `参考资料` or `References`. */
export function referencesHeadingOf(lang: Lang): string {
  return wordsOf(lang).t('References');
}

/** English names of the 24 solar terms (the platform names them in Chinese). */
const SOLAR_TERM_EN: Record<string, string> = {
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

/** The day names by the platform's one-character weekday (forecast `week` 一…日, get_current_time 星期一…). */
const DAY_OF: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 日: 0, 天: 0 };

/** The short day name (the forecast table's `Day` column) in a language. */
function shortDay(day: number, words: Words): string {
  switch (day) {
    case 1:
      return words.t('Mon');
    case 2:
      return words.t('Tue');
    case 3:
      return words.t('Wed');
    case 4:
      return words.t('Thu');
    case 5:
      return words.t('Fri');
    case 6:
      return words.t('Sat');
    default:
      return words.t('Sun');
  }
}

/** The full day name (the calendar line's weekday) in a language. */
function fullDay(day: number, words: Words): string {
  switch (day) {
    case 1:
      return words.t('Monday');
    case 2:
      return words.t('Tuesday');
    case 3:
      return words.t('Wednesday');
    case 4:
      return words.t('Thursday');
    case 5:
      return words.t('Friday');
    case 6:
      return words.t('Saturday');
    default:
      return words.t('Sunday');
  }
}

/** The forecast's one-character `week` (一) as shown: 星期一 / Mon; anything else as it came. */
export function weekName(week: string, lang: Lang): string {
  const day = DAY_OF[week.trim()];
  return day === undefined ? week : shortDay(day, wordsOf(lang));
}

/** get_current_time's `weekday` (星期日, 周日) as shown: 星期日 / Sunday; anything else as it came. */
export function weekdayName(weekday: string, lang: Lang): string {
  const one = /^(?:星期|周|礼拜)(.)$/.exec(weekday.trim())?.[1];
  const day = one === undefined ? undefined : DAY_OF[one];
  return day === undefined ? weekday : fullDay(day, wordsOf(lang));
}
