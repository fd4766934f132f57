/**
 * The blocks and inline runs of a bulletin as Word paragraphs and tables (the `docx` package).
 * References become what {@link DocxContext.reference} makes of them: a real footnote, or a
 * numbered mark of the references list. Pure.
 */
import {
  AlignmentType,
  BorderStyle,
  ExternalHyperlink,
  ImageRun,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from 'docx';
import type { Align, Block, ImageMap, Inline, Note, PublishWarning } from './model';
import type { HouseStyle } from './docxStyles';

/** Widest picture, in pixels at 96 dpi: an A4 page's text width with docx's default margins. */
export const MAX_IMAGE_WIDTH = 600;
const CODE_FONT = { ascii: 'Consolas', hAnsi: 'Consolas', eastAsia: 'Microsoft YaHei' };
const INDENT = 360; // twips per list / quote level

/** What the block writer needs from the document writer. */
export interface DocxContext {
  style: HouseStyle;
  images: ImageMap;
  warnings: PublishWarning[];
  /** The run(s) standing for one reference to a note. */
  reference(note: Note): ParagraphChild[];
  /** The numbering reference of a list (bullets, or numbers from `start`). */
  numbering(ordered: boolean, start: number): { reference: string; instance: number };
}

/** Paragraph-level options passed down into nested blocks. */
interface Frame {
  indent: number;
  quote: boolean;
}

/** Blocks → paragraphs and tables. */
export function docxBlocks(
  blocks: readonly Block[],
  ctx: DocxContext,
  frame: Frame = { indent: 0, quote: false },
): (Paragraph | Table)[] {
  const out: (Paragraph | Table)[] = [];
  for (const b of blocks) out.push(...docxBlock(b, ctx, frame));
  return out;
}

function docxBlock(b: Block, ctx: DocxContext, frame: Frame): (Paragraph | Table)[] {
  const quote = frame.quote
    ? {
        border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'A5D6A7', space: 8 } },
        shading: { type: ShadingType.CLEAR, fill: 'F1F8E9', color: 'auto' },
      }
    : {};
  const indent = frame.indent ? { indent: { left: frame.indent } } : {};
  switch (b.kind) {
    case 'heading': {
      const key = `heading${Math.min(Math.max(b.level, 1), 6)}` as `heading${1 | 2 | 3 | 4 | 5 | 6}`;
      return [new Paragraph({ style: ctx.style.ids[key], children: runs(b.content, ctx), ...indent })];
    }
    case 'paragraph':
      return [new Paragraph({ children: runs(b.content, ctx), ...indent, ...quote })];
    case 'quote':
      return docxBlocks(b.blocks, ctx, { indent: frame.indent + INDENT, quote: true });
    case 'code': {
      const children = b.text
        .split('\n')
        .map((line, i) => new TextRun({ text: line, font: CODE_FONT, size: 19, ...(i > 0 ? { break: 1 } : {}) }));
      return [
        new Paragraph({
          children,
          shading: { type: ShadingType.CLEAR, fill: 'F3F3F3', color: 'auto' },
          spacing: { before: 120, after: 120 },
          ...indent,
        }),
      ];
    }
    case 'rule':
      return [
        new Paragraph({
          children: [],
          border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'BDBDBD', space: 1 } },
        }),
      ];
    case 'list':
      return list(b, ctx, frame);
    case 'table':
      return [table(b, ctx)];
  }
}

function list(b: Extract<Block, { kind: 'list' }>, ctx: DocxContext, frame: Frame): (Paragraph | Table)[] {
  const numbering = ctx.numbering(b.ordered, b.start);
  const level = Math.min(frame.indent / INDENT, 8);
  const out: (Paragraph | Table)[] = [];
  for (const item of b.items) {
    let first = true;
    for (const block of item) {
      if (block.kind === 'paragraph' && first) {
        out.push(new Paragraph({ children: runs(block.content, ctx), numbering: { ...numbering, level } }));
      } else if (first) {
        // an item that starts with another block: its number on an empty line of its own
        out.push(new Paragraph({ children: [], numbering: { ...numbering, level } }));
        out.push(...docxBlock(block, ctx, { ...frame, indent: frame.indent + INDENT }));
      } else out.push(...docxBlock(block, ctx, { ...frame, indent: frame.indent + INDENT }));
      first = false;
    }
    if (first) out.push(new Paragraph({ children: [], numbering: { ...numbering, level } }));
  }
  return out;
}

const ALIGN = { left: AlignmentType.LEFT, center: AlignmentType.CENTER, right: AlignmentType.RIGHT } as const;

function table(b: Extract<Block, { kind: 'table' }>, ctx: DocxContext): Table {
  const columns = Math.max(b.head.length, ...b.rows.map((r) => r.length), 1);
  const cell = (content: Inline[] | undefined, align: Align, header: boolean): TableCell =>
    new TableCell({
      children: [
        new Paragraph({
          children: runs(content ?? [], ctx, header ? { bold: true } : {}),
          ...(align ? { alignment: ALIGN[align] } : {}),
        }),
      ],
      ...(header ? { shading: { type: ShadingType.CLEAR, fill: 'E8F5E9', color: 'auto' } } : {}),
      margins: { top: 60, bottom: 60, left: 100, right: 100 },
    });
  const row = (cells: Inline[][], header: boolean): TableRow =>
    new TableRow({
      tableHeader: header,
      children: Array.from({ length: columns }, (_, i) => cell(cells[i], b.align[i], header)),
    });
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [...(b.head.length ? [row(b.head, true)] : []), ...b.rows.map((r) => row(r, false))],
  });
}

/** Inline runs → paragraph children. */
export function runs(content: readonly Inline[], ctx: DocxContext, extra: { bold?: boolean } = {}): ParagraphChild[] {
  const out: ParagraphChild[] = [];
  for (const x of content) {
    switch (x.kind) {
      case 'text':
        out.push(
          new TextRun({
            text: x.text,
            ...(x.marks.bold || extra.bold ? { bold: true } : {}),
            ...(x.marks.italic ? { italics: true } : {}),
            ...(x.marks.strike ? { strike: true } : {}),
            ...(x.marks.code
              ? { font: CODE_FONT, shading: { type: ShadingType.CLEAR, fill: 'F3F3F3', color: 'auto' } }
              : {}),
          }),
        );
        break;
      case 'break':
        out.push(new TextRun({ text: '', break: 1 }));
        break;
      case 'link':
        if (/^(?:https?:|mailto:)/i.test(x.href))
          out.push(new ExternalHyperlink({ link: x.href, children: styled(x.children, ctx) }));
        else out.push(...runs(x.children, ctx, extra));
        break;
      case 'image': {
        const img = image(x, ctx);
        if (img) out.push(img);
        break;
      }
      case 'note':
        out.push(...ctx.reference(x.note));
        break;
    }
  }
  return out;
}

/** A link's text runs, in the house style's hyperlink style. */
function styled(content: readonly Inline[], ctx: DocxContext): TextRun[] {
  const out: TextRun[] = [];
  for (const x of content)
    if (x.kind === 'text')
      out.push(
        new TextRun({
          text: x.text,
          style: ctx.style.ids.hyperlink,
          ...(x.marks.bold ? { bold: true } : {}),
          ...(x.marks.italic ? { italics: true } : {}),
        }),
      );
  return out;
}

function image(x: Extract<Inline, { kind: 'image' }>, ctx: DocxContext): ImageRun | undefined {
  const img = ctx.images.get(x.src);
  if (!img) return undefined; // the host reported it missing
  if (img.format === 'webp') return undefined; // reported by the document writer
  const scale = img.width > MAX_IMAGE_WIDTH ? MAX_IMAGE_WIDTH / img.width : 1;
  return new ImageRun({
    type: img.format === 'jpeg' ? 'jpg' : img.format,
    data: img.bytes,
    transformation: {
      width: Math.max(1, Math.round(img.width * scale)),
      height: Math.max(1, Math.round(img.height * scale)),
    },
    altText: { name: x.alt || x.src, description: x.alt, title: x.title ?? x.alt },
  });
}
