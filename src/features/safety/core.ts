/**
 * The pure safety core's API as this feature uses it (the shared contract of src/safety): the
 * feature takes the core as a value, so it is handed the lazily loaded bundle and the tests can
 * hand it any implementation of the contract.
 */

export type SafetyKind = 'banned' | 'scope' | 'restricted';

export interface SafetyRule {
  id: string;
  substance: string;
  names: string[];
  kind: SafetyKind;
  scope?: { crops?: string[]; uses?: string[]; except?: string[] };
  effective: string;
  announcement: string;
  note?: string;
}

export interface RuleSet {
  asOf: string;
  version: number;
  rules: readonly SafetyRule[];
}

/** 1-based line in the station file. */
export interface RulesProblem {
  line: number;
  column?: number;
  message: string;
}

export interface SafetyFinding {
  rule: SafetyRule;
  mention: string;
  offset: number;
  length: number;
  line: number;
  character: number;
  severity: 'error' | 'warning' | 'information';
  upcoming: boolean;
  crop?: string;
  conditional: boolean;
}

export interface SafetyLinterLike {
  lint(markdown: string, options: { today: string }): SafetyFinding[];
}

/** The core's functions this feature calls. */
export interface SafetyCore {
  shippedRules(): RuleSet;
  withStationRules(base: RuleSet, text: string, fileName: string): { rules: RuleSet; problems: RulesProblem[] };
  lintSafety(markdown: string, rules: RuleSet, options: { today: string; crop?: string }): SafetyFinding[];
  SafetyLinter: new (rules: RuleSet) => SafetyLinterLike;
  findingMessage(finding: SafetyFinding, lang: 'zh-CN' | 'en'): string;
}
