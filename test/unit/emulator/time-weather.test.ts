/** get_current_time and weather_search against the vendor's page "MCP 工具参考" (000). */
import assert from 'node:assert/strict';
import type { Emulator } from '../../emulator/server';
import { CITIES } from '../../emulator/tools/cities';
import { callOk, callTool, openSession, start } from './helpers';
import { PAGE_TIME } from '../../support/pageExamples';

describe('emulator get_current_time', () => {
  let emu: Emulator;
  let sid: string;
  before(async () => {
    emu = await start();
    sid = await openSession(emu);
  });
  after(() => emu.close());

  it('reproduces the page example field for field at 2026-10-25 21:06:13 Beijing time', async () => {
    await emu.admin({ now: '2026-10-25T21:06:13+08:00' });
    const t = await callOk(emu, sid, 'get_current_time', { withSolarTerms: true });
    const { solar_terms: terms, ...rest } = t as { solar_terms: { name: string; date: string }[] };
    assert.deepEqual(rest, PAGE_TIME);
    assert.equal(terms.length, 24);
    assert.deepEqual(terms.slice(0, 2), [
      { name: '小寒', date: '2026-01-05' },
      { name: '大寒', date: '2026-01-20' },
    ]);
    assert.deepEqual(terms.at(-1), { name: '冬至', date: '2026-12-22' });
    assert.deepEqual(
      terms.find((x) => x.name === '立冬'),
      { name: '立冬', date: '2026-11-07' },
    );
  });

  it('omits solar_terms unless withSolarTerms, and format changes datetime only', async () => {
    await emu.admin({ now: '2026-10-25T21:06:13+08:00' });
    const t = await callOk(emu, sid, 'get_current_time', { format: 'YYYY年MM月DD日 HH时mm分ss秒' });
    assert.equal(t.datetime, '2026年10月25日 21时06分13秒');
    assert.equal(t.date, '2026-10-25');
    assert.equal(t.time, '21:06:13');
    assert.equal('solar_terms' in t, false);
  });

  it('uses Beijing dates: 2026-12-31 23:30 UTC is 2027-01-01, and counts days to 小寒', async () => {
    await emu.admin({ now: '2026-12-31T23:30:00Z' });
    const t = await callOk(emu, sid, 'get_current_time', {});
    assert.equal(t.date, '2027-01-01');
    assert.equal(t.weekday, '星期五');
    assert.equal(t.solar_term, '冬至');
    assert.equal(t.solar_term_date, '2026-12-22');
    assert.equal(t.next_solar_term, '小寒');
    assert.equal(t.days_to_next_solar_term, Number(String(t.next_solar_term_date).slice(8)) - 1);
  });
});

describe('emulator weather_search', () => {
  let emu: Emulator;
  let sid: string;
  before(async () => {
    emu = await start();
    sid = await openSession(emu);
    await emu.admin({ now: '2026-10-26T20:53:00+08:00' });
  });
  after(() => emu.close());

  it('knows at least 20 cities with 9-digit codes, including 成都 101270101, 北京 101010100, 上海 101020100', () => {
    assert.ok(CITIES.length >= 20);
    assert.ok(CITIES.every((c) => /^\d{9}$/.test(c.code)));
    assert.equal(new Set(CITIES.map((c) => c.code)).size, CITIES.length);
    for (const [name, code] of [
      ['成都', '101270101'],
      ['北京', '101010100'],
      ['上海', '101020100'],
    ])
      assert.equal(CITIES.find((c) => c.name === name)?.code, code);
  });

  it('now mode returns the city code and the page fields ({"location": "成都", "date": "now"})', async () => {
    const w = await callOk<Record<string, string>>(emu, sid, 'weather_search', { location: '成都', date: 'now' });
    assert.deepEqual(Object.keys(w), ['city', 'weather', 'temperature', 'humidity', 'wind', 'updateTime']);
    assert.equal(w.city, '101270101');
    assert.match(w.temperature ?? '', /^-?\d+\.\d℃$/);
    assert.match(w.humidity ?? '', /^(\d+%)?$/);
    assert.match(w.wind ?? '', /^\S+风 \d级$/);
    assert.equal(w.updateTime, '20:50');
  });

  it('accepts the 9-digit code and gives the same observation', async () => {
    const a = await callOk(emu, sid, 'weather_search', { location: '成都', date: 'now' });
    const b = await callOk(emu, sid, 'weather_search', { location: '101270101', date: 'now' });
    assert.deepEqual(a, b);
  });

  it('leaves humidity empty on some observations, as the page example does', async () => {
    let empty = 0;
    for (const c of CITIES) {
      const w = await callOk<Record<string, string>>(emu, sid, 'weather_search', { location: c.code, date: 'now' });
      if (w.humidity === '') empty++;
    }
    assert.ok(empty > 0 && empty < CITIES.length);
  });

  it('forecast mode echoes the name and gives 7 days from today (Beijing) with one-char week', async () => {
    const f = await callOk<{ city: string; forecast: Record<string, string>[] }>(emu, sid, 'weather_search', {
      location: '成都',
      date: '2026-10-26',
    });
    assert.equal(f.city, '成都');
    assert.equal(f.forecast.length, 7);
    assert.deepEqual(Object.keys(f.forecast[0] ?? {}), ['date', 'weather', 'high', 'low', 'wind', 'humidity', 'week']);
    assert.deepEqual(
      f.forecast.map((d) => d.date),
      ['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30', '2026-10-31', '2026-11-01'],
    );
    assert.deepEqual(
      f.forecast.map((d) => d.week),
      ['一', '二', '三', '四', '五', '六', '日'],
    );
    for (const d of f.forecast) {
      assert.match(d.high ?? '', /^-?\d+℃$/);
      assert.match(d.humidity ?? '', /^\d+%$/);
      assert.ok(parseInt(d.high ?? '', 10) >= parseInt(d.low ?? '', 10));
    }
    // "传入的 date 只用于触发预报模式，不影响起始日期"
    const other = await callOk<{ forecast: Record<string, string>[] }>(emu, sid, 'weather_search', {
      location: '成都',
      date: '2030-01-01',
    });
    assert.deepEqual(other.forecast, f.forecast);
  });

  it('is deterministic per city and date, and plausible by season and latitude', async () => {
    const h = await callOk<{ forecast: Record<string, string>[] }>(emu, sid, 'weather_search', {
      location: '哈尔滨',
      date: 'x',
    });
    const g = await callOk<{ forecast: Record<string, string>[] }>(emu, sid, 'weather_search', {
      location: '广州',
      date: 'x',
    });
    const mean = (f: Record<string, string>[]): number =>
      f.reduce((s, d) => s + parseInt(d.high ?? '', 10) + parseInt(d.low ?? '', 10), 0) / (2 * f.length);
    assert.ok(mean(g.forecast) - mean(h.forecast) > 8);
    await emu.admin({ now: '2026-10-27T09:00:00+08:00' });
    const later = await callOk<{ forecast: Record<string, string>[] }>(emu, sid, 'weather_search', {
      location: '哈尔滨',
      date: 'x',
    });
    assert.deepEqual(later.forecast.slice(0, 6), h.forecast.slice(1));
    await emu.admin({ now: '2026-10-26T20:53:00+08:00' });
  });

  it('an unknown place is a tool failure naming it', async () => {
    const r = await callTool(emu, sid, 'weather_search', { location: '火星基地', date: 'now' });
    assert.equal(r.isError, true);
    assert.equal(r.text, 'Error invoking method: weatherSearch\n未找到城市: 火星基地');
  });
});
