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

  /** A crop and every group it belongs to. */
  lineage(crop: string): Set<string> {
    const seen = new Set<string>();
    const walk = (c: string): void => {
      if (seen.has(c)) return;
      seen.add(c);
      for (const p of this.parents.get(c) ?? []) walk(p);
    };
    walk(crop);
    return seen;
  }

  /** Whether a crop is within a scope rule's crops. */
  inScope(rule: SafetyRule, crop: string): boolean {
    const scope = rule.scope?.crops ?? [];
    const lineage = this.lineage(crop);
    return scope.some((s) => lineage.has(this.crop(s) ?? s));
  }

  /** A crop's or use's name in English (itself when the file gives none). */
  en(name: string): string {
    return this.english.get(name) ?? name;
  }
}
