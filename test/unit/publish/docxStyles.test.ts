/**
 * A house template's styles and numbering (src/publish/docxStyles.ts), read back from the Word file
 * exported with it: which of its styles our paragraphs name, what is added when it lacks one, and
 * what is wrong with a template that cannot be used.
 */
import * as assert from 'node:assert/strict';
import { numberingXml } from '../../../src/publish/docxParts';
import { houseStyleOf, readTemplate, TemplateError } from '../../../src/publish/docxStyles';
import { descendants, docxParts, exported, paragraphs, xmlTree, type XmlNode } from './helpers';
import { template } from './template';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const TEXT = '# 标题\n\n## 一级\n\n#### 三级\n\n见[链接](https://a.cn/)[^1]。\n\n1. 甲\n\n[^1]: a.docx#1 — 茶 (K)\n';

/** A styles.xml of the given `<w:style>` elements. */
const stylesOf = (...styles: string[]): string => `${HEAD}<w:styles xmlns:w="${W}">${styles.join('')}</w:styles>`;
/** One `<w:style>`; `attrs` as written in its start tag. */
const style = (attrs: string, name?: string, inner = ''): string =>
  `<w:style ${attrs}>${name === undefined ? '' : `<w:name w:val="${name}"/>`}${inner}</w:style>`;

/** The bulletin exported with a template of these parts: its styles by id, and its paragraphs' styles by text. */
async function withTemplate(parts: Record<string, string | null>, text = TEXT) {
  const bytes = (await exported({ text, format: 'docx', template: await template(parts) })).bytes;
  const all = await docxParts(bytes);
  const styles = xmlTree(all.get('word/styles.xml')!);
  const byId = new Map(descendants(styles, 'w:style').map((s) => [s.attributes['w:styleId']!, s]));
  const document = all.get('word/document.xml')!;
  const styleOf = (text: string): string | undefined => paragraphs(document).find((p) => p.text === text)?.style;
  return { all, byId, document, styleOf };
}

const val = (node: XmlNode | undefined, name: string): string | undefined =>
  node && descendants(node, name)[0]?.attributes['w:val'];

describe('publish: a house template’s styles', () => {
  it('finds a style by its name in any case; the first of two with one name; never by a style without a name or an id', async () => {
    const { styleOf, byId } = await withTemplate({
      'word/styles.xml': stylesOf(
        style('w:type="paragraph" w:styleId="Nameless"'),
        style('w:type="paragraph"', 'heading 2'),
        style('w:type="paragraph" w:styleId="H4"', 'Heading 4'),
        style('w:type="paragraph" w:styleId="H4b"', 'heading 4'),
        style('w:type="paragraph" w:styleId="T"', 'TITLE'),
      ),
    });
    assert.equal(styleOf('标题'), 'T');
    assert.equal(styleOf('三级'), 'H4', 'the first of two named heading 4');
    assert.equal(styleOf('一级'), 'Heading2', 'the heading 2 without an id is not usable: ours is added');
    assert.equal(val(byId.get('Heading2'), 'w:name'), 'heading 2');
    assert.equal(byId.get('Nameless')!.children.length, 0, 'a style without a name is left as it is');
  });

  it('each style the writer uses is the template’s of Word’s name, whatever its id (a Chinese Word’s numbers)', async () => {
    const names = ['Title', 'heading 1', 'heading 2', 'heading 3', 'heading 4', 'heading 5', 'heading 6'];
    const { styleOf, document, byId } = await withTemplate(
      {
        'word/styles.xml': stylesOf(
          ...names.map((n, i) => style(`w:type="paragraph" w:styleId="${i ? i : 'a3'}"`, n)),
          style('w:type="character" w:styleId="a8"', 'Hyperlink'),
          style('w:type="character" w:styleId="FootnoteReference"', 'footnote reference'),
          style('w:type="paragraph" w:styleId="FootnoteText"', 'footnote text'),
        ),
      },
      '# 题\n\n# 一\n\n## 二\n\n### 三\n\n#### 四\n\n##### 五\n\n###### 六\n\n[链接](https://a.cn/)\n',
    );
    assert.deepEqual(['题', '一', '二', '三', '四', '五', '六'].map(styleOf), ['a3', '1', '2', '3', '4', '5', '6']);
    assert.match(document, /<w:hyperlink [^>]*><w:r><w:rPr><w:rStyle w:val="a8"\/>/);
    assert.equal(byId.size, 10, 'nothing added');
  });

  it('a style it adds takes the next free id when the template uses ours for another style', async () => {
    const { styleOf, byId, document } = await withTemplate({
      'word/styles.xml': stylesOf(
        style('w:type="paragraph" w:styleId="Title"', 'My Title'),
        style('w:type="paragraph" w:styleId="Title2"', 'Other'),
        style('w:type="character" w:styleId="Hyperlink"', 'Blue Text'),
      ),
    });
    assert.equal(styleOf('标题'), 'Title3');
    assert.equal(val(byId.get('Title3'), 'w:name'), 'Title');
    assert.equal(val(byId.get('Title'), 'w:name'), 'My Title', 'the template’s own style stays');
    assert.match(document, /<w:rStyle w:val="Hyperlink2"\/>/);
    assert.equal(val(byId.get('Hyperlink2'), 'w:name'), 'Hyperlink');
  });

  it('what it adds builds on the template’s default paragraph and character styles, however the default is written', async () => {
    const { byId } = await withTemplate({
      'word/styles.xml': stylesOf(
        style('w:type="paragraph" w:default="0" w:styleId="NotDefault"', 'Plain'),
        style('w:default="true" w:styleId="Body"', 'Body Text'),
        style('w:type="paragraph" w:default="1" w:styleId="Later"', 'Later'),
        style('w:type="character" w:default="on" w:styleId="Font"', 'Font'),
      ),
    });
    for (const id of ['Title', 'Heading1', 'Heading4']) {
      assert.equal(val(byId.get(id), 'w:basedOn'), 'Body', id);
      assert.equal(val(byId.get(id), 'w:next'), 'Body', `after a ${id}, body text`);
    }
    assert.equal(val(byId.get('Hyperlink'), 'w:basedOn'), 'Font');
  });

  it('without default styles, what it adds stands on its own', async () => {
    const { byId } = await withTemplate({
      'word/styles.xml': stylesOf(style('w:type="paragraph" w:styleId="x"', 'x')),
    });
    for (const id of ['Title', 'Heading1', 'Hyperlink', 'FootnoteText', 'FootnoteReference']) {
      assert.ok(byId.has(id), id);
      assert.equal(val(byId.get(id), 'w:basedOn'), undefined, id);
      assert.equal(val(byId.get(id), 'w:next'), undefined, id);
    }
  });

  it('the title and headings it adds look like Word’s own: the title 28 pt, headings bold and blue in the outline', async () => {
    const { byId } = await withTemplate({ 'word/styles.xml': stylesOf() });
    const title = byId.get('Title')!;
    assert.equal(title.attributes['w:type'], 'paragraph');
    assert.deepEqual(
      [val(title, 'w:sz'), val(title, 'w:szCs'), val(title, 'w:b'), val(title, 'w:color'), val(title, 'w:outlineLvl')],
      ['56', '56', undefined, undefined, undefined],
    );
    assert.equal(descendants(title, 'w:b').length + descendants(title, 'w:keepNext').length, 0, 'not bold');
    assert.equal(descendants(title, 'w:spacing')[0]!.attributes['w:after'], '120');
    assert.ok(descendants(title, 'w:qFormat').length > 0, 'in the style gallery');
    const headings = [1, 2, 3, 4, 5, 6].map((n) => {
      const h = byId.get(`Heading${n}`)!;
      assert.equal(val(h, 'w:name'), `heading ${n}`);
      assert.ok(descendants(h, 'w:b').length && descendants(h, 'w:bCs').length && descendants(h, 'w:keepNext').length);
      assert.deepEqual(descendants(h, 'w:spacing')[0]!.attributes, { 'w:before': '240', 'w:after': '120' });
      return [val(h, 'w:outlineLvl'), val(h, 'w:sz'), val(h, 'w:szCs'), val(h, 'w:color')];
    });
    assert.deepEqual(headings, [
      ['0', '32', '32', '2E74B5'],
      ['1', '26', '26', '2E74B5'],
      ['2', '24', '24', '2E74B5'],
      ['3', '22', '22', '2E74B5'],
      ['4', '22', '22', '2E74B5'],
      ['5', '22', '22', '2E74B5'],
    ]);
    const link = byId.get('Hyperlink')!;
    assert.equal(link.attributes['w:type'], 'character');
    assert.deepEqual([val(link, 'w:color'), val(link, 'w:u'), val(link, 'w:uiPriority')], ['0563C1', 'single', '99']);
  });

  it('footnotes: numbers superscript and text at 9 pt, built on the template’s own footnote styles when it has them', async () => {
    const { byId, all } = await withTemplate({
      'word/styles.xml': stylesOf(
        style('w:type="paragraph" w:styleId="a7"', 'footnote text'),
        style('w:type="character" w:styleId="a9"', 'footnote reference'),
      ),
    });
    const ref = byId.get('FootnoteReference')!;
    assert.equal(ref.attributes['w:type'], 'character');
    assert.equal(val(ref, 'w:basedOn'), 'a9');
    assert.equal(val(ref, 'w:vertAlign'), 'superscript');
    const text = byId.get('FootnoteText')!;
    assert.equal(text.attributes['w:type'], 'paragraph');
    assert.equal(val(text, 'w:basedOn'), 'a7');
    assert.equal(val(text, 'w:sz'), '18');
    assert.deepEqual(descendants(text, 'w:spacing')[0]!.attributes, {
      'w:after': '0',
      'w:line': '240',
      'w:lineRule': 'auto',
    });
    assert.match(all.get('word/footnotes.xml')!, /<w:pStyle w:val="FootnoteText"\/>/);
  });

  it('a template whose styles or numbering has nothing in it (an empty root element, a line break after it) still gives a well-formed file', async () => {
    const { all, styleOf } = await withTemplate({
      'word/styles.xml': `${HEAD}<w:styles xmlns:w="${W}"/>\n`,
      'word/numbering.xml': `${HEAD}<w:numbering xmlns:w="${W}" />`,
    });
    const styles = xmlTree(all.get('word/styles.xml')!);
    assert.equal(styles.name, 'w:styles');
    assert.ok(descendants(styles, 'w:style').length >= 10, 'our styles inside it');
    assert.equal(styleOf('一级'), 'Heading2');
    const numbering = xmlTree(all.get('word/numbering.xml')!);
    assert.equal(descendants(numbering, 'w:abstractNum').length, 2);
    assert.deepEqual(
      descendants(numbering, 'w:num').map((n) => n.attributes['w:numId']),
      ['1'],
    );
  });
});

describe('publish: what counts as a template’s style', () => {
  it('only a WordprocessingML style at the top of the part, named by its own w:name', () => {
    const xml = stylesOf(
      '<x:style xmlns:x="urn:x" w:styleId="Foreign"><w:name w:val="heading 1"/></x:style>',
      '<w:latentStyles><w:style w:styleId="Nested"><w:name w:val="heading 2"/></w:style></w:latentStyles>',
      style('w:styleId="Deep"', undefined, '<w:rPr><w:name w:val="heading 3"/></w:rPr>'),
      style('w:styleId="Other"', undefined, '<x:name xmlns:x="urn:x" w:val="heading 4"/>'),
      style('w:styleId="Own"', 'heading 5'),
      style('w:styleId="Last"'),
    );
    const { ids, stylesXml } = houseStyleOf(xml);
    assert.deepEqual(
      [ids.heading1, ids.heading2, ids.heading3, ids.heading4, ids.heading5],
      ['Heading1', 'Heading2', 'Heading3', 'Heading4', 'Own'],
    );
    assert.match(stylesXml!, /w:styleId="Heading1"><w:name w:val="heading 1"\/>/, 'added: the template has none');
  });

  it('a style element inside another element is none of the template’s: its id stays free, it is no default to build on', () => {
    const nested = '<w:latentStyles><w:style w:type="paragraph" w:default="1" w:styleId="Title"/></w:latentStyles>';
    const { ids, stylesXml } = houseStyleOf(stylesOf(nested));
    assert.equal(ids.title, 'Title');
    const added = descendants(xmlTree(stylesXml!), 'w:style').find((s) => s.attributes['w:styleId'] === 'Title')!;
    assert.equal(val(added, 'w:basedOn'), undefined);
  });

  it('a default written as Word writes it (w:default="1") is what the added styles build on', () => {
    const { stylesXml } = houseStyleOf(stylesOf(style('w:type="paragraph" w:default="1" w:styleId="a"', 'Normal')));
    const title = descendants(xmlTree(stylesXml!), 'w:style').find((s) => s.attributes['w:styleId'] === 'Title')!;
    assert.equal(val(title, 'w:basedOn'), 'a');
  });

  it('a style without a name is not found by the value of another of its properties', () => {
    const { ids } = houseStyleOf(stylesOf(style('w:styleId="Sub"', undefined, '<w:basedOn w:val="Title"/>')));
    assert.equal(ids.title, 'Title');
  });

  it('a part whose root is not WordprocessingML styles is refused, saying what its root should be', () => {
    assert.throws(() => houseStyleOf(`${HEAD}<w:numbering xmlns:w="${W}"/>`), /not WordprocessingML styles/);
  });
});

describe('publish: where a template’s numbering goes', () => {
  const numbering = (inner: string): string => `${HEAD}<w:numbering xmlns:w="${W}">${inner}</w:numbering>`;
  const abstract = (id: string): string =>
    `<w:abstractNum w:abstractNumId="${id}"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/></w:lvl></w:abstractNum>`;
  const num = (id: string, abstractId: string): string =>
    `<w:num w:numId="${id}"><w:abstractNumId w:val="${abstractId}"/></w:num>`;
  const picBullet =
    '<w:numPicBullet w:numPicBulletId="0"><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" id="b" style="width:9pt;height:9pt"/></w:pict></w:numPicBullet>';

  /** The names of numbering's top elements in order, with their ids, and the instances our lists use. */
  async function exportedWith(xml: string) {
    const { all, document } = await withTemplate(
      { 'word/styles.xml': stylesOf(), 'word/numbering.xml': xml },
      '1. 甲\n',
    );
    const root = xmlTree(all.get('word/numbering.xml')!);
    return {
      order: root.children.map(
        (c) => `${c.name.slice(2)}${c.attributes['w:abstractNumId'] ?? c.attributes['w:numId'] ?? ''}`,
      ),
      used: [...document.matchAll(/<w:numId w:val="(\d+)"\/>/g)].map((m) => m[1]),
    };
  }

  it('after its definitions and its instances, with the next ids, however its ids are ordered', async () => {
    const r = await exportedWith(numbering(abstract('3') + abstract('1') + num('9', '3') + num('2', '1')));
    assert.deepEqual(r.order, [
      'abstractNum3',
      'abstractNum1',
      'abstractNum4',
      'abstractNum5',
      'num9',
      'num2',
      'num10',
    ]);
    assert.deepEqual(r.used, ['10']);
  });

  it('ids that are no numbers count as none', async () => {
    const style = await readTemplate(
      await template({ 'word/styles.xml': stylesOf(), 'word/numbering.xml': numbering(abstract('x') + num('y', 'x')) }),
    );
    assert.deepEqual([style.numbering?.nextAbstractId, style.numbering?.nextNumId], [1, 1]);
  });

  it('a template that lists its instances before its definitions keeps each once; ours go after all of it', async () => {
    const xml = numbering(num('1', '0') + abstract('0'));
    const style = await readTemplate(await template({ 'word/styles.xml': stylesOf(), 'word/numbering.xml': xml }));
    const out = xmlTree(numberingXml([{ ordered: true, start: 1 }], style.numbering));
    assert.deepEqual(
      out.children.map((c) => `${c.name.slice(2)}${c.attributes['w:abstractNumId'] ?? c.attributes['w:numId'] ?? ''}`),
      ['num1', 'abstractNum0', 'abstractNum1', 'abstractNum2', 'num2'],
    );
  });

  it('ids of elements that are no WordprocessingML numbering at the top of the part do not count', async () => {
    const xml = numbering(
      '<x:abstractNum xmlns:x="urn:x" w:abstractNumId="40"/><x:num xmlns:x="urn:x" w:numId="41"/>' +
        abstract('2') +
        '<w:numIdMacAtCleanup w:val="0"><w:abstractNum w:abstractNumId="50"/><w:num w:numId="51"/></w:numIdMacAtCleanup>',
    );
    const style = await readTemplate(await template({ 'word/styles.xml': stylesOf(), 'word/numbering.xml': xml }));
    assert.deepEqual([style.numbering?.nextAbstractId, style.numbering?.nextNumId], [3, 1]);
  });

  it('after its picture bullets when it has no definition; before its Mac clean-up mark when it has no instance', async () => {
    const r = await exportedWith(numbering(picBullet + '<w:numIdMacAtCleanup w:val="0"/>'));
    assert.deepEqual(r.order, ['numPicBullet', 'abstractNum1', 'abstractNum2', 'num1', 'numIdMacAtCleanup']);
  });

  it('with definitions but no instances, ours follow the definitions', async () => {
    const r = await exportedWith(numbering(abstract('0')));
    assert.deepEqual(r.order, ['abstractNum0', 'abstractNum1', 'abstractNum2', 'num1']);
  });
});

describe('publish: a template that cannot be used', () => {
  const refusal = async (parts: Record<string, string | null>): Promise<TemplateError> => {
    try {
      await readTemplate(await template(parts));
    } catch (err) {
      assert.ok(err instanceof TemplateError, String(err));
      return err;
    }
    assert.fail('the template was taken');
  };

  it('a numbering part that is not well-formed, or not WordprocessingML numbering: where, in words a log can show', async () => {
    const broken = await refusal({
      'word/styles.xml': stylesOf(),
      'word/numbering.xml': `${HEAD}\n<w:numbering xmlns:w="${W}"><w:num>`,
    });
    assert.equal(broken.reason, 'bad-numbering');
    assert.equal(broken.where?.line, 2);
    assert.equal(broken.message, `the template cannot be used: bad-numbering (line 2, column ${broken.where!.column})`);
    const other = await refusal({ 'word/styles.xml': stylesOf(), 'word/numbering.xml': `<w:styles xmlns:w="${W}"/>` });
    assert.deepEqual([other.reason, other.where], ['bad-numbering', { line: 1, column: 1 }]);
    const foreign = await refusal({ 'word/styles.xml': '<styles/>' });
    assert.deepEqual([foreign.reason, foreign.where], ['bad-styles', { line: 1, column: 1 }]);
    const noStyles = await refusal({ 'word/styles.xml': null });
    assert.equal(noStyles.message, 'the template cannot be used: no-styles');
    assert.equal(noStyles.where, undefined);
  });
});
