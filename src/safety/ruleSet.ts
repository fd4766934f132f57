/**
 * The rule set in force: the rules shipped in `rules.json`, and a station's file over them (rules
 * replaced by id, crops and uses by name, names added). A station file that cannot be used leaves
 * the shipped rules in force and says why, on its line. Pure.
 */
import shipped from './rules.json';
import { parseRulesText, shippedSchema, stationSchema } from './schema';
import type { RuleSet, RulesProblem } from './types';

let cached: RuleSet | undefined;

/** The rules shipped with the extension (checked once; a bad shipped file is a build error, thrown). */
export function shippedRules(): RuleSet {
  return (cached ??= Object.freeze(shippedSchema.parse(shipped)));
}

/** `base` with a station's rules file (its JSON text) over it; `fileName` names it in problems. */
export function withStationRules(
  base: RuleSet,
  text: string,
  fileName: string,
): { rules: RuleSet; problems: RulesProblem[] } {
  const parsed = parseRulesText(text, stationSchema);
  if (parsed.value === undefined)
    return { rules: base, problems: parsed.problems.map((p) => ({ ...p, message: `${fileName}: ${p.message}` })) };
  const s = parsed.value;
  const byName = <T extends { name: string }>(a: readonly T[], b: readonly T[] = []): T[] => [
    ...a.filter((x) => !b.some((y) => y.name === x.name)),
    ...b,
  ];
  const rules = [...base.rules.filter((r) => !s.rules?.some((o) => o.id === r.id)), ...(s.rules ?? [])];
  return {
    rules: {
      version: s.version ?? base.version,
      asOf: s.asOf && s.asOf > base.asOf ? s.asOf : base.asOf,
      sources: s.sources ? `${base.sources}; ${fileName}: ${s.sources}` : base.sources,
      rules,
      crops: byName(base.crops, s.crops),
      uses: byName(base.uses, s.uses),
      otherNames: [...base.otherNames, ...(s.otherNames ?? [])],
      ordinaryWords: [...base.ordinaryWords, ...(s.ordinaryWords ?? [])],
    },
    problems: [],
  };
}
