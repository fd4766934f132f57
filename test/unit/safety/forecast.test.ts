/**
 * The parts a forecast must state (src/safety/forecast.ts, its words in forecastCues.ts): each part
 * missing alone is exactly its finding, a complete forecast has none, a bulletin that is not a
 * forecast has none; what each rule reads as stated and what it does not; the traditional script.
 * The severity words and the kinds of forecast are the reference's
 * (test/fixtures/reference/forecast-rules.md).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FORECAST_PARTS,
  forecastMessage,
  forecastRule,
  missingForecastParts,
  shippedRules,
  type ForecastPart,
} from '../../../src/safety/index';

const rules = shippedRules();
const REFERENCE = readFileSync(join(__dirname, '..', '..', 'fixtures', 'reference', 'forecast-rules.md'), 'utf8');

/** The codes of what a text does not state. */
const missing = (text: string): string[] =>
  missingForecastParts(text, rules, { today: '2026-12-02' }).map((m) => m.code);

/** Each part of a forecast, stated, and the same passage without it. */
const STATED = {
  pest: '稻飞虱',
  time: '8月中下旬',
  area: '在全县单季稻区',
  severity: '中等发生，局部偏重发生',
  measures: '每亩用25%吡蚜酮可湿性粉剂20克，兑水30公斤均匀喷雾，重点喷植株中下部。',
  issuer: 'issuer: 德清县植保站',
  date: 'date: 2026-08-05',
};
const UNSTATED: typeof STATED = {
  pest: '田间虫量',
  time: '',
  area: '',
  severity: '发生',
  measures: '请加强田间调查，及时掌握虫情动态。',
  issuer: '',
  date: '',
};

/** A 病虫情报 on 稻飞虱, with the parts `without` names left out and `type` as its kind. */
function forecast(without: readonly ForecastPart[] = [], type = '病虫情报'): string {
  const p = (part: ForecastPart): string => (without.includes(part) ? UNSTATED : STATED)[part];
  const front = ['title: 病虫情报', `type: ${type}`, p('date'), p('issuer'), 'crop: 水稻'].filter(Boolean);
  return [
    '---',
    ...front,
    '---',
    '',
    '# 病虫情报（2026年第18期）',
    '',
    '## 发生趋势',
    '',
    `${p('pest')}：单季稻田平均每丛12.5头，虫量较上年同期偏多。预计${p('time')}${p('area')}${p('severity')}。`,
    '',
    '## 防治意见',
    '',
    p('measures'),
    '',
  ].join('\n');
}

describe('forecast: the parts it must state', () => {
  it('finds nothing in a complete forecast', () => {
    assert.deepEqual(missing(forecast()), []);
  });

  for (const part of FORECAST_PARTS)
    it(`finds exactly forecast-missing-${part} when only the ${part} is left out`, () => {
      assert.deepEqual(missing(forecast([part])), [`forecast-missing-${part}`]);
    });

  it('finds every part missing in a forecast that states none, in the rules order', () => {
    assert.deepEqual(
      missing(forecast([...FORECAST_PARTS])),
      FORECAST_PARTS.map((p) => `forecast-missing-${p}`),
    );
  });

  it('puts every finding on the type: line of the front matter', () => {
    const text = forecast(['area', 'severity']);
    const found = missingForecastParts(text, rules, { today: '2026-12-02' });
    assert.equal(found.length, 2);
    for (const f of found) {
      assert.equal(f.line, 2);
      assert.equal(f.character, 0);
      assert.equal(text.slice(f.offset, f.offset + f.length), 'type: 病虫情报');
    }
  });
});

describe('forecast: which bulletins are forecasts', () => {
  const EMPTY = (type: string): string => `---\ntype: ${type}\n---\n\n# 通知\n`;

  it('reads every kind the reference names as a forecast (病虫情报, 预报, 警报), and type: forecast', () => {
    const kinds = /A forecast \(([^)]+)\)/.exec(REFERENCE)![1]!.split(/,\s*/);
    assert.deepEqual(kinds, ['病虫情报', '预报', '警报']);
    for (const type of [...kinds, 'forecast', 'Forecast', '"预报"', "'警报'", '预报   '])
      assert.equal(missing(EMPTY(type)).length, FORECAST_PARTS.length, type);
  });

  it('reads the traditional script: 預報, 病蟲情報, 警報', () => {
    for (const type of ['預報', '病蟲情報', '警報']) assert.equal(missing(EMPTY(type)).length, 7, type);
  });

  it('finds nothing in a bulletin that is not a forecast, however little it states', () => {
    for (const type of ['周报', 'bulletin', '农事建议', '预报员培训通知'])
      assert.deepEqual(missing(forecast([...FORECAST_PARTS], type)), [], type);
    assert.deepEqual(missing('# 病虫情报\n\n预计将会发生。\n'), [], 'no front matter');
    assert.deepEqual(missing('---\ntitle: 病虫情报\n---\n\n预计将会发生。\n'), [], 'no type:');
  });
});

describe('forecast: the pest or disease', () => {
  it('reads a pest or disease of the vocabulary in the body', () => {
    for (const pest of ['稻纵卷叶螟', '小麦赤霉病', '草地贪夜蛾', '褐飞虱', '稻瘟病', '蚜虫', '荔枝霜疫霉病'])
      assert.deepEqual(missing(forecast(['pest']).replace('田间虫量', pest)), [], pest);
  });

  it('reads it in the title of the front matter', () => {
    assert.deepEqual(missing(forecast(['pest']).replace('title: 病虫情报', 'title: 稻飞虱发生趋势预报')), []);
  });

  it('does not read a word for pests in general as one', () => {
    assert.deepEqual(missing(forecast(['pest']).replace('田间虫量', '病虫害')), ['forecast-missing-pest']);
  });
});

describe('forecast: the time', () => {
  it('reads a month, a part of one, a span of days and the days ahead', () => {
    for (const time of [
      '8月中旬',
      '8月10日至15日',
      '8月10—15日',
      '7月下旬至8月上旬',
      '八月中旬',
      '未来10天',
      '10日前后',
      '2026年8月10日至15日',
    ])
      assert.deepEqual(missing(forecast(['time']).replace('预计', `预计${time}`)), [], time);
  });

  it('does not read the issue date as the time: a date with its year, or a 发布日期 line', () => {
    for (const line of ['本期依据2026年8月3日调查。', '本期依据2026-08-03调查。', '发布日期：8月5日'])
      assert.deepEqual(missing(`${forecast(['time'])}\n${line}\n`), ['forecast-missing-time'], line);
  });
});

describe('forecast: the area', () => {
  it('reads the whole of an area, each of them, a region and a named place', () => {
    for (const area of ['全市', '全省', '单季稻区', '沿江稻区', '各乡镇', '德清县', '新市镇', '山区'])
      assert.deepEqual(missing(forecast(['area']).replace('预计', `预计${area}`)), [], area);
  });

  it("does not read the issuer's or the author's county as the area", () => {
    for (const field of ['author: 德清县植保站', 'issuer: 德清县植保站'])
      assert.deepEqual(missing(forecast(['area']).replace('crop: 水稻', field)), ['forecast-missing-area'], field);
  });

  it('does not read an ordinary word that ends as a place does, nor the closing block', () => {
    for (const text of [
      '要做好城市周边田块的防治。',
      '新药上市前要登记。',
      '注意市场上的假药。',
      '抄送：各县（市、区）植保站。',
    ])
      assert.deepEqual(missing(`${forecast(['area'])}\n${text}\n`), ['forecast-missing-area'], text);
  });
});

describe('forecast: the severity', () => {
  it('reads every level and word the reference gives, and 局部 with them', () => {
    const words = /in words: (.+?)\. Long-range/s.exec(REFERENCE)![1]!;
    const named = [...words.matchAll(/(\S+发生) \(\d\)/g)].map((m) => m[1]!);
    assert.deepEqual(named, ['轻发生', '偏轻发生', '中等发生', '偏重发生', '大发生']);
    for (const severity of [...named, '1级', '3级', '5级', '2—3级', '局部偏重', '偏轻', '中等'])
      assert.deepEqual(missing(forecast(['severity']).replace('预计', `预计${severity}，`)), [], severity);
  });

  it("does not read a wind's force as a level, nor a part of a larger number", () => {
    for (const wind of ['风力3～4级', '风力3级', '有5级以上大风', '可抗13级台风'])
      assert.deepEqual(missing(`${forecast(['severity'])}\n未来三天${wind}。\n`), ['forecast-missing-severity'], wind);
  });
});

describe('forecast: the control measures', () => {
  it('reads a pesticide the safety reader reads as recommended, with or without a dose', () => {
    for (const m of ['可选用吡蚜酮、呋虫胺等药剂喷雾防治。', '亩用50%吡蚜酮水分散粒剂15克喷雾。'])
      assert.deepEqual(missing(forecast(['measures']).replace('请加强田间调查，及时掌握虫情动态。', m)), [], m);
  });

  it('reads a dose with a word of use for a product its dictionary does not know', () => {
    const m = '每亩用10%烯啶虫胺水剂40毫升，兑水30公斤喷雾。';
    assert.deepEqual(missing(forecast(['measures']).replace('请加强田间调查，及时掌握虫情动态。', m)), []);
  });

  it('does not read a pesticide told of, forbidden, in a comment or in code as a measure', () => {
    for (const m of [
      '吡蚜酮对稻飞虱的防效试验见附件。',
      '严禁使用克百威、甲拌磷等高毒农药。',
      '<!-- 每亩用25%吡蚜酮可湿性粉剂20克喷雾 -->',
      '```\n每亩用25%吡蚜酮可湿性粉剂20克喷雾\n```',
    ])
      assert.deepEqual(
        missing(forecast(['measures']).replace('请加强田间调查，及时掌握虫情动态。', m)),
        ['forecast-missing-measures'],
        m,
      );
  });
});

describe('forecast: the issuing body and the issue date', () => {
  it('reads a 发布单位 line (plain, bold, in a list, 发布机构) as the issuing body', () => {
    for (const line of ['发布单位：德清县植保站', '**发布单位**：德清县植保站', '- 发布机构: 德清县植保站'])
      assert.deepEqual(missing(`${forecast(['issuer'])}\n${line}\n`), [], line);
  });

  it('does not read an empty issuer: or 发布单位 line, nor one inside code', () => {
    assert.deepEqual(missing(forecast(['issuer']).replace('crop: 水稻', 'issuer: ""')), ['forecast-missing-issuer']);
    for (const line of ['发布单位：', '```\n发布单位：德清县植保站\n```'])
      assert.deepEqual(missing(`${forecast(['issuer'])}\n${line}\n`), ['forecast-missing-issuer'], line);
  });

  it('reads any date: as stated (one that is no day is the date note’s finding)', () => {
    for (const date of ['date: 2026年8月5日', 'date: 下周一'])
      assert.deepEqual(missing(forecast(['date']).replace('crop: 水稻', date)), [], date);
  });
});

describe('forecast: in the traditional script', () => {
  const TRADITIONAL = [
    '---',
    'title: 稻飛蝨發生趨勢預報',
    'type: 病蟲情報',
    'date: 2026-08-05',
    '---',
    '',
    '# 病蟲情報',
    '',
    '預計8月中下旬全縣單季稻區偏重發生。',
    '',
    '每畝用25%吡蚜酮可濕性粉劑20克，兌水30公斤均勻噴霧。',
    '',
    '發布單位：德清縣植保站',
    '',
  ].join('\n');

  it('finds nothing in a complete forecast written in it', () => {
    assert.deepEqual(missing(TRADITIONAL), []);
  });

  it('finds what it leaves out', () => {
    assert.deepEqual(missing(TRADITIONAL.replace('全縣單季稻區偏重', '').replace('發布單位：德清縣植保站', '')), [
      'forecast-missing-area',
      'forecast-missing-severity',
      'forecast-missing-issuer',
    ]);
  });
});

describe('forecast: the messages', () => {
  it('says each part in English and Chinese, naming the rules', () => {
    for (const part of FORECAST_PARTS) {
      assert.match(forecastMessage(part, 'en'), /^This forecast .*\(the 2021 forecast rules require (it|them)\)\.$/);
      assert.match(forecastMessage(part, 'zh'), /^本预报.*（《农作物病虫害监测与预报管理办法》要求写明）。$/);
      assert.match(forecastRule(part, 'en'), /^A forecast .*\(the 2021 forecast rules\)\.$/);
      assert.match(forecastRule(part, 'zh'), /^预报须.*（《农作物病虫害监测与预报管理办法》）。$/);
    }
    assert.equal(
      forecastMessage('area', 'en'),
      'This forecast does not state the area it covers (the 2021 forecast rules require it).',
    );
    assert.equal(forecastMessage('area', 'zh'), '本预报未写明发生范围（《农作物病虫害监测与预报管理办法》要求写明）。');
  });
});

describe('forecast: what is read where', () => {
  /** The forecast with the front matter lines `extra` added after its type:, and `measures` as its advice. */
  const withFront = (extra: string[], without: ForecastPart[] = []): string =>
    forecast(without).replace(/^(type: .*)$/m, (t) => [t, ...extra].join('\n'));

  it("the issue and the date are not the forecast's time (8月第2期 is an issue, 8月10日 the day it is issued)", () => {
    assert.deepEqual(missing(withFront(['issue: 8月第2期'], ['time'])), ['forecast-missing-time']);
    assert.deepEqual(missing(withFront(['date: 8月10日'], ['time'])), ['forecast-missing-time']);
  });

  it('reads a type: with spaces inside its quotes', () => {
    assert.deepEqual(missing(forecast(['area'], '" 预报 "')), ['forecast-missing-area']);
  });

  it('points at the type: line itself, not a line that only starts or ends like it, its trailing blanks left out', () => {
    const text = forecast(['area']).replace(
      /^type: 病虫情报$/m,
      'types: 病虫情报\nsubtype: 病虫情报\ntype: 病虫情报   ',
    );
    const [found] = missingForecastParts(text, rules, { today: '2026-12-02' });
    const lines = text.split('\n');
    assert.equal(lines[found!.line], 'type: 病虫情报   ');
    assert.equal(text.slice(found!.offset, found!.offset + found!.length), 'type: 病虫情报');
    assert.equal(found!.character, 0);
  });

  it('a dose with a word of use counts as a measure where it names no pesticide the rules know, a crop or not', () => {
    const advice = (measures: string): string => forecast().replace(STATED.measures, measures);
    assert.deepEqual(missing(advice('水稻每亩用20%烯啶虫胺水剂30毫升兑水30公斤喷雾。')), []);
    assert.deepEqual(missing(advice('严禁使用甲胺磷。每亩用20%烯啶虫胺水剂30毫升兑水喷雾。')), []);
  });

  it('a dose beside a pesticide the reader does not read as recommended is no measure (a misuse reported)', () => {
    const text = forecast().replace(STATED.measures, '去年有农户每亩用40%甲胺磷乳油100毫升喷雾，被罚款。');
    assert.deepEqual(missing(text), ['forecast-missing-measures']);
  });
});
