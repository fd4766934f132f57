/**
 * The body of the Word document (src/publish/docxBlocks.ts), read back from the `.docx` by a
 * parser: what a quote, a list, a table, a link and a picture look like to a reader in Word.
 */
import * as assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { descendants, docxParts, exported, PHOTO, xmlTree, type XmlNode } from './helpers';

/** The body of the Word file a bulletin exports to; `pictures` answers the images by path. */
async function bodyOf(text: string, pictures: Record<string, Uint8Array> = {}): Promise<XmlNode> {
  const r = await exported({ text, format: 'docx', readImage: async (c) => pictures[c.path] });
  return descendants(xmlTree((await docxParts(r.bytes)).get('word/document.xml')!), 'w:body')[0]!;
}

/** A paragraph as a reader sees its look: text, style, list level, left indent, bar, fill. */
function look(p: XmlNode): string {
  const v = (name: string, attr = 'w:val'): string | undefined => descendants(p, name)[0]?.attributes[attr];
  const bar = descendants(p, 'w:pBdr').length
    ? ` bar:${v('w:left', 'w:color') ?? ''}${v('w:bottom', 'w:color') ?? ''}`
    : '';
  return [
    descendants(p, 'w:t')
      .map((t) => t.text)
      .join('') || '∅',
    v('w:pStyle') && `style:${v('w:pStyle')}`,
    v('w:ilvl') && `level:${v('w:ilvl')}`,
    v('w:ind', 'w:left') && `indent:${v('w:ind', 'w:left')}`,
    bar.trim(),
    descendants(p, 'w:pPr')[0] &&
      descendants(descendants(p, 'w:pPr')[0]!, 'w:shd')[0]?.attributes['w:fill'] &&
      `fill:${descendants(descendants(p, 'w:pPr')[0]!, 'w:shd')[0]!.attributes['w:fill']}`,
  ]
    .filter(Boolean)
    .join(' ');
}
const looks = (body: XmlNode): string[] => body.children.filter((c) => c.name === 'w:p').map(look);

const png = (width: number, height: number): Uint8Array => new Uint8Array(PNG.sync.write(new PNG({ width, height })));
const EMU = 9525;

describe('publish: quotes and lists in Word', () => {
  it('in a quote every paragraph, heading and code block has the bar and the tint, a step further in per level', async () => {
    const body = await bodyOf('# T\n\n> ## 引题\n>\n> 段\n>\n> > 二层\n>\n> ```\n> c\n> ```\n>\n> ---\n');
    assert.deepEqual(looks(body), [
      'T style:Title',
      '引题 style:Heading2 indent:360 bar:A5D6A7 fill:F1F8E9',
      '段 indent:360 bar:A5D6A7 fill:F1F8E9',
      '二层 indent:720 bar:A5D6A7 fill:F1F8E9',
      'c indent:360 bar:A5D6A7 fill:F1F8E9',
      '∅ bar:BDBDBD',
    ]);
  });

  it('a list item that starts with another block has its number on a line of its own; what follows the first block is indented under it', async () => {
    const body = await bodyOf('- ```\n  c\n  ```\n\n  后段\n- 项\n\n  续段\n-\n');
    assert.deepEqual(looks(body), [
      '∅ level:0',
      'c indent:360 fill:F3F3F3',
      '后段 indent:360',
      '项 level:0',
      '续段 indent:360',
      '∅ level:0',
    ]);
  });

  it('each nested list a level deeper, to Word’s ninth level and no further; a list in a quote a level in', async () => {
    const deep = Array.from({ length: 11 }, (_, i) => `${'  '.repeat(i)}- ${i}`).join('\n');
    const levels = looks(await bodyOf(`${deep}\n`)).map((l) => /level:(\d)/.exec(l)?.[1]);
    assert.deepEqual(levels, ['0', '1', '2', '3', '4', '5', '6', '7', '8', '8', '8']);
    assert.deepEqual(looks(await bodyOf('> - 引中项\n')), ['引中项 level:1']);
  });
});

describe('publish: tables in Word', () => {
  /** Each row's cells: text, width (fiftieths of a percent), fill, bold. */
  const cells = (body: XmlNode): string[][] =>
    descendants(body, 'w:tr').map((tr) =>
      descendants(tr, 'w:tc').map((tc) => {
        const width = descendants(tc, 'w:tcW')[0]!.attributes;
        const fill = descendants(descendants(tc, 'w:tcPr')[0]!, 'w:shd')[0]?.attributes['w:fill'];
        const bold = descendants(tc, 'w:b').length > 0;
        const text = descendants(tc, 'w:t')
          .map((t) => t.text)
          .join('');
        return `${text || '∅'} ${width['w:w']}${width['w:type']}${fill ? ` ${fill}` : ''}${bold ? ' bold' : ''}`;
      }),
    );

  it('the header row is tinted and bold; every cell a share of the page’s width; a short row filled with empty cells', async () => {
    const body = await bodyOf('| 甲 | 乙 | 丙 |\n| --- | --- | --- |\n| 1 |\n');
    assert.deepEqual(cells(body), [
      ['甲 1666pct E8F5E9 bold', '乙 1666pct E8F5E9 bold', '丙 1666pct E8F5E9 bold'],
      ['1 1666pct', '∅ 1666pct', '∅ 1666pct'],
    ]);
  });

  it('a table of 64 columns is one of 63 and one of 1, each as wide as the page, parted by a paragraph', async () => {
    const n = 64;
    const row = (f: (i: number) => string): string => `| ${Array.from({ length: n }, (_, i) => f(i)).join(' | ')} |`;
    const body = await bodyOf(`${row((i) => `h${i}`)}\n${row(() => '-')}\n${row((i) => `v${i}`)}\n`);
    const tables = body.children.filter((c) => c.name === 'w:tbl');
    assert.equal(tables.length, 2);
    const widths = tables.map((t) => new Set(descendants(t, 'w:tcW').map((w) => w.attributes['w:w'])));
    assert.deepEqual(widths, [new Set([String(Math.floor(5000 / 63))]), new Set(['5000'])]);
    assert.deepEqual(
      body.children.slice(0, 3).map((c) => c.name),
      ['w:tbl', 'w:p', 'w:tbl'],
    );
    assert.deepEqual(cells(tables[1]!), [['h63 5000pct E8F5E9 bold'], ['v63 5000pct']]);
  });

  it('a table of 63 columns is one table, without a warning; a table of only a head is its header row', async () => {
    const row = (f: (i: number) => string): string => `| ${Array.from({ length: 63 }, (_, i) => f(i)).join(' | ')} |`;
    const r = await exported({ text: `${row((i) => `h${i}`)}\n${row(() => '-')}\n`, format: 'docx' });
    assert.deepEqual(r.warnings, []);
    const body = descendants(xmlTree((await docxParts(r.bytes)).get('word/document.xml')!), 'w:body')[0]!;
    assert.equal(descendants(body, 'w:tbl').length, 1);
    assert.equal(descendants(body, 'w:tr').length, 1);
    assert.equal(descendants(body, 'w:tblHeader').length, 1);
  });

  it('a link to a file in a header cell is bold text, not a link; a web link there is a link, bold too', async () => {
    const body = await bodyOf('| [说明](a.md) | [官网](https://a.cn) |\n| --- | --- |\n| x | y |\n');
    assert.equal(descendants(body, 'w:hyperlink').length, 1);
    assert.equal(descendants(descendants(body, 'w:hyperlink')[0]!, 'w:t')[0]!.text, '官网');
    assert.deepEqual(cells(body)[0], ['说明 2500pct E8F5E9 bold', '官网 2500pct E8F5E9 bold']);
  });

  it('a table follows a paragraph or a list directly; only a table right after a table is parted from it, by an empty paragraph', async () => {
    const body = await bodyOf('段\n\n| a |\n| - |\n| 1 |\n\n- 项\n\n| b |\n| - |\n| 2 |\n');
    assert.deepEqual(
      body.children.filter((c) => c.name !== 'w:sectPr').map((c) => (c.name === 'w:p' ? look(c) : c.name)),
      ['段', 'w:tbl', '项 level:0', 'w:tbl'],
    );
  });
});

describe('publish: links and pictures in Word', () => {
  it('a link to a file or a page anchor is its text, formatting kept; a web or mail link is a link', async () => {
    const body = await bodyOf(
      '[本地 **粗**](a.md) [锚](#x) [网](HTTPS://a.cn) [信](mailto:a@b.cn) [其他](ftp://a.cn) [站](http://b.cn) [查](a.md?u=https://a.cn)\n',
    );
    const p = body.children[0]!;
    assert.deepEqual(
      p.children.map(
        (c) =>
          `${c.name === 'w:hyperlink' ? 'link:' : ''}${descendants(c, 'w:t')
            .map((t) => t.text)
            .join('')}${descendants(c, 'w:b').length ? ' bold' : ''}`,
      ),
      ['本地 ', '粗 bold', ' ', '锚', ' ', 'link:网', ' ', 'link:信', ' ', '其他', ' ', 'link:站', ' ', '查'],
    );
  });

  it('a link’s text keeps its formatting, in the link style; a picture, a line break and a citation in it stay, inside the link', async () => {
    const body = await bodyOf('[![图](p.png) **粗** *斜* ~~删~~ `码`  \n据〔a.docx#1〕](https://a.cn)\n', {
      'p.png': png(4, 3),
    });
    const link = descendants(body, 'w:hyperlink')[0]!;
    assert.equal(descendants(link, 'w:drawing').length, 1, 'the picture');
    assert.equal(descendants(link, 'w:br').length, 1, 'the line break');
    assert.equal(descendants(link, 'w:footnoteReference').length, 1, 'the citation’s footnote');
    const runs = descendants(link, 'w:r').filter((r) => descendants(r, 'w:t').length);
    for (const r of runs) assert.equal(descendants(r, 'w:rStyle')[0]?.attributes['w:val'], 'Hyperlink');
    const props = (text: string): string[] => {
      const r = runs.find((x) => descendants(x, 'w:t')[0]!.text === text)!;
      return descendants(r, 'w:rPr')[0]!.children.map((c) => c.name);
    };
    assert.deepEqual(props('粗'), ['w:rStyle', 'w:b', 'w:bCs']);
    assert.deepEqual(props('斜'), ['w:rStyle', 'w:i', 'w:iCs']);
    assert.deepEqual(props('删'), ['w:rStyle', 'w:strike']);
    assert.deepEqual(props('码'), ['w:rStyle', 'w:rFonts', 'w:shd']);
  });

  it('a picture keeps its size up to the page’s width and height, never less than a pixel each way, its alt text as description and title, its title when it has one', async () => {
    const body = await bodyOf('![小图](s.png) ![](w.png "宽图") ![细](t.png) ![高](h.png)\n', {
      's.png': png(40, 30),
      'w.png': png(1200, 300),
      't.png': png(3000, 1),
      'h.png': png(1, 3000),
    });
    const pictures = descendants(body, 'w:drawing').map((d) => {
      const extent = descendants(d, 'wp:extent')[0]!.attributes;
      const doc = descendants(d, 'wp:docPr')[0]!.attributes;
      return [Number(extent.cx) / EMU, Number(extent.cy) / EMU, doc.name, doc.descr, doc.title];
    });
    assert.deepEqual(pictures, [
      [40, 30, '小图', '小图', '小图'],
      [600, 150, 'w.png', '', '宽图'],
      [600, 1, '细', '细', '细'],
      [1, Math.floor((16838 - 2 * 1440) / 15), '高', '高', '高'],
    ]);
  });

  it('a picture drawn twice is two drawings, each its own id', async () => {
    const body = await bodyOf('![长](l.jpg)\n\n![长](l.jpg)\n', { 'l.jpg': PHOTO });
    const ids = descendants(body, 'wp:docPr').map((d) => d.attributes.id);
    assert.deepEqual(ids, ['1', '2']);
  });
});
