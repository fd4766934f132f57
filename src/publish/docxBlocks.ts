/**
 * The blocks and inline runs of a bulletin as WordprocessingML paragraphs and tables (see
 * `wordml.ts`). References become what {@link DocxContext.reference} makes of them: a real
 * footnote, or a numbered mark of the references list. Pure.
 */
import type { Block, ImageMap, Inline, Note, PublishWarning } from './model';
import type { HouseStyle } from './docxStyles';
import {
  BREAK_RUN,
  hyperlink,
  paragraph,
  pictureRun,
  table,
  tableCell,
  TEXT_HEIGHT,
  tableRow,
  textRun,
  type ParaProps,
  type RunProps,
} from './wordml';

/** Widest picture, in pixels at 96 dpi: an A4 page's text width with 1-inch margins. */
const MAX_IMAGE_WIDTH = 600;
/** Tallest picture, in pixels at 96 dpi: the same page's text height (a taller one is cut off by the page). */
const MAX_IMAGE_HEIGHT = Math.floor(TEXT_HEIGHT / 15);
/** The most columns a Word table can have; a wider table is written as several, one below the other. */
const MAX_TABLE_COLUMNS = 63;
const CODE_FONT = { ascii: 'Consolas', eastAsia: 'Microsoft YaHei' };
const CODE_FILL = 'F3F3F3';
const INDENT = 360; // twips per list / quote level

/** What the block writer needs from the document writer. */
export interface DocxContext {
  style: HouseStyle;
  images: ImageMap;
  warnings: PublishWarning[];
  /** The run(s) standing for one reference to a note. */
  reference(note: Note): string;
  /** The numbering instance of one list (bullets, or numbers from `start`). */
  numbering(ordered: boolean, start: number): number;
  /** The relationship id of an external link. */
  link(href: string): string;
  /** The relationship id of an embedded picture, and a drawing id unique in the document. */
  picture(src: string): { rId: string; id: number };
  /** The official layout: a heading's number, written before its text. */
  headingNumber?(heading: Block): string;
  /** The official layout: the body's lines are a fixed pitch, which would cut a picture off. */
  fixedLines?: boolean;
  /** The largest picture, in pixels at 96 dpi: the page's text block (absent: an A4 page's with 1-inch margins). */
  pictureBox?: { width: number; height: number };
}

/** Paragraph-level options passed down into nested blocks. */
interface Frame {
  indent: number;
  quote: boolean;
}

/** Blocks → paragraphs and tables, appended to `out`. */
export function docxBlocks(
  blocks: readonly Block[],
  ctx: DocxContext,
  out: string[],
  frame: Frame = { indent: 0, quote: false },
): void {
  for (const b of blocks) docxBlock(b, ctx, out, frame);
}

/** Appends a table; Word and LibreOffice join two tables that touch into one, so a paragraph parts them as Word does. */
function pushTable(out: string[], xml: string): void {
  if (out[out.length - 1]?.endsWith('</w:tbl>')) out.push('<w:p/>');
  out.push(xml);
}

function docxBlock(b: Block, ctx: DocxContext, out: string[], frame: Frame): void {
  const framed: ParaProps = {
    ...(frame.quote ? { leftBorder: 'A5D6A7', shading: 'F1F8E9' } : {}),
    ...(frame.indent ? { indent: frame.indent } : {}),
  };
  switch (b.kind) {
    case 'heading': {
      const key = `heading${Math.min(Math.max(b.level, 1), 6)}` as `heading${1 | 2 | 3 | 4 | 5 | 6}`;
      const number = ctx.headingNumber?.(b);
      out.push(
        paragraph({ style: ctx.style.ids[key], ...framed }, (number ? textRun(number) : '') + runs(b.content, ctx)),
      );
      return;
    }
    case 'paragraph': {
      // a picture's paragraph grows with it where the lines are fixed
      const grows = ctx.fixedLines && b.content.some((x) => x.kind === 'image');
      out.push(
        paragraph(grows ? { ...framed, spacing: { after: 0, line: 240 }, flush: true } : framed, runs(b.content, ctx)),
      );
      return;
    }
    case 'quote':
      docxBlocks(b.blocks, ctx, out, { indent: frame.indent + INDENT, quote: true });
      return;
    case 'code': {
      const props: RunProps = { font: CODE_FONT, size: 19 };
      const lines = b.text.split('\n').map((line, i) => textRun(line, props, i > 0));
      out.push(paragraph({ shading: CODE_FILL, spacing: { before: 120, after: 120 }, ...framed }, lines.join('')));
      return;
    }
    case 'rule':
      out.push(paragraph({ bottomBorder: 'BDBDBD' }, ''));
      return;
    case 'list':
      list(b, ctx, out, frame);
      return;
    case 'table':
      docxTable(b, ctx, out);
      return;
  }
}

function list(b: Extract<Block, { kind: 'list' }>, ctx: DocxContext, out: string[], frame: Frame): void {
  const numbering = { numId: ctx.numbering(b.ordered, b.start), level: Math.min(frame.indent / INDENT, 8) };
  const inner = { ...frame, indent: frame.indent + INDENT };
  for (const item of b.items) {
    const [first, ...rest] = item;
    if (first?.kind === 'paragraph') out.push(paragraph({ numbering }, runs(first.content, ctx)));
    else {
      // an item that starts with another block (or is empty): its number on an empty line of its own
      out.push(paragraph({ numbering }, ''));
      if (first) docxBlock(first, ctx, out, inner);
    }
    for (const block of rest) docxBlock(block, ctx, out, inner);
  }
}

function docxTable(b: Extract<Block, { kind: 'table' }>, ctx: DocxContext, out: string[]): void {
  // markdown-it gives every row as many cells as the head (empty ones for a short row, none past the head)
  const columns = b.head.length;
  if (columns > MAX_TABLE_COLUMNS) ctx.warnings.push({ code: 'table-too-wide', line: b.line, columns });
  for (let from = 0; from < columns; from += MAX_TABLE_COLUMNS)
    pushTable(out, tablePart(b, ctx, from, Math.min(columns, from + MAX_TABLE_COLUMNS)));
}

/** The table's columns `from` to `to` (exclusive) as one Word table, the head's row first. */
function tablePart(b: Extract<Block, { kind: 'table' }>, ctx: DocxContext, from: number, to: number): string {
  const width = Math.floor(5000 / (to - from));
  const row = (cells: Inline[][], header: boolean): string => {
    let xml = '';
    for (let i = from; i < to; i++) {
      const align = b.align[i];
      const props = { ...(align ? { align } : {}), ...(ctx.fixedLines ? { flush: true } : {}) };
      const content = paragraph(props, runs(cells[i]!, ctx, header ? { bold: true } : {}));
      xml += tableCell(width, content, header ? 'E8F5E9' : undefined);
    }
    return tableRow(xml, header);
  };
  let rows = row(b.head, true);
  for (const r of b.rows) rows += row(r, false);
  return table(to - from, rows);
}

/**
 * Inline runs → the runs of a paragraph; `extra`: bold for a header cell's, the character style of
 * a link's text.
 */
export function runs(
  content: readonly Inline[],
  ctx: DocxContext,
  extra: { bold?: boolean; style?: string } = {},
): string {
  let out = '';
  for (const x of content) {
    switch (x.kind) {
      case 'text':
        out += textRun(x.text, {
          ...(extra.style ? { style: extra.style } : {}),
          bold: !!(x.marks.bold || extra.bold),
          italic: !!x.marks.italic,
          strike: !!x.marks.strike,
          ...(x.marks.code ? { font: CODE_FONT, shading: CODE_FILL } : {}),
        });
        break;
      case 'break':
        out += BREAK_RUN;
        break;
      case 'link':
        // a link's text, pictures and marks as anywhere else, in the house style's hyperlink style
        out += /^(?:https?:|mailto:)/i.test(x.href)
          ? hyperlink(ctx.link(x.href), runs(x.children, ctx, { ...extra, style: ctx.style.ids.hyperlink }))
          : runs(x.children, ctx, extra);
        break;
      case 'image':
        out += picture(x, ctx);
        break;
      case 'note':
        out += ctx.reference(x.note);
        break;
    }
  }
  return out;
}

function picture(x: Extract<Inline, { kind: 'image' }>, ctx: DocxContext): string {
  const img = ctx.images.get(x.src);
  if (!img) return ''; // the host reported it missing
  if (img.format === 'webp') return ''; // reported by the document writer
  // fitted into the page's text area, both ways, keeping the aspect
  const box = ctx.pictureBox ?? { width: MAX_IMAGE_WIDTH, height: MAX_IMAGE_HEIGHT };
  const scale = Math.min(1, box.width / img.width, box.height / img.height);
  const { rId, id } = ctx.picture(x.src);
  return pictureRun(
    rId,
    id,
    { width: Math.max(1, Math.round(img.width * scale)), height: Math.max(1, Math.round(img.height * scale)) },
    { name: x.alt || x.src, description: x.alt, title: x.title ?? x.alt },
  );
}
