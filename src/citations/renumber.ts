/**
 * Renumbering our footnotes in order of first use, definitions sorted to match. The author's
 * footnotes are never touched, and their labels are skipped. Idempotent.
 */
import { analyze, type Analysis } from './analyze';
import type { OurDefinition } from './model';
import { citationKey } from './citation';
import { normalizeEdits } from './edits';
import type { LineIndex } from './positions';
import type { CitationOptions, TextEdit } from './types';

/** Options of {@link renumber}. */
export interface RenumberOptions extends CitationOptions {
  /** Delete unused definitions instead of only reporting them (ask the user first). Default false. */
  removeUnused?: boolean;
  /** Merge definitions of the same source into the lowest number (default true). */
  mergeDuplicates?: boolean;
}

/** Result of {@link renumber}. */
export interface RenumberResult {
  edits: TextEdit[];
  /** Old label → new label, for every one of our definitions that keeps a line (merged labels map to their keeper's new label). */
  mapping: Record<string, string>;
  /** Old labels of our definitions nobody references (removed when `removeUnused`). */
  unused: string[];
}

/** The edit deleting a whole line, line break included. */
export function deleteLine(lines: LineIndex, line: number): TextEdit {
  return deleteLines(lines, [line])[0]!;
}

/**
 * The edits deleting whole lines, line breaks included. Adjacent lines go in one edit: the last
 * line of a text without a final line break takes the break before it, which the line above would
 * also take, so two edits would overlap.
 */
export function deleteLines(lines: LineIndex, toDelete: Iterable<number>): TextEdit[] {
  const sorted = [...new Set(toDelete)].sort((x, y) => x - y);
  const edits: TextEdit[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (sorted[j + 1] === sorted[j]! + 1) j++;
    const first = sorted[i]!;
    const last = sorted[j]!;
    if (last + 1 < lines.lineCount)
      edits.push({ start: lines.lineStart(first), end: lines.lineStart(last + 1), newText: '' });
    else edits.push({ start: first > 0 ? lines.lineEnd(first - 1) : 0, end: lines.lineEnd(last), newText: '' });
    i = j + 1;
  }
  return edits;
}

/**
 * Renumbers our citations: references `[^n]` get 1, 2, … in order of first use (skipping labels the
 * author uses), our definitions are rewritten in place so their lines read in number order, unused
 * definitions get the numbers after the used ones (or are deleted with `removeUnused`). Only the
 * labels of references change; definition lines keep their text.
 */
export function renumber(text: string, opts: RenumberOptions = {}): RenumberResult {
  return renumberAnalysis(analyze(text, opts), opts);
}

/** {@link renumber} on an existing analysis (no second parse). */
export function renumberAnalysis(a: Analysis, opts: RenumberOptions = {}): RenumberResult {
  const { model, lines } = a;
  const effective = model.definitions.filter((d) => !d.duplicateLabel);
  const byLabel = new Map(effective.map((d) => [d.label, d]));
  // merged label → keeper label (same source, lowest number keeps)
  const keeperOf = new Map<string, string>();
  // definitions whose label is taken by an earlier one: nobody can reference them; same source → dropped
  const droppedShadows = new Set<OurDefinition>();
  if (opts.mergeDuplicates ?? true) {
    const firstByKey = new Map<string, OurDefinition>();
    for (const d of [...effective].sort((x, y) => x.number - y.number)) {
      if (!d.citation) continue;
      const k = citationKey(d.citation);
      const keeper = firstByKey.get(k);
      if (keeper) keeperOf.set(d.label, keeper.label);
      else firstByKey.set(k, d);
    }
    for (const d of model.definitions) {
      if (!d.duplicateLabel || !d.citation) continue;
      const k = citationKey(d.citation);
      if (firstByKey.has(k)) droppedShadows.add(d);
      else firstByKey.set(k, d);
    }
  }
  const canonical = (label: string): string => keeperOf.get(label) ?? label;
  const taken = new Set(model.authorLabels);
  let counter = 0;
  const next = (): string => {
    do counter++;
    while (taken.has(String(counter)));
    return String(counter);
  };
  const mapping: Record<string, string> = {};
  const newOf = new Map<OurDefinition, string>();
  const used = new Set<string>();
  for (const r of model.references) {
    if (!r.ours) continue;
    const k = canonical(r.label);
    used.add(r.label);
    used.add(k);
    if (mapping[k] === undefined) {
      mapping[k] = next();
      newOf.set(byLabel.get(k)!, mapping[k]);
    }
  }
  const edits: TextEdit[] = [];
  const unused: string[] = [];
  const slots: OurDefinition[] = [];
  const deleted: number[] = [];
  for (const d of model.definitions) {
    const merged = droppedShadows.has(d) || (!d.duplicateLabel && keeperOf.has(d.label));
    const isUnused = !merged && (d.duplicateLabel || !used.has(d.label));
    if (isUnused) unused.push(d.label);
    if (merged || (isUnused && opts.removeUnused)) {
      deleted.push(d.line);
      continue;
    }
    if (!newOf.has(d)) {
      const n = next();
      newOf.set(d, n);
      if (!d.duplicateLabel) mapping[d.label] = n;
    }
    slots.push(d);
  }
  edits.push(...deleteLines(lines, deleted));
  for (const [merged, keeper] of keeperOf) if (mapping[keeper] !== undefined) mapping[merged] = mapping[keeper]!;

  for (const r of model.references) {
    if (!r.ours) continue;
    const n = mapping[canonical(r.label)]!;
    if (n !== r.label) edits.push({ start: r.range.start + 2, end: r.range.end - 1, newText: n });
  }
  const sorted = [...slots].sort((x, y) => Number(newOf.get(x)) - Number(newOf.get(y)));
  slots.forEach((slot, i) => {
    const d = sorted[i]!;
    const body = lines.text.slice(d.range.start + d.label.length + 3, d.range.end);
    const line = `[^${newOf.get(d)!}]${body}`;
    if (line !== lines.text.slice(slot.range.start, slot.range.end))
      edits.push({ start: slot.range.start, end: slot.range.end, newText: line });
  });
  return { edits: normalizeEdits(edits), mapping, unused };
}
