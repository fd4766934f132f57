/**
 * WordprocessingML (ECMA-376 Part 1) written as text: runs, paragraphs, table cells and pictures,
 * with their properties in the order the schema fixes (Word refuses a file whose `w:rPr` or
 * `w:pPr` children are out of order). Every text and attribute value passes through {@link esc}.
 * Pure; no XML library, so that a 10,000-line bulletin is written in tens of milliseconds.
 */

/** Escapes text and attribute values; drops the characters XML 1.0 cannot hold. */
export function esc(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[<>&"]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : c === '"' ? '&quot;' : '',
  );
}

/** The namespaces of the main document, its footnotes and its numbering. */
export const W_NAMESPACES =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ' +
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

/** A border or a shading colour, as hex RGB. */
type Hex = string;

/** Character formatting (`w:rPr`). */
export interface RunProps {
  style?: string;
  font?: { ascii: string; eastAsia: string };
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  color?: Hex;
  /** Half-points. */
  size?: number;
  shading?: Hex;
  superscript?: boolean;
}

/** `w:rPr`, children in schema order (rStyle, rFonts, b, bCs, i, iCs, strike, color, sz, szCs, shd, vertAlign). */
function rPr(p: RunProps): string {
  let s = '';
  if (p.style) s += `<w:rStyle w:val="${esc(p.style)}"/>`;
  if (p.font) {
    const f = esc(p.font.ascii);
    s += `<w:rFonts w:ascii="${f}" w:hAnsi="${f}" w:eastAsia="${esc(p.font.eastAsia)}"/>`;
  }
  if (p.bold) s += '<w:b/><w:bCs/>';
  if (p.italic) s += '<w:i/><w:iCs/>';
  if (p.strike) s += '<w:strike/>';
  if (p.color) s += `<w:color w:val="${p.color}"/>`;
  if (p.size) s += `<w:sz w:val="${p.size}"/><w:szCs w:val="${p.size}"/>`;
  if (p.shading) s += shd(p.shading);
  if (p.superscript) s += '<w:vertAlign w:val="superscript"/>';
  return s ? `<w:rPr>${s}</w:rPr>` : '';
}

/** A run of text (`w:r`); `breakBefore` starts it on a new line. */
export function textRun(text: string, p: RunProps = {}, breakBefore = false): string {
  return `<w:r>${rPr(p)}${breakBefore ? '<w:br/>' : ''}<w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
}

/** A line break inside a paragraph. */
export const BREAK_RUN = '<w:r><w:br/></w:r>';

/** A reference mark to footnote `id`. */
export function footnoteReference(id: number, style: string): string {
  return `<w:r>${rPr({ style })}<w:footnoteReference w:id="${id}"/></w:r>`;
}

/** The footnote's own number at the start of its text. */
export function footnoteRef(style: string): string {
  return `<w:r>${rPr({ style })}<w:footnoteRef/></w:r>`;
}

/** A hyperlink to the relationship `rId` around its runs. */
export function hyperlink(rId: string, runsXml: string): string {
  return `<w:hyperlink r:id="${rId}" w:history="1">${runsXml}</w:hyperlink>`;
}

/** Paragraph formatting (`w:pPr`). */
export interface ParaProps {
  style?: string;
  numbering?: { numId: number; level: number };
  /** A border below (a thematic break). */
  bottomBorder?: Hex;
  /** A bar on the left (a quote). */
  leftBorder?: Hex;
  shading?: Hex;
  /** Twips; `line`: a line's height in 240ths of a line (`auto`). */
  spacing?: { before?: number; after: number; line?: number };
  /** Twips. */
  indent?: number;
  /** No first-line indent, whatever the style says (a table cell's, a picture's paragraph in the official layout). */
  flush?: boolean;
  align?: 'left' | 'center' | 'right';
}

/** `w:pPr`, children in schema order (pStyle, numPr, pBdr, shd, spacing, ind, jc). */
function pPr(p: ParaProps): string {
  let s = '';
  if (p.style) s += `<w:pStyle w:val="${esc(p.style)}"/>`;
  if (p.numbering)
    s += `<w:numPr><w:ilvl w:val="${p.numbering.level}"/><w:numId w:val="${p.numbering.numId}"/></w:numPr>`;
  if (p.leftBorder || p.bottomBorder)
    s +=
      '<w:pBdr>' +
      (p.leftBorder ? `<w:left w:val="single" w:sz="12" w:space="8" w:color="${p.leftBorder}"/>` : '') +
      (p.bottomBorder ? `<w:bottom w:val="single" w:sz="6" w:space="1" w:color="${p.bottomBorder}"/>` : '') +
      '</w:pBdr>';
  if (p.shading) s += shd(p.shading);
  if (p.spacing)
    s +=
      '<w:spacing' +
      (p.spacing.before !== undefined ? ` w:before="${p.spacing.before}"` : '') +
      ` w:after="${p.spacing.after}"` +
      (p.spacing.line !== undefined ? ` w:line="${p.spacing.line}" w:lineRule="auto"` : '') +
      '/>';
  if (p.indent || p.flush)
    s += `<w:ind${p.indent ? ` w:left="${p.indent}"` : ''}${p.flush ? ' w:firstLineChars="0" w:firstLine="0"' : ''}/>`;
  if (p.align) s += `<w:jc w:val="${p.align}"/>`;
  return s ? `<w:pPr>${s}</w:pPr>` : '';
}

/** A paragraph of runs. */
export function paragraph(p: ParaProps, runsXml: string): string {
  return `<w:p>${pPr(p)}${runsXml}</w:p>`;
}

function shd(fill: Hex): string {
  return `<w:shd w:val="clear" w:color="auto" w:fill="${fill}"/>`;
}

/** EMUs per pixel at 96 dpi. */
const EMU_PER_PX = 9525;

/** An inline picture (`w:drawing`) of the image relationship `rId`, `width` × `height` pixels. */
export function pictureRun(
  rId: string,
  id: number,
  size: { width: number; height: number },
  text: { name: string; description: string; title: string },
): string {
  const cx = size.width * EMU_PER_PX;
  const cy = size.height * EMU_PER_PX;
  return (
    '<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0">' +
    `<wp:extent cx="${cx}" cy="${cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/>` +
    `<wp:docPr id="${id}" name="${esc(text.name)}" descr="${esc(text.description)}" title="${esc(text.title)}"/>` +
    '<wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr>' +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
    `<pic:nvPicPr><pic:cNvPr id="${id}" name="${esc(text.name)}"/><pic:cNvPicPr><a:picLocks noChangeAspect="1"/></pic:cNvPicPr></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="${rId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>'
  );
}

/** A table cell (`w:tc`) holding paragraphs; `shading` fills it. */
export function tableCell(width: number, paragraphsXml: string, shading?: Hex): string {
  return (
    `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="pct"/>${shading ? shd(shading) : ''}` +
    '<w:tcMar><w:top w:w="60" w:type="dxa"/><w:left w:w="100" w:type="dxa"/>' +
    '<w:bottom w:w="60" w:type="dxa"/><w:right w:w="100" w:type="dxa"/></w:tcMar></w:tcPr>' +
    `${paragraphsXml}</w:tc>`
  );
}

/** The text width of an A4 page with 1-inch margins, in twips (the section below writes those). */
const TEXT_WIDTH = 11906 - 2 * 1440;
/** The text height of the same page, in twips. */
export const TEXT_HEIGHT = 16838 - 2 * 1440;

/** A table of the page's full width with `columns` equal columns, single borders, and its rows. */
export function table(columns: number, rowsXml: string): string {
  const borders = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV']
    .map((side) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="auto"/>`)
    .join('');
  return (
    `<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblBorders>${borders}</w:tblBorders>` +
    '<w:tblLayout w:type="autofit"/></w:tblPr>' +
    `<w:tblGrid>${`<w:gridCol w:w="${Math.floor(TEXT_WIDTH / columns)}"/>`.repeat(columns)}</w:tblGrid>${rowsXml}</w:tbl>`
  );
}

/** A table row; a header row repeats at the top of each page. */
export function tableRow(cellsXml: string, header: boolean): string {
  return `<w:tr>${header ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${cellsXml}</w:tr>`;
}
