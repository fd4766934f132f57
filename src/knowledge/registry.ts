/**
 * Knowledge bases seen in results, remembered so the guided search can offer them. Results carry
 * `kb_code` and `kb_name` as comma-joined strings in the same order; they are split and paired.
 */
import { z } from 'zod';

/** A knowledge base: its code (what `kbCode` takes) and its name when known. */
export interface KnowledgeBase {
  readonly code: string;
  readonly name?: string;
}

/** The serialised form of a {@link KnowledgeBaseRegistry} (what goes into workspace state). */
export interface KnowledgeBaseRegistryState {
  readonly version: 1;
  readonly bases: readonly KnowledgeBase[];
}

const stateSchema = z.object({
  version: z.literal(1),
  bases: z.array(
    z.object({ code: z.string().trim().min(1), name: z.string().trim().min(1).optional() }).catch({ code: '' }),
  ),
});

/** Splits a comma-joined `kb_code` / `kb_name` string (ASCII or full-width commas), trimming parts. */
function splitJoined(joined: string | null | undefined): string[] {
  return (joined ?? '').split(/[,，]/).map((s) => s.trim());
}

/** A small, serialisable model of the knowledge bases seen so far, in first-seen order. */
export class KnowledgeBaseRegistry {
  private readonly bases = new Map<string, string | undefined>();

  /** Restores a registry from {@link toJSON}'s output; anything unreadable yields an empty one. */
  static fromJSON(state: unknown): KnowledgeBaseRegistry {
    const registry = new KnowledgeBaseRegistry();
    const parsed = stateSchema.safeParse(state);
    if (parsed.success) {
      for (const b of parsed.data.bases) if (b.code !== '') registry.add(b.code, b.name);
    }
    return registry;
  }

  /**
   * Records the bases of one result: `kb_code` and `kb_name` split at commas and paired by
   * position. Empty codes are skipped; a name replaces the one remembered; a missing name keeps it.
   * Returns true when something changed (so the caller knows to persist).
   */
  observe(kbCode: string | null | undefined, kbName: string | null | undefined): boolean {
    const codes = splitJoined(kbCode);
    const names = splitJoined(kbName);
    let changed = false;
    codes.forEach((code, i) => {
      if (code !== '' && this.add(code, names[i] || undefined)) changed = true;
    });
    return changed;
  }

  /** Adds or renames one base; returns true when something changed. */
  add(code: string, name?: string): boolean {
    const had = this.bases.has(code);
    const old = this.bases.get(code);
    if (had && (name === undefined || name === old)) return false;
    this.bases.set(code, name ?? old);
    return true;
  }

  /** The name remembered for a code. */
  nameOf(code: string): string | undefined {
    return this.bases.get(code);
  }

  /** Every base, in first-seen order. */
  list(): KnowledgeBase[] {
    return [...this.bases].map(([code, name]) => (name === undefined ? { code } : { code, name }));
  }

  /** Number of bases remembered. */
  get size(): number {
    return this.bases.size;
  }

  /** Forgets everything. */
  clear(): void {
    this.bases.clear();
  }

  /** The serialisable state (plain JSON). */
  toJSON(): KnowledgeBaseRegistryState {
    return { version: 1, bases: this.list() };
  }
}
