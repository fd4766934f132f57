/** The Word export read back structurally: footnotes, headings, lists, tables, pictures, properties, house style. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { PNG } from 'pngjs';
import { wordsOf } from '../../../src/text/words';
import * as sax from 'sax';
import { exportBulletin, templateProblemText, warningText, type ImageCandidate } from '../../../src/publish/index';
import { houseStyleOf } from '../../../src/publish/docxStyles';
import { exported, paragraphs, readDocx, readSamplePhoto, ROOT, SAMPLE } from './helpers';
import { blankStyles, template } from './template';

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
    const docx = await readDocx(
      (await exported({ text: SAMPLE, format: 'docx', template: await template({ 'word/styles.xml': styles }) })).bytes,
    );
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
    const style = (type: string, id: string, name: string): string =>
      `<w:style w:type="${type}" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`;
    const xml =
      '<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      style('character', 'FootnoteReference', 'footnote reference') +
      style('paragraph', 'FootnoteText', 'footnote text') +
      style('paragraph', 'Title', 'Title') +
      [1, 2, 3, 4, 5, 6].map((n) => style('paragraph', `Heading${n}`, `heading ${n}`)).join('') +
      style('character', 'Hyperlink', 'Hyperlink') +
      '</w:styles>';
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
    assert.deepEqual(r.warnings[3], { code: 'image-unsupported', src: 'a.webp', line: 2, format: 'webp' });
  });

  it('embeds a WebP in the WeChat article and the page, where browsers show it', async () => {
    const r = await exported({ text, format: 'wechat', readImage: read });
    assert.match(r.article!, /<img src="data:image\/webp;base64,/);
    assert.match(r.article!, /<img src="data:image\/png;base64,/);
    assert.ok(!r.warnings.some((w) => w.code === 'image-unsupported' && w.src === 'a.webp'));
  });
});

describe('publish: Word layout a reader sees', () => {
  const tables = (xml: string): number => (xml.match(/<w:tbl>/g) ?? []).length;

  it('keeps two tables apart when the first ends a list item or a quote', async () => {
    for (const text of [
      '- 项\n\n  | a |\n  | - |\n  | 1 |\n\n| b |\n| - |\n| 2 |\n',
      '> | a |\n> | - |\n> | 1 |\n\n| b |\n| - |\n| 2 |\n',
    ]) {
      const { document } = await readDocx((await exported({ text, format: 'docx' })).bytes);
      assert.equal(tables(document), 2, text);
      assert.doesNotMatch(document, /<\/w:tbl><w:tbl>/, `no two tables touch: ${text}`);
    }
  });

  it('fits a tall picture into the page’s text area, keeping its aspect', async () => {
    const png = new PNG({ width: 50, height: 30000 });
    const bytes = new Uint8Array(PNG.sync.write(png));
    const r = await exported({
      text: '# T\n\n![长图](long.png)\n',
      format: 'docx',
      readImage: async (c) => (c.path === 'long.png' ? bytes : undefined),
    });
    const { document } = await readDocx(r.bytes);
    const [, cx, cy] = /<wp:extent cx="(\d+)" cy="(\d+)"\/>/.exec(document)!.map(Number);
    const inch = 914400;
    assert.ok(cy! <= ((16838 - 2 * 1440) / 1440) * inch, `the height fits the A4 text height: ${cy! / inch} in`);
    assert.ok(cy! > 9 * inch, 'and uses it');
    assert.ok(Math.abs(cx! / cy! - 50 / 30000) < 0.001, 'the aspect is kept');
    // resized by hand in Word, a picture keeps its proportions: its frame and the picture are locked to them
    const inline = /<wp:inline[\s\S]*?<\/wp:inline>/.exec(document)![0];
    assert.match(inline, /<wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"\/><\/wp:cNvGraphicFramePr>/);
    assert.match(inline, /<pic:cNvPicPr><a:picLocks noChangeAspect="1"\/><\/pic:cNvPicPr>/);
  });

  it('writes a table wider than Word’s 63 columns as tables of 63 at most, and says so with its line', async () => {
    const n = 130;
    const cells = (f: (i: number) => string): string => `| ${Array.from({ length: n }, (_, i) => f(i)).join(' | ')} |`;
    const text = `# T\n\n段落\n\n${cells((i) => `h${i}`)}\n${cells(() => '-')}\n${cells((i) => `v${i}`)}\n`;
    const r = await exported({ text, format: 'docx' });
    const { document } = await readDocx(r.bytes);
    const grids = [...document.matchAll(/<w:tblGrid>(.*?)<\/w:tblGrid>/g)].map(
      (m) => (m[1]!.match(/<w:gridCol /g) ?? []).length,
    );
    assert.deepEqual(grids, [63, 63, 4]);
    assert.ok(
      ['v0', 'v62', 'v63', 'v129'].every((v) => document.includes(`>${v}<`)),
      'no cell is lost',
    );
    assert.deepEqual(r.warnings, [{ code: 'table-too-wide', line: 4, columns: 130 }]);
    assert.equal(
      warningText(r.warnings[0]!, wordsOf('en')),
      'Line 5: the table has 130 columns, more than a Word table can hold (63); it is written as several tables of at most 63 columns, one below the other.',
    );
  });
});

describe('publish: a citation inside a footnote', () => {
  const text =
    '# T\n\n正文[^note]。\n\n另见[^1]。\n\n' +
    '[^note]: 作者注：数据见[^1]，方法见〔茶树修剪技术要点.docx#2〕与[^more]。\n' +
    '[^more]: 县茶叶站统计\n' +
    '[^1]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)\n';

  it('Word footnotes: names the cited source and the other note in the note, never [^…]', async () => {
    const r = await exported({ text, format: 'docx' });
    const docx = await readDocx(r.bytes);
    assert.deepEqual(docx.footnotes, [
      '作者注：数据见〔茶树农事操作.docx#1 — 茶树管理〕，方法见〔茶树修剪技术要点.docx#2〕与（县茶叶站统计）。',
      '茶树农事操作.docx#1 — 茶树管理',
    ]);
    assert.deepEqual(r.warnings, []);
  });

  it('Word footnotes: another note of several paragraphs is written in the note as one line, in the bulletin’s brackets', async () => {
    const text = '# T\n\n正文[^a]。\n\n[^a]: 见[^b]。\n[^b]: 其一\n\n    其二\n';
    const zh = await readDocx((await exported({ text, format: 'docx' })).bytes);
    assert.equal(zh.footnotes[0], '见（其一 其二）。');
    const en = await readDocx((await exported({ text, format: 'docx', lang: 'en' })).bytes);
    assert.equal(en.footnotes[0], '见 (其一 其二)。');
  });

  it('Word footnotes: a note with nothing in it is still a footnote with its number', async () => {
    const r = await exported({ text: '# T\n\n正文[^e]，又[^f]。\n\n[^e]:\n[^f]: 有字\n', format: 'docx' });
    const xml = await (await JSZip.loadAsync(r.bytes)).file('word/footnotes.xml')!.async('string');
    const note = (id: number): string =>
      new RegExp(`<w:footnote w:id="${id}">([\\s\\S]*?)</w:footnote>`).exec(xml)?.[1] ?? '';
    assert.equal((note(1).match(/<w:p>/g) ?? []).length, 1, 'one paragraph');
    assert.match(note(1), /<w:footnoteRef\/>/, 'holding the number');
    const style = (x: string): string | undefined => /<w:pStyle w:val="([^"]+)"\/>/.exec(x)?.[1];
    assert.ok(style(note(2)), 'a footnote is in the footnote text style');
    assert.equal(style(note(1)), style(note(2)), 'the empty one too');
  });

  it('Word with a references list: the source cited in the note is a numbered entry of the list', async () => {
    const docx = await readDocx((await exported({ text, format: 'docx', citations: 'list' })).bytes);
    assert.deepEqual(docx.footnotes, ['作者注：数据见[1]，方法见[2]与（县茶叶站统计）。']);
    const ps = paragraphs(docx.document).map((p) => p.text);
    assert.deepEqual(ps.slice(-2), ['[1] 茶树农事操作.docx#1 — 茶树管理', '[2] 茶树修剪技术要点.docx#2']);
  });

  it('WeChat: the note’s citations are numbered entries of the end list', async () => {
    const r = await exported({ text, format: 'wechat' });
    const notes = [...r.article!.matchAll(/<p style="[^"]*">\[(\d+)\] (.*?)<\/p>/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.ok(!r.article!.includes('[^'), r.article);
    assert.equal(notes.length, 4, notes.join('\n'));
    assert.ok(notes[0]!.startsWith('1 作者注：数据见<sup'), notes[0]);
  });
});

describe('publish: a house template made from Word’s blank document', () => {
  const text = '# 标题\n\n## 一级\n\n### 二级\n\n见 [农业农村部](https://www.moa.gov.cn/)。\n\n1. 甲\n2. 乙\n';
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

  /** The styles of a styles.xml by id, read by namespace (any prefix). */
  function stylesById(xml: string): Map<string, { type: string; name: string }> {
    const out = new Map<string, { type: string; name: string }>();
    const parser = sax.parser(true, { xmlns: true });
    let current: string | undefined;
    parser.onopentag = (tag) => {
      const t = tag as sax.QualifiedTag;
      const a = (local: string): string =>
        Object.values(t.attributes).find((x) => x.uri === W && x.local === local)?.value ?? '';
      if (t.uri === W && t.local === 'style') {
        current = a('styleId');
        out.set(current, { type: a('type'), name: '' });
      } else if (t.uri === W && t.local === 'name' && current) out.get(current)!.name = a('val');
    };
    parser.write(xml).close();
    return out;
  }

  for (const prefix of ['w', 'ns0']) {
    it(`adds the title, heading and link styles it lacks, Word’s own names (prefix ${prefix}:)`, async () => {
      const t = await template({ 'word/styles.xml': blankStyles(prefix) });
      const docx = await readDocx((await exported({ text, format: 'docx', template: t })).bytes);
      const styles = stylesById(docx.styles);
      const ps = paragraphs(docx.document);
      assert.equal(styles.get(ps[0]!.style!)?.name, 'Title', 'the title');
      assert.equal(styles.get(ps.find((p) => p.text === '一级')!.style!)?.name, 'heading 2');
      assert.equal(styles.get(ps.find((p) => p.text === '二级')!.style!)?.name, 'heading 3');
      const link = /<w:hyperlink [^>]*>.*?<w:rStyle w:val="([^"]+)"\/>/.exec(docx.document)?.[1];
      assert.equal(styles.get(link!)?.name, 'Hyperlink', 'links in Word’s Hyperlink style');
      assert.equal(styles.get('Normal')?.name, 'Normal', 'the template’s own styles stay');
    });
  }

  it('keeps the template’s list numbering and numbers our lists with ids it does not use', async () => {
    const numbering =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering xmlns:w="${W}">` +
      '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/></w:lvl></w:abstractNum>' +
      '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="0"/></w:num></w:numbering>';
    const styles = blankStyles().replace(
      '</w:styles>',
      '<w:style w:type="paragraph" w:styleId="ListRoman"><w:name w:val="List Roman"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style></w:styles>',
    );
    const t = await template({ 'word/styles.xml': styles, 'word/numbering.xml': numbering });
    const r = await exported({ text, format: 'docx', template: t });
    const zip = await JSZip.loadAsync(r.bytes);
    const out = await zip.file('word/numbering.xml')!.async('string');
    assert.ok(
      out.includes('<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'),
      'the template’s list 1 as it was',
    );
    assert.ok(out.includes('w:val="upperRoman"'));
    const { document } = await readDocx(r.bytes);
    const used = [...document.matchAll(/<w:numId w:val="(\d+)"\/>/g)].map((m) => Number(m[1]));
    assert.deepEqual(used, [3, 3], 'our list is instance 3, after the template’s 1 and 2');
    assert.match(out, /<w:num [^>]*w:numId="3"><w:abstractNumId w:val="2"\/>/, 'on a definition after the template’s');
  });

  it('refuses a broken template and says what is wrong with it, in English and Chinese', async () => {
    const refused = async (t: Uint8Array) => {
      const r = await exportBulletin({
        text,
        format: 'docx',
        lang: 'zh',
        now: new Date(0),
        readImage: readSamplePhoto,
        template: t,
      });
      assert.equal(r.ok, false);
      return r as Extract<typeof r, { reason: 'template' }>;
    };
    const noDocument = await refused(await template({ 'word/document.xml': null, 'word/styles.xml': blankStyles() }));
    assert.equal(noDocument.error, 'no-document');
    assert.equal(
      templateProblemText(noDocument.error, noDocument.where, wordsOf('en')),
      'it is a zip archive but not a Word document (it has no word/document.xml)',
    );
    const broken = await refused(await template({ 'word/styles.xml': blankStyles().replace('</w:style>', '') }));
    assert.equal(broken.error, 'bad-styles');
    assert.deepEqual(
      [broken.where?.line, templateProblemText(broken.error, broken.where, wordsOf('zh'))],
      [
        2,
        `其 word/styles.xml 不是格式正确的 WordprocessingML（第 2 行第 ${broken.where!.column} 列）；请在 Word 中重新保存`,
      ],
    );
    const notStyles = await refused(await template({ 'word/styles.xml': `<w:document xmlns:w="${W}"/>` }));
    assert.equal(notStyles.error, 'bad-styles');
    assert.equal((await refused(await template({ 'word/styles.xml': null }))).error, 'no-styles');
  });
});
