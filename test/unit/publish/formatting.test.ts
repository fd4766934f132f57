/**
 * What a bulletin's formatting becomes in Word (src/publish/wordml.ts, read back from the .docx's
 * document.xml): each emphasis its own run property, code in a fixed-width font on grey, links in
 * Word's Hyperlink style, a quote with its bar, a table with its borders, equal columns across the
 * page, a repeated bold header row and its alignment.
 */
import * as assert from 'node:assert/strict';
import JSZip from 'jszip';
import { exported, readDocx } from './helpers';

const TEXT =
  '# 标题\n\n甲**粗体**乙*斜体*丙~~删除~~丁`代码`戊[链接](https://a.cn)己***两者***。\n\n> 引用段\n\n' +
  '| 表头 | 居中 | 右 |\n| --- | :-: | --: |\n| 格 | 中 | 右格 |\n';

/** Each text run of the document: its text and its properties' element names (attributes kept). */
function runs(documentXml: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of documentXml.matchAll(/<w:r>(?:<w:rPr>(.*?)<\/w:rPr>)?<w:t xml:space="preserve">(.*?)<\/w:t><\/w:r>/g))
    out.set(
      m[2]!,
      [...(m[1] ?? '').matchAll(/<w:[^>]+\/>/g)].map((p) => p[0]),
    );
  return out;
}

describe('publish: the bulletin’s formatting in Word', () => {
  // each test exports anew (beforeEach, not before): what a test checks is then done within it,
  // which is how a mutation tester's per-test coverage sees it
  let doc = '';
  beforeEach(async () => {
    doc = (await readDocx((await exported({ text: TEXT, format: 'docx' })).bytes)).document;
  });

  it('each emphasis is its own run property; plain text has none', () => {
    const r = runs(doc);
    assert.deepEqual(r.get('甲'), []);
    assert.deepEqual(r.get('粗体'), ['<w:b/>', '<w:bCs/>']);
    assert.deepEqual(r.get('斜体'), ['<w:i/>', '<w:iCs/>']);
    assert.deepEqual(r.get('删除'), ['<w:strike/>']);
    assert.deepEqual(r.get('两者'), ['<w:b/>', '<w:bCs/>', '<w:i/>', '<w:iCs/>'], 'in schema order');
  });

  it('code is in a fixed-width font (a Chinese one for its Chinese) on grey', () => {
    assert.deepEqual(runs(doc).get('代码'), [
      '<w:rFonts w:ascii="Consolas" w:hAnsi="Consolas" w:eastAsia="Microsoft YaHei"/>',
      '<w:shd w:val="clear" w:color="auto" w:fill="F3F3F3"/>',
    ]);
  });

  it('a link is a Word hyperlink in the Hyperlink style', () => {
    assert.match(
      doc,
      /<w:hyperlink r:id="rId\d+" w:history="1"><w:r><w:rPr><w:rStyle w:val="Hyperlink"\/><\/w:rPr><w:t xml:space="preserve">链接<\/w:t><\/w:r><\/w:hyperlink>/,
    );
  });

  it('a link whose address holds several # keeps one fragment in its relationship (a random seed found one)', async () => {
    const href = 'https://a.cn/p?q=1&r=2https://a.cn/p?q=1&r=2#http://#';
    const bytes = (await exported({ text: `# T\n\n[链接](${href})\n`, format: 'docx' })).bytes;
    const rels = await (await JSZip.loadAsync(bytes)).file('word/_rels/document.xml.rels')!.async('string');
    assert.match(
      rels,
      /Target="https:\/\/a\.cn\/p\?q=1&amp;r=2https:\/\/a\.cn\/p\?q=1&amp;r=2#http:\/\/%23" TargetMode="External"/,
    );
    // exported() also has the parts checked against the schemas, where a second # is no xs:anyURI
  });

  it('a quote has its bar on the left, its tint and its indent', () => {
    assert.match(
      doc,
      /<w:p><w:pPr><w:pBdr><w:left w:val="single" w:sz="12" w:space="8" w:color="A5D6A7"\/><\/w:pBdr><w:shd w:val="clear" w:color="auto" w:fill="F1F8E9"\/><w:ind w:left="360"\/><\/w:pPr><w:r><w:t xml:space="preserve">引用段/,
    );
  });

  it('a table: borders on every side and between cells, equal columns across the text width, a bold repeated header, the alignment of each column', () => {
    const borders = /<w:tblBorders>(.*?)<\/w:tblBorders>/.exec(doc)?.[1] ?? '';
    assert.deepEqual(
      [...borders.matchAll(/<w:(\w+) w:val="single" w:sz="4" w:space="0" w:color="auto"\/>/g)].map((m) => m[1]),
      ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'],
    );
    // A4 (11906 twips) less two margins of one inch (1440): 9026, shared by three columns
    const cols = [...doc.matchAll(/<w:gridCol w:w="(\d+)"\/>/g)].map((m) => Number(m[1]));
    assert.deepEqual(cols, [3008, 3008, 3008]);
    assert.match(doc, /<w:tr><w:trPr><w:tblHeader\/><\/w:trPr>/);
    assert.deepEqual(runs(doc).get('表头'), ['<w:b/>', '<w:bCs/>']);
    assert.deepEqual(runs(doc).get('格'), []);
    assert.match(doc, /<w:pPr><w:jc w:val="center"\/><\/w:pPr><w:r><w:t xml:space="preserve">中</);
    assert.match(doc, /<w:pPr><w:jc w:val="right"\/><\/w:pPr><w:r><w:t xml:space="preserve">右格</);
    assert.match(doc, /<w:p><w:r><w:t xml:space="preserve">格</, 'a left column carries no alignment');
  });
});

describe('publish: the bulletin’s blocks and notes in Word', () => {
  const text =
    '---\ntitle: 周报\ndate: 2026-12-01\n---\n\n首行  \n次行[^1]。\n\n```\ncode 1\ncode 2\n```\n\n---\n\n末段。\n\n' +
    '[^1]: 茶园管理手册.docx#3 — 茶叶知识库 (TEA_MANAGER_001)\n';
  let doc = '';
  let notes = '';
  beforeEach(async () => {
    const bytes = (await exported({ text, format: 'docx' })).bytes;
    doc = (await readDocx(bytes)).document;
    notes = await (await JSZip.loadAsync(bytes)).file('word/footnotes.xml')!.async('string');
  });

  it('every part starts with its XML declaration', () => {
    for (const part of [doc, notes])
      assert.ok(part.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'));
  });

  it('the front matter’s date is a grey line with room below it', () => {
    assert.match(
      doc,
      /<w:p><w:pPr><w:spacing w:after="240"\/><\/w:pPr><w:r><w:rPr><w:color w:val="616161"\/><\/w:rPr><w:t xml:space="preserve">2026-12-01</,
    );
  });

  it('a hard line break stays a line break inside its paragraph', () => {
    assert.match(doc, /首行<\/w:t><\/w:r><w:r><w:br\/><\/w:r><w:r><w:t xml:space="preserve">次行/);
  });

  it('a code block: one shaded paragraph with room around it, its lines in the code font at 9.5 pt', () => {
    assert.match(
      doc,
      /<w:p><w:pPr><w:shd w:val="clear" w:color="auto" w:fill="F3F3F3"\/><w:spacing w:before="120" w:after="120"\/><\/w:pPr><w:r><w:rPr><w:rFonts w:ascii="Consolas"[^>]*\/><w:sz w:val="19"\/><w:szCs w:val="19"\/><\/w:rPr><w:t xml:space="preserve">code 1<\/w:t><\/w:r><w:r><w:rPr>.*?<\/w:rPr><w:br\/><w:t xml:space="preserve">code 2</,
    );
  });

  it('a thematic break is an empty paragraph with a rule below it', () => {
    assert.match(
      doc,
      /<w:p><w:pPr><w:pBdr><w:bottom w:val="single" w:sz="6" w:space="1" w:color="BDBDBD"\/><\/w:pBdr><\/w:pPr><\/w:p>/,
    );
  });

  it('a footnote’s mark and its number in the note carry the footnote reference style', () => {
    assert.match(
      doc,
      /<w:r><w:rPr><w:rStyle w:val="FootnoteReference"\/><\/w:rPr><w:footnoteReference w:id="1"\/><\/w:r>/,
    );
    assert.match(
      notes,
      /<w:footnote w:id="1"><w:p><w:pPr><w:pStyle w:val="FootnoteText"\/><\/w:pPr><w:r><w:rPr><w:rStyle w:val="FootnoteReference"\/><\/w:rPr><w:footnoteRef\/><\/w:r>/,
    );
  });
});

/** Each entry of a ZIP archive as its name and compression method (0 stored, 8 deflated), from the local headers. */
/** The [name, compression method] of each local entry of a zip, in order (duplicates kept). */
function zipMethods(bytes: Uint8Array): [string, number][] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: [string, number][] = [];
  for (let at = 0; view.getUint32(at, true) === 0x04034b50;) {
    const nameLength = view.getUint16(at + 26, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength));
    out.push([name, view.getUint16(at + 8, true)]);
    at += 30 + nameLength + view.getUint16(at + 28, true) + view.getUint32(at + 18, true);
  }
  return out;
}

describe('publish: notes in Word', () => {
  const footnotesOf = async (text: string, lang: 'zh' | 'en' = 'zh', citations?: 'list'): Promise<string> => {
    const bytes = (await exported({ text, format: 'docx', lang, ...(citations ? { citations } : {}) })).bytes;
    return await (await JSZip.loadAsync(bytes)).file('word/footnotes.xml')!.async('string');
  };

  it('the separators Word expects come first, with ids -1 and 0', async () => {
    const notes = await footnotesOf('甲[^1]。\n\n[^1]: a.docx#1 — 茶 (K)\n');
    assert.match(
      notes,
      /<w:footnotes [^>]*><w:footnote w:type="separator" w:id="-1">.*?<w:separator\/>.*?<w:footnote w:type="continuationSeparator" w:id="0">.*?<w:continuationSeparator\/>.*?<w:footnote w:id="1">/,
    );
  });

  it('an author’s note of several blocks: every paragraph in the note style, the number only before the first', async () => {
    const notes = await footnotesOf(
      '甲[^a]。\n\n[^a]: 第一段。\n\n    第二段。\n\n    | 列一 | 列二 |\n    | --- | --- |\n    | x | y |\n',
    );
    const note = /<w:footnote w:id="1">(.*?)<\/w:footnote>/.exec(notes)?.[1] ?? '';
    const paragraphs = [...note.matchAll(/<w:p>(.*?)<\/w:p>/g)].map((m) => m[1]!);
    assert.ok(paragraphs.length >= 3, note);
    for (const p of paragraphs) assert.match(p, /^<w:pPr><w:pStyle w:val="FootnoteText"\/><\/w:pPr>/);
    assert.match(
      paragraphs[0]!,
      /<w:footnoteRef\/><\/w:r><w:r><w:t xml:space="preserve"> <\/w:t><\/w:r><w:r><w:t xml:space="preserve">第一段。/,
    );
    assert.equal(
      paragraphs.slice(1).some((p) => p.includes('footnoteRef')),
      false,
    );
    assert.match(
      note,
      /列一<\/w:t><\/w:r><w:r><w:t xml:space="preserve"> \| <\/w:t><\/w:r><w:r><w:t xml:space="preserve">列二/,
      'a table row as one line',
    );
  });

  it('a reference inside a note is written out where it stands: an author’s note in brackets of the language, a source in 〔〕, a loop at its label', async () => {
    const text =
      '甲[^a]。\n\n[^a]: 见[^b]与[^1]，又见[^a]。\n[^b]: 乙说\n[^1]: 茶园管理手册.docx#3 — 茶叶知识库 (TEA_MANAGER_001)\n';
    const zh = await footnotesOf(text);
    assert.match(
      zh,
      /见<\/w:t><\/w:r><w:r><w:t xml:space="preserve">（<\/w:t><\/w:r><w:r><w:t xml:space="preserve">乙说<\/w:t><\/w:r><w:r><w:t xml:space="preserve">）/,
    );
    assert.match(zh, /〔茶园管理手册\.docx#3 — 茶叶知识库〕/);
    assert.match(zh, /又见<\/w:t><\/w:r><w:r><w:t xml:space="preserve">\[a\]/);
    const en = await footnotesOf(text, 'en');
    assert.match(
      en,
      /<w:t xml:space="preserve"> \(<\/w:t><\/w:r><w:r><w:t xml:space="preserve">乙说<\/w:t><\/w:r><w:r><w:t xml:space="preserve">\)/,
    );
  });

  it('in list mode the sources are listed at the end under a level-2 heading, the bulletin’s or “References”', async () => {
    const text = 'Tea[^1].\n\n[^1]: a.docx#1 — tea (K)\n';
    const r = await exported({ text, format: 'docx', lang: 'en', citations: 'list' });
    const doc = (await readDocx(r.bytes)).document;
    assert.match(
      doc,
      /<w:p><w:pPr><w:pStyle w:val="Heading2"\/><\/w:pPr><w:r><w:t xml:space="preserve">References<\/w:t><\/w:r><\/w:p><w:p><w:r><w:t xml:space="preserve">\[1\] a\.docx#1 — tea<\/w:t>/,
    );
  });

  it('pictures are stored as they are, the XML parts deflated', async () => {
    const r = await exported({ text: '# T\n\n![照片](images/recognition/tea-buds.jpg)\n', format: 'docx' });
    const entries = zipMethods(r.bytes);
    const methods = new Map(entries);
    assert.equal(methods.get('word/media/image1.jpeg'), 0);
    assert.equal(methods.get('word/document.xml'), 8);
    assert.equal(entries[0]![0], '[Content_Types].xml', 'the content types first, as Office writes them');
    assert.equal(methods.size, entries.length, 'each part once');
  });

  it('a picture shown twice is stored once, under its own format’s extension, and drawn twice', async () => {
    const src = 'images/recognition/tea-buds.jpg';
    const r = await exported({ text: `# T\n\n![一](${src})\n\n![二](${src})\n`, format: 'docx' });
    const media = zipMethods(r.bytes).filter(([name]) => name.startsWith('word/media/'));
    assert.deepEqual(
      media.map(([name]) => name),
      ['word/media/image1.jpeg'],
    );
    const doc = (await readDocx(r.bytes)).document;
    assert.equal((doc.match(/<w:drawing>/g) ?? []).length, 2);
  });
});
