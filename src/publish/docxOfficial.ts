/**
 * The official layout (`layout.ts`) in WordprocessingML: its styles, font table, section, footers
 * with the page number, the masthead and title above the body, and the attachments, signature and
 * closing block below it. Sizes are in half-points, lengths in twips, borders in eighths of a
 * point. Pure.
 */
import { esc, textRun, W_NAMESPACES, XML_DECLARATION, type RunProps } from './wordml';
import { DEFAULT_IDS, type AddedStyle } from './docxStyles';
import {
  FONTS,
  mmToTwips,
  type FontKey,
  type LayoutFont,
  type LayoutFonts,
  type OfficialLayout,
  type PageSetup,
} from './layout';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
/** The masthead's red (GB/T 9704-2012 7.2.3: the issuing body's mark in red). */
export const RED = 'FF0000';
/** The title: 2号 (22 pt), 小标宋 (7.3.1). */
const TITLE_SIZE = 44;
/** The masthead's name: 小标宋 in red; its size is the station's choice (the standard sets none), here 36 pt. */
const MASTHEAD_SIZE = 72;
/** The closing block and the page numbers: 4号 (14 pt) (7.4.1, 7.5). */
export const SMALL_SIZE = 28;
/** The red rule under the masthead. */
const RED_RULE = 12;

/** What writes a run in one of the layout's fonts. */
export function runIn(fonts: LayoutFonts) {
  return (text: string, font: FontKey, p: Omit<RunProps, 'font'> = {}): string =>
    textRun(text, { font: { ascii: fonts[font].name, eastAsia: fonts[font].name }, ...p });
}

/** The width of the text block. */
function textWidth(page: PageSetup): number {
  return page.width - page.margins.left - page.margins.right;
}

/** A paragraph with `w:pPr` children written as given (in schema order by the caller). */
export function para(pPr: string, runs: string): string {
  return `<w:p><w:pPr>${pPr}</w:pPr>${runs}</w:p>`;
}

const NO_INDENT = '<w:ind w:firstLineChars="0" w:firstLine="0"/>';

/** `w:rFonts` naming one of the layout's fonts for every script. */
function rFonts(font: FontKey, fonts: LayoutFonts): string {
  const f = esc(fonts[font].name);
  return `<w:rFonts w:ascii="${f}" w:hAnsi="${f}" w:eastAsia="${f}" w:cs="${f}"/>`;
}

/** The font table: each font with what may stand in for it (`w:altName`), GB2312 and its family. */
export function fontTableXml(fonts: LayoutFonts = FONTS): string {
  // one entry a name, the first part's: two parts may share a station's font
  const named = new Map<string, LayoutFont>();
  for (const f of Object.values(fonts)) if (!named.has(f.name)) named.set(f.name, f);
  const entries = [...named.values()].map(
    (f) =>
      `<w:font w:name="${esc(f.name)}">${f.altName ? `<w:altName w:val="${esc(f.altName)}"/>` : ''}` +
      `<w:charset w:val="${f.charset}"/><w:family w:val="${f.family}"/></w:font>`,
  );
  return `${XML_DECLARATION}<w:fonts ${W}>${entries.join('')}</w:fonts>`;
}

const size = (hp: number): string => `<w:sz w:val="${hp}"/><w:szCs w:val="${hp}"/>`;

/** The fonts of the heading styles, `#` to `######`: `##` is 一、 in 黑体, `###` （一） in 楷体, the rest 仿宋. */
const HEADING_FONTS: readonly FontKey[] = ['heiti', 'heiti', 'kaiti', 'fangsong', 'fangsong', 'fangsong'];

/**
 * The official look of the title or a heading style, under the id `id`: the title in 小标宋 二号
 * centred, the headings in their level's font at the body's size. `added`: for a style added to
 * a template's styles.xml, the namespace declaration it carries and the template's default
 * paragraph style it is based on. `fonts`: the layout's.
 */
export function officialStyle(
  key: 'title' | `heading${1 | 2 | 3 | 4 | 5 | 6}`,
  id: string,
  page: PageSetup,
  added?: { decl: string; base: string | undefined },
  fonts: LayoutFonts = FONTS,
): string {
  const level = key === 'title' ? 0 : Number(key.slice('heading'.length));
  const name = level ? `heading ${level}` : 'Title';
  const pPr = level ? `<w:keepNext/><w:outlineLvl w:val="${level - 1}"/>` : `${NO_INDENT}<w:jc w:val="center"/>`;
  const rPr = level
    ? `${rFonts(HEADING_FONTS[level - 1]!, fonts)}${size(page.bodySize)}`
    : `${rFonts('xiaobiaosong', fonts)}${size(TITLE_SIZE)}`;
  return (
    `<w:style${added ? ` ${added.decl}` : ''} w:type="paragraph" w:styleId="${esc(id)}"><w:name w:val="${name}"/>` +
    (added ? (added.base ? `<w:basedOn w:val="${esc(added.base)}"/>` : '') : '<w:basedOn w:val="Normal"/>') +
    `<w:next w:val="Normal"/><w:qFormat/><w:pPr>${pPr}</w:pPr><w:rPr>${rPr}</w:rPr></w:style>`
  );
}

/** What a template that lacks the title or a heading style gets: the official look (links keep Word's). */
export function officialAddedStyle(page: PageSetup, fonts: LayoutFonts = FONTS): AddedStyle {
  return (key, id, defaults) =>
    key === 'title' || key.startsWith('heading')
      ? officialStyle(key as 'title', id, page, { decl: W, base: defaults.paragraph }, fonts)
      : undefined;
}

/** The styles of the official layout: 仿宋 三号 body at the fixed line pitch, the title, headings by level, links, footnotes. */
export function officialStylesXml(page: PageSetup, fonts: LayoutFonts = FONTS): string {
  const ids = DEFAULT_IDS;
  // 28 characters on a line: each one a little narrower than its size, so that 28 fit the text block's
  // width in any renderer (Word's character grid does the same, but LibreOffice then gives a character
  // two grid cells)
  const condensed = `<w:spacing w:val="${page.charPitch - page.bodySize * 10}"/>`;
  const headings = ([1, 2, 3, 4, 5, 6] as const)
    .map((n) => officialStyle(`heading${n}`, ids[`heading${n}`], page, undefined, fonts))
    .join('');
  return (
    `${XML_DECLARATION}<w:styles ${W}>` +
    `<w:docDefaults><w:rPrDefault><w:rPr>${rFonts('fangsong', fonts)}<w:color w:val="000000"/>${condensed}${size(page.bodySize)}</w:rPr></w:rPrDefault>` +
    `<w:pPrDefault><w:pPr><w:spacing w:before="0" w:after="0" w:line="${page.linePitch}" w:lineRule="exact"/></w:pPr></w:pPrDefault></w:docDefaults>` +
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/>' +
    `<w:pPr><w:ind w:firstLineChars="${page.firstLineChars * 100}" w:firstLine="${page.firstLineChars * page.bodySize * 10}"/><w:jc w:val="both"/></w:pPr>` +
    `<w:rPr>${rFonts('fangsong', fonts)}${condensed}${size(page.bodySize)}</w:rPr></w:style>` +
    '<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/><w:unhideWhenUsed/></w:style>' +
    officialStyle('title', ids.title, page, undefined, fonts) +
    headings +
    `<w:style w:type="character" w:styleId="${ids.hyperlink}"><w:name w:val="Hyperlink"/><w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>` +
    `<w:style w:type="character" w:styleId="${ids.footnoteReference}"><w:name w:val="footnote reference"/><w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>` +
    `<w:style w:type="paragraph" w:styleId="${ids.footnoteText}"><w:name w:val="footnote text"/><w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/>` +
    `<w:pPr><w:spacing w:line="240" w:lineRule="auto"/>${NO_INDENT}</w:pPr><w:rPr>${size(SMALL_SIZE - 4)}</w:rPr></w:style>` +
    '</w:styles>'
  );
}

/** The relationship ids the section names its footers by. */
export interface FooterIds {
  odd: string;
  even: string;
}

/**
 * The section: A4, the standard's margins, the line grid at the fixed pitch, the footers. `closing`:
 * the closing block's section, which starts on the next even page (an odd page left blank before
 * it where the body ends on an even one) and puts its text at the bottom of the text block.
 */
export function officialSectionXml(page: PageSetup, footers: FooterIds, closing = false): string {
  const m = page.margins;
  // the page number's line ends 7 mm below the text block (7.5): the footer's bottom is its height above that
  const footer = mmToTwips(35 - 7) - SMALL_SIZE * 10;
  return (
    `<w:sectPr><w:footerReference w:type="default" r:id="${footers.odd}"/><w:footerReference w:type="even" r:id="${footers.even}"/>` +
    (closing ? '<w:type w:val="evenPage"/>' : '') +
    `<w:pgSz w:w="${page.width}" w:h="${page.height}"/>` +
    `<w:pgMar w:top="${m.top}" w:right="${m.right}" w:bottom="${m.bottom}" w:left="${m.left}" w:header="851" w:footer="${footer}" w:gutter="0"/>` +
    '<w:cols w:space="425"/>' +
    // no line grid under the closing block: LibreOffice would move its first line down to a grid line
    (closing
      ? '<w:vAlign w:val="bottom"/></w:sectPr>'
      : `<w:docGrid w:type="lines" w:linePitch="${page.linePitch}"/></w:sectPr>`)
  );
}

/** A footer with the page number as `— 1 —` in 宋体 4号: right one character in on odd pages, left on even ones. */
export function footerXml(side: 'odd' | 'even', fonts: LayoutFonts = FONTS): string {
  const run = runIn(fonts);
  const p = { size: SMALL_SIZE };
  const fld = (type: string): string =>
    `<w:r><w:rPr>${rFonts('songti', fonts)}<w:sz w:val="${SMALL_SIZE}"/><w:szCs w:val="${SMALL_SIZE}"/></w:rPr><w:fldChar w:fldCharType="${type}"/></w:r>`;
  const instr = `<w:r><w:rPr>${rFonts('songti', fonts)}<w:sz w:val="${SMALL_SIZE}"/><w:szCs w:val="${SMALL_SIZE}"/></w:rPr><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>`;
  const oneChar = SMALL_SIZE * 10;
  const ind = side === 'odd' ? `w:right="${oneChar}"` : `w:left="${oneChar}"`;
  const pPr =
    '<w:spacing w:line="240" w:lineRule="auto"/>' +
    `<w:ind ${ind} w:firstLineChars="0" w:firstLine="0"/><w:jc w:val="${side === 'odd' ? 'right' : 'left'}"/>`;
  const runs =
    run('— ', 'songti', p) +
    fld('begin') +
    instr +
    fld('separate') +
    run('1', 'songti', p) +
    fld('end') +
    run(' —', 'songti', p);
  return `${XML_DECLARATION}<w:ftr ${W_NAMESPACES}>${para(pPr, runs)}</w:ftr>`;
}

/** A right tab stop at the text block's right edge (less `inset`). */
export function rightTab(page: PageSetup, inset = 0): string {
  return `<w:tabs><w:tab w:val="right" w:pos="${textWidth(page) - inset}"/></w:tabs>`;
}

export const TAB = '<w:r><w:tab/></w:r>';

/** The masthead, the title and the recipient line: what comes above the body. */
export function officialHead(layout: OfficialLayout, titleStyle: string): string[] {
  const { page, masthead: mh } = layout;
  const run = runIn(layout.fonts);
  const lines: { pPr: (rule: string) => string; runs: string }[] = [];
  if (mh?.name)
    lines.push({
      // its top 35 mm below the top of the text block (7.2.3)
      pPr: (rule) =>
        `${rule}<w:spacing w:before="${mmToTwips(35)}" w:line="240" w:lineRule="auto"/>${NO_INDENT}<w:jc w:val="center"/>`,
      runs: run(mh.name, 'xiaobiaosong', { color: RED, size: MASTHEAD_SIZE }),
    });
  const gap = lines.length ? ` w:before="${2 * page.linePitch}"` : '';
  if (mh?.form === 'upward' && (mh.issue || mh.signer))
    lines.push({
      pPr: (rule) => `${rule}${rightTab(page)}<w:spacing${gap}/>${NO_INDENT}`,
      runs:
        (mh.issue ? run(mh.issue, 'fangsong') : '') +
        (mh.signer ? TAB + run('签发人：', 'fangsong') + run(mh.signer, 'kaiti') : ''),
    });
  if (mh?.form === 'bulletin' && mh.issue)
    lines.push({
      pPr: (rule) => `${rule}<w:spacing${gap}/>${NO_INDENT}<w:jc w:val="center"/>`,
      runs: run(mh.issue, 'fangsong'),
    });
  if (mh?.form === 'bulletin' && (mh.issuer || mh.date))
    lines.push({
      pPr: (rule) => `${rule}${rightTab(page)}${NO_INDENT}`,
      runs: (mh.issuer ? run(mh.issuer, 'fangsong') : '') + (mh.date ? TAB + run(mh.date, 'fangsong') : ''),
    });
  // the red rule the width of the text block, 4 mm below the last line of the masthead (7.2.5)
  const rule = `<w:pBdr><w:bottom w:val="single" w:sz="${RED_RULE}" w:space="11" w:color="${RED}"/></w:pBdr>`;
  const out = lines.map((l, i) => para(l.pPr(i === lines.length - 1 ? rule : ''), l.runs));
  if (layout.title) {
    const before = out.length ? `<w:spacing w:before="${2 * page.linePitch}"/>` : '';
    out.push(para(`<w:pStyle w:val="${esc(titleStyle)}"/>${before}`, textRun(layout.title)));
  }
  if (layout.recipient) out.push(para(NO_INDENT, run(layout.recipient, 'fangsong')));
  return out;
}

/** The attachments and the signature: what comes below the body (the closing block has its own page: `docxClosing.ts`). */
export function officialEnd(layout: OfficialLayout): string[] {
  const { page } = layout;
  const run = runIn(layout.fonts);
  const out: string[] = [];
  const list = layout.attachments ?? [];
  list.forEach((name, i) => {
    const text = (list.length > 1 ? `${i + 1}.` : '') + name;
    // 附件： one line below the body, two characters in; the next names under the first
    if (i === 0) out.push(para(`<w:spacing w:before="${page.linePitch}"/>`, run(`附件：${text}`, 'fangsong')));
    else
      out.push(
        para(
          `<w:ind w:leftChars="500" w:left="${5 * page.charPitch}" w:firstLineChars="0" w:firstLine="0"/>`,
          run(text, 'fangsong'),
        ),
      );
  });
  const sig = layout.signature;
  const sigLines = [sig?.issuer, sig?.date].filter((s): s is string => !!s);
  sigLines.forEach((s, i) => {
    const before = i === 0 ? `<w:spacing w:before="${2 * page.linePitch}"/>` : '';
    // right-aligned, four characters in from the right edge
    const ind = `<w:ind w:rightChars="400" w:right="${4 * page.charPitch}" w:firstLineChars="0" w:firstLine="0"/>`;
    out.push(para(`${before}${ind}<w:jc w:val="right"/>`, run(s, 'fangsong')));
  });
  return out;
}
