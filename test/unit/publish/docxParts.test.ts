/**
 * The parts of the Word package around the body (src/publish/docxParts.ts), read back from the
 * `.docx` by a real parser: what Word finds where (relationships, content types), the document
 * properties, how lists are numbered, and the look of our own styles when no template is given.
 */
import * as assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { descendants, docxParts, exported, PHOTO, xmlTree, type XmlNode } from './helpers';
import { template, blankStyles } from './template';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';

/** The parts of the Word file a bulletin exports to (with the pictures `readImage` answers). */
async function partsOf(text: string, more: Omit<Parameters<typeof exported>[0], 'text' | 'format'> = {}) {
  return docxParts((await exported({ text, format: 'docx', ...more })).bytes);
}

/** A part read back as its root element. */
const tree = (parts: Map<string, string>, name: string): XmlNode => xmlTree(parts.get(name)!);

/** The `w:val` of the first `name` element under `node`, if any. */
const val = (node: XmlNode, name: string): string | undefined => descendants(node, name)[0]?.attributes['w:val'];

/** A GIF or a BMP of the given size: its header is all Word and the export read of it. */
const gif = new Uint8Array([...new TextEncoder().encode('GIF89a'), 4, 0, 3, 0, 0, 0, 0, 0x3b]);
const bmp = (() => {
  const b = new Uint8Array(58);
  b.set([0x42, 0x4d]);
  const v = new DataView(b.buffer);
  v.setUint32(2, 58, true);
  v.setUint32(10, 54, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, 2, true);
  v.setInt32(22, 1, true);
  return b;
})();
const png = new Uint8Array(PNG.sync.write(new PNG({ width: 3, height: 2 })));

describe('publish: the Word package around the document', () => {
  it('the package names the document, its core, extended and custom properties by their relationship types', async () => {
    const rels = tree(await partsOf('# T\n'), '_rels/.rels');
    assert.deepEqual(
      new Map(descendants(rels, 'Relationship').map((r) => [r.attributes.Type, r.attributes.Target])),
      new Map([
        [`${REL}/officeDocument`, 'word/document.xml'],
        ['http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties', 'docProps/core.xml'],
        [`${REL}/extended-properties`, 'docProps/app.xml'],
        [`${REL}/custom-properties`, 'docProps/custom.xml'],
      ]),
    );
    assert.equal(rels.attributes.xmlns, 'http://schemas.openxmlformats.org/package/2006/relationships');
  });

  it('every part the content types or the package’s relationships name is in the package', async () => {
    const parts = await partsOf('# T\n');
    const named = [
      ...descendants(tree(parts, '[Content_Types].xml'), 'Override').map((o) => o.attributes.PartName!.slice(1)),
      ...descendants(tree(parts, '_rels/.rels'), 'Relationship').map((r) => r.attributes.Target!),
    ];
    for (const name of named) assert.ok(parts.has(name), name);
  });

  it('the document’s relationships: its styles, numbering, footnotes and settings, then each link once and each picture once', async () => {
    const text =
      '# T\n\n[甲](https://a.cn/x#1#2) [乙](https://b.cn/) [甲又](https://a.cn/x#1#2)\n\n![图](p.png)\n\n![图又](p.png)\n';
    const parts = await partsOf(text, { readImage: async (c) => (c.path === 'p.png' ? png : undefined) });
    const rels = descendants(tree(parts, 'word/_rels/document.xml.rels'), 'Relationship').map((r) => r.attributes);
    assert.deepEqual(
      rels.map((r) => [r.Id, r.Type!.slice(REL.length + 1), r.Target, r.TargetMode]),
      [
        ['rId1', 'styles', 'styles.xml', undefined],
        ['rId2', 'numbering', 'numbering.xml', undefined],
        ['rId3', 'footnotes', 'footnotes.xml', undefined],
        ['rId4', 'settings', 'settings.xml', undefined],
        ['rId5', 'hyperlink', 'https://a.cn/x#1%232', 'External'],
        ['rId6', 'hyperlink', 'https://b.cn/', 'External'],
        ['rId7', 'image', 'media/image1.png', undefined],
      ],
    );
    const doc = tree(parts, 'word/document.xml');
    assert.deepEqual(
      descendants(doc, 'w:hyperlink').map((h) => h.attributes['r:id']),
      ['rId5', 'rId6', 'rId5'],
      'a link to the same address twice is one relationship',
    );
    assert.deepEqual(
      descendants(doc, 'a:blip').map((b) => b.attributes['r:embed']),
      ['rId7', 'rId7'],
    );
  });

  it('a link inside a footnote is a relationship of the footnotes part', async () => {
    const parts = await partsOf('甲[^a]。\n\n[^a]: 见[官网](https://moa.gov.cn/)。\n');
    const rels = descendants(tree(parts, 'word/_rels/footnotes.xml.rels'), 'Relationship').map((r) => r.attributes);
    assert.deepEqual(rels, [
      { Id: 'rId1', Type: `${REL}/hyperlink`, Target: 'https://moa.gov.cn/', TargetMode: 'External' },
    ]);
  });

  it('every part and every kind of picture has the content type Word reads it by', async () => {
    const text = '# T\n\n![j](j.jpg) ![p](p.png) ![g](g.gif) ![b](b.bmp) ![p2](p2.png)\n';
    const pics: Record<string, Uint8Array> = {
      'j.jpg': PHOTO,
      'p.png': png,
      'p2.png': png,
      'g.gif': gif,
      'b.bmp': bmp,
    };
    const parts = await partsOf(text, { readImage: async (c) => (c.base === 'document' ? pics[c.path] : undefined) });
    const types = tree(parts, '[Content_Types].xml');
    assert.deepEqual(
      descendants(types, 'Default').map((d) => [d.attributes.Extension, d.attributes.ContentType]),
      [
        ['rels', 'application/vnd.openxmlformats-package.relationships+xml'],
        ['xml', 'application/xml'],
        ['jpeg', 'image/jpeg'],
        ['png', 'image/png'],
        ['gif', 'image/gif'],
        ['bmp', 'image/bmp'],
      ],
      'one default per extension',
    );
    assert.deepEqual(
      new Map(descendants(types, 'Override').map((o) => [o.attributes.PartName, o.attributes.ContentType])),
      new Map([
        ['/word/document.xml', `${CT}.wordprocessingml.document.main+xml`],
        ['/word/styles.xml', `${CT}.wordprocessingml.styles+xml`],
        ['/word/numbering.xml', `${CT}.wordprocessingml.numbering+xml`],
        ['/word/footnotes.xml', `${CT}.wordprocessingml.footnotes+xml`],
        ['/word/settings.xml', `${CT}.wordprocessingml.settings+xml`],
        ['/docProps/core.xml', 'application/vnd.openxmlformats-package.core-properties+xml'],
        ['/docProps/app.xml', `${CT}.extended-properties+xml`],
        ['/docProps/custom.xml', `${CT}.custom-properties+xml`],
      ]),
    );
  });

  it('settings: footnotes -1 and 0 are the separators, and the layout is Word 2013’s', async () => {
    const settings = tree(await partsOf('# T\n'), 'word/settings.xml');
    assert.deepEqual(
      descendants(descendants(settings, 'w:footnotePr')[0]!, 'w:footnote').map((f) => f.attributes['w:id']),
      ['-1', '0'],
    );
    assert.deepEqual(descendants(settings, 'w:compatSetting')[0]!.attributes, {
      'w:name': 'compatibilityMode',
      'w:uri': 'http://schemas.microsoft.com/office/word',
      'w:val': '15',
    });
  });

  it('the page is A4 portrait with margins of one inch', async () => {
    const doc = tree(await partsOf('# T\n'), 'word/document.xml');
    const sect = descendants(doc, 'w:sectPr')[0]!;
    assert.deepEqual(descendants(sect, 'w:pgSz')[0]!.attributes, { 'w:w': '11906', 'w:h': '16838' });
    const margins = descendants(sect, 'w:pgMar')[0]!.attributes;
    for (const side of ['w:top', 'w:right', 'w:bottom', 'w:left']) assert.equal(margins[side], '1440', side);
  });
});

describe('publish: the Word document’s properties', () => {
  const core = async (text: string, lang: 'zh' | 'en' = 'zh') => {
    const parts = await partsOf(text, { lang });
    return { core: tree(parts, 'docProps/core.xml'), custom: tree(parts, 'docProps/custom.xml') };
  };
  const text = (node: XmlNode, name: string): string | undefined => {
    const el = descendants(node, name)[0];
    return el?.text;
  };

  it('a date that is no calendar day, or not written YYYY-MM-DD, leaves the creation time the export’s', async () => {
    for (const date of [
      '2026-13-45',
      '2026-11',
      '2026',
      '2026-1-05',
      '2026-01-5',
      '02026-11-20',
      '2026-11-20 上午',
      '第2026-11-20',
      '十一月',
    ])
      assert.equal(
        text((await core(`---\ndate: ${date}\n---\n\n正文\n`)).core, 'dcterms:created'),
        '2026-12-01T08:00:00.000Z',
        date,
      );
    assert.equal(
      text((await core('---\ndate: 2026-02-28\n---\n\n正文\n')).core, 'dcterms:created'),
      '2026-02-27T16:00:00.000Z',
      'a calendar day: its Beijing midnight',
    );
  });

  it('without a title or a date, the properties name neither; the language is the export’s', async () => {
    const { core: c, custom } = await core('只有正文。\n', 'en');
    assert.equal(text(c, 'dc:title'), undefined);
    assert.equal(text(c, 'dc:language'), 'en');
    assert.equal(text(c, 'cp:revision'), '1');
    assert.deepEqual(custom.children, [], 'no custom property');
  });

  it('the front matter’s date is a custom property as written, escaped', async () => {
    const { custom } = await core('---\ndate: "2026 <第3期> & 增刊"\n---\n\n正文\n');
    const prop = descendants(custom, 'property')[0]!;
    assert.deepEqual(prop.attributes, { fmtid: '{D5CDD505-2E9C-101B-9397-08002B2CF9AE}', pid: '2', name: 'date' });
    assert.equal(text(prop, 'vt:lpwstr'), '2026 <第3期> & 增刊');
  });
});

describe('publish: how Word numbers the lists', () => {
  /** Each list paragraph's numbering: [numId, level], and the numbering part. */
  async function lists(text: string, more: Parameters<typeof partsOf>[1] = {}) {
    const parts = await partsOf(text, more);
    const doc = tree(parts, 'word/document.xml');
    const items = descendants(doc, 'w:numPr').map((n) => [Number(val(n, 'w:numId')), Number(val(n, 'w:ilvl'))]);
    return { items, numbering: tree(parts, 'word/numbering.xml') };
  }
  /** The levels of the abstract definition a list instance uses: [format, text, left indent, hanging]. */
  function levelsOf(numbering: XmlNode, numId: number) {
    const num = descendants(numbering, 'w:num').find((n) => n.attributes['w:numId'] === String(numId))!;
    const abstractId = val(num, 'w:abstractNumId');
    const abstract = descendants(numbering, 'w:abstractNum').find(
      (a) => a.attributes['w:abstractNumId'] === abstractId,
    )!;
    return {
      start: val(num, 'w:startOverride'),
      levels: descendants(abstract, 'w:lvl').map((l) => [
        val(l, 'w:numFmt'),
        val(l, 'w:lvlText'),
        descendants(l, 'w:ind')[0]?.attributes['w:left'],
        descendants(l, 'w:ind')[0]?.attributes['w:hanging'],
        val(l, 'w:start'),
      ]),
    };
  }

  it('a numbered list counts from where the bulletin starts it; each list restarts', async () => {
    const { items, numbering } = await lists('3. 丙\n4. 丁\n\n段\n\n1. 甲\n\n段\n\n7) 庚\n');
    assert.deepEqual(items, [
      [1, 0],
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
    assert.deepEqual(
      [1, 2, 3].map((n) => levelsOf(numbering, n).start),
      ['3', '1', '7'],
    );
    const { levels } = levelsOf(numbering, 1);
    assert.equal(levels.length, 9, 'nine levels, as Word has');
    assert.deepEqual(
      levels.map(([fmt, lvlText]) => [fmt, lvlText]),
      Array.from({ length: 9 }, (_, i) => ['decimal', `%${i + 1}.`]),
      'each level its own number: 1. then 1. under it',
    );
  });

  it('bullets go •, ◦, ▪ and round again, each level indented a step further, the bullet hanging', async () => {
    const { items, numbering } = await lists('- 一\n  - 二\n    - 三\n');
    assert.deepEqual(items, [
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
    const { start, levels } = levelsOf(numbering, 1);
    assert.equal(start, undefined, 'a bullet list has no number to restart');
    assert.deepEqual(levelsOf(numbering, 3).levels, levels, 'a nested list shows its level of the same bullets');
    assert.deepEqual(
      levels.map(([fmt, text, left, hanging, from]) => `${fmt} ${text} ${left} ${hanging} ${from}`),
      ['•', '◦', '▪', '•', '◦', '▪', '•', '◦', '▪'].map((b, i) => `bullet ${b} ${720 + 360 * i} 360 1`),
    );
  });

  it('numbers and bullets are two definitions of our own, each list an instance of one', async () => {
    const { numbering } = await lists('- 甲\n\n段\n\n1. 乙\n\n段\n\n- 丙\n');
    assert.equal(numbering.attributes['xmlns:w'], W);
    assert.deepEqual(
      descendants(numbering, 'w:abstractNum').map((a) => [a.attributes['w:abstractNumId'], val(a, 'w:multiLevelType')]),
      [
        ['0', 'hybridMultilevel'],
        ['1', 'hybridMultilevel'],
      ],
    );
    assert.deepEqual(
      descendants(numbering, 'w:num').map((n) => [n.attributes['w:numId'], val(n, 'w:abstractNumId')]),
      [
        ['1', '0'],
        ['2', '1'],
        ['3', '0'],
      ],
    );
  });

  it('with a template’s numbering, ours come after its own and declare their namespace', async () => {
    const numbering =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering xmlns:w="${W}">` +
      '<w:abstractNum w:abstractNumId="4"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/></w:lvl></w:abstractNum>' +
      '<w:num w:numId="6"><w:abstractNumId w:val="4"/></w:num></w:numbering>';
    const t = await template({ 'word/styles.xml': blankStyles(), 'word/numbering.xml': numbering });
    const parts = await partsOf('5. 戊\n\n段\n\n- 甲\n', { template: t });
    const xml = parts.get('word/numbering.xml')!;
    assert.match(xml, new RegExp(`<w:abstractNum xmlns:w="${W}" w:abstractNumId="5">`));
    assert.match(xml, new RegExp(`<w:num xmlns:w="${W}" w:numId="7"><w:abstractNumId w:val="6"/>`));
    const { items, numbering: tree_ } = await lists('5. 戊\n\n段\n\n- 甲\n', { template: t });
    assert.deepEqual(items, [
      [7, 0],
      [8, 0],
    ]);
    assert.equal(levelsOf(tree_, 7).levels[0]![0], 'decimal');
    assert.equal(levelsOf(tree_, 7).start, '5');
    assert.equal(levelsOf(tree_, 8).levels[0]![0], 'bullet');
    assert.equal(levelsOf(tree_, 6).levels[0]![0], 'upperRoman', 'the template’s own list as it was');
  });
});

describe('publish: our own Word styles (no template)', () => {
  /** Each style of the default styles.xml by id. */
  async function styles() {
    const root = tree(await partsOf('# T\n'), 'word/styles.xml');
    const byId = new Map(descendants(root, 'w:style').map((s) => [s.attributes['w:styleId']!, s]));
    return { root, byId };
  }
  const has = (s: XmlNode, name: string): boolean => descendants(s, name).length > 0;

  it('the body text is 11 pt with a little room after each paragraph and lines of 1.25', async () => {
    const { root } = await styles();
    const defaults = descendants(root, 'w:docDefaults')[0]!;
    assert.equal(val(defaults, 'w:sz'), '22');
    assert.equal(val(defaults, 'w:szCs'), '22');
    assert.deepEqual(descendants(defaults, 'w:spacing')[0]!.attributes, {
      'w:after': '120',
      'w:line': '300',
      'w:lineRule': 'auto',
    });
  });

  it('Normal and Default Paragraph Font are the defaults every other style builds on', async () => {
    const { byId } = await styles();
    assert.deepEqual(byId.get('Normal')!.attributes, {
      'w:type': 'paragraph',
      'w:default': '1',
      'w:styleId': 'Normal',
    });
    assert.equal(val(byId.get('Normal')!, 'w:name'), 'Normal');
    assert.deepEqual(byId.get('DefaultParagraphFont')!.attributes, {
      'w:type': 'character',
      'w:default': '1',
      'w:styleId': 'DefaultParagraphFont',
    });
    assert.equal(val(byId.get('DefaultParagraphFont')!, 'w:name'), 'Default Paragraph Font');
    assert.ok(has(byId.get('DefaultParagraphFont')!, 'w:semiHidden'), 'hidden from the style gallery');
  });

  it('the title is 28 pt; headings are bold, in the outline at their level, kept with what follows, in Word’s sizes and blues', async () => {
    const { byId } = await styles();
    const title = byId.get('Title')!;
    assert.equal(val(title, 'w:name'), 'Title');
    assert.equal(val(title, 'w:sz'), '56');
    assert.equal(val(title, 'w:szCs'), '56');
    assert.equal(descendants(title, 'w:spacing')[0]!.attributes['w:after'], '120');
    assert.ok(has(title, 'w:qFormat'), 'in the style gallery');
    const seen = [1, 2, 3, 4, 5, 6].map((n) => {
      const h = byId.get(`Heading${n}`)!;
      assert.equal(h.attributes['w:type'], 'paragraph');
      assert.equal(val(h, 'w:name'), `heading ${n}`);
      assert.equal(val(h, 'w:basedOn'), 'Normal');
      assert.equal(val(h, 'w:next'), 'Normal', 'the paragraph after a heading is body text');
      assert.ok(has(h, 'w:keepNext') && has(h, 'w:b') && has(h, 'w:bCs') && has(h, 'w:qFormat'), `heading ${n}`);
      assert.deepEqual(descendants(h, 'w:spacing')[0]!.attributes, { 'w:before': '240', 'w:after': '120' });
      return [
        val(h, 'w:outlineLvl'),
        val(h, 'w:sz'),
        val(h, 'w:szCs'),
        val(h, 'w:color'),
        has(h, 'w:i') && has(h, 'w:iCs'),
      ];
    });
    assert.deepEqual(seen, [
      ['0', '32', '32', '2E74B5', false],
      ['1', '26', '26', '2E74B5', false],
      ['2', '24', '24', '1F4D78', false],
      ['3', undefined, undefined, '2E74B5', true],
      ['4', undefined, undefined, '2E74B5', false],
      ['5', undefined, undefined, '1F4D78', false],
    ]);
  });

  it('links are blue and underlined; footnote numbers are superscript; footnote text is 9 pt, single-spaced, hidden from the gallery', async () => {
    const { byId } = await styles();
    const link = byId.get('Hyperlink')!;
    assert.equal(link.attributes['w:type'], 'character');
    assert.equal(val(link, 'w:name'), 'Hyperlink');
    assert.equal(val(link, 'w:basedOn'), 'DefaultParagraphFont');
    assert.equal(val(link, 'w:color'), '0563C1');
    assert.equal(val(link, 'w:u'), 'single');
    const ref = byId.get('FootnoteReference')!;
    assert.equal(ref.attributes['w:type'], 'character');
    assert.equal(val(ref, 'w:name'), 'footnote reference');
    assert.equal(val(ref, 'w:basedOn'), 'DefaultParagraphFont');
    assert.equal(val(ref, 'w:vertAlign'), 'superscript');
    const note = byId.get('FootnoteText')!;
    assert.equal(note.attributes['w:type'], 'paragraph');
    assert.equal(val(note, 'w:name'), 'footnote text');
    assert.equal(val(note, 'w:sz'), '18');
    assert.equal(val(note, 'w:szCs'), '18');
    assert.deepEqual(descendants(note, 'w:spacing')[0]!.attributes, {
      'w:after': '0',
      'w:line': '240',
      'w:lineRule': 'auto',
    });
    assert.ok(has(note, 'w:semiHidden') && has(note, 'w:unhideWhenUsed') && !has(note, 'w:qFormat'));
    assert.equal(val(note, 'w:uiPriority'), '99');
  });
});
