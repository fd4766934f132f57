/**
 * A bulletin as a Word document (`.docx`, through the `docx` package): a title block and the
 * front matter as document properties, the body, and every reference to a citation or an author
 * footnote as a real Word footnote (`word/footnotes.xml`, one per reference, numbered by Word) —
 * or, with `citations: 'list'`, citations as numbered marks of a references list at the end
 * (author footnotes stay footnotes). Pure.
 */
import {
  AlignmentType,
  Document,
  FootnoteReferenceRun,
  LevelFormat,
  LineRuleType,
  Packer,
  Paragraph,
  TextRun,
  type ParagraphChild,
} from 'docx';
import { wordsOf } from '../bulletin/text';
import { docxBlocks, MAX_IMAGE_WIDTH, runs, type DocxContext } from './docxBlocks';
import { DEFAULT_STYLE, type HouseStyle } from './docxStyles';
import {
  bodyBelowTitle,
  readerForm,
  type Block,
  type Inline,
  type ImageMap,
  type Note,
  type PublishDocument,
  type PublishWarning,
} from './model';

/** How to write. */
export interface DocxOptions {
  /** `footnotes` (default): Word footnotes; `list`: a numbered references list. */
  citations?: 'footnotes' | 'list';
  /** A house style read from a template (`readTemplate`); docx's defaults without. */
  style?: HouseStyle;
  images: ImageMap;
  /** The time written as the document's modification time (the clock is the caller's). */
  now: Date;
}

/** What was written. */
export interface DocxResult {
  bytes: Uint8Array;
  /** Word footnotes written (one per reference). */
  footnotes: number;
  /** Entries of the references list (`citations: 'list'`). */
  listed: number;
  warnings: PublishWarning[];
}

export { MAX_IMAGE_WIDTH };

/** Writes the document. */
export async function writeDocx(doc: PublishDocument, options: DocxOptions): Promise<DocxResult> {
  const style = options.style ?? DEFAULT_STYLE;
  const warnings: PublishWarning[] = [];
  const footnotes: Record<number, { children: Paragraph[] }> = {};
  const listed: Note[] = [];
  const listNumber = new Map<string, number>();
  const numberingConfig: { reference: string; start: number; ordered: boolean }[] = [];
  let instances = 0;

  const ctx: DocxContext = {
    style,
    images: options.images,
    warnings,
    reference(note: Note): ParagraphChild[] {
      if (options.citations === 'list' && note.kind !== 'author') {
        const key = readerForm(note);
        let n = listNumber.get(key);
        if (n === undefined) {
          listed.push(note);
          n = listed.length;
          listNumber.set(key, n);
        }
        return [new TextRun({ text: `[${n}]`, superScript: true })];
      }
      const id = Object.keys(footnotes).length + 1;
      footnotes[id] = { children: noteParagraphs(note, ctx) };
      return [new FootnoteReferenceRun(id)];
    },
    numbering(ordered: boolean, start: number) {
      const reference = ordered ? `sn-ordered-${start}` : 'sn-bullet';
      if (!numberingConfig.some((c) => c.reference === reference)) numberingConfig.push({ reference, start, ordered });
      return { reference, instance: ++instances };
    },
  };

  const words = wordsOf(doc.lang);
  const body = docxBlocks(bodyBelowTitle(doc), ctx);
  if (listed.length > 0) {
    body.push(
      new Paragraph({
        style: style.ids.heading2,
        children: [new TextRun(doc.referencesHeading ?? words.t('References'))],
      }),
    );
    listed.forEach((note, i) =>
      body.push(
        new Paragraph({
          children: [new TextRun(`[${i + 1}] ${readerForm(note as Exclude<Note, { kind: 'author' }>)}`)],
        }),
      ),
    );
  }
  for (const img of doc.images) {
    const loaded = options.images.get(img.src);
    if (loaded?.format === 'webp')
      warnings.push({ code: 'image-unsupported', src: img.src, line: img.line, format: 'webp' });
  }

  const document = new Document({
    ...(doc.title ? { title: doc.title } : {}),
    creator: '',
    lastModifiedBy: '',
    // a template brings its own spacing; the built-in styles get a readable one
    ...(style.stylesXml !== undefined
      ? { externalStyles: style.stylesXml }
      : {
          styles: {
            default: { document: { paragraph: { spacing: { after: 120, line: 300, lineRule: LineRuleType.AUTO } } } },
          },
        }),
    ...(doc.date ? { customProperties: [{ name: 'date', value: doc.date }] } : {}),
    footnotes,
    numbering: { config: numberingConfig.map(levels) },
    sections: [{ children: [...titleBlock(doc, style), ...body] }],
  });
  const core = { path: 'docProps/core.xml', data: coreXml(doc, options.now) };
  const bytes = await Packer.toBuffer(document, false, [core]);
  return { bytes: new Uint8Array(bytes), footnotes: Object.keys(footnotes).length, listed: listed.length, warnings };
}

/** A note's paragraphs, in the footnote text style. */
function noteParagraphs(note: Note, ctx: DocxContext): Paragraph[] {
  const style = ctx.style.ids.footnoteText;
  if (note.kind !== 'author') return [new Paragraph({ style, children: [new TextRun(` ${readerForm(note)}`)] })];
  const out: Paragraph[] = [];
  for (const b of flatten(note.blocks))
    out.push(new Paragraph({ style, children: [...(out.length === 0 ? [new TextRun(' ')] : []), ...runs(b, ctx)] }));
  return out.length ? out : [new Paragraph({ style, children: [] })];
}

/** A note's blocks as lines of inline runs (a footnote holds paragraphs only). */
function flatten(blocks: readonly Block[]): Inline[][] {
  const out: Inline[][] = [];
  for (const b of blocks) {
    if (b.kind === 'paragraph' || b.kind === 'heading') out.push(b.content);
    else if (b.kind === 'quote') out.push(...flatten(b.blocks));
    else if (b.kind === 'list') for (const item of b.items) out.push(...flatten(item));
    else if (b.kind === 'code') out.push([{ kind: 'text', text: b.text, marks: { code: true } }]);
    else if (b.kind === 'table')
      for (const r of [b.head, ...b.rows])
        out.push(r.flatMap((c, i) => [...(i ? [{ kind: 'text' as const, text: ' | ', marks: {} }] : []), ...c]));
  }
  return out;
}

/** The title and the date under it. */
function titleBlock(doc: PublishDocument, style: HouseStyle): Paragraph[] {
  const out: Paragraph[] = [];
  if (doc.title) out.push(new Paragraph({ style: style.ids.title, children: [new TextRun(doc.title)] }));
  if (doc.date)
    out.push(new Paragraph({ children: [new TextRun({ text: doc.date, color: '616161' })], spacing: { after: 240 } }));
  return out;
}

/** The numbering definition of one list kind: nine levels, indented 360 twips a level. */
function levels(c: { reference: string; start: number; ordered: boolean }) {
  const bullets = ['•', '◦', '▪'];
  return {
    reference: c.reference,
    levels: Array.from({ length: 9 }, (_, level) => ({
      level,
      format: c.ordered ? LevelFormat.DECIMAL : LevelFormat.BULLET,
      text: c.ordered ? `%${level + 1}.` : bullets[level % 3]!,
      alignment: AlignmentType.LEFT,
      ...(c.ordered && level === 0 ? { start: c.start } : {}),
      style: { paragraph: { indent: { left: 360 * (level + 1) + 360, hanging: 360 } } },
    })),
  };
}

/** docProps/core.xml: the title, and the bulletin's date as the creation date (else now). */
function coreXml(doc: PublishDocument, now: Date): string {
  const esc = (s: string): string => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const date = doc.date && /^\d{4}-\d{2}-\d{2}$/.test(doc.date) ? `${doc.date}T00:00:00+08:00` : undefined;
  const created = date && !Number.isNaN(Date.parse(date)) ? new Date(date).toISOString() : now.toISOString();
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
    'xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    (doc.title ? `<dc:title>${esc(doc.title)}</dc:title>` : '') +
    `<dc:language>${doc.lang === 'zh' ? 'zh-CN' : 'en'}</dc:language>` +
    '<cp:revision>1</cp:revision>' +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${created}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${now.toISOString()}</dcterms:modified>` +
    '</cp:coreProperties>'
  );
}
