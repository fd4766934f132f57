/**
 * Sorted offsets searched in log time: where a pattern matches in a text, found once, so each
 * mention asks about its own window; where clauses, sentences and lines end or start. Pure.
 */

/** How many of the ascending `sorted` are less than `value` (the index of the first that is not). */
export function countBelow(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class Matches {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(text: string, pattern: RegExp, keep: (m: RegExpExecArray) => boolean = () => true) {
    const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    for (let m = global.exec(text); m; m = global.exec(text)) {
      if (m[0] === '') {
        global.lastIndex++;
        continue;
      }
      if (!keep(m)) continue;
      this.starts.push(m.index);
      this.ends.push(m.index + m[0].length);
    }
  }

  /** Whether a match lies wholly within [from, to). */
  within(from: number, to: number): boolean {
    const lo = countBelow(this.starts, from);
    // Matches do not overlap, so the first that starts in the window ends first.
    return lo < this.starts.length && this.ends[lo]! <= to;
  }
}
