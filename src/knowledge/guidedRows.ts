/**
 * The rows of one guided-search step (crop, growth stage or farm task) as a pure model: which
 * entries the typed text finds (their Chinese and English names, id and aliases, whatever the UI
 * language), where the typed text itself is offered as a choice of its own, where Skip goes, how
 * stages are grouped by crop when no crop was chosen, and what an accepted row means. The VS Code
 * side only turns rows into quick-pick items.
 */
import type { Crop, Labels, Vocabulary, VocabularyEntry } from './vocabulary';

/** An entry offered by a step, with the crop it belongs to when the list spans several crops. */
export interface StepEntry<E extends VocabularyEntry> {
  readonly entry: E;
  readonly group?: Crop;
}

/** One row of a step, in the order shown. */
export type GuidedRow<E extends VocabularyEntry> =
  /** A crop's heading (a separator) over its stages. */
  | { readonly kind: 'group'; readonly labels: Labels }
  | { readonly kind: 'entry'; readonly entry: E; readonly group?: Crop; readonly matched: boolean }
  /** `Use "…"`: the typed text as it is. */
  | { readonly kind: 'typed'; readonly value: string }
  | { readonly kind: 'skip' };

/** The rows of a step and the one to highlight. */
export interface StepRows<E extends VocabularyEntry> {
  readonly rows: readonly GuidedRow<E>[];
  /** Index in `rows` of the row to make active (never a group). */
  readonly active: number;
}

/** What a step was answered with: an entry, the typed text, or nothing (Skip). */
export type GuidedAnswer<E> = { readonly entry: E } | { readonly typed: string } | undefined;

const norm = (s: string): string => s.trim().toLowerCase();

/** True when `typed` (trimmed, case-insensitive) is part of the entry's id, Chinese or English name or an alias. */
export function entryFinds(entry: VocabularyEntry, typed: string): boolean {
  const t = norm(typed);
  if (t === '') return false;
  return [entry.id, entry.labels['zh-CN'], entry.labels.en, ...entry.aliases].some((n) => norm(n).includes(t));
}

/** The stages to offer: the crop's own, or, without a crop, every crop's, each with its crop. */
export function stageEntries(vocabulary: Vocabulary, crop?: Crop): StepEntry<VocabularyEntry>[] {
  if (crop) return crop.stages.map((entry) => ({ entry }));
  return vocabulary.crops.flatMap((group) => group.stages.map((entry) => ({ entry, group })));
}

/**
 * The rows of a step for the text typed so far.
 * - Nothing typed: the entries in order, under their crop's heading when grouped; Skip last, or
 *   first when grouped (a long list); `preselected` (a prefill, or what was chosen before Back) active.
 * - Something typed: the entries it finds first (they stay shown), then `Use "…"`, then the other
 *   entries (VS Code's own filter may still show some), Skip last. `Use "…"` is first, and active,
 *   when no entry is found, so Enter on typed text never skips.
 */
export function guidedRows<E extends VocabularyEntry>(
  entries: readonly StepEntry<E>[],
  typed: string,
  preselected?: E,
): StepRows<E> {
  const value = typed.trim();
  const grouped = entries.some((e) => e.group !== undefined);
  const entryRow = (e: StepEntry<E>, matched: boolean): GuidedRow<E> => ({
    kind: 'entry',
    entry: e.entry,
    ...(e.group ? { group: e.group } : {}),
    matched,
  });
  if (value === '') {
    const rows: GuidedRow<E>[] = [];
    if (grouped) rows.push({ kind: 'skip' });
    let group: Crop | undefined;
    for (const e of entries) {
      if (grouped && e.group && e.group !== group) rows.push({ kind: 'group', labels: e.group.labels });
      group = e.group;
      rows.push(entryRow(e, false));
    }
    if (!grouped) rows.push({ kind: 'skip' });
    const pre = preselected ? rows.findIndex((r) => r.kind === 'entry' && r.entry === preselected) : -1;
    return { rows, active: pre >= 0 ? pre : rows.findIndex((r) => r.kind !== 'group') };
  }
  const found = entries.filter((e) => entryFinds(e.entry, value));
  const others = entries.filter((e) => !found.includes(e));
  const rows: GuidedRow<E>[] = [
    ...found.map((e) => entryRow(e, true)),
    { kind: 'typed', value },
    ...others.map((e) => entryRow(e, false)),
    { kind: 'skip' },
  ];
  return { rows, active: 0 };
}

/**
 * What accepting `row` with `typed` in the box means. Skip (or no row) with text typed is the
 * typed text, never a skip: the text may have been typed faster than the rows followed it.
 */
export function answerOf<E extends VocabularyEntry>(row: GuidedRow<E> | undefined, typed: string): GuidedAnswer<E> {
  const value = typed.trim();
  if (row?.kind === 'entry') return { entry: row.entry };
  if (row?.kind === 'typed') return { typed: row.value };
  return value !== '' ? { typed: value } : undefined;
}

/** How a step shows again (after Back, or when refining): the text typed before, or the entry chosen active. */
export function reopen<E>(answer: GuidedAnswer<E>): { readonly value: string; readonly active?: E } {
  if (answer && 'typed' in answer) return { value: answer.typed };
  if (answer && 'entry' in answer) return { value: '', active: answer.entry };
  return { value: '' };
}
