/**
 * The vendor page's example of a get_current_time result (docs/reference, "get_current_time":
 * Asia/Shanghai at 2026-10-25 21:06:13, with its solar terms), field for field: what the emulator
 * answers at that moment, what the loopback servers answer with, what the calendar line is written from.
 */
export const PAGE_TIME = {
  timezone: 'Asia/Shanghai',
  datetime: '2026-10-25 21:06:13',
  date: '2026-10-25',
  time: '21:06:13',
  weekday: '星期日',
  unix: 1792933573,
  solar_term: '霜降',
  solar_term_date: '2026-10-23',
  next_solar_term: '立冬',
  next_solar_term_date: '2026-11-07',
  days_to_next_solar_term: 13,
  solar_term_year: 2026,
};
