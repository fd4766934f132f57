/**
 * The calendar in Beijing (Asia/Shanghai: UTC+8 all year, no daylight saving time), which the
 * platform's dates follow: the weather's, the solar terms', and the day an outcome is kept for.
 * Pure (no vscode import).
 */

const DAY = 86_400_000;
const BEIJING_OFFSET = 8 * 3_600_000;

/** The Beijing calendar date (YYYY-MM-DD) at `ms` (milliseconds since the epoch). */
export function beijingDate(ms: number): string {
  return new Date(ms + BEIJING_OFFSET).toISOString().slice(0, 10);
}

/** Milliseconds from `ms` to the next Beijing midnight. */
export function msToBeijingMidnight(ms: number): number {
  const local = ms + BEIJING_OFFSET;
  return DAY - (((local % DAY) + DAY) % DAY);
}
