/**
 * The rule set in force: the rules shipped in `rules.json`, and a station's file over them (rules
 * replaced by id, crops and uses by name, names added). A station file that cannot be used leaves
 * the shipped rules in force and says why, on its line. Pure.
 */
import shipped from './rules.json';
import type { RuleSet, RulesProblem } from './types';

/**
 * The rules shipped with the extension, as they are: `rules.json` is checked against the schema,
 * and to be in its normal form (every default written out), by a unit test, so no schema runs here.
 */
export function shippedRules(): RuleSet {
  return frozen;
}
const frozen: RuleSet = Object.freeze(shipped as RuleSet);

/**
 * The schema module (zod, jsonc-parser), required on the first station file only: no station
 * file, no zod on the extension host's thread (an open bulletin's first lint does not pay for it).
 */
function schema(): typeof import('./schema') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./schema') as typeof import('./schema');
}

/** `base` with a station's rules file (its JSON text) over it; `fileName` names it in problems. */
export function withStationRules(
  base: RuleSet,
  text: string,
  fileName: string,
): { rules: RuleSet; problems: RulesProblem[] } {
  const { parseRulesText, stationSchema } = schema();
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
