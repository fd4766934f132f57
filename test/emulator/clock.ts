/**
 * The emulator's clock. By default it follows the real clock; `set(instant)` freezes it at that
 * instant (it does not advance) until `set(null)` returns it to the real clock.
 * Beijing calendar helpers (Asia/Shanghai has had no DST since 1991: a fixed +08:00 offset).
 */
export const BEIJING_OFFSET_MS = 8 * 3600_000;

/** A clock whose time can be frozen by the admin controls. */
export class EmulatorClock {
  private frozen: number | null = null;

  /** Current instant in epoch milliseconds. */
  nowMs(): number {
    return this.frozen ?? Date.now();
  }

  /** Freezes the clock at an ISO-8601 instant, or returns to the real clock with null. Throws on a bad date. */
  set(iso: string | null): void {
    if (iso === null) {
      this.frozen = null;
      return;
    }
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) throw new Error(`invalid date: ${iso}`);
    this.frozen = ms;
  }

  /** The frozen instant as `YYYY-MM-DDTHH:mm:ss+08:00`, or null when following the real clock. */
  frozenIso(): string | null {
    return this.frozen === null ? null : toBeijingIso(this.frozen);
  }
}

/** Calendar fields of an instant in Beijing time. */
export interface BeijingParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
}

/** Splits an instant into Beijing calendar fields. */
export function beijingParts(ms: number): BeijingParts {
  const d = new Date(ms + BEIJING_OFFSET_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

/** Zero-pads a number to `n` digits. */
export function pad(v: number, n = 2): string {
  return String(v).padStart(n, '0');
}

/** `YYYY-MM-DD` for calendar fields. */
export function ymd(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** `YYYY-MM-DDTHH:mm:ss+08:00` for an instant. */
export function toBeijingIso(ms: number): string {
  const p = beijingParts(ms);
  return `${ymd(p.year, p.month, p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}+08:00`;
}

/** Day number (days since 1970-01-01) of a calendar date; differences give whole calendar days. */
export function dayNumber(year: number, month: number, day: number): number {
  return Math.round(Date.UTC(year, month - 1, day) / 86_400_000);
}

/** Calendar date for a day number. */
export function fromDayNumber(n: number): { year: number; month: number; day: number; weekday: number } {
  const d = new Date(n * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: d.getUTCDay() };
}
