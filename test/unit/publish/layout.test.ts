/**
 * The official layout as a model: the page from the standard's numbers (read from
 * test/fixtures/reference/official-layout.md), heading numbers, the parts front matter fields make,
 * and each part left out when its field is absent.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { frontMatter } from '../../../src/bulletin/frontMatter';
import {
  chineseNumber,
  FONTS,
  layoutFonts,
  mmToTwips,
  officialDate,
  officialLayout,
  type OfficialLayout,
} from '../../../src/publish/layout';
import { plainOf } from '../../../src/publish/model';
import { readBulletin } from '../../../src/publish/read';
import { ROOT } from './helpers';

export const REFERENCE = readFileSync(join(ROOT, 'test/fixtures/reference/official-layout.md'), 'utf8');

/** A number the reference states, found by the words before it. */
export function stated(re: RegExp): number {
  const m = re.exec(REFERENCE);
  assert.ok(m, `the reference states ${re}`);
  return Number(m[1]);
}

export function layoutOf(text: string): { layout: OfficialLayout; headings: string[] } {
  const doc = readBulletin(text, { lang: 'zh' });
  const layout = officialLayout(doc, { frontMatter: frontMatter(text) });
  const headings: string[] = [];
  for (const [b, n] of layout.headings) if (b.kind === 'heading') headings.push(n.prefix + plainOf(b.content));
  return { layout, headings };
}

const FULL = `---
title: 关于做好秋播小麦病虫害防控的通知
masthead: 病虫情报
issuer: 某某县植保植检站
issue: 2026年第12期
date: 2026-10-02
to: 各乡镇农业综合服务中心
attachments: 小麦病虫害监测表，推荐药剂名录
cc: 县农业农村局，县气象局
printed_by: 某某县植保植检站
printed_on: 2026-10-02
---

正文。
`;

describe('publish: the official layout (model)', () => {
  it('sets the page from the standard: A4, its margins, 22 lines of 28 characters filling the text block', () => {
    const { page } = layoutOf('正文').layout;
    assert.deepEqual([page.width, page.height], [mmToTwips(210), mmToTwips(297)]);
    assert.match(REFERENCE, /A4 \(210 × 297 mm\)/);
    const top = stated(/top \(天头\) (\d+)/);
    const left = stated(/left \(订口\) (\d+)/);
    const textWidth = stated(/text block is\s+(\d+) ×/);
    const textHeight = stated(/× (\d+) mm, so/);
    assert.equal(page.margins.top, mmToTwips(top));
    assert.equal(page.margins.left, mmToTwips(left));
    assert.equal(page.margins.right, mmToTwips(210 - left - textWidth));
    assert.equal(page.margins.bottom, mmToTwips(297 - top - textHeight));
    const lines = stated(/(\d+) lines per page/);
    const chars = stated(/(\d+) characters per line/);
    assert.equal(page.lines, lines);
    assert.equal(page.chars, chars);
    const textBlock = page.height - page.margins.top - page.margins.bottom;
    assert.ok(page.linePitch * lines <= textBlock && (page.linePitch + 1) * lines > textBlock, 'the lines fill it');
    const pitchPt = page.linePitch / 20;
    assert.ok(pitchPt >= stated(/fixed line pitch of about (\d+)/) && pitchPt <= stated(/about \d+–(\d+) pt/));
    assert.equal(page.bodySize, 2 * stated(/3号仿宋 \((\d+) pt/));
    assert.match(REFERENCE, /Paragraphs indented two characters/);
    assert.equal(page.firstLineChars, 2);
  });

  it('writes dates in Arabic numerals without leading zeros, whatever way the author wrote them', () => {
    for (const d of ['2026-10-02', '2026/10/2', '2026.10.02', '2026年10月2日'])
      assert.equal(officialDate(d), '2026年10月2日');
    assert.equal(officialDate('2026-12-31'), '2026年12月31日');
    assert.equal(officialDate('秋季'), '秋季', 'what is no date stays as written');
  });

  it('counts in Chinese numerals', () => {
    assert.deepEqual([1, 9, 10, 11, 19, 20, 21, 99].map(chineseNumber), [
      '一',
      '九',
      '十',
      '十一',
      '十九',
      '二十',
      '二十一',
      '九十九',
    ]);
  });

  it('numbers ## to ##### as 一、（一）1.（1）, each level counting under the one above', () => {
    const text = [
      '# 标题',
      '## 甲',
      '### 甲一',
      '#### 细则',
      '##### 条',
      '##### 条',
      '#### 细则',
      '### 甲二',
      '## 乙',
      '### 乙一',
      '#### 细则',
      '###### 最深',
    ].join('\n\n');
    assert.deepEqual(layoutOf(text).headings, [
      '一、甲',
      '（一）甲一',
      '1.细则',
      '（1）条',
      '（2）条',
      '2.细则',
      '（二）甲二',
      '二、乙',
      '（一）乙一',
      '1.细则',
      '最深',
    ]);
  });

  it('keeps a number the author wrote and counts on from it; leaves the references and the headings of unnumbered: as they are', () => {
    const text = [
      '---\nunnumbered:\n  - 附表\n---',
      '## 三、虫情',
      '## 防治',
      '### （一）药剂',
      '### 器械',
      '#### 2. 喷雾',
      '#### 施药',
      '## 附表',
      '## 参考资料',
      '',
      '见〔茶.docx#1〕',
    ].join('\n\n');
    const { headings, layout } = layoutOf(text);
    assert.deepEqual(headings, [
      '三、虫情',
      '四、防治',
      '（一）药剂',
      '（二）器械',
      '2. 喷雾',
      '3.施药',
      '附表',
      '参考资料',
    ]);
    const fonts = [...layout.headings.values()].map((h) => h.font);
    assert.deepEqual(fonts.slice(0, 6), ['heiti', 'heiti', 'kaiti', 'kaiti', 'fangsong', 'fangsong']);
  });

  it('takes the masthead, title, recipient, attachments, signature and closing block from the front matter', () => {
    const { layout } = layoutOf(FULL);
    assert.deepEqual(layout.masthead, {
      form: 'bulletin',
      name: '病虫情报',
      issue: '2026年第12期',
      issuer: '某某县植保植检站',
      date: '2026年10月2日',
    });
    assert.equal(layout.title, '关于做好秋播小麦病虫害防控的通知');
    assert.equal(layout.recipient, '各乡镇农业综合服务中心：');
    assert.deepEqual(layout.attachments, ['小麦病虫害监测表', '推荐药剂名录']);
    assert.deepEqual(layout.signature, { issuer: '某某县植保植检站', date: '2026年10月2日' });
    assert.deepEqual(layout.closing, {
      cc: ['县农业农村局', '县气象局'],
      printedBy: '某某县植保植检站',
      printedOn: '2026年10月2日',
    });
  });

  it('reads cc:, attachments: and unnumbered: as a YAML list or as one line between commas, the same', () => {
    const listed = layoutOf(
      FULL.replace('cc: 县农业农村局，县气象局\n', 'cc:\n  - 县农业农村局\n  - "县气象局"\n').replace(
        /^attachments:.*$/m,
        'attachments: [小麦病虫害监测表, 推荐药剂名录]',
      ),
    ).layout;
    const lined = layoutOf(FULL).layout;
    assert.deepEqual(listed.closing, lined.closing);
    assert.deepEqual(listed.attachments, lined.attachments);
    const body = '\n\n## 附表\n\n## 虫情\n\n## 附录\n';
    for (const fm of ['unnumbered: 附表，附录', 'unnumbered: [附表, 附录]', 'unnumbered:\n  - 附表\n  - " 附录 "'])
      assert.deepEqual(layoutOf(`---\n${fm}\n---${body}`).headings, ['附表', '一、虫情', '附录'], fm);
  });

  it('with a signer, the upward form: the number and the signer, no issuer-and-date line', () => {
    const text = FULL.replace('masthead: 病虫情报\n', '').replace('to:', 'signer: 张三\nto:');
    assert.deepEqual(layoutOf(text).layout.masthead, {
      form: 'upward',
      name: '某某县植保植检站',
      issue: '2026年第12期',
      signer: '张三',
    });
  });

  it('leaves out each part whose field is absent, never a placeholder', () => {
    const keys = [
      'masthead',
      'issuer',
      'issue',
      'date',
      'to',
      'attachments',
      'cc',
      'printed_by',
      'printed_on',
      'title',
    ];
    for (const key of keys) {
      const text = FULL.replace(new RegExp(`^${key}:.*\\n`, 'm'), '');
      const { layout } = layoutOf(text);
      const json = JSON.stringify({ ...layout, headings: undefined });
      const value = frontMatter(FULL).fields[key]!;
      // the value is gone unless another field still carries it
      const still = Object.entries(frontMatter(text).fields).some(
        ([, v]) => v === value || officialDate(v) === officialDate(value),
      );
      if (!still)
        assert.ok(!json.includes(officialDate(value)) && !json.includes(value.split('，')[0]!), `${key} left out`);
    }
    const dated = layoutOf('---\ndate: 2026-10-02\n---\n\n正文').layout;
    assert.equal(dated.masthead, undefined, 'a date alone makes no masthead');
    assert.deepEqual(dated.signature, { date: '2026年10月2日' });
    const bare = layoutOf('正文').layout;
    assert.deepEqual(Object.keys(bare).sort(), ['fonts', 'headings', 'page']);
    assert.deepEqual(bare.fonts, FONTS, "the standard's fonts");
  });

  it("puts a station's fonts in place of the standard's, key by key, keeping the standard's stand-in", () => {
    assert.deepEqual(layoutFonts({}), FONTS);
    assert.deepEqual(layoutFonts({ body: ' ', title: '方正小标宋简体' }), FONTS, 'blank, or the standard font itself');
    const fonts = layoutFonts({ body: ' 仿宋 ', heading: 'Noto Sans SC' });
    assert.deepEqual(fonts.fangsong, { name: '仿宋', charset: '86', family: 'modern' }, 'its own stand-in: none');
    assert.deepEqual(fonts.heiti, { ...FONTS.heiti, name: 'Noto Sans SC' });
    assert.deepEqual([fonts.xiaobiaosong, fonts.kaiti, fonts.songti], [FONTS.xiaobiaosong, FONTS.kaiti, FONTS.songti]);
    assert.equal(layoutOf('正文').layout.fonts.fangsong.name, '仿宋_GB2312');
  });
});
