/**
 * The official layout's closing block (版记) in WordprocessingML, on a page of its own at the end:
 * the body's section ends in its last paragraph, and the closing block is the last section, which
 * starts on an even page, puts its text at the bottom of the text block and has footers without a
 * page number (GB/T 9704-2012 7.4, 7.5). Pure.
 */
import { XML_DECLARATION, W_NAMESPACES } from './wordml';
import { para, rightTab, runIn, SMALL_SIZE, TAB } from './docxOfficial';
import type { OfficialLayout } from './layout';

/** The closing block's outer and inner rules (0.35 mm, 0.25 mm), in eighths of a point. */
const OUTER_RULE = 8;
const INNER_RULE = 6;

/** The space between a rule and the text it is drawn by, in points (`w:space`). */
const RULE_SPACE = 1;
/** What the closing block stops short of the text block's bottom, in twips: rounding in a reader must not push it onto a page of its own. */
const SLACK = 20;

/** A line of the closing block, and its rule below (the first line's above too). */
interface ClosingLine {
  runs: string;
  tab: boolean;
  /** Its text's width in twips, at most: a character a full 4号 em, any other half of one. */
  width: number;
}

/** The widest `text` can be in the closing block's size, in twips. */
function widthOf(text: string): number {
  let w = 0;
  for (const ch of text) w += /[\u2e80-\uffef]/.test(ch) ? SMALL_SIZE * 10 : SMALL_SIZE * 5;
  return w;
}

/** The closing block's lines: 抄送, then the printing body left and the date right. */
function closingLines(layout: OfficialLayout): ClosingLine[] {
  const c = layout.closing;
  if (!c) return [];
  const run = runIn(layout.fonts);
  const p = { size: SMALL_SIZE };
  const lines: ClosingLine[] = [];
  if (c.cc) {
    const text = `抄送：${c.cc.join('，')}。`;
    lines.push({ runs: run(text, 'fangsong', p), tab: false, width: widthOf(text) });
  }
  if (c.printedBy || c.printedOn) {
    const on = c.printedOn ? `${c.printedOn}印发` : '';
    lines.push({
      runs: (c.printedBy ? run(c.printedBy, 'fangsong', p) : '') + (on ? TAB + run(on, 'fangsong', p) : ''),
      tab: true,
      // at least a character's gap between the two
      width: widthOf(c.printedBy ?? '') + (on ? SMALL_SIZE * 10 + widthOf(on) : 0),
    });
  }
  return lines;
}

/**
 * The space above the closing block that brings its last rule to the bottom of the text block, in
 * twips: the text block's height less the block's (each line at the fixed pitch, each rule with
 * its space), less a little slack. Word puts the block at the bottom by the section's vertical
 * alignment anyway; LibreOffice, which ignores that, by this space.
 */
export function closingSpace(layout: OfficialLayout, lines: readonly Pick<ClosingLine, 'width'>[]): number {
  const { page } = layout;
  const measure = page.width - page.margins.left - page.margins.right - 2 * SMALL_SIZE * 10;
  const rule = (sz: number): number => RULE_SPACE * 20 + sz * 2.5;
  let height = lines.length ? rule(OUTER_RULE) : 0;
  lines.forEach((l, i) => {
    const wrapped = Math.max(1, Math.ceil(l.width / measure));
    height += wrapped * page.linePitch + rule(i === lines.length - 1 ? OUTER_RULE : INNER_RULE);
  });
  const textHeight = page.height - page.margins.top - page.margins.bottom;
  return Math.max(0, Math.floor(textHeight - height - SLACK));
}

/**
 * 抄送 and 印发 between rules, in 4号 仿宋, one character in on each side (7.4), the last rule at the
 * bottom of the text block.
 */
export function closingBlock(layout: OfficialLayout): string[] {
  const lines = closingLines(layout);
  const oneChar = SMALL_SIZE * 10;
  const border = (side: string, sz: number): string =>
    `<w:${side} w:val="single" w:sz="${sz}" w:space="${RULE_SPACE}" w:color="000000"/>`;
  const space = closingSpace(layout, lines);
  return lines.map((l, i) => {
    const top = i === 0 ? border('top', OUTER_RULE) : '';
    const bottom = border('bottom', i === lines.length - 1 ? OUTER_RULE : INNER_RULE);
    const before = i === 0 ? `<w:spacing w:before="${space}"/>` : '';
    return para(
      `<w:pBdr>${top}${bottom}</w:pBdr>${l.tab ? rightTab(layout.page, 2 * oneChar) : ''}${before}` +
        `<w:ind w:left="${oneChar}" w:right="${oneChar}" w:firstLineChars="0" w:firstLine="0"/>`,
      l.runs,
    );
  });
}

/** A footer with nothing in it: the closing block's page, and the blank page before it, carry no number. */
export function blankFooterXml(): string {
  return `${XML_DECLARATION}<w:ftr ${W_NAMESPACES}><w:p><w:pPr><w:spacing w:line="240" w:lineRule="auto"/></w:pPr></w:p></w:ftr>`;
}

/**
 * Ends a section after `blocks` with its properties `sectPr`: in the last paragraph's properties,
 * where Word keeps them; after a table (or nothing), in a paragraph of its own.
 */
export function endSection(blocks: string[], sectPr: string): void {
  const last = blocks.length - 1;
  const p = blocks[last];
  if (p?.startsWith('<w:p><w:pPr>')) blocks[last] = p.replace('</w:pPr>', `${sectPr}</w:pPr>`);
  else if (p?.startsWith('<w:p>')) blocks[last] = `<w:p><w:pPr>${sectPr}</w:pPr>${p.slice('<w:p>'.length)}`;
  else blocks.push(`<w:p><w:pPr>${sectPr}</w:pPr></w:p>`);
}
