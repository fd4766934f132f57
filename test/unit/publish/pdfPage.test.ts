/**
 * The page a PDF is printed from, read as HTML: its policy (nothing runs, nothing is fetched), the
 * CSS page rules of both layouts (A4, margins, page numbers), the notes numbered as in Word with
 * links both ways, the official layout's parts, a picture on the web named in its place, and
 * hostile text inert. The PDF itself is read back in pdf.test.ts.
 */
import * as assert from 'node:assert/strict';
import { exportBulletin, type ExportRequest } from '../../../src/publish/index';
import { readBulletin } from '../../../src/publish/read';
import { writePdfPage } from '../../../src/publish/pdfPage';
import { cssString, fontStack, officialCss, standardCss } from '../../../src/publish/pdfCss';
import { layoutFonts } from '../../../src/publish/layout';
import { readSamplePhoto, SAMPLE } from './helpers';

export const OFFICIAL = `---
title: 关于做好秋播小麦病虫害防控的通知
layout: official
masthead: 病虫情报
issuer: 某某县植保植检站
issue: 2026年第12期
date: 2026-10-02
to: 各乡镇农业综合服务中心
attachments: 小麦病虫害监测表，推荐药剂名录
cc: 县农业农村局，县气象局
printed_by: 某某县植保植检站
printed_on: 2026-10-08
---

# 关于做好秋播小麦病虫害防控的通知

当前秋播小麦陆续出苗[^1]。

## 发生趋势

### 主要病虫

#### 地下害虫

##### 蛴螬

一般发生[^2]。

## 三、防控措施

### 药剂拌种

| 药剂 | 用量 |
| --- | --- |
| 吡虫啉 | 每亩 10 克[^1] |

![田间](https://example.com/field.png)

## 参考资料

[^1]: 小麦病虫害测报.pdf#2 — 植保 (PLANT_001)
[^2]: 小麦病虫害测报.pdf#3 — 植保 (PLANT_001)
`;

/** The page exportBulletin prints, and the outcome. */
export async function printedPage(
  text: string,
  extra: Partial<ExportRequest> = {},
): Promise<{ page: string; notes: number; warnings: unknown[] }> {
  let page = '';
  const r = await exportBulletin({
    text,
    format: 'pdf',
    lang: 'zh',
    now: new Date('2026-12-01T08:00:00Z'),
    readImage: readSamplePhoto,
    print: async (html) => {
      page = html;
      return { ok: true, bytes: new Uint8Array([37, 80, 68, 70]) };
    },
    ...extra,
  });
  assert.ok(r.ok, 'exported');
  return { page, notes: r.notes, warnings: r.warnings };
}

const count = (s: string, re: RegExp): number => [...s.matchAll(re)].length;

describe('the page a PDF is printed from', () => {
  it('has a policy under which nothing runs and nothing is fetched, and no script at all', async () => {
    const { page } = await printedPage(SAMPLE);
    assert.match(
      page,
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">/,
    );
    assert.doesNotMatch(page, /<script|\son[a-z]+=|javascript:/i);
    assert.match(page, /<title>茶园冬季管理技术要点<\/title>/, 'the title, for the metadata');
    assert.match(page, /<html lang="zh-CN">/);
  });

  it('standard layout: A4, its margins, a centred page number; rows kept whole, pictures fitted', () => {
    const css = standardCss();
    assert.match(css, /@page \{ size: A4; margin: 20mm 20mm 22mm;/);
    assert.match(css, /@bottom-center \{ content: counter\(page\);/);
    assert.match(css, /tr, img, pre \{ break-inside: avoid; \}/);
    assert.match(css, /thead \{ display: table-header-group; \}/);
    assert.match(css, /img \{[^}]*max-width: 100%; max-height: 220mm; object-fit: contain;/);
  });

  it('numbers a note for every reference, as the Word export does, each number a link to its note and back', async () => {
    const { page, notes } = await printedPage(SAMPLE);
    const docx = await exportBulletin({
      text: SAMPLE,
      format: 'docx',
      lang: 'zh',
      now: new Date(),
      readImage: readSamplePhoto,
    });
    assert.ok(docx.ok);
    assert.equal(notes, docx.notes, 'as many notes as Word footnotes');
    for (let n = 1; n <= notes; n++) {
      assert.equal(
        count(page, new RegExp(`<sup class="ref" id="ref-${n}"><a href="#note-${n}">${n}</a></sup>`, 'g')),
        1,
      );
      assert.equal(count(page, new RegExp(`<li id="note-${n}"><a class="back" href="#ref-${n}">${n}</a> `, 'g')), 1);
    }
    assert.match(page, /<li id="note-1"><a class="back" href="#ref-1">1<\/a> 茶树农事操作\.docx#1 — 茶树管理<\/li>/);
    assert.match(page, /作者注：产量数据来自县茶叶站 2025 年统计。/, "the author's note");
    assert.match(page, /<h2 class="notes-heading">文末注释<\/h2>/, 'sources and an author note: "Notes"');
    assert.match(
      page,
      /<span class="glued">期<sup class="ref" id="ref-1">/,
      'a number stays with the character before it',
    );
  });

  it('with citations as a list: a source keeps one number, [n], its entry linking back to its first reference', async () => {
    const { page, notes } = await printedPage(SAMPLE, { citations: 'list' });
    assert.match(page, /<sup class="ref" id="cite-1"><a href="#source-1">\[1\]<\/a><\/sup>/);
    assert.equal(count(page, /href="#source-1"/g), 2, '[^1] is referenced twice');
    assert.equal(count(page, /id="cite-1"/g), 1, 'one anchor back');
    assert.match(
      page,
      /<li id="source-1"><a class="back" href="#cite-1">\[1\]<\/a> 茶树农事操作\.docx#1 — 茶树管理<\/li>/,
    );
    assert.match(page, /<h2 class="notes-heading">参考资料<\/h2>/);
    assert.match(page, /<li id="note-1"><a class="back" href="#ref-1">1<\/a> 作者注/, "the author's note stays a note");
    assert.equal(notes, 5, 'four sources and one note');
  });

  it('official layout: the masthead, the title, the recipient, numbered headings in their fonts, the closing block', async () => {
    const { page } = await printedPage(OFFICIAL);
    assert.match(page, /<body class="official">/);
    assert.match(
      page,
      /<header class="masthead"><div class="mh-name f-xiaobiaosong">病虫情报<\/div><div class="mh-issue">2026年第12期<\/div><div class="mh-line"><span>某某县植保植检站<\/span><span>2026年10月2日<\/span><\/div><\/header>/,
    );
    assert.match(page, /<h1 class="doc-title f-xiaobiaosong below-masthead">关于做好秋播小麦病虫害防控的通知<\/h1>/);
    assert.equal(count(page, /关于做好秋播小麦病虫害防控的通知<\/h1>/g), 1, 'the title once');
    assert.match(page, /<p class="recipient">各乡镇农业综合服务中心：<\/p>/);
    assert.match(page, /<h2 class="f-heiti">一、发生趋势<\/h2>/);
    assert.match(page, /<h3 class="f-kaiti">（一）主要病虫<\/h3>/);
    assert.match(page, /<h4 class="f-fangsong">1\.地下害虫<\/h4>/);
    assert.match(page, /<h5 class="f-fangsong">（1）蛴螬<\/h5>/);
    assert.match(page, /<h2 class="f-heiti">三、防控措施<\/h2>/, 'its own number kept');
    assert.match(page, /<p>附件：1\.小麦病虫害监测表<\/p><p class="more">2\.推荐药剂名录<\/p>/);
    assert.match(page, /<div class="signature"><p>某某县植保植检站<\/p><p>2026年10月2日<\/p><\/div>/);
    assert.match(
      page,
      /<div class="closing-page"><footer class="closing"><p>抄送：县农业农村局，县气象局。<\/p><p class="printed"><span>某某县植保植检站<\/span><span>2026年10月8日印发<\/span><\/p><\/footer><\/div>\n<\/body>/,
      'the closing block last, on a page of its own',
    );
  });

  it('official layout: A4 with the standard’s margins, 22 lines of 28 characters, — 1 — right on odd pages and left on even', () => {
    const css = officialCss(layoutFonts());
    assert.match(css, /@page \{ size: A4; margin: 37mm 26mm 35mm 28mm; \}/);
    assert.match(css, /@page :right \{ @bottom-right \{ content: "— " counter\(page\) " —"; font: 14pt\/1 "宋体"/);
    assert.match(css, /@page :left \{ @bottom-left \{ content: "— " counter\(page\) " —";/);
    assert.match(css, /font-size: 16pt; line-height: calc\(225mm \/ 22\);/);
    assert.match(css, /letter-spacing: calc\(156mm \/ 28 - 16pt\);/);
    assert.match(css, /\.mh-name \{ color: #f00; font-size: 36pt;/);
  });

  it('official layout: the closing block on a page of its own, named, without a page number, at the bottom of the text block', () => {
    const css = officialCss(layoutFonts());
    // the reference: "the last rule on the bottom of the text block of the last page"; "the page that
    // holds only the closing block carries no number"
    assert.match(css, /@page closing \{ @bottom-left \{ content: none; \} @bottom-right \{ content: none; \} \}/);
    const rule = /\.closing-page \{([^}]*)\}/.exec(css)?.[1] ?? '';
    assert.match(rule, /page: closing;/);
    // an even page asked for; Chromium takes it as a plain page break (pdf.test.ts pins what it prints)
    assert.match(rule, /break-before: left;/);
    assert.match(rule, /height: 225mm; display: flex; flex-direction: column; justify-content: flex-end;/);
    assert.doesNotMatch(css, /\.closing \{[^}]*margin-top/, 'no space above it: it sits at the bottom');
  });

  it("names the layout's fonts, what stands in for them, then what machines have; a station's font escaped", () => {
    const fonts = layoutFonts({ body: '仿宋', title: 'Evil"</style><script>alert(1)</script>' });
    assert.equal(
      fontStack(layoutFonts(), 'fangsong').split(', ').slice(0, 3).join(', '),
      '"仿宋_GB2312", "仿宋", "FangSong"',
    );
    assert.match(fontStack(fonts, 'fangsong'), /^"仿宋", "FangSong"/);
    const css = officialCss(fonts);
    assert.doesNotMatch(css, /<\/style>|<script/);
    assert.equal(cssString('a"b\\c\nd<'), '"a\\"b\\\\c d\\3c "');
    assert.match(fontStack(layoutFonts(), 'heiti'), /"WenQuanYi Micro Hei", sans-serif$/);
  });

  it('a picture on the web is not fetched: its place says so, and the export warns', async () => {
    const { page, warnings } = await printedPage(OFFICIAL);
    assert.match(page, /<span class="remote-picture">［网络图片，未获取：https:\/\/example\.com\/field\.png］<\/span>/);
    assert.doesNotMatch(page, /<img[^>]+src="https:/);
    assert.deepEqual(warnings, [{ code: 'image-remote', src: 'https://example.com/field.png', line: 36 }]);
    const en = await printedPage(OFFICIAL, { lang: 'en' });
    assert.match(en.page, /\[Picture on the web, not fetched: https:\/\/example\.com\/field\.png\]/);
  });

  it('embeds a workspace picture as data', async () => {
    const { page } = await printedPage(SAMPLE);
    assert.match(page, /<img src="data:image\/jpeg;base64,[A-Za-z0-9+/=]+" alt="识别结果">/);
  });

  it('keeps hostile text inert: a title, text, a link and a note that look like HTML', () => {
    const text = `---\ntitle: "<script>alert(1)</script>"\n---\n\nA <img src=x onerror=alert(1)> [x](javascript:alert(1)) [y](https://e.org/"onmouseover=") \`<b>\`[^1]\n\n[^1]: <svg onload=alert(1)>\n`;
    const doc = readBulletin(text, { lang: 'en' });
    const { html } = writePdfPage(doc, { images: new Map() });
    assert.doesNotMatch(html, /<script|<img|<svg|href="javascript:|href="https:\/\/e\.org\/"on/);
    assert.match(html, /<title>&#60;script&#62;alert\(1\)&#60;\/script&#62;<\/title>/);
  });
});
