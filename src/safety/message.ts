/**
 * A finding in words, in the UI's language (the editor's Problems) or any other (`shunong check`
 * writes English): the substance, why it is flagged, the announcement and its date. The strings are
 * the l10n bundle's, through the {@link Words} catalogue, so the CLI and the extension say the same. Pure.
 */
import { wordsOf, type Lang } from '../text/words';
import { Crops } from './crops';
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

/** The message of a finding. `rules` gives the crops' English names (the shipped ones by default). */
export function findingMessage(f: SafetyFinding, lang: Lang, rules: RuleSet = shippedRules()): string {
  const words = wordsOf(lang);
  const args = {
    substance: substanceIn(f.rule, lang),
    date: f.rule.effective,
    announcement: announcementIn(f.rule.announcement, lang),
    scope: scopeIn(f.rule, lang, rules),
    // Stryker disable next-line StringLiteral: only the messages of a finding with a crop name it
    crop: f.crop ? (lang === 'en' ? cropNames(rules).en(f.crop) : f.crop) : '',
    bulletinDate: f.date,
  };
  const alias = f.mention.toLowerCase() !== args.substance.toLowerCase() && f.mention !== f.rule.substance;
  const prefix = alias
    ? words.t('{mention} is {substance}.', { mention: f.mention, substance: args.substance }) +
      (lang === 'zh' ? '' : ' ')
    : '';
  return prefix + body();

  function body(): string {
    if (f.rule.kind === 'restricted')
      return words.t(
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
      return words.t('{substance} is banned: its sale and use are prohibited from {date} ({announcement}).', args);
    if (f.conditional)
      return words.t(
        'If used on {scope}: {substance} is banned there from {date} ({announcement}). No crop is named here; say which crop this is for.',
        args,
      );
    return words.t(
      '{substance} must not be used on {crop}: it is banned on {scope} from {date} ({announcement}).',
      args,
    );
  }
}
