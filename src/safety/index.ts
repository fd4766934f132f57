/**
 * Pesticide safety in bulletins (pure, no vscode): the rules as shipped data a station can extend,
 * the lint that finds banned and restricted pesticides recommended in Markdown, and its messages.
 * Loaded as its own bundle (`dist/safety.js`) on first use; its zod schema only for a station file.
 */
export type { Crop, RuleSet, RulesProblem, SafetyFinding, SafetyKind, SafetyRule, Use } from './types';
export { shippedRules, withStationRules } from './ruleSet';
export { lintSafety, SafetyLinter, type SafetyOptions } from './lint';
export { announcementIn, findingMessage, noteIn, scopeIn, substanceIn } from './message';
export { isProhibited } from './clauses';
