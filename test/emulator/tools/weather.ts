/**
 * `weather_search`: deterministic synthetic weather. Values are seeded by a hash of city code and
 * Beijing date, shaped by the city's climate (annual mean, seasonal swing, wetness): plausible by
 * season and latitude, identical for the same city and date.
 */
import { z } from 'zod';
import { beijingParts, dayNumber, fromDayNumber, pad, ymd, type EmulatorClock } from '../clock';
import { ToolFailure } from '../validation';
import { findCity, type City } from './cities';
import type { ToolDef } from './types';

/** Input schema of weather_search. */
export const weatherSchema = z.strictObject({
  location: z.string().min(1).describe('城市名或 9 位城市编码（优先传编码，如 成都 101270101）'),
  date: z.string().min(1).default('now').describe('"now" 返回实时天气；传日期（如 2026-10-26）返回从今天起 7 日预报'),
});

/** FNV-1a 32-bit hash. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Deterministic uniform in [0, 1) from a key. */
function unit(key: string): number {
  return hash32(key) / 0x1_0000_0000;
}

const WEEK = ['日', '一', '二', '三', '四', '五', '六'];
const DIRS = ['北风', '东北风', '东风', '东南风', '南风', '西南风', '西风', '西北风'];

/** One day's synthetic weather for a city. */
export interface DayWeather {
  weather: string;
  high: number;
  low: number;
  humidity: number;
  windDir: string;
  windLevel: number;
}

/** Computes a city's weather on a day number (days since 1970-01-01, Beijing calendar). */
export function dayWeather(city: City, day: number): DayWeather {
  const d = fromDayNumber(day);
  const doy = day - dayNumber(d.year, 1, 1);
  const key = `${city.code}:${ymd(d.year, d.month, d.day)}`;
  // Coldest around 20 January (day 20), warmest around 20 July.
  const seasonal = city.mean - city.swing * Math.cos((2 * Math.PI * (doy - 20)) / 365);
  const mean = seasonal + (unit(`${key}:t`) - 0.5) * 5;
  const summer = 0.5 - 0.5 * Math.cos((2 * Math.PI * (doy - 20)) / 365);
  const rainChance = city.wet * (0.25 + 0.35 * summer);
  const r = unit(`${key}:w`);
  const range = 5 + (1 - city.wet) * 7 + unit(`${key}:r`) * 3;
  let weather: string;
  if (r < rainChance) {
    const k = unit(`${key}:k`);
    if (mean < 1) weather = k < 0.7 ? '小雪' : '中雪';
    else if (summer > 0.6 && k < 0.35) weather = '雷阵雨';
    else weather = k < 0.55 ? '小雨' : k < 0.8 ? '阵雨' : '中雨';
  } else {
    const k = unit(`${key}:c`);
    weather = k < 0.35 + city.wet * 0.3 ? (k < 0.2 ? '阴' : '多云') : '晴';
  }
  const wetDay = weather.includes('雨') || weather.includes('雪');
  const span = wetDay ? range * 0.6 : weather === '晴' ? range * 1.15 : range;
  const humidity = Math.round(
    Math.min(98, Math.max(12, 100 * city.wet * 0.75 + (wetDay ? 20 : 0) + (unit(`${key}:h`) - 0.5) * 20)),
  );
  return {
    weather,
    high: Math.round(mean + span / 2),
    low: Math.round(mean - span / 2),
    humidity,
    windDir: DIRS[Math.floor(unit(`${key}:d`) * DIRS.length)] ?? '北风',
    windLevel: 1 + Math.floor(unit(`${key}:l`) * (city.wet > 0.7 ? 3 : 4)),
  };
}

/** Real-time observation at an instant. */
export function nowWeather(city: City, ms: number): Record<string, string> {
  const p = beijingParts(ms);
  const day = dayNumber(p.year, p.month, p.day);
  const w = dayWeather(city, day);
  // Observations are published every 10 minutes.
  const slotMinute = Math.floor(p.minute / 10) * 10;
  const hour = p.hour + slotMinute / 60;
  // Diurnal curve: minimum near 06:00, maximum near 15:00.
  const phase = Math.cos((2 * Math.PI * (hour - 15)) / 24);
  const key = `${city.code}:${ymd(p.year, p.month, p.day)}:${pad(p.hour)}${pad(slotMinute)}`;
  const t = (w.high + w.low) / 2 + ((w.high - w.low) / 2) * phase + (unit(`${key}:n`) - 0.5) * 0.8;
  return {
    city: city.code,
    weather: w.weather,
    temperature: `${t.toFixed(1)}℃`,
    // The live feed sometimes leaves humidity empty (as in the vendor's example).
    humidity: unit(`${key}:e`) < 0.25 ? '' : `${w.humidity}%`,
    wind: `${w.windDir} ${w.windLevel}级`,
    updateTime: `${pad(p.hour)}:${pad(slotMinute)}`,
  };
}

/** Seven days from today (Beijing), the `city` field echoing the name passed. */
export function forecast(city: City, passedName: string, ms: number): Record<string, unknown> {
  const p = beijingParts(ms);
  const today = dayNumber(p.year, p.month, p.day);
  const days = [];
  for (let i = 0; i < 7; i++) {
    const d = fromDayNumber(today + i);
    const w = dayWeather(city, today + i);
    days.push({
      date: ymd(d.year, d.month, d.day),
      weather: w.weather,
      high: `${w.high}℃`,
      low: `${w.low}℃`,
      wind: w.windLevel <= 2 ? '微风' : `${w.windDir} ${w.windLevel}-${w.windLevel + 1}级`,
      humidity: `${w.humidity}%`,
      week: WEEK[d.weekday] ?? '',
    });
  }
  return { city: passedName, forecast: days };
}

/** Builds the tool over the emulator clock. */
export function weatherTool(clock: EmulatorClock): ToolDef<typeof weatherSchema> {
  return {
    name: 'weather_search',
    method: 'weatherSearch',
    description:
      '查询中国城市天气：date 为 "now" 返回实时天气（city 为城市编码），传日期返回从今天起 7 日预报（city 回显传入名称）。',
    schema: weatherSchema,
    async run(input) {
      const city = findCity(input.location);
      if (!city) throw new ToolFailure(`未找到城市: ${input.location}`);
      const ms = clock.nowMs();
      return input.date.trim().toLowerCase() === 'now' ? nowWeather(city, ms) : forecast(city, input.location, ms);
    },
  };
}
