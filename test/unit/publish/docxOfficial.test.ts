/**
 * The official layout in Word, read back from the XML: the section, the styles' sizes, the fonts
 * and their stand-ins, the page numbers on odd and even pages, the masthead, heading numbers and
 * the parts left out; every part is checked against the schemas with the other publishing tests'.
 * The standard's numbers come from test/fixtures/reference/official-layout.md.
 */
import * as assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { frontMatter } from '../../../src/bulletin/frontMatter';
import { chooseLayout } from '../../../src/publish/index';
import { mmToTwips } from '../../../src/publish/layout';
import { descendants, docxParts, exported, paragraphs, plainText, SAMPLE, xmlTree, type XmlNode } from './helpers';
import { REFERENCE, stated } from './layout.test';
import { blankStyles, template } from './template';

const BULLETIN = `---
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

一般发生。

## 三、防控措施

### 药剂拌种

## 参考资料

[^1]: 小麦病虫害测报.pdf#2 — 植保 (PLANT_001)
`;

/** The bulletin without 抄送 and 印发. */
const withoutClosing = (text: string): string => text.replace(/^(cc|printed_by|printed_on):.*\n/gm, '');

/** The bulletin without the attachments and the signature: the body ends with its last block. */
const withoutSignature = (text: string): string => text.replace(/^(issuer|date|attachments):.*\n/gm, '');

async function officialParts(text: string, extra: object = {}): Promise<Map<string, string>> {
  return docxParts((await exported({ text, format: 'docx', ...extra })).bytes);
}

const attr = (n: XmlNode | undefined, name: string): string | undefined => n?.attributes[name];
const one = (xml: string, name: string): XmlNode => {
  const found = descendants(xmlTree(xml), name);
  assert.ok(found.length > 0, `${name} is there`);
  return found[0]!;
};

/** The style of `id` in styles.xml. */
function styleOf(styles: string, id: string): XmlNode {
  const s = descendants(xmlTree(styles), 'w:style').find((n) => n.attributes['w:styleId'] === id);
  assert.ok(s, `style ${id}`);
  return s;
}

/** A style's size in half-points, its own or the document default's. */
function sizeOf(styles: string, id: string): number {
  const own = descendants(styleOf(styles, id), 'w:sz')[0];
  const dflt = descendants(one(styles, 'w:rPrDefault'), 'w:sz')[0];
  return Number(attr(own ?? dflt, 'w:val'));
}

function eastAsiaFont(node: XmlNode): string | undefined {
  return attr(descendants(node, 'w:rFonts')[0], 'w:eastAsia');
}

describe('publish: Word, the official layout', () => {
  it('sets the page: A4, the margins of the standard in twips, a fixed line pitch and the document grid', async () => {
    const doc = (await officialParts(BULLETIN)).get('word/document.xml')!;
    const sect = one(doc, 'w:sectPr');
    const pgSz = descendants(sect, 'w:pgSz')[0]!;
    assert.deepEqual([attr(pgSz, 'w:w'), attr(pgSz, 'w:h')], ['11906', '16838']);
    const mar = descendants(sect, 'w:pgMar')[0]!;
    const top = stated(/top \(天头\) (\d+)/);
    const left = stated(/left \(订口\) (\d+)/);
    const right = 210 - left - stated(/text block is\s+(\d+) ×/);
    const bottom = 297 - top - stated(/× (\d+) mm, so/);
    assert.deepEqual(
      ['w:top', 'w:left', 'w:right', 'w:bottom'].map((k) => Number(attr(mar, k))),
      [top, left, right, bottom].map(mmToTwips),
    );
    const grid = descendants(sect, 'w:docGrid')[0]!;
    const pitch = Number(attr(grid, 'w:linePitch'));
    const lines = stated(/(\d+) lines per page/);
    const textHeight = mmToTwips(297) - mmToTwips(top) - mmToTwips(bottom);
    assert.ok(pitch * lines <= textHeight && (pitch + 1) * lines > textHeight, `${lines} lines fill the text block`);
    assert.equal(attr(grid, 'w:type'), 'lines');
    const styles = (await officialParts(BULLETIN)).get('word/styles.xml')!;
    const spacing = descendants(one(styles, 'w:pPrDefault'), 'w:spacing')[0]!;
    assert.deepEqual([attr(spacing, 'w:line'), attr(spacing, 'w:lineRule')], [String(pitch), 'exact']);
    // 28 characters of the body's size, each condensed by the run spacing, fit the text block's width
    const chars = stated(/(\d+) characters per line/);
    const rPr = one(styles, 'w:rPrDefault');
    const advance =
      Number(attr(descendants(rPr, 'w:sz')[0], 'w:val')) * 10 + Number(attr(descendants(rPr, 'w:spacing')[0], 'w:val'));
    const textWidth = mmToTwips(210) - mmToTwips(left) - mmToTwips(right);
    assert.ok(advance * chars <= textWidth && (advance + 1) * chars > textWidth, `${chars} characters fill a line`);
  });

  it('sizes the body, the title and the page numbers as the standard does, in half-points', async () => {
    const parts = await officialParts(BULLETIN);
    const styles = parts.get('word/styles.xml')!;
    assert.equal(sizeOf(styles, 'Normal'), 2 * stated(/3号仿宋 \((\d+) pt/));
    assert.equal(sizeOf(styles, 'Title'), 2 * stated(/Title in 2号小标宋 \((\d+) pt\)/));
    const pageNumberPt = stated(/## Page numbers\n4号 \((\d+) pt\)/);
    for (const footer of ['word/footer1.xml', 'word/footer2.xml'])
      for (const r of descendants(xmlTree(parts.get(footer)!), 'w:r'))
        assert.equal(attr(descendants(r, 'w:sz')[0], 'w:val'), String(2 * pageNumberPt), footer);
    assert.equal(eastAsiaFont(styleOf(styles, 'Title')), '方正小标宋简体');
    assert.equal(eastAsiaFont(one(styles, 'w:rPrDefault')), '仿宋_GB2312');
    assert.equal(eastAsiaFont(styleOf(styles, 'Heading2')), '黑体');
    assert.equal(eastAsiaFont(styleOf(styles, 'Heading3')), '楷体_GB2312');
    assert.equal(eastAsiaFont(styleOf(styles, 'Heading4')), '仿宋_GB2312');
  });

  it('names every font it uses in the font table, with a stand-in, GB2312 and a family', async () => {
    const parts = await officialParts(BULLETIN);
    const table = new Map(
      descendants(xmlTree(parts.get('word/fontTable.xml')!), 'w:font').map((f) => [f.attributes['w:name']!, f]),
    );
    const used = new Set<string>();
    for (const [name, xml] of parts)
      if (/^word\/(?:document|styles|footer\d)\.xml$/.test(name))
        for (const f of descendants(xmlTree(xml), 'w:rFonts')) used.add(f.attributes['w:eastAsia']!);
    assert.deepEqual(
      [...used].filter((f) => !table.has(f)),
      [],
      'every font used is in the table',
    );
    const alt = (name: string): string | undefined => attr(descendants(table.get(name)!, 'w:altName')[0], 'w:val');
    assert.equal(alt('仿宋_GB2312'), '仿宋');
    assert.equal(alt('方正小标宋简体'), '华文中宋');
    assert.equal(alt('楷体_GB2312'), '楷体');
    for (const f of table.values()) {
      assert.equal(attr(descendants(f, 'w:charset')[0], 'w:val'), '86', `${f.attributes['w:name']} is GB2312`);
      assert.ok(attr(descendants(f, 'w:family')[0], 'w:val'));
    }
    assert.match(parts.get('word/_rels/document.xml.rels')!, /relationships\/fontTable" Target="fontTable\.xml"/);
  });

  it('numbers the pages — n — by a PAGE field, right on odd pages and left on even ones', async () => {
    const parts = await officialParts(BULLETIN);
    assert.ok(parts.get('word/settings.xml')!.includes('<w:evenAndOddHeaders/>'));
    const doc = parts.get('word/document.xml')!;
    const rels = parts.get('word/_rels/document.xml.rels')!;
    const target = (type: string): string => {
      const ref = descendants(one(doc, 'w:sectPr'), 'w:footerReference').find((n) => n.attributes['w:type'] === type)!;
      return new RegExp(`Id="${ref.attributes['r:id']}" Type="[^"]*/footer" Target="([^"]+)"`).exec(rels)![1]!;
    };
    for (const [type, jc] of [
      ['default', 'right'],
      ['even', 'left'],
    ] as const) {
      const footer = parts.get(`word/${target(type)}`)!;
      const tree = xmlTree(footer);
      assert.equal(attr(descendants(tree, 'w:jc')[0], 'w:val'), jc, type);
      assert.equal(descendants(tree, 'w:instrText')[0]!.text.trim(), 'PAGE');
      assert.deepEqual(
        descendants(tree, 'w:fldChar').map((f) => f.attributes['w:fldCharType']),
        ['begin', 'separate', 'end'],
      );
      const text = plainText(footer);
      assert.match(text, /^— \d+ —$/, 'the number between em dashes');
      assert.equal(eastAsiaFont(tree), '宋体');
    }
  });

  it('writes the masthead in red 小标宋 above a red rule, then the title, the recipient line and the body', async () => {
    const doc = (await officialParts(BULLETIN)).get('word/document.xml')!;
    const ps = descendants(xmlTree(doc), 'w:p');
    assert.equal(plainText(doc).split('病虫情报').length, 2, 'the masthead once');
    const name = ps[0]!;
    assert.equal(name.text, '病虫情报');
    assert.equal(attr(descendants(name, 'w:color')[0], 'w:val'), 'FF0000');
    assert.equal(eastAsiaFont(name), '方正小标宋简体');
    const texts = paragraphs(doc).map((p) => p.text);
    assert.deepEqual(texts.slice(1, 5), [
      '2026年第12期',
      '某某县植保植检站2026年10月2日',
      '关于做好秋播小麦病虫害防控的通知',
      '各乡镇农业综合服务中心：',
    ]);
    const ruled = ps.filter((p) =>
      descendants(p, 'w:pBdr').some((b) => descendants(b, 'w:bottom')[0]?.attributes['w:color'] === 'FF0000'),
    );
    assert.deepEqual(
      ruled.map((p) => p.text),
      ['某某县植保植检站2026年10月2日'],
      'one red rule, under the masthead',
    );
    assert.equal(paragraphs(doc)[3]!.style, 'Title');
  });

  it('with a signer, the number left and 签发人 with the name in 楷体 right', async () => {
    const text = BULLETIN.replace('masthead: 病虫情报\n', '').replace('to:', 'signer: 张三\nto:');
    const doc = (await officialParts(text)).get('word/document.xml')!;
    const line = descendants(xmlTree(doc), 'w:p')[1]!;
    assert.equal(line.text, '2026年第12期签发人：张三');
    const runs = descendants(line, 'w:r');
    assert.equal(eastAsiaFont(runs.find((r) => r.text === '张三')!), '楷体_GB2312');
    assert.ok(descendants(line, 'w:tab').length > 0, 'the signer at a right tab');
  });

  it('numbers the headings 一、（一）1.（1）, keeps a number written, and leaves the references heading as it is', async () => {
    const doc = (await officialParts(BULLETIN)).get('word/document.xml')!;
    const headings = paragraphs(doc)
      .filter((p) => p.style?.startsWith('Heading'))
      .map((p) => p.text);
    assert.deepEqual(headings, [
      '一、发生趋势',
      '（一）主要病虫',
      '1.地下害虫',
      '（1）蛴螬',
      '三、防控措施',
      '（一）药剂拌种',
    ]);
    assert.ok(!headings.includes('参考资料'));
  });

  it('writes the attachments, the signature and the closing block between rules', async () => {
    const doc = (await officialParts(BULLETIN)).get('word/document.xml')!;
    const texts = paragraphs(doc).map((p) => p.text);
    const end = texts.slice(texts.indexOf('附件：1.小麦病虫害监测表'));
    assert.deepEqual(end, [
      '附件：1.小麦病虫害监测表',
      '2.推荐药剂名录',
      '某某县植保植检站',
      '2026年10月2日',
      '抄送：县农业农村局，县气象局。',
      '某某县植保植检站2026年10月8日印发',
    ]);
    const ps = descendants(xmlTree(doc), 'w:p');
    const cc = ps.find((p) => p.text.startsWith('抄送'))!;
    assert.ok(descendants(cc, 'w:top').length && descendants(cc, 'w:bottom').length, 'rules above and between');
    assert.equal(attr(descendants(cc, 'w:sz')[0], 'w:val'), '28', '4号');
  });

  describe('the closing block on a page of its own at the end', () => {
    // the reference: "the last rule on the bottom of the text block of the last page"; "A blank page
    // and the page that holds only the closing block carry no number" (GB/T 9704-2012: the closing
    // block's page is the last, an even one, the back of the last sheet)
    it('the reference asks for it', () => {
      assert.match(REFERENCE, /the last rule on the bottom of the\s+text block of the last page/);
      assert.match(REFERENCE, /A blank page and the page that holds only the closing block carry no number\./);
    });

    const sections = (doc: string): XmlNode[] => descendants(xmlTree(doc), 'w:sectPr');
    const sectPrXml = (doc: string): string[] => [...doc.matchAll(/<w:sectPr>.*?<\/w:sectPr>/g)].map((m) => m[0]);

    it("ends the body's section at the body's last paragraph, with the same properties as a bulletin without a closing block", async () => {
      const doc = (await officialParts(BULLETIN)).get('word/document.xml')!;
      const plain = (await officialParts(withoutClosing(BULLETIN))).get('word/document.xml')!;
      assert.equal(sections(doc).length, 2, 'the body, then the closing block');
      assert.equal(sectPrXml(plain).length, 1);
      assert.equal(sectPrXml(doc)[0], sectPrXml(plain)[0], "the body's section unchanged");
      // in the paragraph properties of the signature's date, the body's last paragraph
      const ps = descendants(xmlTree(doc), 'w:p');
      const ends = ps.filter((p) => descendants(p, 'w:sectPr').length);
      assert.deepEqual(
        ends.map((p) => p.text),
        ['2026年10月2日'],
      );
      assert.ok(ps.indexOf(ends[0]!) < ps.findIndex((p) => p.text.startsWith('抄送')));
      assert.deepEqual(
        paragraphs(doc).map((p) => p.text),
        paragraphs(plain)
          .map((p) => p.text)
          .concat(['抄送：县农业农村局，县气象局。', '某某县植保植检站2026年10月8日印发']),
        'the same paragraphs, the closing block last',
      );
    });

    it('starts the last section on an even page, aligns it to the bottom, on the same page and margins, without the line grid', async () => {
      const doc = (await officialParts(BULLETIN)).get('word/document.xml')!;
      const [body, last] = sections(doc);
      assert.equal(attr(descendants(last!, 'w:type')[0], 'w:val'), 'evenPage');
      assert.equal(attr(descendants(last!, 'w:vAlign')[0], 'w:val'), 'bottom');
      assert.equal(descendants(body!, 'w:type').length, 0, 'the body starts as before');
      assert.equal(descendants(body!, 'w:vAlign').length, 0);
      for (const name of ['w:pgSz', 'w:pgMar'])
        assert.deepEqual(descendants(last!, name)[0]!.attributes, descendants(body!, name)[0]!.attributes, name);
      assert.equal(descendants(last!, 'w:docGrid').length, 0, 'no grid for LibreOffice to move the first line to');
    });

    it('gives the last section its own footers, odd and even, with no page number; the body keeps its — n —', async () => {
      const parts = await officialParts(BULLETIN);
      const doc = parts.get('word/document.xml')!;
      const rels = parts.get('word/_rels/document.xml.rels')!;
      const footer = (sect: XmlNode, type: string): string => {
        const ref = descendants(sect, 'w:footerReference').find((n) => n.attributes['w:type'] === type);
        assert.ok(ref, `a ${type} footer`);
        const target = new RegExp(`Id="${ref.attributes['r:id']}" Type="[^"]*/footer" Target="([^"]+)"`).exec(
          rels,
        )![1]!;
        return parts.get(`word/${target}`)!;
      };
      const [body, last] = sections(doc);
      for (const type of ['default', 'even']) {
        const blank = footer(last!, type);
        assert.equal(plainText(blank), '', `${type}: nothing written`);
        assert.ok(!/instrText|fldChar|fldSimple/.test(blank), `${type}: no field`);
        assert.match(plainText(footer(body!, type)), /^— \d+ —$/, `the body's ${type} footer numbers its pages`);
      }
      assert.match(parts.get('[Content_Types].xml')!, /PartName="\/word\/footer4\.xml"/);
    });

    it('brings the last rule to the bottom of the text block by the space above the block (LibreOffice ignores the bottom alignment)', async () => {
      const doc = (await officialParts(BULLETIN)).get('word/document.xml')!;
      const ps = descendants(xmlTree(doc), 'w:p').filter((p) => /抄送|印发/.test(p.text));
      const pitch = Number(attr(descendants(sections(doc)[0]!, 'w:docGrid')[0], 'w:linePitch'));
      const before = Number(attr(descendants(ps[0]!, 'w:spacing')[0], 'w:before'));
      // each line at the fixed pitch, each rule its width (eighths of a point) and its space (points) in twips
      const rules = ps
        .flatMap((p) => descendants(p, 'w:pBdr').flatMap((b) => b.children))
        .reduce((h, r) => h + Number(attr(r, 'w:sz')) * 2.5 + Number(attr(r, 'w:space')) * 20, 0);
      const height = before + ps.length * pitch + rules;
      const textHeight = mmToTwips(stated(/× (\d+) mm, so/));
      assert.ok(height <= textHeight, `${height} twips fit the text block's ${textHeight}`);
      assert.ok(textHeight - height <= 40, `the last rule ${textHeight - height} twips above its bottom`);
    });

    it('counts a 抄送 line long enough to wrap as two lines', async () => {
      const space = async (text: string): Promise<number> => {
        const doc = (await officialParts(text)).get('word/document.xml')!;
        const cc = descendants(xmlTree(doc), 'w:p').find((p) => p.text.startsWith('抄送'))!;
        return Number(attr(descendants(cc, 'w:spacing')[0], 'w:before'));
      };
      const many = BULLETIN.replace(
        'cc: 县农业农村局，县气象局',
        'cc: 县农业农村局，县气象局，县财政局，县应急管理局，县市场监督管理局',
      );
      const pitch = mmToTwips(stated(/× (\d+) mm, so/)) / stated(/(\d+) lines per page/);
      assert.equal((await space(BULLETIN)) - (await space(many)), Math.floor(pitch));
    });

    it("after a table, ends the body's section in a paragraph of its own", async () => {
      const text = BULLETIN.replace(
        '### 药剂拌种\n',
        '### 药剂拌种\n\n| 药剂 | 用量 |\n| --- | --- |\n| 辛硫磷 | 100 毫升 |\n',
      )
        .replace(/^issuer:.*\n/m, '')
        .replace(/^date:.*\n/m, '')
        .replace(/^attachments:.*\n/m, '')
        .replace('## 参考资料\n', '');
      const doc = (await officialParts(text)).get('word/document.xml')!;
      assert.match(doc, /<\/w:tbl><w:p><w:pPr><w:sectPr>.*?<\/w:sectPr><\/w:pPr><\/w:p><w:p><w:pPr><w:pBdr>/);
    });

    it("ends the body's section in a plain last paragraph, giving it properties", async () => {
      const text = withoutSignature(BULLETIN)
        .replace('## 参考资料\n', '')
        .replace('### 药剂拌种\n', '### 药剂拌种\n\n拌种后晾干。\n');
      const doc = (await officialParts(text)).get('word/document.xml')!;
      const ps = descendants(xmlTree(doc), 'w:p');
      const ends = ps.filter((p) => descendants(p, 'w:sectPr').length);
      assert.deepEqual(
        ends.map((p) => p.text),
        ['拌种后晾干。'],
      );
      assert.equal(descendants(xmlTree(doc), 'w:sectPr').length, 2);
    });

    it('writes one section, as before, for a bulletin without a closing block', async () => {
      const parts = await officialParts(withoutClosing(BULLETIN));
      const doc = parts.get('word/document.xml')!;
      assert.equal(sections(doc).length, 1);
      assert.ok(!/evenPage|vAlign/.test(doc));
      assert.ok(!parts.has('word/footer3.xml'));
    });
  });

  it('leaves out every part whose field is absent, and writes no placeholder', async () => {
    const bare = `---\nlayout: official\n---\n\n正文。\n`;
    const doc = (await officialParts(bare)).get('word/document.xml')!;
    assert.deepEqual(
      paragraphs(doc).map((p) => p.text),
      ['正文。'],
    );
    assert.ok(!/FF0000|签发人|抄送|印发|附件/.test(doc));
    for (const key of ['cc', 'printed_by', 'attachments', 'to', 'issue']) {
      const value = frontMatter(BULLETIN).fields[key]!;
      const without = BULLETIN.replace(new RegExp(`^${key}:.*\\n`, 'm'), '');
      const text = plainText((await officialParts(without)).get('word/document.xml')!);
      assert.ok(!text.includes(value.split('，')[0]!) || key === 'printed_by', `${key} left out`);
    }
  });

  it('fits a picture into the official text block, in a paragraph whose line grows with it', async () => {
    for (const [w, h] of [
      [4000, 100],
      [100, 4000],
    ] as const) {
      const bytes = new Uint8Array(PNG.sync.write(new PNG({ width: w, height: h })));
      const r = await exported({
        text: '---\nlayout: official\n---\n\n![图](p.png)\n',
        format: 'docx',
        readImage: async (c) => (c.path === 'p.png' ? bytes : undefined),
      });
      const doc = (await docxParts(r.bytes)).get('word/document.xml')!;
      const [, cx, cy] = /<wp:extent cx="(\d+)" cy="(\d+)"\/>/.exec(doc)!.map(Number);
      const emuPerTwip = 635;
      const m = one(doc, 'w:pgMar').attributes;
      const textWidth = 11906 - Number(m['w:left']) - Number(m['w:right']);
      const textHeight = 16838 - Number(m['w:top']) - Number(m['w:bottom']);
      assert.ok(cx! <= textWidth * emuPerTwip && cy! <= textHeight * emuPerTwip, `${w}×${h} fits`);
      assert.ok(cx! > 0.95 * textWidth * emuPerTwip || cy! > 0.95 * textHeight * emuPerTwip, 'and uses it');
      const p = descendants(xmlTree(doc), 'w:p').find((n) => descendants(n, 'w:drawing').length)!;
      assert.equal(attr(descendants(p, 'w:spacing')[0], 'w:lineRule'), 'auto', 'not cut off by the fixed pitch');
    }
  });

  it('indents body paragraphs two characters, and not a table cell', async () => {
    const parts = await officialParts(SAMPLE.replace('lang: zh-CN', 'lang: zh-CN\nlayout: official'));
    const normal = descendants(styleOf(parts.get('word/styles.xml')!, 'Normal'), 'w:ind')[0]!;
    assert.equal(attr(normal, 'w:firstLineChars'), String(100 * 2));
    const cells = descendants(xmlTree(parts.get('word/document.xml')!), 'w:tc');
    assert.ok(cells.length > 0);
    for (const c of cells) assert.equal(attr(descendants(c, 'w:ind')[0], 'w:firstLineChars'), '0', c.text);
  });

  it('keeps footnotes real footnotes', async () => {
    const parts = await officialParts(BULLETIN);
    assert.match(parts.get('word/document.xml')!, /<w:footnoteReference w:id="1"\/>/);
    assert.match(plainText(parts.get('word/footnotes.xml')!), /小麦病虫害测报\.pdf#2/);
  });

  it('lets a house template keep the styles it defines, adds the others in the official look; the page, masthead and page numbers still come from the layout', async () => {
    const own =
      '<w:style w:type="paragraph" w:styleId="H2own"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/>' +
      '<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial" w:eastAsia="Arial"/><w:sz w:val="30"/></w:rPr></w:style></w:styles>';
    const styles = blankStyles().replace('</w:styles>', own);
    const parts = await officialParts(BULLETIN, { template: await template({ 'word/styles.xml': styles }) });
    const written = parts.get('word/styles.xml')!;
    assert.equal(eastAsiaFont(styleOf(written, 'H2own')), 'Arial', "the template's heading 2 stays");
    assert.equal(sizeOf(written, 'Normal'), 24, "the template's body");
    assert.equal(eastAsiaFont(styleOf(written, 'Title')), '方正小标宋简体', 'a missing title in the official look');
    assert.equal(sizeOf(written, 'Title'), 44);
    assert.equal(eastAsiaFont(styleOf(written, 'Heading3')), '楷体_GB2312', 'a missing heading in the official look');
    const doc = parts.get('word/document.xml')!;
    assert.match(doc, /<w:pgMar w:top="2098"/);
    assert.ok(parts.has('word/footer1.xml') && doc.includes('FF0000'));
    assert.ok(paragraphs(doc).some((p) => p.style === 'H2own' && p.text === '一、发生趋势'));
  });

  it("names the station's fonts (export.officialFonts) in the runs, styles and font table, key by key; absent keys keep the standard's", async () => {
    const standard = { body: '仿宋_GB2312', title: '方正小标宋简体', heading: '黑体', subheading: '楷体_GB2312' };
    const standIn = { body: '仿宋', title: '华文中宋', heading: 'SimHei', subheading: '楷体' };
    const station = { body: '仿宋', title: '华文中宋', heading: 'Source Han Sans SC', subheading: 'KaiTi' };
    const text = BULLETIN.replace('to:', 'signer: 张三\nto:');
    for (const key of Object.keys(standard) as (keyof typeof standard)[]) {
      const parts = await officialParts(text, { officialFonts: { [key]: ` ${station[key]} ` } });
      const want = { ...standard, [key]: station[key] };
      const styles = parts.get('word/styles.xml')!;
      assert.equal(eastAsiaFont(one(styles, 'w:rPrDefault')), want.body, `${key}: the body`);
      assert.equal(eastAsiaFont(styleOf(styles, 'Title')), want.title, `${key}: the title`);
      assert.equal(eastAsiaFont(styleOf(styles, 'Heading2')), want.heading, `${key}: 一、`);
      assert.equal(eastAsiaFont(styleOf(styles, 'Heading3')), want.subheading, `${key}: （一）`);
      const runs = descendants(xmlTree(parts.get('word/document.xml')!), 'w:r');
      const fontOf = (t: string): string | undefined => eastAsiaFont(runs.find((r) => r.text === t)!);
      assert.equal(fontOf('病虫情报'), want.title, `${key}: the masthead`);
      assert.equal(fontOf('张三'), want.subheading, `${key}: the signer`);
      assert.equal(fontOf('2026年第12期'), want.body, `${key}: the number`);
      const table = new Map(
        descendants(xmlTree(parts.get('word/fontTable.xml')!), 'w:font').map((f) => [f.attributes['w:name']!, f]),
      );
      for (const k of Object.keys(standard) as (keyof typeof standard)[]) {
        const entry = table.get(want[k]);
        assert.ok(entry, `${key}: ${want[k]} in the font table`);
        const alt = attr(descendants(entry, 'w:altName')[0], 'w:val');
        // a station's font that is the standard's stand-in has none of its own
        assert.equal(alt, want[k] === standIn[k] ? undefined : standIn[k], `${key}: ${want[k]}'s stand-in`);
        assert.equal(attr(descendants(entry, 'w:charset')[0], 'w:val'), '86');
      }
      assert.ok(!table.has(standard[key]), `${key}: the standard's font replaced`);
    }
  });

  it('names a font two parts share once in the font table', async () => {
    const parts = await officialParts(BULLETIN, { officialFonts: { body: '仿宋', subheading: '仿宋' } });
    const names = descendants(xmlTree(parts.get('word/fontTable.xml')!), 'w:font').map((f) => f.attributes['w:name']);
    assert.deepEqual(names, ['仿宋', '方正小标宋简体', '黑体', '宋体']);
  });

  it("gives a template's added styles the station's fonts too", async () => {
    const parts = await officialParts(BULLETIN, {
      template: await template({ 'word/styles.xml': blankStyles() }),
      officialFonts: { title: '华文中宋', heading: ' ' },
    });
    const styles = parts.get('word/styles.xml')!;
    assert.equal(eastAsiaFont(styleOf(styles, 'Title')), '华文中宋');
    assert.equal(eastAsiaFont(styleOf(styles, 'Heading2')), '黑体', "a blank key keeps the standard's");
  });

  it('changes nothing for the standard layout', async () => {
    const parts = await officialParts(SAMPLE);
    assert.ok(!parts.has('word/footer1.xml') && !parts.has('word/fontTable.xml'));
    assert.match(parts.get('word/document.xml')!, /<w:pgMar w:top="1440"/);
    assert.ok(!parts.get('word/settings.xml')!.includes('evenAndOdd'));
  });

  it('chooses the layout: the flag, else the front matter, else the setting, else standard', () => {
    const fm = '---\nlayout: official\n---\n';
    assert.equal(chooseLayout(fm, 'standard', 'official'), 'standard');
    assert.equal(chooseLayout(fm, undefined, 'standard'), 'official');
    assert.equal(chooseLayout('正文', undefined, 'official'), 'official');
    assert.equal(chooseLayout('---\nlayout: fancy\n---\n', undefined, undefined), 'standard');
  });
});
