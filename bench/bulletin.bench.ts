/**
 * Requests the solar-term status bar item makes over simulated idle days (injected clock; the
 * goal is at most 2 per day boundary crossed: the first and the one after midnight). The loader
 * stands in for get_current_time; what is measured is how often the item asks.
 */
import { DailyValue } from '../src/bulletin/daily';
import { beijingDate } from '../src/time/beijing';
import { ManualScheduler } from '../test/support/manual-scheduler';

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

async function main(): Promise<void> {
  const day = await idle('2026-10-25T13:06:13Z', 24, 2000);
  console.log(
    `solar-term status bar: ${day.requests} requests over a simulated idle day spanning ${day.days} Beijing dates (goal ≤ 2), 2000 reads`,
  );
  const week = await idle('2026-10-25T13:06:13Z', 24 * 7, 5000);
  console.log(
    `solar-term status bar: ${week.requests} requests over 7 simulated idle days spanning ${week.days} Beijing dates`,
  );
}

void main();
