/**
 * The dose check's findings in words, in any language (the editor's UI language, the terminal's for
 * `shunong check`), from the l10n bundle through the {@link Words} catalogue. Pure.
 */
import { wordsOf, type Lang, type Words } from '../text/words';
import type { DoseCode, DoseFinding } from './doseCheck';

/** What a kind of fact is called in a message. */
function kindName(kind: DoseFinding['kind'], words: Words): string {
  switch (kind) {
    case 'dilution':
      return words.t('dilution');
    case 'water':
      return words.t('amount of water');
    case 'interval':
      return words.t('interval between sprays');
    case 'phi':
      return words.t('pre-harvest interval (安全间隔期)');
    case 'maxUses':
      return words.t('uses per season');
    case 'product':
      return words.t('product');
    default:
      return words.t('dose');
  }
}

/** A dose finding, said. */
export function doseMessage(f: DoseFinding, lang: Lang): string {
  const words = wordsOf(lang);
  const changed = f.changed
    ? words.t(" (compared with the platform's current text, which differs from the one cited)")
    : '';
  const ingredient = f.ingredient ?? '';
  switch (f.code) {
    case 'dose-mismatch':
      return (
        words.t(
          '{0}: the cited passage gives {1} {2}, not {3}: “{4}”',
          ingredient || kindName(f.kind, words),
          kindName(f.kind, words),
          f.passage?.shown ?? '',
          f.written ?? '',
          f.passage?.quote ?? '',
        ) + changed
      );
    case 'dose-arithmetic':
      return words.t(
        '{0}倍 does not add up: the amount and the water written beside it make about {1}倍 (more than 10 % apart).',
        f.arithmetic?.written ?? '',
        f.arithmetic?.spelled ?? '',
      );
    case 'dose-unsupported':
      return (
        (f.kind === 'product'
          ? words.t('The cited passage gives no dose for {0}.', ingredient)
          : words.t('The cited passage gives no {0} for {1}.', kindName(f.kind, words), ingredient)) + changed
      );
    case 'source-needed':
      return words.t('This recommends a dose without citing a source for it.');
    case 'passage-not-at-hand':
      return words.t(
        'The cited passage {0} is not at hand, so the doses citing it are not checked: fetch it.',
        f.citations[0] ?? '',
      );
  }
}

/** What a code checks, described (a rule of `shunong check --format sarif`). */
export function doseRule(code: DoseCode, lang: Lang): string {
  const words = wordsOf(lang);
  switch (code) {
    case 'dose-mismatch':
      return words.t('A dose, dilution, interval or product that differs from the cited passage.');
    case 'dose-arithmetic':
      return words.t('A dilution that the amount and water written beside it do not spell out (within 10 %).');
    case 'dose-unsupported':
      return words.t('A dose fact of a kind the cited passage does not give for that ingredient.');
    case 'source-needed':
      return words.t('A recommendation with a dose and no cited source.');
    case 'passage-not-at-hand':
      return words.t('A cited passage that is not at hand, so its doses are not checked.');
  }
}
