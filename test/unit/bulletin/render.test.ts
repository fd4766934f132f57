import * as assert from 'node:assert/strict';
import {
  calendarLine,
  deriveFarmNotes,
  numberOf,
  renderWeatherBrief,
  solarTermTable,
  weatherSourceLine,
  type ForecastDay,
} from '../../../src/bulletin/render';
import { builtinTemplate, fillTemplate } from '../../../src/bulletin/template';
import { DEFAULT_THRESHOLDS } from '../../../src/bulletin/thresholds';
import { PAGE_TIME } from '../../support/pageExamples';

// The vendor page's own examples (000_*.txt, weather_search and get_current_time).
const PAGE_NOW = {
  city: '101270101',
  weather: '阴',
  temperature: '19.8℃',
  humidity: '',
  wind: '北风 1级',
  updateTime: '20:50',
};
const PAGE_DAY: ForecastDay = {
  date: '2026-10-26',
  weather: '阴',
  high: '20℃',
  low: '13℃',
  wind: '微风',
  humidity: '23%',
  week: '一',
};

function week(days: Array<Partial<ForecastDay>>): ForecastDay[] {
  return days.map((d, i) => ({ ...PAGE_DAY, date: `2026-10-${26 + i}`, ...d }));
}

describe('weather brief', () => {
  it('keeps the two shapes apart: the code from now mode, the name from forecast mode', () => {
    const md = renderWeatherBrief({
      place: '成都',
      now: PAGE_NOW,
      forecast: { city: '成都', forecast: week([{}, {}, {}, {}, {}, {}, {}]) },
      retrievedOn: '2026-10-26',
      lang: 'zh',
      notes: false,
    });
    assert.match(md, /^### 天气 · 成都（101270101）$/m);
    assert.match(md, /实时：阴，19\.8℃，湿度 —，北风 1级（20:50 更新）/);
    assert.equal(md.split('\n').filter((l) => l.startsWith('| 2026-10-')).length, 7);
    assert.match(md, /\| 2026-10-26 \| 星期一 \| 阴 \| 20℃ \/ 13℃ \| 微风 \| 23% \|/);
    assert.match(md, /^> 来源：中国天气网（经蜀农 weather_search） · 成都（101270101） · 2026-10-26 · 更新于 20:50$/m);
  });

  it('shows missing fields as missing, never as 0', () => {
    const md = renderWeatherBrief({
      place: '101270101',
      now: { city: '101270101' },
      forecast: { city: '101270101', forecast: week([{ humidity: '', high: '' }]) },
      retrievedOn: '2026-10-26',
      lang: 'en',
      notes: false,
    });
    assert.match(md, /Now: —, —, humidity —, — \(updated —\)/);
    assert.match(md, /\| 2026-10-26 \| Mon \| 阴 \| — \/ 13℃ \| 微风 \| — \|/);
    assert.doesNotMatch(md, /\b0℃|\| 0 \|/);
    assert.equal(numberOf(''), undefined);
    assert.equal(numberOf('-3℃'), -3);
  });

  it('escapes server text so it cannot break the table', () => {
    const md = renderWeatherBrief({
      place: 'x',
      now: PAGE_NOW,
      forecast: { city: 'a|b', forecast: week([{ weather: '晴|<b>雨</b>\n' }]) },
      retrievedOn: '2026-10-26',
      lang: 'zh',
      notes: false,
    });
    const row = md.split('\n').find((l) => l.startsWith('| 2026-10-26')) ?? '';
    assert.equal(row.split(/(?<!\\)\|/).length, 8, 'still six cells');
    assert.ok(!md.includes('<b>'));
  });
});

describe('derived farm notes', () => {
  const t = { frostBelowC: 2, heatAboveC: 35, humidPercent: 85, minRunDays: 3 };

  it('finds rain spells at the threshold length, not below', () => {
    const three = deriveFarmNotes(
      week([{ weather: '小雨' }, { weather: '中雨' }, { weather: '阴转小雨' }, { weather: '晴' }]),
      t,
      'zh',
    );
    assert.deepEqual(
      three.map((n) => [n.kind, n.from, n.to]),
      [['rain', '2026-10-26', '2026-10-28']],
    );
    assert.match(three[0]?.text ?? '', /连续 3 天有雨/);
    assert.deepEqual(deriveFarmNotes(week([{ weather: '小雨' }, { weather: '中雨' }, { weather: '晴' }]), t, 'zh'), []);
  });

  it('flags frost at or below the threshold and heat at or above it', () => {
    const notes = deriveFarmNotes(week([{ low: '2℃' }, { low: '3℃' }, { high: '35℃' }, { high: '34℃' }]), t, 'en');
    assert.deepEqual(
      notes.map((n) => [n.kind, n.from]),
      [
        ['frost', '2026-10-26'],
        ['heat', '2026-10-28'],
      ],
    );
  });

  it('counts humid spells and ignores missing humidity', () => {
    const notes = deriveFarmNotes(
      week([{ humidity: '85%' }, { humidity: '90%' }, { humidity: '' }, { humidity: '95%' }]),
      t,
      'zh',
    );
    assert.deepEqual(notes, []);
    const spell = deriveFarmNotes(week([{ humidity: '85%' }, { humidity: '90%' }, { humidity: '88%' }]), t, 'zh');
    assert.equal(spell[0]?.kind, 'humid');
  });

  it('marks the notes as derived in the brief', () => {
    const md = renderWeatherBrief({
      place: '成都',
      now: PAGE_NOW,
      forecast: { city: '成都', forecast: week([{ low: '-1℃' }]) },
      retrievedOn: '2026-10-26',
      lang: 'zh',
      notes: t,
    });
    assert.match(md, /由预报推算，非平台数据/);
    assert.match(md, /霜冻风险/);
  });
});

describe('calendar line', () => {
  it('renders the page example as the bulletin line', () => {
    assert.equal(calendarLine(PAGE_TIME, 'zh'), '2026年10月25日 星期日 · 霜降（距立冬 13 天）');
    assert.equal(
      calendarLine(PAGE_TIME, 'en'),
      "Sunday, October 25, 2026 · 霜降 Frost's Descent (13 days to 立冬 Start of Winter)",
    );
    assert.equal(calendarLine(PAGE_TIME, 'zh', '{date} {term}'), '2026-10-25 霜降');
  });

  it('renders the day of a term boundary and the day before', () => {
    const eve = { ...PAGE_TIME, date: '2026-11-06', weekday: '星期五', days_to_next_solar_term: 1 };
    const day = {
      ...PAGE_TIME,
      date: '2026-11-07',
      weekday: '星期六',
      solar_term: '立冬',
      solar_term_date: '2026-11-07',
      next_solar_term: '小雪',
      next_solar_term_date: '2026-11-22',
      days_to_next_solar_term: 15,
    };
    assert.equal(calendarLine(eve, 'zh'), '2026年11月6日 星期五 · 霜降（距立冬 1 天）');
    assert.equal(calendarLine(day, 'zh'), '2026年11月7日 星期六 · 立冬（距小雪 15 天）');
  });

  it('tabulates the year and marks today', () => {
    const md = solarTermTable(
      2026,
      [
        { name: '小寒', date: '2026-01-05' },
        { name: '大寒', date: '2026-01-20' },
      ],
      'zh',
      '2026-01-20',
    );
    assert.match(md, /\| 大寒 \| 2026-01-20 ◀ \|/);
  });
});

describe('bulletin template', () => {
  const values = {
    title: '成都农情简报 "测试"',
    lang: 'zh-CN',
    date: '2026-10-25',
    weekday: '星期日',
    solarTerm: '霜降',
    nextSolarTerm: '立冬',
    daysToNextSolarTerm: '13',
    calendarLine: '2026年10月25日 星期日 · 霜降（距立冬 13 天）',
    place: '成都\n---',
    referencesHeading: '参考资料',
    issue: '2026年第13期',
  };

  it('fills the front matter without letting values break it', () => {
    const out = fillTemplate(builtinTemplate('zh'), values);
    const front = out.split('\n---\n')[0] ?? '';
    assert.match(front, /^---\ntitle: "成都农情简报 ”测试”"\nlang: zh-CN\ndate: 2026-10-25\n/);
    assert.match(front, /place: "成都 ---"$/);
    assert.match(out, /^## 参考资料$/m);
    const empty = Object.fromEntries(Object.keys(values).map((k) => [k, ''])) as typeof values;
    assert.equal(fillTemplate('{{unknown}} {{date}}', { ...empty, date: 'd' }), '{{unknown}} d');
  });

  it('is written in its language: headings and hints in zh-CN or en, none of the other', () => {
    const zh = builtinTemplate('zh');
    const en = builtinTemplate('en');
    for (const h of ['## 天气与农事提示', '## 当前农事建议', '## 病虫害防控', '运行“蜀农：插入天气简报”', '待补充'])
      assert.ok(zh.includes(h), h);
    for (const h of [
      '## Weather and farm notes',
      '## Farm advice',
      '## Pests and diseases',
      'Shunong: Insert Weather Brief',
    ])
      assert.ok(en.includes(h), h);
    assert.doesNotMatch(zh, /Weather|Farm|Pests/);
    assert.doesNotMatch(en, /\p{Script=Han}/u);
    for (const t of [zh, en]) assert.match(t, /^lang: \{\{lang\}\}$/m);
  });
});

describe('bulletin/render: the source line of a drafted weather citation', () => {
  const w = {
    provider: 'shunong-local-emulator',
    location: '成都*',
    date: '2026-12-01',
    summary: '多云',
    updatedAt: '2026-11-30T18:00:00+08:00',
  };
  const escape = (s: string): string => s.replace(/\*/g, '\\*');

  it('is a quoted source line in the bulletin language, every server value escaped', () => {
    assert.equal(
      weatherSourceLine(w, 'zh', escape),
      '> 来源：shunong-local-emulator · 成都\\* · 2026-12-01 · 更新于 2026-11-30T18:00:00+08:00',
    );
    assert.equal(
      weatherSourceLine(w, 'en', escape),
      '> Source: shunong-local-emulator · 成都\\* · 2026-12-01 · updated 2026-11-30T18:00:00+08:00',
    );
  });
});

describe('bulletin/render: the calendar line in English and by format', () => {
  const MONTHS = 'January February March April May June July August September October November December'.split(' ');

  it('names every month in English, and writes month and day without a leading zero', () => {
    MONTHS.forEach((name, i) => {
      const date = `2026-${String(i + 1).padStart(2, '0')}-05`;
      assert.equal(
        calendarLine({ ...PAGE_TIME, date }, 'en', '{monthName} {month}/{day}/{year}'),
        `${name} ${i + 1}/5/2026`,
        date,
      );
    });
  });

  it('fills every format token from get_current_time, in the bulletin language', () => {
    const line = calendarLine(
      PAGE_TIME,
      'en',
      '{year}|{month}|{day}|{monthName}|{weekday}|{term}|{nextTerm}|{days}|{date}',
    );
    assert.equal(line, "2026|10|25|October|Sunday|霜降 Frost's Descent|立冬 Start of Winter|13|2026-10-25");
    assert.equal(calendarLine(PAGE_TIME, 'zh', '{weekday} {term} {nextTerm}'), '星期日 霜降 立冬');
    assert.equal(calendarLine(PAGE_TIME, 'en', '   '), calendarLine(PAGE_TIME, 'en'), 'a blank format is the default');
  });

  it('says "1 day" on the eve of a term and "N days" otherwise', () => {
    assert.equal(
      calendarLine({ ...PAGE_TIME, days_to_next_solar_term: 1 }, 'en'),
      "Sunday, October 25, 2026 · 霜降 Frost's Descent (1 day to 立冬 Start of Winter)",
    );
    assert.match(calendarLine({ ...PAGE_TIME, days_to_next_solar_term: 2 }, 'en'), /\(2 days to /);
  });

  it("tabulates the year's terms under a heading in the language, marking only today", () => {
    const terms = [
      { name: '小寒', date: '2026-01-05' },
      { name: '大寒', date: '2026-01-20' },
    ];
    assert.equal(
      solarTermTable(2026, terms, 'en', '2026-01-05'),
      [
        '**Solar terms of 2026**',
        '',
        '| | |',
        '| --- | --- |',
        '| 小寒 Minor Cold | 2026-01-05 ◀ |',
        '| 大寒 Major Cold | 2026-01-20 |',
      ].join('\n'),
    );
  });
});

describe('bulletin/render: the weather brief, piece by piece', () => {
  const brief = (over: Partial<Parameters<typeof renderWeatherBrief>[0]>): string =>
    renderWeatherBrief({
      place: '成都',
      now: PAGE_NOW,
      forecast: { city: '成都', forecast: week([{}]) },
      retrievedOn: '2026-10-26',
      lang: 'en',
      notes: false,
      ...over,
    });
  const heading = (md: string): string => md.split('\n')[0]!;

  it('names the place from forecast mode, unless it is a 9-digit code; the code from now mode or the place asked', () => {
    const cases: [string, string, string, string][] = [
      // place asked, now.city, forecast.city, heading
      ['成都', '101270101', '成都', '### Weather · 成都（101270101）'],
      ['成都', '101270101', '101270101', '### Weather · 成都（101270101）'],
      ['101270101', '101270101', '101270101', '### Weather · 101270101'],
      ['成都', '101270101', '  ', '### Weather · 成都（101270101）'],
      ['101270101', '', ' 成都 ', '### Weather · 成都（101270101）'],
      ['成都', '1012701011', '成都', '### Weather · 成都'],
      ['成都', 'x101270101', '成都', '### Weather · 成都'],
      ['1012701011', '101270101x', '', '### Weather · 1012701011'],
      ['成都', '', '新都区101270101', '### Weather · 新都区101270101'],
      ['成都', '', '101270101区', '### Weather · 101270101区'],
      ['成都', '', '1', '### Weather · 1'],
      ['x101270101', '', '成都', '### Weather · 成都'],
      ['101270101x', '', '成都', '### Weather · 成都'],
      ['成都', '', '成都市新都区新繁街道', '### Weather · 成都市新都区新繁街道'],
    ];
    for (const [place, nowCity, city, expected] of cases)
      assert.equal(
        heading(brief({ place, now: { ...PAGE_NOW, city: nowCity }, forecast: { city, forecast: [] } })),
        expected,
        `${place} / ${nowCity} / ${city}`,
      );
  });

  it('lays out the table: a bold title, the header, the separator, one row a day; ends with a line break', () => {
    const lines = brief({ forecast: { city: '成都', forecast: week([{}, {}]) } }).split('\n');
    const at = lines.indexOf('**Next 7 days**');
    assert.ok(at > 0);
    assert.deepEqual(lines.slice(at + 1, at + 6), [
      '',
      '| Date | Day | Weather | High / Low | Wind | Humidity |',
      '| --- | --- | --- | --- | --- | --- |',
      '| 2026-10-26 | Mon | 阴 | 20℃ / 13℃ | 微风 | 23% |',
      '| 2026-10-27 | Mon | 阴 | 20℃ / 13℃ | 微风 | 23% |',
    ]);
    assert.ok(brief({}).endsWith('updated 20:50\n'));
    assert.ok(!brief({}).endsWith('\n\n'));
  });

  it('a blank value is missing too', () => {
    assert.match(brief({ now: { ...PAGE_NOW, weather: '  ' } }), /^Now: —, 19\.8℃/m);
  });

  it('adds the notes title only when there are notes', () => {
    const calm = brief({ notes: DEFAULT_THRESHOLDS });
    assert.doesNotMatch(calm, /Farm notes/);
    assert.doesNotMatch(calm, /^- /m);
  });

  it('reads numbers with their decimals', () => {
    assert.equal(numberOf('20.55℃'), 20.55);
    assert.equal(numberOf('湿度 23.5%'), 23.5);
    assert.equal(numberOf('-0.5°C'), -0.5);
    assert.equal(numberOf('无'), undefined);
    assert.equal(numberOf(undefined), undefined);
  });
});

describe('bulletin/render: the farm notes, word for word', () => {
  const t = { ...DEFAULT_THRESHOLDS };

  it('a spell that starts mid-week counts its own days', () => {
    const notes = deriveFarmNotes(
      week([{ weather: '晴' }, { weather: '小雨' }, { weather: '雨夹雪' }, { weather: '小雪' }, { weather: '晴' }]),
      t,
      'en',
    );
    assert.deepEqual(
      notes.map((n) => n.text),
      [
        '2026-10-27 to 2026-10-29: rain on 3 days in a row — clear drainage ditches, harvest and dry before the rain, prevent disease after it.',
      ],
    );
  });

  it('a humid spell, in words, with its threshold', () => {
    const notes = deriveFarmNotes(week([{ weather: '晴' }, {}, {}, {}].map(() => ({ humidity: '90%' }))), t, 'en');
    assert.deepEqual(
      notes.map((n) => [n.kind, n.text]),
      [
        [
          'humid',
          '2026-10-26 to 2026-10-29: humidity at or above 85% on 4 days in a row — disease pressure is high; keep fields ventilated.',
        ],
      ],
    );
  });

  it('a day without weather or humidity is no part of a spell, whatever the thresholds', () => {
    const blank = week([{}, {}, {}]).map((d) => ({ date: d.date }));
    assert.deepEqual(deriveFarmNotes(blank, { ...t, humidPercent: 0, minRunDays: 1 }, 'zh'), []);
  });

  it('frost and heat in words, with the day’s value and the threshold', () => {
    assert.deepEqual(
      deriveFarmNotes(
        week([
          { low: '-1℃', high: '10℃' },
          { low: '20℃', high: '36℃' },
        ]),
        t,
        'en',
      ).map((n) => n.text),
      [
        '2026-10-26: low of -1℃, at or below 2℃ — frost risk; protect sensitive crops.',
        '2026-10-27: high of 36℃, at or above 35℃ — heat risk; irrigate and avoid midday field work.',
      ],
    );
  });
});

describe('bulletin/template: the hints and the placeholders', () => {
  it("the weather hint names the bulletin's place, and the advice hint the search command", () => {
    const en = builtinTemplate('en');
    assert.match(
      en,
      /Run "Shunong: Insert Weather Brief" to insert the current weather and 7-day forecast for \{\{place\}\} here\./,
    );
    assert.match(en, /Find sources with "Shunong: Search Knowledge" and insert cited snippets\./);
    assert.match(builtinTemplate('zh'), /\{\{place\}\}/);
  });

  it('fills a placeholder written with spaces inside the braces; a line break of any kind becomes one space', () => {
    const values = {
      title: '一\r\n二\n\n三',
      lang: 'en',
      date: 'D',
      weekday: '',
      solarTerm: '',
      nextSolarTerm: '',
      daysToNextSolarTerm: '',
      calendarLine: '',
      place: '',
      referencesHeading: '',
      issue: '',
    };
    assert.equal(fillTemplate('{{ title }}|{{date  }}|{{\tlang}}', values), '一 二 三|D|en');
  });
});
