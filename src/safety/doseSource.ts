/**
 * Which passages can be the source of a dose recommended without one: a passage that gives a dose
 * (a rate or a dilution) of an ingredient the sentence names, ranked by whether the sentence's
 * facts then agree with it (doseAgreement.ts: the same comparison the dose check makes once the
 * passage is cited). A passage that gives no dose of those ingredients is no source for it. Pure.
 */
import { readDoses, targetPattern, type DoseReading } from './dose';
import { clauseOf, disagreements } from './doseAgreement';
import { dictionaryOf } from './lint';
import type { RuleSet } from './types';

/** What a passage offers a sentence as its source. */
export interface DoseSource {
  /** The sentence's ingredients the passage gives a dose of (their dictionary names). */
  ingredients: string[];
  /** The passage's own words for the first such dose (its clause). */
  quote: string;
  /** Every fact of the sentence agrees with the passage (nothing the dose check would flag once cited). */
  agrees: boolean;
}

const DOSE_KINDS: ReadonlySet<string> = new Set(['rate', 'dilution']);

/** The ingredients of a reading's products, once each, in order. */
function ingredientsOf(reading: DoseReading): string[] {
  return [...new Set(reading.products.map((p) => p.ingredient))];
}

/** The ingredients a sentence names, and the sources among `passages`, index for index (undefined: gives none). */
export interface DoseSources {
  ingredients: string[];
  sources: (DoseSource | undefined)[];
}

/** The sources among `passages` for `sentence`. */
export function doseSources(sentence: string, passages: readonly string[], rules: RuleSet): DoseSources {
  const dictionary = dictionaryOf(rules);
  const targets = targetPattern(rules);
  const reading = readDoses(sentence, dictionary, targets);
  const ingredients = ingredientsOf(reading);
  const wanted = new Set(ingredients);
  const products = reading.products.map((_, i) => i);
  const sources = passages.map((text): DoseSource | undefined => {
    if (wanted.size === 0) return undefined;
    const theirs = readDoses(text, dictionary, targets);
    const doses = theirs.facts.filter((f) => {
      // Stryker disable next-line UnaryOperator: a fact has no product only in a text that names none, where no index finds one
      const ingredient = theirs.products[f.product ?? -1]?.ingredient;
      return DOSE_KINDS.has(f.kind) && ingredient !== undefined && wanted.has(ingredient);
    });
    if (doses.length === 0) return undefined;
    const first = doses[0]!;
    return {
      ingredients: [...new Set(doses.map((f) => theirs.products[f.product!]!.ingredient))],
      quote: clauseOf(text, first.start, first.end),
      agrees: disagreements(sentence, reading, reading.facts, products, [{ text, reading: theirs }]).length === 0,
    };
  });
  return { ingredients, sources };
}
