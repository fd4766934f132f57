/** Helpers for batches of {@link TextEdit}s. */
import type { TextEdit } from './types';

/**
 * Sorts edits by position, merges insertions at the same offset (in the given order) and checks
 * that no two edits overlap, so the batch can be applied as one WorkspaceEdit.
 */
export function normalizeEdits(edits: readonly TextEdit[]): TextEdit[] {
  // Array sort is stable: edits at the same place keep the given order.
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: TextEdit[] = [];
  for (const e of sorted) {
    const prev = out.at(-1);
    // An insertion absorbs what follows it at its offset: another insertion, or a replacement starting there.
    if (prev && prev.start === e.start && prev.end === prev.start) {
      out[out.length - 1] = { start: prev.start, end: e.end, newText: prev.newText + e.newText };
      continue;
    }
    if (prev && e.start < prev.end) throw new Error(`overlapping edits at ${e.start}`);
    out.push({ ...e });
  }
  return out.filter((e) => e.start !== e.end || e.newText !== '');
}

/** Applies a batch of non-overlapping edits to a text (what the editor does with a WorkspaceEdit). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = normalizeEdits(edits);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.start) + e.newText;
    at = e.end;
  }
  return out + text.slice(at);
}
