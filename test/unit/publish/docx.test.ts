/** The Word export read back structurally: footnotes, headings, lists, tables, pictures, properties, house style. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { wordsOf } from '../../../src/text/words';
import { exportBulletin, warningText, type ImageCandidate } from '../../../src/publish/index';
import { houseStyleOf } from '../../../src/publish/docxStyles';
import { exported, paragraphs, readDocx, readSamplePhoto, ROOT, SAMPLE } from './helpers';

describe('publish: Word (.docx)', () => {
  it('makes every reference a real Word footnote whose text is the source as a reader reads it', async () => {
    const r = await exported({ text: SAMPLE, format: 'docx' });
    const docx = await readDocx(r.bytes);
    // [^1] [^note] [^2] [^1] 〔…〕 [^3] [^2]: seven references, one footnote each, in reading order
    assert.deepEqual(docx.footnotes, [
      '茶树农事操作.docx#1 — 茶树管理',
      '作者注：产量数据来自县茶叶站 2025 年统计。',
      '茶园施肥技术.pdf#0 — 茶树管理',
      '茶树农事操作.docx#1 — 茶树管理',
      '茶树修剪技术要点.docx#3',
      '茶树修剪技术要点.docx#2 — 茶树管理',
      '茶园施肥技术.pdf#0 — 茶树管理',
    ]);
    assert.equal(r.notes, 7);
    const refs = [...docx.document.matchAll(/<w:footnoteReference w:id="(\d+)"\/>/g)].map((m) => Number(m[1]));
    assert.deepEqual(refs, [1, 2, 3, 4, 5, 6, 7], 'one reference per footnote, in order');
    assert.ok(!docx.document.includes('[^'), 'no raw footnote syntax left in the body');
    assert.deepEqual(r.warnings, []);
  });

  it('writes the title block, headings, lists, quotes, tables, code and the picture', async () => {
    const docx = await readDocx((await exported({ text: SAMPLE, format: 'docx' })).bytes);
    const ps = paragraphs(docx.document);
    assert.deepEqual(ps[0], { style: 'Title', text: '茶园冬季管理技术要点' });
    assert.equal(ps[1]!.text, '2026-11-20');
    assert.equal(
      ps.filter((p) => p.text === '茶园冬季管理技术要点').length,
      1,
      'the H1 that repeats the title is the title block',
    );
    assert.deepEqual(
      ps.filter((p) => p.style?.startsWith('Heading')).map((p) => p.text),
      ['主要技术措施'],
      'the references heading with only definitions under it is left out (the footnotes are the references)',
    );
    assert.equal((docx.document.match(/<w:numPr>/g) ?? []).length, 3, 'three list items');
    assert.equal((docx.document.match(/<w:tbl>/g) ?? []).length, 1, 'one table');
    assert.equal((docx.document.match(/<w:tr>|<w:tr /g) ?? []).length, 3, 'header + two rows');
    assert.ok(docx.document.includes('<w:tblHeader/>'), 'the header row repeats on each page');
    assert.ok(
      ps.some((p) => p.text === '石硫合剂 0.5 波美度'),
      'the code block',
    );
    assert.ok(
      docx.files.some((f) => /^word\/media\/.+/.test(f)),
      'the picture is embedded',
    );
    assert.ok(docx.document.includes('descr="识别结果"'), 'the picture keeps its alt text');
    assert.ok(!docx.document.includes('提示'), 'HTML comments are left out');
    assert.match(docx.rels, /Target="https:\/\/www\.moa\.gov\.cn\/" TargetMode="External"/, 'the link is a hyperlink');
  });

  it('puts the front matter into the document properties', async () => {
    const docx = await readDocx((await exported({ text: SAMPLE, format: 'docx' })).bytes);
    assert.match(docx.core, /<dc:title>茶园冬季管理技术要点<\/dc:title>/);
    assert.match(docx.core, /<dc:language>zh-CN<\/dc:language>/);
    assert.match(
      docx.core,
      /<dcterms:created xsi:type="dcterms:W3CDTF">2026-11-19T16:00:00.000Z<\/dcterms:created>/,
      'the bulletin date, Beijing midnight',
    );
    assert.match(
      docx.core,
      /<dcterms:modified xsi:type="dcterms:W3CDTF">2026-12-01T08:00:00.000Z</,
      'the injected clock',
    );
    assert.match(docx.custom, /name="date"[\s\S]*2026-11-20/);
  });

  it('with citations: "list", numbers each source once in a references list; author footnotes stay footnotes', async () => {
    const r = await exported({ text: SAMPLE, format: 'docx', citations: 'list' });
    const docx = await readDocx(r.bytes);
    assert.deepEqual(docx.footnotes, ['作者注：产量数据来自县茶叶站 2025 年统计。']);
    const ps = paragraphs(docx.document).map((p) => p.text);
    const at = ps.indexOf('参考资料');
    assert.ok(at > 0, 'the bulletin’s own references heading');
    assert.deepEqual(ps.slice(at + 1, at + 5), [
      '[1] 茶树农事操作.docx#1 — 茶树管理',
      '[2] 茶园施肥技术.pdf#0 — 茶树管理',
      '[3] 茶树修剪技术要点.docx#3',
      '[4] 茶树修剪技术要点.docx#2 — 茶树管理',
    ]);
    assert.equal(
      (docx.document.match(/<w:vertAlign w:val="superscript"\/>/g) ?? []).length,
      6,
      'six marks in the text',
    );
  });

  it('escapes every server and bulletin text (names with markup, ampersands, quotes)', async () => {
    const text = '# T\n\n见[^1]。<script>alert(1)</script>\n\n[^1]: a<b>&"c\\[1\\].docx#4 — 茶 & <i>kb</i> (K&1)\n';
    const docx = await readDocx((await exported({ text, format: 'docx' })).bytes);
    assert.deepEqual(docx.footnotes, ['a<b>&"c[1].docx#4 — 茶 & <i>kb</i>']);
    assert.ok(!/<script|<b>|<i>/.test(docx.document), 'no markup from the text in the XML');
  });

  it('uses a template’s styles, finding headings by name when a Chinese Word gave them other ids', async () => {
    const styles =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      '<w:style w:type="paragraph" w:default="1" w:styleId="a"><w:name w:val="Normal"/><w:rPr><w:rFonts w:eastAsia="仿宋_GB2312"/><w:sz w:val="32"/></w:rPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/><w:basedOn w:val="a"/></w:style>' +
      '<w:style w:type="paragraph" w:styleId="2"><w:name w:val="heading 2"/><w:basedOn w:val="a"/><w:rPr><w:rFonts w:eastAsia="黑体"/></w:rPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="a3"><w:name w:val="Title"/></w:style>' +
      '<w:style w:type="character" w:styleId="a5"><w:name w:val="footnote reference"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>' +
      '</w:styles>';
    const zip = new JSZip();
    zip.file('word/styles.xml', styles);
    const template = await zip.generateAsync({ type: 'uint8array' });
    const docx = await readDocx((await exported({ text: SAMPLE, format: 'docx', template })).bytes);
    const ps = paragraphs(docx.document);
    assert.equal(ps[0]!.style, 'a3', 'the title in the template’s Title style');
    assert.equal(ps.find((p) => p.text === '主要技术措施')!.style, '2', 'heading 2 by name');
    assert.ok(docx.styles.includes('仿宋_GB2312') && docx.styles.includes('黑体'), 'the house style is the document’s');
    assert.match(docx.styles, /w:styleId="FootnoteReference"[\s\S]*?<w:basedOn w:val="a5"\/>[\s\S]*?superscript/);
    assert.equal(docx.footnotes.length, 7);
  });

  it('refuses a template that is not a Word file, and says why', async () => {
    const r = await exportBulletin({
      text: SAMPLE,
      format: 'docx',
      lang: 'zh',
      now: new Date(0),
      readImage: readSamplePhoto,
      template: new TextEncoder().encode('not a zip'),
    });
    assert.deepEqual(r, { ok: false, reason: 'template', error: 'not-a-docx' });
  });

  it('keeps a template that already has the footnote styles as it is', () => {
    const xml =
      '<w:styles><w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/></w:style><w:style w:type="paragraph" w:styleId="FootnoteText"><w:name w:val="footnote text"/></w:style></w:styles>';
    assert.equal(houseStyleOf(xml).stylesXml, xml);
  });
});

describe('publish: pictures', () => {
  const webp = new Uint8Array(readFileSync(join(ROOT, 'test/emulator/images/tea_buds.webp')));
  const png = new Uint8Array(readFileSync(join(ROOT, 'test/emulator/images/tea_buds.png')));
  const text =
    '# T\n\n![a](a.webp)\n\n![b](https://example.com/b.png)\n\n![c](missing.png)\n\n![d](<图 片/d.png>)\n\n![e](notes.txt)\n';
  const read = async (c: ImageCandidate): Promise<Uint8Array | undefined> =>
    c.base !== 'document'
      ? undefined
      : c.path === 'a.webp'
        ? webp
        : c.path === '图 片/d.png'
          ? png
          : c.path === 'notes.txt'
            ? new TextEncoder().encode('not a picture')
            : undefined;

  it('names every picture left out and why; embeds the rest', async () => {
    const r = await exported({ text, format: 'docx', readImage: read });
    assert.deepEqual(
      r.warnings.map((w) => ('src' in w ? `${w.code} ${w.src} ${w.line + 1}` : w.code)),
      [
        'image-remote https://example.com/b.png 5',
        'image-missing missing.png 7',
        'image-unsupported notes.txt 11',
        'image-unsupported a.webp 3',
      ],
    );
    const docx = await readDocx(r.bytes);
    assert.deepEqual(
      docx.files.filter((f) => /^word\/media\/.+/.test(f)).length,
      1,
      'only the PNG (a path with a space, in angle brackets)',
    );
    assert.equal(warningText(r.warnings[1]!, wordsOf('zh')), '第 7 行：找不到图片，已略去：missing.png');
  });

  it('embeds a WebP in the WeChat article and the page, where browsers show it', async () => {
    const r = await exported({ text, format: 'wechat', readImage: read });
    assert.match(r.article!, /<img src="data:image\/webp;base64,/);
    assert.match(r.article!, /<img src="data:image\/png;base64,/);
    assert.ok(!r.warnings.some((w) => w.code === 'image-unsupported' && w.src === 'a.webp'));
  });
});
