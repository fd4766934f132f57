/**
 * Requests the solar-term status bar item makes over simulated idle days (injected clock; the
 * goal is at most 2 per day boundary crossed: the first and the one after midnight). The loader
 * stands in for get_current_time; what is measured is how often the item asks.
 */
import { DailyValue } from '../src/bulletin/daily';
import { beijingDate } from '../src/time/beijing';
import { ManualScheduler } from '../test/support/manual-scheduler';
import { sized } from './smoke.mjs';

async function idle(startIso: string, hours: number, reads: number): Promise<{ requests: number; days: number }> {
  const clock = new ManualScheduler(Date.parse(startIso));
  let requests = 0;
  const v = new DailyValue(async () => {
    requests++;
    return beijingDate(clock.now());
  }, clock);
  v.start();
  const end = clock.now() + hours * 3_600_000;
  const step = (hours * 3_600_000) / reads;
  const days = new Set<string>([beijingDate(clock.now())]);
  while (clock.now() < end) {
    await clock.advanceTo(clock.now() + step);
    days.add(beijingDate(clock.now()));
    await v.get(); // a tooltip hover or an insert
  }
  v.dispose();
  return { requests, days: days.size };
}

// smoke mode: a few hours (still across Beijing midnight: 13:06 UTC is 21:06 there) and a few reads
const DAY_HOURS = sized(24, 4);
const DAY_READS = sized(2000, 8);
const WEEK_HOURS = sized(24 * 7, 6);
const WEEK_READS = sized(5000, 8);

async function main(): Promise<void> {
  const day = await idle('2026-10-25T13:06:13Z', DAY_HOURS, DAY_READS);
  console.log(
    `solar-term status bar: ${day.requests} requests over ${DAY_HOURS} simulated idle hours spanning ${day.days} Beijing dates (goal ≤ 2), ${DAY_READS} reads`,
  );
  const week = await idle('2026-10-25T13:06:13Z', WEEK_HOURS, WEEK_READS);
  console.log(
    `solar-term status bar: ${week.requests} requests over ${WEEK_HOURS / 24} simulated idle days spanning ${week.days} Beijing dates, ${WEEK_READS} reads`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
