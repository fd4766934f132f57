/** The words written into documents: the catalogue over l10n/ and every inserter of src/bulletin in both languages. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calendarLine, renderWeatherBrief, type ForecastDay } from '../../../src/bulletin/render';
import {
  fill,
  langOf,
  langTag,
  referencesHeadingOf,
  termName,
  weekdayName,
  weekName,
  wordsOf,
} from '../../../src/text/words';

const bundle = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8'),
) as Record<string, string>;

describe('text/words: the catalogue', () => {
  it("is the l10n bundle: zh-CN words are the bundle's, English words are the keys", () => {
    for (const [key, zh] of Object.entries(bundle)) {
      if (/\{\w+\}/.test(key)) continue;
      assert.equal(wordsOf('zh').t(key), zh, key);
      assert.equal(wordsOf('en').t(key), key, key);
    }
    assert.equal(wordsOf('zh').t('Weather · {0}', '成都'), '天气 · 成都');
    assert.equal(wordsOf('en').t('Weather · {0}', '成都'), 'Weather · 成都');
    assert.equal(wordsOf('zh').t('A message nobody translated {0}', 1), 'A message nobody translated 1');
  });

  it('fills numbered and named placeholders, leaving unknown ones as they are', () => {
    assert.equal(fill('{0} / {1} / {2}', 'a', 3), 'a / 3 / {2}');
    assert.equal(fill('{year}-{month} {other}', { year: 2026, month: '12' }), '2026-12 {other}');
    assert.equal(fill('{0}{0}', '$&'), '$&$&');
  });

  it('maps UI language tags and writes BCP-47 tags', () => {
    assert.equal(langOf('zh-cn'), 'zh');
    assert.equal(langOf('zh-TW'), 'zh');
    assert.equal(langOf('en'), 'en');
    assert.equal(langOf('de'), 'en');
    assert.equal(langTag('zh'), 'zh-CN');
    assert.equal(langTag('en'), 'en');
  });

  it('names days, solar terms and the references heading in both languages', () => {
    assert.equal(weekName('二', 'zh'), '星期二');
    assert.equal(weekName('二', 'en'), 'Tue');
    assert.equal(weekName('天', 'en'), 'Sun');
    assert.equal(weekName('?', 'en'), '?');
    assert.equal(weekdayName('星期二', 'zh'), '星期二');
    assert.equal(weekdayName('星期二', 'en'), 'Tuesday');
    assert.equal(weekdayName('周日', 'en'), 'Sunday');
    assert.equal(weekdayName('Tuesday', 'zh'), 'Tuesday');
    assert.equal(termName('霜降', 'zh'), '霜降');
    assert.equal(termName('霜降', 'en'), "霜降 Frost's Descent");
    assert.equal(referencesHeadingOf('zh'), '参考资料');
    assert.equal(referencesHeadingOf('en'), 'References');
  });
});

describe('text/words: the rules of the catalogue', () => {
  it('a placeholder is a whole number or a whole name: {12} is the thirteenth argument, {a1} and {1a} are not numbers', () => {
    const args = Array.from({ length: 13 }, (_, i) => `v${i}`);
    assert.equal(fill('{12}|{1}', ...args), 'v12|v1');
    assert.equal(fill('{a1} {1a}', 'x', 'y'), '{a1} {1a}');
    // nor what Number() would read as one: hexadecimal, an exponent
    assert.equal(fill('{0x1} {1e0}', 'x', 'y'), '{0x1} {1e0}');
    // a record given after the first argument is not text: its placeholder stays
    assert.equal(fill('{0}-{1}', 'a', { x: 1 }), 'a-{1}');
  });

  it('every one of the 24 solar terms has its own English name in en, and only its Chinese name in zh', () => {
    const TERMS =
      '小寒 大寒 立春 雨水 惊蛰 春分 清明 谷雨 立夏 小满 芒种 夏至 小暑 大暑 立秋 处暑 白露 秋分 寒露 霜降 立冬 小雪 大雪 冬至'.split(
        ' ',
      );
    const english = TERMS.map((t) => {
      assert.equal(termName(t, 'zh'), t);
      const shown = termName(t, 'en');
      assert.ok(shown.startsWith(`${t} `), shown);
      const name = shown.slice(t.length + 1);
      assert.match(name, /^[A-Z][A-Za-z']*(?: [A-Za-z']+)*$/, t);
      return name;
    });
    assert.equal(new Set(english).size, 24, 'no two terms share an English name');
    assert.equal(termName('未知节气', 'en'), '未知节气', 'a name we do not know is shown as it came');
  });

  it('the seven days: each platform weekday reads as its own day, short in the forecast and in full on the calendar line', () => {
    const ONE = ['一', '二', '三', '四', '五', '六', '日'];
    const SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
    const FULL = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
    ONE.forEach((c, i) => {
      assert.equal(weekName(c, 'en'), SHORT[i]);
      assert.equal(weekName(c, 'zh'), `星期${c}`);
      for (const prefix of ['星期', '周', '礼拜']) {
        assert.equal(weekdayName(`${prefix}${c}`, 'en'), FULL[i], `${prefix}${c}`);
        assert.equal(weekdayName(`${prefix}${c}`, 'zh'), `星期${c}`, `${prefix}${c}`);
      }
    });
    assert.equal(weekdayName('星期天', 'en'), 'Sunday');
  });

  it('a weekday with spaces around it is still that day; one without its 星期/周/礼拜, or with text before it, is shown as it came', () => {
    assert.equal(weekName(' 二 ', 'en'), 'Tue');
    assert.equal(weekdayName(' 星期二 ', 'en'), 'Tuesday');
    assert.equal(weekdayName('二', 'en'), '二');
    assert.equal(weekdayName('下星期二', 'en'), '下星期二');
    assert.equal(weekdayName('星期八', 'en'), '星期八');
    assert.equal(weekdayName('星期二三', 'en'), '星期二三', 'one day character, nothing after it');
  });
});

describe('bulletin: every inserter in both languages', () => {
  const day: ForecastDay = {
    date: '2026-12-01',
    weather: '小雨',
    high: '36℃',
    low: '1℃',
    wind: '北风',
    humidity: '90%',
    week: '二',
  };
  const days = [0, 1, 2].map((i) => ({ ...day, date: `2026-12-0${i + 1}` }));
  const brief = (lang: 'zh' | 'en'): string =>
    renderWeatherBrief({
      place: '101270101',
      now: {
        city: '101270101',
        weather: '小雨',
        temperature: '8℃',
        humidity: '90%',
        wind: '北风',
        updateTime: '08:00',
      },
      forecast: { city: '成都', forecast: days },
      retrievedOn: '2026-12-01',
      lang,
    });

  it('the weather brief: heading, now line, table head, notes and source line in zh-CN', () => {
    const md = brief('zh');
    assert.match(md, /^### 天气 · 成都（101270101）$/m);
    assert.match(md, /^实时：小雨，8℃，湿度 90%，北风（08:00 更新）$/m);
    assert.match(md, /^\| 日期 \| 星期 \| 天气 \| 最高 \/ 最低 \| 风 \| 湿度 \|$/m);
    assert.match(md, /^\| 2026-12-01 \| 星期二 \|/m);
    assert.match(md, /^\*农事提示（由预报推算/m);
    assert.match(md, /连续 3 天有雨/);
    assert.match(md, /有霜冻风险/);
    assert.match(md, /有高温风险/);
    assert.match(md, /^> 来源：中国天气网/m);
    // No English words of ours (weather_search is the tool's name).
    assert.doesNotMatch(md.replace(/weather_search/g, ''), /[A-Za-z]{2,}/);
  });

  it('the weather brief in en: the same parts, no Chinese of ours', () => {
    const md = brief('en');
    assert.match(md, /^### Weather · 成都（101270101）$/m);
    assert.match(md, /^Now: 小雨, 8℃, humidity 90%, 北风 \(updated 08:00\)$/m);
    assert.match(md, /^\| Date \| Day \| Weather \| High \/ Low \| Wind \| Humidity \|$/m);
    assert.match(md, /^\| 2026-12-01 \| Tue \|/m);
    assert.match(md, /rain on 3 days in a row/);
    assert.match(md, /frost risk/);
    assert.match(md, /^> Source: China Weather/m);
    // Only the server's values are Chinese.
    assert.doesNotMatch(md.replace(/成都|小雨|北风/g, ''), /\p{Script=Han}/u);
  });

  it('the date and solar-term line in both languages', () => {
    const t = {
      date: '2026-12-01',
      weekday: '星期二',
      solar_term: '小雪',
      next_solar_term: '大雪',
      days_to_next_solar_term: 6,
    };
    assert.equal(calendarLine(t, 'zh'), '2026年12月1日 星期二 · 小雪（距大雪 6 天）');
    assert.equal(calendarLine(t, 'en'), 'Tuesday, December 1, 2026 · 小雪 Minor Snow (6 days to 大雪 Major Snow)');
    assert.equal(calendarLine(t, 'en', '{weekday} {date}'), 'Tuesday 2026-12-01');
    const eve = { ...t, days_to_next_solar_term: 1 };
    assert.equal(calendarLine(eve, 'en'), 'Tuesday, December 1, 2026 · 小雪 Minor Snow (1 day to 大雪 Major Snow)');
    assert.equal(calendarLine(eve, 'zh'), '2026年12月1日 星期二 · 小雪（距大雪 1 天）');
  });
});
