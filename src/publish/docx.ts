/**
 * A bulletin as a Word document (`.docx`): a title block and the front matter as document
 * properties, the body, and every reference to a citation or an author footnote as a real Word
 * footnote (`word/footnotes.xml`, one per reference, numbered by Word) — or, with
 * `citations: 'list'`, citations as numbered marks of a references list at the end (author
 * footnotes stay footnotes). The WordprocessingML is written as text (`wordml.ts`, `docxParts.ts`)
 * and zipped with Node's zlib (`zip.ts`). Pure: no `vscode`.
 */
import { wordsOf } from '../text/words';
import { docxBlocks, runs, type DocxContext } from './docxBlocks';
import { contentTypes, numberingXml, packageParts, Rels, sectionXml, type ListKind } from './docxParts';
import { DEFAULT_STYLE, type HouseStyle } from './docxStyles';
import {
  bodyBelowTitle,
  type Block,
  noteLines,
  readerForm,
  type ImageMap,
  type Note,
  type PublishDocument,
  type PublishWarning,
} from './model';
import { zip, type ZipEntry } from './zip';
import {
  fontTableXml,
  footerXml,
  officialEnd,
  officialHead,
  officialSectionXml,
  officialStylesXml,
} from './docxOfficial';
import { blankFooterXml, closingBlock, endSection } from './docxClosing';
import type { OfficialLayout } from './layout';
import { footnoteRef, footnoteReference, paragraph, textRun, W_NAMESPACES, XML_DECLARATION } from './wordml';

/** How to write. */
export interface DocxOptions {
  /** `footnotes` (default): Word footnotes; `list`: a numbered references list. */
  citations?: 'footnotes' | 'list';
  /** A house style read from a template (`readTemplate`); our defaults without. */
  style?: HouseStyle;
  images: ImageMap;
  /** The time written as the document's modification time (the clock is the caller's). */
  now: Date;
  /** The official layout (`layout.ts`); our standard layout without. */
  layout?: OfficialLayout;
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

/** Writes the document. */
export async function writeDocx(doc: PublishDocument, options: DocxOptions): Promise<DocxResult> {
  const style = options.style ?? DEFAULT_STYLE;
  const layout = options.layout;
  const warnings: PublishWarning[] = [];
  const footnotes: string[] = [];
  const listed: Note[] = [];
  const listNumber = new Map<string, number>();
  const lists: ListKind[] = [];
  const media = new Map<string, { path: string; bytes: Uint8Array }>();
  let drawings = 0;

  /** Inside a note, notes being written out in it (Word footnotes cannot nest). */
  const expanding = new Set<Note>();
  const contextFor = (rels: Rels, inNote: boolean): DocxContext => ({
    style,
    images: options.images,
    warnings,
    reference(note: Note): string {
      if (inNote && !(options.citations === 'list' && note.kind !== 'author')) return noteInNote(note);
      if (options.citations === 'list' && note.kind !== 'author') {
        const key = readerForm(note);
        let n = listNumber.get(key);
        if (n === undefined) {
          listed.push(note);
          n = listed.length;
          listNumber.set(key, n);
        }
        return textRun(`[${n}]`, { superscript: true });
      }
      const id = footnotes.length + 1;
      // the id is taken before the note's own references are written; the placeholder is never read
      // Stryker disable next-line StringLiteral: overwritten on the next line
      footnotes.push('');
      footnotes[id - 1] = `<w:footnote w:id="${id}">${noteParagraphs(note, notesContext)}</w:footnote>`;
      return footnoteReference(id, style.ids.footnoteReference);
    },
    numbering(ordered: boolean, start: number): number {
      lists.push({ ordered, start });
      return lists.length - 1 + (style.numbering?.nextNumId ?? 1);
    },
    link: (href) => rels.link(href),
    picture(src: string) {
      let m = media.get(src);
      if (!m) {
        const img = options.images.get(src)!;
        m = { path: `media/image${media.size + 1}.${img.format}`, bytes: img.bytes };
        media.set(src, m);
      }
      return { rId: rels.image(m.path), id: ++drawings };
    },
    ...(layout
      ? {
          headingNumber: (b: Block) => layout.headings.get(b)?.prefix ?? '',
          fixedLines: !options.style,
          pictureBox: pictureBox(layout.page),
        }
      : {}),
  });
  const documentRels = new Rels(['styles.xml', 'numbering.xml', 'footnotes.xml', 'settings.xml']);
  const footnoteRels = new Rels([]);
  const notesContext = contextFor(footnoteRels, true);
  const ctx = contextFor(documentRels, false);
  /**
   * A reference inside a footnote, written out where it stands: a source as the reader reads it in
   * the inline citation's brackets, an author's note as its text in parentheses (one that cites
   * itself, at its label).
   */
  const noteInNote = (note: Note): string => {
    if (note.kind !== 'author') return textRun(`〔${readerForm(note)}〕`);
    if (expanding.has(note)) return textRun(`[${note.label}]`);
    expanding.add(note);
    const lines = noteLines(note.blocks).map((line) => runs(line, notesContext));
    expanding.delete(note);
    return (
      textRun(doc.lang === 'zh' ? '（' : ' (') + lines.join(textRun(' ')) + textRun(doc.lang === 'zh' ? '）' : ')')
    );
  };

  const words = wordsOf(doc.lang);
  const body = layout ? officialHead(layout, style.ids.title) : titleBlock(doc, style);
  docxBlocks(bodyBelowTitle(doc), ctx, body);
  if (listed.length > 0) {
    body.push(paragraph({ style: style.ids.heading2 }, textRun(doc.referencesHeading ?? words.t('References'))));
    listed.forEach((note, i) =>
      body.push(paragraph({}, textRun(`[${i + 1}] ${readerForm(note as Exclude<Note, { kind: 'author' }>)}`))),
    );
  }
  if (layout) body.push(...officialEnd(layout));
  for (const img of doc.images) {
    const loaded = options.images.get(img.src);
    if (loaded?.format === 'webp')
      warnings.push({ code: 'image-unsupported', src: img.src, line: img.line, format: 'webp' });
  }

  const parts = packageParts({
    ...(doc.title ? { title: doc.title } : {}),
    ...(doc.date ? { date: doc.date } : {}),
    lang: doc.lang,
    now: options.now,
    stylesXml: style.stylesXml ?? (layout ? officialStylesXml(layout.page, layout.fonts) : undefined),
    evenAndOddHeaders: !!layout,
  });
  let section = sectionXml();
  const extra: { part: string; type: string }[] = [];
  if (layout) {
    // the page setup, the font table and the page numbers come from the layout, whatever the template
    section = officialSectionXml(layout.page, {
      odd: documentRels.part('footer', 'footer1.xml'),
      even: documentRels.part('footer', 'footer2.xml'),
    });
    documentRels.part('fontTable', 'fontTable.xml');
    parts.set('word/footer1.xml', footerXml('odd', layout.fonts));
    parts.set('word/footer2.xml', footerXml('even', layout.fonts));
    parts.set('word/fontTable.xml', fontTableXml(layout.fonts));
    extra.push({ part: 'footer1.xml', type: 'footer' }, { part: 'footer2.xml', type: 'footer' });
    extra.push({ part: 'fontTable.xml', type: 'fontTable' });
    const closing = closingBlock(layout);
    if (closing.length) {
      // the body's section ends where the body does; the closing block's page is the last section
      endSection(body, section);
      body.push(...closing);
      section = officialSectionXml(
        layout.page,
        { odd: documentRels.part('footer', 'footer3.xml'), even: documentRels.part('footer', 'footer4.xml') },
        true,
      );
      parts.set('word/footer3.xml', blankFooterXml());
      parts.set('word/footer4.xml', blankFooterXml());
      extra.push({ part: 'footer3.xml', type: 'footer' }, { part: 'footer4.xml', type: 'footer' });
    }
  }
  parts.set(
    '[Content_Types].xml',
    contentTypes(
      [...media.values()].map((m) => m.path),
      extra,
    ),
  );
  parts.set(
    'word/document.xml',
    `${XML_DECLARATION}<w:document ${W_NAMESPACES}><w:body>${body.join('')}${section}</w:body></w:document>`,
  );
  parts.set('word/_rels/document.xml.rels', documentRels.xml());
  parts.set('word/footnotes.xml', footnotesXml(footnotes));
  parts.set('word/_rels/footnotes.xml.rels', footnoteRels.xml());
  parts.set('word/numbering.xml', numberingXml(lists, style.numbering));

  // [Content_Types].xml first, as Office writes it
  const entries: ZipEntry[] = [{ path: '[Content_Types].xml', data: parts.get('[Content_Types].xml')! }];
  for (const [path, data] of parts) if (path !== '[Content_Types].xml') entries.push({ path, data });
  for (const m of media.values()) entries.push({ path: `word/${m.path}`, data: m.bytes, store: true });
  const bytes = await zip(entries, options.now);
  return { bytes, footnotes: footnotes.length, listed: listed.length, warnings };
}

/** The official page's text block in pixels at 96 dpi (15 twips a pixel). */
function pictureBox(page: OfficialLayout['page']): { width: number; height: number } {
  const m = page.margins;
  return {
    width: Math.floor((page.width - m.left - m.right) / 15),
    height: Math.floor((page.height - m.top - m.bottom) / 15),
  };
}

/** footnotes.xml: the separators Word expects (ids -1 and 0), then one footnote per reference. */
function footnotesXml(footnotes: readonly string[]): string {
  const separator = (type: string, id: number, mark: string): string =>
    `<w:footnote w:type="${type}" w:id="${id}"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>` +
    `<w:r><w:${mark}/></w:r></w:p></w:footnote>`;
  return (
    `${XML_DECLARATION}<w:footnotes ${W_NAMESPACES}>` +
    separator('separator', -1, 'separator') +
    separator('continuationSeparator', 0, 'continuationSeparator') +
    `${footnotes.join('')}</w:footnotes>`
  );
}

/** A note's paragraphs, in the footnote text style, the first starting with the footnote's number. */
function noteParagraphs(note: Note, ctx: DocxContext): string {
  const style = ctx.style.ids.footnoteText;
  const mark = footnoteRef(ctx.style.ids.footnoteReference);
  if (note.kind !== 'author') return paragraph({ style }, mark + textRun(` ${readerForm(note)}`));
  const lines = noteLines(note.blocks);
  if (lines.length === 0) return paragraph({ style }, mark);
  return lines.map((line, i) => paragraph({ style }, (i === 0 ? mark + textRun(' ') : '') + runs(line, ctx))).join('');
}

/** The title and the date under it. */
function titleBlock(doc: PublishDocument, style: HouseStyle): string[] {
  const out: string[] = [];
  if (doc.title) out.push(paragraph({ style: style.ids.title }, textRun(doc.title)));
  if (doc.date) out.push(paragraph({ spacing: { after: 240 } }, textRun(doc.date, { color: '616161' })));
  return out;
}
