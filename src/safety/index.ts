/**
 * Pesticide safety in bulletins (pure, no vscode): the rules as shipped data a station can extend,
 * the lint that finds banned and restricted pesticides recommended in Markdown, and its messages;
 * and the parts a forecast must state, read with the same reader. Loaded as its own bundle
 * (`dist/safety.js`) on first use; its zod schema only for a station file.
 */
export type { Crop, RuleSet, RulesProblem, SafetyFinding, SafetyKind, SafetyRule, Use } from './types';
export { shippedRules, withStationRules } from './ruleSet';
export { lintSafety, SafetyLinter, type SafetyOptions } from './lint';
export { bulletinDate } from '../bulletin/date';
export { frontMatter, type FrontMatterProblem } from '../bulletin/frontMatter';
export {
  announcementIn,
  DATE_RULE,
  findingMessage,
  forecastMessage,
  forecastRule,
  FRONT_MATTER_RULE,
  frontMatterMessage,
  frontMatterRule,
  noteIn,
  scopeIn,
  substanceIn,
  unreadableDateMessage,
  unreadableDateRule,
} from './message';
export { partitionSilenced, silenceComment, silencesIn, type Silence } from './silence';
export { silenceEdit, type SilenceEdit } from './silenceEdit';
export {
  FORECAST_PARTS,
  forecastCode,
  isForecastType,
  missingForecastParts,
  type ForecastCode,
  type ForecastPart,
  type MissingForecastPart,
} from './forecast';
export {
  checkDoses,
  DoseChecker,
  DOSE_CODES,
  DOSE_PROBLEMS,
  type DoseCheckOptions,
  type DoseCode,
  type DoseFinding,
  type PassageText,
} from './doseCheck';
export { doseMessage, doseRule } from './doseMessage';
export { doseSources, type DoseSource, type DoseSources } from './doseSource';
