/**
 * Traditional Chinese folded to simplified with every UTF-16 position kept, held against the
 * library's own full converter (OpenCC's phrase tables and all) over words of the domain, and over
 * every character one by one.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import * as OpenCC from 'opencc-js';
import { toSimplified } from '../../../src/text/simplified';
import { runs } from '../fast-check-seed';

/** Traditional words and phrases of pesticide bulletins and notices, in Taiwan's forms. */
const TAIWAN = words(`
  六六六 滴滴涕 毒殺芬 二溴氯丙烷 殺蟲脒 二溴乙烷 除草醚 艾氏劑 狄氏劑 汞製劑 砷類 鉛類 敵枯雙
  氟乙酰胺 甘氟 毒鼠強 氟乙酸鈉 毒鼠硅 甲胺磷 甲基對硫磷 對硫磷 久效磷 磷胺 苯線磷 地蟲硫磷
  甲基硫環磷 磷化鈣 磷化鎂 磷化鋅 硫線磷 蠅毒磷 治螟磷 特丁硫磷 氯磺隆 胺苯磺隆 甲磺隆 福美胂
  福美甲胂 三氯殺蟎醇 三氯殺螨醇 林丹 硫丹 溴甲烷 氟蟲胺 殺撲磷 百草枯 甲拌磷 甲基異柳磷 克百威 涕滅威
  滅線磷 內吸磷 硫環磷 氯唑磷 乙酰甲胺磷 丁硫克百威 樂果 氧樂果 氧化樂果 水胺硫磷 滅多威 氟蟲腈 毒死蜱
  三唑磷 敵敵畏 銳勁特 呋喃丹 速撲殺 退菌特 辛硫磷 吡蟲啉 啶蟲脒 噻蟲嗪 阿維菌素
  甲氨基阿維菌素苯甲酸鹽 高效氯氰菊酯 溴氰菊酯 氯蟲苯甲酰胺 多菌靈 甲基硫菌靈 代森錳鋅 百菌清 三唑酮
  戊唑醇 苯醚甲環唑 嘧菌酯 吡唑醚菌酯 井岡黴素 春雷黴素 噻呋酰胺 草甘膦 草銨膦 莠去津 乙草胺
  苄嘧磺隆 二甲四氯鈉 蕓薹素內酯 赤黴酸 石硫合劑 波爾多液 蘇雲金桿菌 白僵菌 甘藍夜蛾核型多角體病毒
  氯化苦 硫酰氟 溴氰蟲酰胺 螺蟲乙酯 聯苯菊酯 噠蟎靈 四蟎嗪 乙蟎唑 丁硫·吡蟲啉 樂·溴
  福美雙·克百威種衣劑 15%樂溴乳油 3%克百威顆粒劑 40%氧化樂果乳油

  蔬菜 韭菜 蘿蔔 甘藍 茶樹 柑橘 蘋果 棉花 水稻 小麥 玉米 大豆 花生 油菜 甘蔗 馬鈴薯 番茄 黃瓜
  辣椒 茄子 大白菜 芹菜 菠菜 豇豆 葡萄 梨樹 桃樹 獼猴桃 西瓜 草莓 茭白 生薑 大蒜 果樹 茶葉
  中草藥材 單季稻 雙季晚稻 雙晚 早稻 粳稻 秈稻 秧田 高粱 瓜果 食用菌 菸草 蠶豆 豌豆 蓮藕 山藥 香蕉
  荔枝 龍眼 棗樹 水生蔬菜 葉菜類 十字花科蔬菜 果園 蘆筍 萵筍 蕹菜 莧菜 絲瓜 苦瓜 蘋果園 鳳梨

  稻飛蝨 稻縱卷葉螟 二化螟 三化螟 紋枯病 稻瘟病 赤黴病 條鏽病 白粉病 蚜蟲 紅蜘蛛 薊馬 小菜蛾
  菜青蟲 斜紋夜蛾 甜菜夜蛾 草地貪夜蛾 玉米螟 棉鈴蟲 茶小綠葉蟬 柑橘大實蠅 潰瘍病 根結線蟲 韭蛆
  地下害蟲 蠐螬 螻蛄 金針蟲 霜黴病 灰黴病 疫病 炭疽病 黑星病 螟蟲 黏蟲 飛蝗 蝸牛 線蟲 介殼蟲
  卷葉蛾 食心蟲 為害 蟲害 病蟲害

  嚴禁 禁止使用 不得使用 禁止銷售 國家明令禁止 國家明令規定 撤銷登記 限制使用 停止生產 不準 一律不得
  禁用 全面禁止 暫停使用 註銷登記 嚴禁在蔬菜上使用 禁止銷售和使用 國家明令禁止使用的農藥
  不得用於蔬菜、瓜果、茶葉 下列農藥自2024年9月1日起禁止銷售和使用 國家明令規定禁止在蔬菜上使用
  嚴禁使用劇毒、高毒農藥 限制使用的農藥有：

  植保站 農業農村局 病蟲情報 防治適期 每畝用 兌水噴霧 倍液噴霧 拌種 灌根 撒施 安全間隔期 農藥殘留
  最大殘留限量 農產品質量安全 高毒農藥 劇毒農藥 農藥經營許可證 請廣大農戶 注意輪換用藥 避免產生抗藥性
  施藥時做好個人防護 發生趨勢 蟲口密度 病株率 達到防治指標 統防統治 綠色防控 生物農藥 性誘劑 殺蟲燈
  農業部公告第199號 第2032號公告 中華人民共和國農業農村部 農藥管理條例 縣植物保護站 預測預報
  田間調查 蟲情監測 及時防治 對準稻株中下部噴霧 噴霧均勻周到 發生面積 經濟損失 藥效試驗 乳油
  可溼性粉劑 顆粒劑 懸浮劑 水分散粒劑 微乳劑 種衣劑 煙劑 燻蒸 畝用量 稀釋 噴施 間隔7天
  連續防治2次 每666.7平方米 上世紀五十年代 少數菜農仍使用 被罰款 農資門市 購買農藥時索要發票
  查看農藥標籤 登記作物 用藥量 施藥器械 農藥包裝廢棄物 回收處理 誤食 中毒 急救 醫院 複查 檢測結果
  超標 稻田裡 隨著氣溫升高 後期 陰雨天氣 颱風過後 麻痺
`);

/** The same in Hong Kong's forms where they differ. */
const HONG_KONG = words('鋭勁特 煙草 兑水噴霧 請廣大農户 可濕性粉劑 衞生 衹有 説明 閲讀 綫蟲 隨着');

/**
 * Where the library's full converter reads a word by a phrase and the fold, char by char, cannot:
 * its phrase tables keep 薹 in 芸薹 and 蒜薹 (its character table folds 薹 to 苔, as in 菜薹 → 菜苔).
 */
const PHRASE_ONLY = new Map([
  ['蕓薹素內酯', '芸薹素内酯'],
  ['蒜薹', '蒜薹'],
]);

const fromTaiwan = OpenCC.Converter({ from: 'tw', to: 'cn' });
const fromHongKong = OpenCC.Converter({ from: 'hk', to: 'cn' });
const fromTraditional = OpenCC.Converter({ from: 't', to: 'cn' });

describe('text: toSimplified', () => {
  it('folds the prohibition words, names and crops of traditional advisories', () => {
    const cases: [string, string][] = [
      ['嚴禁', '严禁'],
      ['不得', '不得'],
      ['國家明令規定', '国家明令规定'],
      ['禁止銷售', '禁止销售'],
      ['氧化樂果', '氧化乐果'],
      ['甲基硫環磷', '甲基硫环磷'],
      ['三氯殺螨醇', '三氯杀螨醇'],
      ['三氯殺蟎醇', '三氯杀螨醇'],
      ['銳勁特', '锐劲特'],
      ['鋭勁特', '锐劲特'],
      ['殺撲磷', '杀扑磷'],
      ['滅線磷', '灭线磷'],
      ['對硫磷', '对硫磷'],
      ['敵敵畏', '敌敌畏'],
      ['蔬菜', '蔬菜'],
      ['韭菜', '韭菜'],
      ['蘿蔔', '萝卜'],
      ['甘藍', '甘蓝'],
      ['茶樹', '茶树'],
      ['柑橘', '柑橘'],
      ['蘋果', '苹果'],
      ['棉花', '棉花'],
    ];
    for (const [traditional, simplified] of cases) assert.equal(toSimplified(traditional), simplified, traditional);
  });

  it('keeps every column: a name found in the folded line is where the author wrote it', () => {
    const line = '> 二、嚴禁在蔬菜、果樹上使用**氧化樂果**（40%乳油）與𠀋甲基硫環磷。';
    const folded = toSimplified(line);
    assert.equal(folded, '> 二、严禁在蔬菜、果树上使用**氧化乐果**（40%乳油）与𠀋甲基硫环磷。');
    for (const [written, read] of [
      ['嚴禁', '严禁'],
      ['氧化樂果', '氧化乐果'],
      ['甲基硫環磷', '甲基硫环磷'],
    ]) {
      assert.equal(folded.indexOf(read!), line.indexOf(written!), written);
    }
  });

  it('leaves a simplified bulletin as it is', () => {
    const text = [
      '---',
      'date: 2026-05-12',
      'crop: 水稻',
      '---',
      '# 川南稻区病虫情报（第5期）',
      '',
      '近期阴雨天气多，稻飞虱、稻纵卷叶螟发生偏重。每亩用20%氯虫苯甲酰胺悬浮剂10毫升，兑水30公斤喷雾[^1]。',
      '严禁使用甲胺磷、对硫磷等国家明令禁止的农药；蔬菜、茶树、果树上不得使用氧乐果、克百威。',
      '',
      '[^1]: 植保站.docx#3',
    ].join('\n');
    assert.equal(toSimplified(text), text);
    assert.equal(toSimplified(''), '');
  });

  it('folds what the data folds even in simplified text: 著 (Taiwan’s table), 薹 and 乾 (no phrase is read)', () => {
    // A reader that matches the folded text folds its own words with it (蒜薹 is read as 蒜苔).
    assert.equal(toSimplified('效果显著'), '效果显着');
    assert.equal(toSimplified('蒜薹'), '蒜苔');
    assert.equal(toSimplified('乾隆'), '干隆');
    assert.equal(toSimplified('什么'), '什么', '么 is a simplified form: Taiwan’s 么 → 幺 is not applied');
  });

  it('folds a character outside the Basic Multilingual Plane into one of its own length, and keeps lone surrogates', () => {
    assert.equal(toSimplified('\u{2FA1D}'), '\u{2A600}', 'a compatibility ideograph to its unified form');
    assert.equal(toSimplified('\u{F914}果'), '乐果', 'the compatibility 樂');
    assert.equal(toSimplified('\uD800樂\uDC00果\uDBFF'), '\uD800乐\uDC00果\uDBFF');
    assert.equal(toSimplified('\u{2F800}'), '\u{2F800}', 'its unified form is one unit long: not folded');
  });

  it('keeps the length and every character that is not Han, and folding twice is folding once', () => {
    const unit = fc.oneof(
      fc.constantFrom(...'嚴禁國規銷樂環殺螨蟎銳對敵畏蘿蔔藍樹蘋著薹乾為裡説衞衹'),
      fc.integer({ min: 0x3400, max: 0x9fff }).map((cp) => String.fromCodePoint(cp)),
      fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u)),
      fc.constantFrom('\n', ' ', '、', '，', 'a', '1', '%', '\u{2FA1D}', '\u{F914}'),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), (text) => {
        const folded = toSimplified(text);
        assert.equal(folded.length, text.length);
        for (let i = 0; i < text.length; i++) {
          if (folded.charCodeAt(i) !== text.charCodeAt(i))
            assert.ok(isHanAt(text, i), `${i} of ${JSON.stringify(text)}`);
        }
        assert.equal(toSimplified(folded), folded);
      }),
      { numRuns: runs(300) },
    );
  });

  it('holds for every character on its own: length, non-Han kept, idempotent', () => {
    for (const c of everyCodePoint()) {
      const folded = toSimplified(c);
      assert.equal(folded.length, c.length, c);
      if (folded !== c) assert.ok(/\p{Script=Han}/u.test(c), `${c} U+${c.codePointAt(0)!.toString(16)}`);
      assert.equal(toSimplified(folded), folded, c);
    }
  });

  it('reads ≥ 200 traditional words of the domain as the library’s full converter does, wherever it keeps the length', () => {
    const compared: string[] = [];
    const differences: string[] = [];
    for (const [list, convert] of [
      [TAIWAN, fromTaiwan],
      [HONG_KONG, fromHongKong],
    ] as const) {
      for (const word of list) {
        const [folded, library] = [toSimplified(word), convert(word)];
        if (library.length !== word.length) continue;
        compared.push(word);
        if (folded !== library && PHRASE_ONLY.get(word) !== library)
          differences.push(`${word}: ${folded} ≠ ${library}`);
      }
    }
    assert.deepEqual(differences, []);
    const traditional = compared.filter((w) => toSimplified(w) !== w);
    assert.ok(traditional.length >= 200, `${traditional.length} traditional words compared`);
    for (const [word, library] of PHRASE_ONLY) {
      assert.equal(fromTaiwan(word), library, `${word} is still read by a phrase`);
      assert.notEqual(toSimplified(word), library);
    }
  });

  it('folds each character as the library converts it alone, where that keeps the length', () => {
    const chars = [...hanCodePoints()];
    const alone = (convert: (s: string) => string): string[] => endsOf(convert, chars);
    const [generic, taiwan, hongKong] = [alone(fromTraditional), alone(fromTaiwan), alone(fromHongKong)];
    const wrong: string[] = [];
    chars.forEach((c, i) => {
      const folded = toSimplified(c);
      const keeps = (s: string) => s.length === c.length && s !== c;
      // Every character the generic converter folds, the fold folds…
      if (keeps(generic[i]!) && folded === c) wrong.push(`${c}: kept, library ${generic[i]}`);
      // …and to what the generic or a regional converter makes of it (着 for the compatibility 著: Taiwan's).
      if (folded !== c && ![generic[i], taiwan[i], hongKong[i]].includes(folded)) wrong.push(`${c}: ${folded}`);
    });
    assert.deepEqual(wrong, []);
  });
});

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

/** Whether the character whose code unit `i` is part of is Han. */
function isHanAt(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  const start = unit >= 0xdc00 && unit <= 0xdfff && i > 0 && /[\uD800-\uDBFF]/.test(text[i - 1]!) ? i - 1 : i;
  return /\p{Script=Han}/u.test(String.fromCodePoint(text.codePointAt(start)!));
}

function* everyCodePoint(): Generator<string> {
  for (let cp = 0; cp <= 0xffff; cp++) yield String.fromCharCode(cp);
  for (let cp = 0x20000; cp <= 0x3134f; cp++) yield String.fromCodePoint(cp);
}

function* hanCodePoints(): Generator<string> {
  for (const c of everyCodePoint()) if (/\p{Script=Han}/u.test(c)) yield c;
}

/**
 * Each character converted alone by the library (a line each, so no phrase spans two), and again
 * until it stays: the fold follows a chain to its end (薴 → 苧 → 苎), so that folding twice is folding once.
 */
function endsOf(convert: (s: string) => string, chars: readonly string[]): string[] {
  const ends = [...chars];
  let moving = chars.map((_, i) => i);
  for (let round = 0; round < 4 && moving.length > 0; round++) {
    const next = convert(moving.map((i) => ends[i]).join('\n')).split('\n');
    assert.equal(next.length, moving.length);
    moving = moving.filter((i, k) => {
      const moved = next[k]!.length === chars[i]!.length && next[k] !== ends[i];
      if (moved) ends[i] = next[k]!;
      return moved;
    });
  }
  return ends;
}
