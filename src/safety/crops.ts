/**
 * Crops and scopes: the hierarchy of the rules file (白菜 is a 十字花科蔬菜 is a 蔬菜 is a 作物) and
 * whether a crop named in a bulletin falls within a rule's scope. Pure.
 */
import type { RuleSet, SafetyRule } from './types';

/** The crop hierarchy of a rule set. */
export class Crops {
  private readonly parents = new Map<string, readonly string[]>();
  private readonly names = new Map<string, string>();
  private readonly english = new Map<string, string>();

  constructor(rules: RuleSet) {
    for (const c of rules.crops) {
      this.parents.set(c.name, c.parents);
      for (const n of [c.name, ...c.aliases]) this.names.set(n.toLowerCase(), c.name);
      if (c.en) this.english.set(c.name, c.en);
    }
    for (const u of rules.uses) if (u.en) this.english.set(u.name, u.en);
  }

  /** The crop a name or alias stands for (茶园 → 茶叶), if it is one. */
  crop(name: string): string | undefined {
    return this.names.get(name.trim().toLowerCase());
  }

  private readonly lineages = new Map<string, Set<string>>();
  private readonly scopes = new WeakMap<SafetyRule, { crops: string[]; every: boolean }>();

  /** A crop and every group it belongs to. */
  lineage(crop: string): Set<string> {
    let known = this.lineages.get(crop);
    if (!known) this.lineages.set(crop, (known = this.walk(crop)));
    return known;
  }

  private walk(crop: string): Set<string> {
    const seen = new Set<string>();
    const walk = (c: string): void => {
      if (seen.has(c)) return;
      seen.add(c);
      for (const p of this.parents.get(c) ?? []) walk(p);
    };
    walk(crop);
    return seen;
  }

  /** A scope rule's crops by their names in the hierarchy, and whether one is its root (作物: every crop). */
  private scopeOf(rule: SafetyRule): { crops: string[]; every: boolean } {
    let known = this.scopes.get(rule);
    if (!known) {
      const crops = (rule.scope?.crops ?? []).map((s) => this.crop(s) ?? s);
      known = { crops, every: crops.some((c) => this.parents.get(c)?.length === 0) };
      this.scopes.set(rule, known);
    }
    return known;
  }

  /** Whether a crop is within a scope rule's crops. */
  inScope(rule: SafetyRule, crop: string): boolean {
    const lineage = this.lineage(crop);
    return this.scopeOf(rule).crops.some((s) => lineage.has(s));
  }

  /** Whether a scope rule bans on every crop (its scope names the root of the hierarchy, 作物). */
  everyCrop(rule: SafetyRule): boolean {
    return this.scopeOf(rule).every;
  }

  /** A crop's or use's name in English (itself when the file gives none). */
  en(name: string): string {
    return this.english.get(name) ?? name;
  }
}
