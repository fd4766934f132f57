/**
 * A finding in words, in the UI's language (the editor's Problems) or any other (`shunong check`
 * writes the terminal's): the substance as written, why it is flagged, the announcement and its
 * date; and a forecast's missing part. The strings are the l10n bundle's, through the {@link Words} catalogue, so the CLI and the
 * extension say the same. Pure.
 */
import { MAX_ALIASES, MAX_DEPTH, type FrontMatterProblem } from '../bulletin/frontMatter';
import { wordsOf, type Lang } from '../text/words';
import { Crops } from './crops';
import type { ForecastPart } from './forecast';
import { shippedRules } from './ruleSet';
import type { RuleSet, SafetyFinding, SafetyRule } from './types';

const cropsOf = new WeakMap<RuleSet, Crops>();

function cropNames(rules: RuleSet): Crops {
  let c = cropsOf.get(rules);
  // Stryker disable next-line ConditionalExpression: a cache; the same crops again
  if (!c) cropsOf.set(rules, (c = new Crops(rules)));
  return c;
}

/** An announcement in a language: 农业农村部公告第736号 reads "Announcement No. 736" in English. */
export function announcementIn(announcement: string, lang: Lang): string {
  if (lang === 'zh') return announcement;
  const words = wordsOf(lang);
  // The ministry's own announcements; another issuer's (a county bureau's notice) is kept as written.
  const no = /^(?:农业部|农业农村部)公告第\s*(\d+)\s*号$/.exec(announcement);
  if (no) return words.t('Announcement No. {0}', no[1]!);
  const list = /禁限用农药名录.*?(\d{4})/.exec(announcement);
  if (list) return words.t('the {0} list of banned and restricted pesticides', list[1]!);
  return announcement;
}

/** A rule's substance in a language. */
export function substanceIn(rule: SafetyRule, lang: Lang): string {
  return lang === 'en' && rule.en ? rule.en : rule.substance;
}

/** A rule's note in a language (the other language's when it has only that one). */
export function noteIn(rule: SafetyRule, lang: Lang): string | undefined {
  return lang === 'zh' ? (rule.noteZh ?? rule.note) : (rule.note ?? rule.noteZh);
}

/** A rule's scope (crops and uses) as one phrase, '' when it has none. */
export function scopeIn(rule: SafetyRule, lang: Lang, rules: RuleSet = shippedRules()): string {
  const crops = cropNames(rules);
  const parts = [...(rule.scope?.crops ?? []), ...(rule.scope?.uses ?? [])].map((n) =>
    lang === 'en' ? crops.en(n) : n,
  );
  return parts.join(lang === 'zh' ? '、' : ', ');
}

/**
 * A finding's substance as the bulletin wrote it: in English with the English name after it when
 * that is another (`甲胺磷 (methamidophos)`, `Furadan (carbofuran)`, `carbofuran`); in Chinese as written.
 */
export function writtenName(f: Pick<SafetyFinding, 'mention' | 'rule'>, lang: Lang): string {
  if (lang === 'zh') return f.mention;
  const en = substanceIn(f.rule, 'en');
  return f.mention.toLowerCase() === en.toLowerCase() ? f.mention : `${f.mention} (${en})`;
}

/** A rule's substance named for a list of rules: the Chinese name, in English with the English name after it. */
export function ruleName(rule: SafetyRule, lang: Lang): string {
  const en = substanceIn(rule, lang);
  return en === rule.substance ? en : `${rule.substance} (${en})`;
}

/** What a rule is, in one line (a rule's description in `shunong check --format sarif`). */
export function ruleSummary(rule: SafetyRule, lang: Lang, rules: RuleSet = shippedRules()): string {
  const words = wordsOf(lang);
  const args = {
    substance: ruleName(rule, lang),
    date: rule.effective,
    announcement: announcementIn(rule.announcement, lang),
    scope: scopeIn(rule, lang, rules),
  };
  if (rule.kind === 'restricted') return words.t('Restricted use of {substance} from {date} ({announcement})', args);
  if (rule.kind === 'scope') return words.t('Ban on {substance} on {scope} from {date} ({announcement})', args);
  return words.t('Ban on {substance} from {date} ({announcement})', args);
}

/**
 * The message of a finding, naming the substance as the bulletin wrote it ({@link writtenName}): in
 * Chinese, an alias is first said to be its substance (`呋喃丹即克百威。`). An English name written
 * as a class of compounds (`mercury compounds`) takes a plural verb. `rules` gives the crops'
 * English names (the shipped ones by default).
 */
export function findingMessage(f: SafetyFinding, lang: Lang, rules: RuleSet = shippedRules()): string {
  const words = wordsOf(lang);
  const args = {
    substance: lang === 'en' ? writtenName(f, lang) : f.rule.substance,
    date: f.rule.effective,
    announcement: announcementIn(f.rule.announcement, lang),
    scope: scopeIn(f.rule, lang, rules),
    // Stryker disable next-line StringLiteral: only the messages of a finding with a crop name it
    crop: f.crop ? (lang === 'en' ? cropNames(rules).en(f.crop) : f.crop) : '',
    bulletinDate: f.date,
  };
  const plural = lang === 'en' && /\bcompounds$/i.test(args.substance);
  // In English the written name carries its English one in brackets; in Chinese an alias gets a sentence.
  const alias = lang === 'zh' && f.mention.toLowerCase() !== f.rule.substance.toLowerCase();
  return (
    (alias ? words.t('{mention} is {substance}.', { mention: f.mention, substance: f.rule.substance }) : '') + body()
  );

  function body(): string {
    if (f.rule.kind === 'restricted')
      return plural
        ? words.t(
            '{substance} are restricted-use pesticides ({announcement}, from {date}): follow their labels and, on food crops, their safety intervals.',
            args,
          )
        : words.t(
            '{substance} is a restricted-use pesticide ({announcement}, from {date}): follow its label and, on food crops, its safety interval.',
            args,
          );
    if (f.upcoming)
      return f.rule.kind === 'scope'
        ? words.t(
            '{substance} will be banned on {scope} from {date} ({announcement}); this bulletin is dated {bulletinDate}.',
            args,
          )
        : words.t(
            '{substance} will be banned from {date} ({announcement}); this bulletin is dated {bulletinDate}.',
            args,
          );
    if (f.rule.kind === 'banned')
      return plural
        ? words.t('{substance} are banned: their sale and use are prohibited from {date} ({announcement}).', args)
        : words.t('{substance} is banned: its sale and use are prohibited from {date} ({announcement}).', args);
    if (f.conditional)
      return plural
        ? words.t(
            'If used on {scope}: {substance} are banned there from {date} ({announcement}). No crop is named here; say which crop this is for.',
            args,
          )
        : words.t(
            'If used on {scope}: {substance} is banned there from {date} ({announcement}). No crop is named here; say which crop this is for.',
            args,
          );
    return plural
      ? words.t(
          '{substance} must not be used on {crop}: they are banned on {scope} from {date} ({announcement}).',
          args,
        )
      : words.t('{substance} must not be used on {crop}: it is banned on {scope} from {date} ({announcement}).', args);
  }
}

/** The rule id of a bulletin `date:` that is not a date (reported beside the findings). */
export const DATE_RULE = 'bulletin/date';

/** What is said of a bulletin whose `date:` is not a calendar day: the value, and the date the rules were applied on. */
export function unreadableDateMessage(value: string, used: string, lang: Lang): string {
  return wordsOf(lang).t(
    'date: "{0}" is not a date; the pesticide rules were applied on {1} (today) instead. Write it as YYYY-MM-DD.',
    value,
    used,
  );
}

/** The rule of an unreadable `date:`, described. */
export function unreadableDateRule(lang: Lang): string {
  return wordsOf(lang).t("A bulletin's date: that is not a calendar day (the pesticide rules are applied on today's).");
}

/** The rule id of a front matter line a YAML reader finds wrong (reported beside the findings). */
export const FRONT_MATTER_RULE = 'bulletin/front-matter';

/** What is said of a front matter line a YAML reader finds wrong, and what became of it. */
export function frontMatterMessage(problem: FrontMatterProblem, lang: Lang): string {
  const words = wordsOf(lang);
  switch (problem.kind) {
    case 'yaml':
      return words.t(
        'YAML cannot read this front matter ({0}); its fields were read one "key: value" a line. Quote a value that holds a colon: title: "…".',
        problem.reason ?? '',
      );
    case 'depth':
      return words.t('This front matter line nests more than {0} levels deep; it was not read.', MAX_DEPTH);
    case 'aliases':
      return words.t('This front matter field repeats its aliases more than {0} times; it was not read.', MAX_ALIASES);
  }
}

/** The rule of a front matter line a YAML reader finds wrong, described. */
export function frontMatterRule(lang: Lang): string {
  return wordsOf(lang).t("A bulletin's front matter that YAML cannot read, or refuses (too deep, too many aliases).");
}

/** What is said of a forecast that does not state one of the parts the 2021 forecast rules require. */
export function forecastMessage(part: ForecastPart, lang: Lang): string {
  const words = wordsOf(lang);
  switch (part) {
    case 'pest':
      return words.t(
        'This forecast does not name the pest or disease it forecasts (the 2021 forecast rules require it).',
      );
    case 'time':
      return words.t('This forecast does not state the time or period it covers (the 2021 forecast rules require it).');
    case 'area':
      return words.t('This forecast does not state the area it covers (the 2021 forecast rules require it).');
    case 'severity':
      return words.t(
        'This forecast does not state the severity: a level 1–5, or 轻发生, 偏轻, 中等, 偏重, 大发生 (the 2021 forecast rules require it).',
      );
    case 'measures':
      return words.t(
        'This forecast recommends no control measures: no pesticide with its dose or use (the 2021 forecast rules require them).',
      );
    case 'issuer':
      return words.t(
        'This forecast does not name its issuing body: add issuer: to the front matter or a 发布单位： line (the 2021 forecast rules require it).',
      );
    case 'date':
      return words.t(
        'This forecast has no issue date: add date: to the front matter (the 2021 forecast rules require it).',
      );
  }
}

/** The rule of a forecast's part, described (a rule of `shunong check --format sarif`). */
export function forecastRule(part: ForecastPart, lang: Lang): string {
  const words = wordsOf(lang);
  switch (part) {
    case 'pest':
      return words.t('A forecast names the pest or disease it forecasts (the 2021 forecast rules).');
    case 'time':
      return words.t('A forecast states the time or period it covers (the 2021 forecast rules).');
    case 'area':
      return words.t('A forecast states the area it covers (the 2021 forecast rules).');
    case 'severity':
      return words.t('A forecast states the severity it expects (the 2021 forecast rules).');
    case 'measures':
      return words.t('A forecast recommends control measures (the 2021 forecast rules).');
    case 'issuer':
      return words.t('A forecast names its issuing body (the 2021 forecast rules).');
    case 'date':
      return words.t('A forecast states its issue date (the 2021 forecast rules).');
  }
}
