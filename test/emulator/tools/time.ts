/** `get_current_time`: Beijing time with solar terms from tyme4ts. */
import { z } from 'zod';
import { SolarDay, SolarTerm } from 'tyme4ts';
import { beijingParts, dayNumber, pad, ymd, type EmulatorClock } from '../clock';
import type { ToolDef } from './types';

/** Input schema of get_current_time. */
export const timeSchema = z.strictObject({
  format: z
    .string()
    .min(1)
    .default('YYYY-MM-DD HH:mm:ss')
    .describe('datetime 字段的格式，支持 YYYY MM DD HH mm ss，默认 YYYY-MM-DD HH:mm:ss；只影响 datetime'),
  withSolarTerms: z.boolean().default(false).describe('为 true 时附带当年 24 节气表 solar_terms'),
});

const WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];

/** Formats Beijing calendar fields with the tokens YYYY MM DD HH mm ss. */
export function formatTokens(
  fmt: string,
  p: { year: number; month: number; day: number; hour: number; minute: number; second: number },
): string {
  const map: Record<string, string> = {
    YYYY: pad(p.year, 4),
    MM: pad(p.month),
    DD: pad(p.day),
    HH: pad(p.hour),
    mm: pad(p.minute),
    ss: pad(p.second),
  };
  return fmt.replace(/YYYY|MM|DD|HH|mm|ss/g, (t) => map[t] ?? t);
}

/** The 24 solar terms of a Gregorian year, 小寒 … 冬至, with their Beijing dates. */
export function solarTermsOfYear(year: number): { name: string; date: string }[] {
  const out: { name: string; date: string }[] = [];
  for (let i = 1; i <= 24; i++) {
    const t = SolarTerm.fromIndex(year, i);
    const d = t.getJulianDay().getSolarDay();
    out.push({ name: t.getName(), date: ymd(d.getYear(), d.getMonth(), d.getDay()) });
  }
  return out;
}

/** The payload for an instant. */
export function currentTime(ms: number, format: string, withSolarTerms: boolean): Record<string, unknown> {
  const p = beijingParts(ms);
  const today = dayNumber(p.year, p.month, p.day);
  const term = SolarDay.fromYmd(p.year, p.month, p.day).getTerm();
  const termDay = term.getJulianDay().getSolarDay();
  const next = term.next(1);
  const nextDay = next.getJulianDay().getSolarDay();
  const out: Record<string, unknown> = {
    timezone: 'Asia/Shanghai',
    datetime: formatTokens(format, p),
    date: ymd(p.year, p.month, p.day),
    time: `${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`,
    weekday: WEEKDAYS[p.weekday],
    unix: Math.floor(ms / 1000),
    solar_term: term.getName(),
    solar_term_date: ymd(termDay.getYear(), termDay.getMonth(), termDay.getDay()),
    next_solar_term: next.getName(),
    next_solar_term_date: ymd(nextDay.getYear(), nextDay.getMonth(), nextDay.getDay()),
    days_to_next_solar_term: dayNumber(nextDay.getYear(), nextDay.getMonth(), nextDay.getDay()) - today,
    solar_term_year: p.year,
  };
  if (withSolarTerms) out.solar_terms = solarTermsOfYear(p.year);
  return out;
}

/** Builds the tool over the emulator clock. */
export function timeTool(clock: EmulatorClock): ToolDef<typeof timeSchema> {
  return {
    name: 'get_current_time',
    method: 'getCurrentTime',
    description:
      '获取当前日期时间（Asia/Shanghai），附带当前节气、下一个节气及距今天数；withSolarTerms 为 true 时返回全年 24 节气。',
    schema: timeSchema,
    async run(input) {
      return currentTime(clock.nowMs(), input.format, input.withSolarTerms);
    },
  };
}
