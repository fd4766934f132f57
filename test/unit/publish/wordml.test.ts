/**
 * The Word package is valid where Word is strict: every part is well-formed XML, every
 * relationship and content type points at a part that is there, every id a part uses is defined,
 * and the children of the property elements come in the order the schema (ECMA-376 Part 1) fixes —
 * Word refuses a file with `<w:b/>` after `<w:color/>` in a `w:rPr`.
 */
import * as assert from 'node:assert/strict';
import JSZip from 'jszip';
import fc from 'fast-check';
import * as sax from 'sax';
import { esc } from '../../../src/publish/wordml';
import { exported, SAMPLE } from './helpers';
import { schemaErrors } from './schema';

/** The children order of the property elements we write (a subset of each schema sequence). */
const ORDER: Record<string, string[]> = {
  'w:rPr': [
    'w:rStyle',
    'w:rFonts',
    'w:b',
    'w:bCs',
    'w:i',
    'w:iCs',
    'w:strike',
    'w:color',
    'w:sz',
    'w:szCs',
    'w:u',
    'w:shd',
    'w:vertAlign',
  ],
  'w:pPr': ['w:pStyle', 'w:keepNext', 'w:numPr', 'w:pBdr', 'w:shd', 'w:spacing', 'w:ind', 'w:jc', 'w:outlineLvl'],
  'w:pBdr': ['w:top', 'w:left', 'w:bottom', 'w:right'],
  'w:tcPr': ['w:tcW', 'w:shd', 'w:tcMar'],
  'w:tcMar': ['w:top', 'w:left', 'w:bottom', 'w:right'],
  'w:tblPr': ['w:tblW', 'w:tblBorders', 'w:tblLayout'],
  'w:tblBorders': ['w:top', 'w:left', 'w:bottom', 'w:right', 'w:insideH', 'w:insideV'],
  'w:tbl': ['w:tblPr', 'w:tblGrid', 'w:tr'],
  'w:tr': ['w:trPr', 'w:tc'],
  'w:tc': ['w:tcPr', 'w:p'],
  'w:p': ['w:pPr', 'w:r', 'w:hyperlink'],
  'w:r': [
    'w:rPr',
    'w:br',
    'w:t',
    'w:footnoteReference',
    'w:footnoteRef',
    'w:drawing',
    'w:separator',
    'w:continuationSeparator',
  ],
  'w:style': [
    'w:name',
    'w:basedOn',
    'w:next',
    'w:uiPriority',
    'w:semiHidden',
    'w:unhideWhenUsed',
    'w:qFormat',
    'w:pPr',
    'w:rPr',
  ],
  'w:lvl': ['w:start', 'w:numFmt', 'w:lvlText', 'w:lvlJc', 'w:pPr'],
  'w:sectPr': ['w:pgSz', 'w:pgMar', 'w:cols', 'w:docGrid'],
  'w:settings': ['w:footnotePr', 'w:compat'],
};
/** Children whose order is free among themselves (runs and hyperlinks of a paragraph). */
const SAME_RANK: Record<string, string[]> = { 'w:p': ['w:r', 'w:hyperlink'] };

interface Checked {
  errors: string[];
  /** attribute values by `element@attribute`. */
  values: Map<string, string[]>;
  /** every element's attributes, in document order. */
  elements: { name: string; attributes: Record<string, string> }[];
}

function check(part: string, xml: string): Checked {
  const errors: string[] = [];
  const values = new Map<string, string[]>();
  const elements: Checked['elements'] = [];
  const parser = sax.parser(true, { xmlns: false });
  const stack: { name: string; last: number }[] = [];
  parser.onerror = (e) => {
    errors.push(`${part}: ${e.message.split('\n')[0]}`);
    parser.resume();
  };
  parser.onopentag = (tag) => {
    const parent = stack[stack.length - 1];
    const order = parent && ORDER[parent.name];
    if (parent && order) {
      const same = SAME_RANK[parent.name];
      const name = same?.includes(tag.name) ? same[0]! : tag.name;
      const rank = order.indexOf(name);
      if (rank < 0) errors.push(`${part}: <${tag.name}> is not expected in <${parent.name}>`);
      else if (rank < parent.last) errors.push(`${part}: <${tag.name}> comes too late in <${parent.name}>`);
      else parent.last = rank;
    }
    elements.push({ name: tag.name, attributes: tag.attributes as Record<string, string> });
    for (const [k, v] of Object.entries(tag.attributes)) {
      const key = `${tag.name}@${k}`;
      values.set(key, [...(values.get(key) ?? []), String(v)]);
    }
    stack.push({ name: tag.name, last: -1 });
  };
  parser.onclosetag = () => void stack.pop();
  parser.write(xml).close();
  return { errors, values, elements };
}

async function validate(bytes: Uint8Array): Promise<string[]> {
  const zip = await JSZip.loadAsync(bytes);
  const files = Object.keys(zip.files).filter((f) => !zip.files[f]!.dir);
  const errors: string[] = [];
  const parts = new Map<string, Checked>();
  for (const f of files.filter((f) => /\.(xml|rels)$/.test(f))) {
    const c = check(f, await zip.file(f)!.async('string'));
    errors.push(...c.errors);
    parts.set(f, c);
  }
  // every relationship target exists (external links aside), every r:id used is defined
  for (const [f, c] of parts) {
    if (!f.endsWith('.rels')) continue;
    const base = f.replace(/_rels\/([^/]*)\.rels$/, '$1').replace(/[^/]*$/, '');
    const rels = c.elements.filter((e) => e.name === 'Relationship').map((e) => e.attributes);
    const ids = rels.map((r) => r.Id!);
    if (new Set(ids).size !== ids.length) errors.push(`${f}: an id is used twice`);
    for (const r of rels)
      if (r.TargetMode !== 'External' && !files.includes(base + r.Target!))
        errors.push(`${f}: no part ${base + r.Target!}`);
    const owner = parts.get(f.replace(/_rels\/([^/]*)\.rels$/, '$1'));
    if (owner)
      for (const used of [
        ...(owner.values.get('w:hyperlink@r:id') ?? []),
        ...(owner.values.get('a:blip@r:embed') ?? []),
      ])
        if (!ids.includes(used)) errors.push(`${f}: ${used} is used but not defined`);
  }
  // every part has a content type
  const types = check('[Content_Types].xml', await zip.file('[Content_Types].xml')!.async('string')).values;
  const defaults = new Set(types.get('Default@Extension'));
  const overrides = new Set(types.get('Override@PartName'));
  for (const f of files)
    if (!overrides.has(`/${f}`) && !defaults.has(f.slice(f.lastIndexOf('.') + 1)) && f !== '[Content_Types].xml')
      errors.push(`no content type for ${f}`);
  // numbering instances, footnotes and drawings
  const doc = parts.get('word/document.xml')!.values;
  const numIds = new Set(parts.get('word/numbering.xml')!.values.get('w:num@w:numId'));
  for (const n of doc.get('w:numId@w:val') ?? []) if (!numIds.has(n)) errors.push(`numId ${n} is not defined`);
  const notes = new Set(parts.get('word/footnotes.xml')!.values.get('w:footnote@w:id'));
  for (const n of doc.get('w:footnoteReference@w:id') ?? [])
    if (!notes.has(n)) errors.push(`footnote ${n} is not defined`);
  const drawings = [
    ...(doc.get('wp:docPr@id') ?? []),
    ...(parts.get('word/footnotes.xml')!.values.get('wp:docPr@id') ?? []),
  ];
  assert.equal(new Set(drawings).size, drawings.length, 'drawing ids are unique');
  // styles named by paragraphs and runs exist
  const styles = new Set(parts.get('word/styles.xml')!.values.get('w:style@w:styleId'));
  for (const s of [...(doc.get('w:pStyle@w:val') ?? []), ...(doc.get('w:rStyle@w:val') ?? [])])
    if (!styles.has(s)) errors.push(`style ${s} is not defined`);
  return errors;
}

describe('publish: the Word package is valid', () => {
  it('the check is not blind: it finds a property out of order, a stray element and broken XML', () => {
    assert.deepEqual(check('t', '<w:r><w:rPr><w:color w:val="1"/><w:b/></w:rPr></w:r>').errors, [
      't: <w:b> comes too late in <w:rPr>',
    ]);
    assert.deepEqual(check('t', '<w:p><w:tbl/></w:p>').errors, ['t: <w:tbl> is not expected in <w:p>']);
    assert.equal(check('t', '<w:p><w:r></w:p>').errors.length > 0, true);
    assert.equal(check('t', '<w:t>a & b</w:t>').errors.length > 0, true);
  });

  it('the sample bulletin: well-formed parts, every reference defined, properties in schema order', async () => {
    for (const citations of ['footnotes', 'list'] as const) {
      const r = await exported({ text: SAMPLE, format: 'docx', citations });
      assert.deepEqual(await validate(r.bytes), [], citations);
    }
  });

  it('a bulletin whose author footnote holds a link and a picture, with two tables that touch', async () => {
    const text =
      '# 标题\n\n正文[^a]。\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n| c |\n| - |\n| 3 |\n\n' +
      '1. 一\n\n   ```\n   代码\n   ```\n2.\n\n---\n\n[^a]: 见 [农业农村部](https://www.moa.gov.cn/) ![图](images/recognition/tea-buds.jpg)\n';
    const r = await exported({ text, format: 'docx' });
    assert.deepEqual(await validate(r.bytes), []);
    const zip = await JSZip.loadAsync(r.bytes);
    const document = await zip.file('word/document.xml')!.async('string');
    assert.match(document, /<\/w:tbl><w:p\/><w:tbl>/, 'an empty paragraph keeps the two tables apart');
    const rels = await zip.file('word/_rels/footnotes.xml.rels')!.async('string');
    assert.match(
      rels,
      /Target="https:\/\/www\.moa\.gov\.cn\/" TargetMode="External"/,
      'the footnote’s link is the footnotes part’s',
    );
    assert.match(rels, /relationships\/image" Target="media\/image1\.jpeg"/, 'and so is its picture');
  });

  it('the schema check is not blind: xmllint refuses a table whose grid comes before its properties', async () => {
    const zip = await JSZip.loadAsync((await exported({ text: SAMPLE, format: 'docx' })).bytes);
    const document = await zip.file('word/document.xml')!.async('string');
    assert.deepEqual(schemaErrors([{ name: 'word/document.xml', xml: document }]), [], 'as written: valid');
    const swapped = document.replace(/(<w:tblPr>.*?<\/w:tblPr>)(<w:tblGrid>.*?<\/w:tblGrid>)/, '$2$1');
    assert.notEqual(swapped, document);
    const errors = schemaErrors([{ name: 'word/document.xml', xml: swapped }]);
    assert.equal(errors.length > 0, true);
    assert.match(errors.join('\n'), /^word\/document\.xml:\d+: .*tblGrid.*This element is not expected/m);
  });

  it('escapes the five XML-significant characters but the apostrophe, and drops what XML 1.0 cannot hold', () => {
    assert.equal(esc(`<a href="x">&'</a>`), `&lt;a href=&quot;x&quot;&gt;&amp;'&lt;/a&gt;`);
    assert.equal(esc('a\u0000b\u0008c\u000bd\u000ce\u000ef\u001fg\ufffeh\uffffi'), 'abcdefghi');
    assert.equal(
      esc('tab\tnew\nline\rend 茶\u{1F331}'),
      'tab\tnew\nline\rend 茶\u{1F331}',
      'tab, line ends and astral characters stay',
    );
  });

  it('escapes any text into well-formed XML (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        assert.deepEqual(check('t', `<w:t a="${esc(s)}">${esc(s)}</w:t>`).errors, []);
      }),
      { numRuns: 500 },
    );
  });
});
