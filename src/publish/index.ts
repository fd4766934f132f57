/**
 * Publishing a bulletin (the `dist/publish.js` bundle, loaded on the first export): to Word with
 * real footnotes, to a WeChat article, to a standalone HTML page. One entry, `exportBulletin`,
 * serves the command and `shunong export`. An export never changes the bulletin. Pure: no `vscode`.
 */
import { frontMatter } from '../bulletin/frontMatter';
import type { Lang } from '../text/words';
import type { Problem } from '../citations/model';
import { writeDocx } from './docx';
import { readTemplate, TemplateError } from './docxStyles';
import { writeHtml } from './html';
import { loadImages, type ImageReader } from './images';
import { officialAddedStyle } from './docxOfficial';
import { layoutFonts, officialLayout, officialPage, type StationFonts } from './layout';
import type { PublishWarning } from './model';
import { readBulletin } from './read';
import { writeWechat } from './wechat';
import { writePdfPage } from './pdfPage';
import type { PrintFailure, PrintResult } from '../pdf/index';

export type { ImageCandidate, ImageReader } from './images';
export type { PublishWarning } from './model';
export type { StationFonts } from './layout';
export { pdfFailureText, templateProblemText, warningText } from './warningText';
export { findBrowserHere, printToPdf } from '../pdf/index';
export type { Browser, PrintFailure, PrintResult, SearchResult } from '../pdf/index';

/** The formats. */
export const EXPORT_FORMATS = ['docx', 'wechat', 'html', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The layouts of Word and PDF: ours, or the official document layout of GB/T 9704-2012 (`layout.ts`). */
export const EXPORT_LAYOUTS = ['standard', 'official'] as const;
export type ExportLayout = (typeof EXPORT_LAYOUTS)[number];

/**
 * The layout a Word or PDF export uses: the one asked for (`shunong export --layout`), else the front
 * matter's `layout:`, else the setting (`export.layout`), else standard.
 */
export function chooseLayout(text: string, asked?: ExportLayout, setting?: ExportLayout): ExportLayout {
  if (asked) return asked;
  const written = frontMatter(text).fields['layout']?.trim().toLowerCase();
  return EXPORT_LAYOUTS.find((l) => l === written) ?? setting ?? 'standard';
}

/** One export. */
export interface ExportRequest {
  /** The bulletin's whole text (unsaved changes included). */
  text: string;
  format: ExportFormat;
  /** The language of the export's own words (note headings). */
  lang: Lang;
  /** `citations.referencesHeading`, so the references section is recognised as the editor does. */
  referencesHeading?: string;
  /** `export.citations`. */
  citations?: 'footnotes' | 'list';
  /** Word: the layout asked for explicitly (the command line's `--layout`); it wins over the front matter's `layout:`. */
  layout?: ExportLayout;
  /** Word: `export.layout`; the front matter's `layout:` wins over it. */
  defaultLayout?: ExportLayout;
  /** Word, official layout: `export.officialFonts`, the station's fonts in place of the standard's. */
  officialFonts?: StationFonts;
  /** The bytes of `export.docxTemplate`, when set (Word only). */
  template?: Uint8Array;
  /** `export.refuseBrokenCitations`. */
  refuseBrokenCitations?: boolean;
  /** Reads the pictures the bulletin shows. */
  readImage: ImageReader;
  /** The modification time written into a Word file. */
  now: Date;
  /** WeChat: `export.imageBaseUrl`, where the station hosts the article's pictures ('' or absent: embedded). */
  imageBaseUrl?: string;
  /** WeChat: the start of the pictures' file names, saved beside the article (`周报.wechat-`). */
  picturePrefix?: string;
  /** PDF: prints the finished page (`printToPdf` with the browser found); required for `pdf`. */
  print?: (page: string) => Promise<PrintResult>;
}

/** What an export gives. */
export type ExportOutcome =
  | {
      ok: true;
      bytes: Uint8Array;
      warnings: PublishWarning[];
      /** WeChat only: the article alone, for the clipboard. */
      article?: string;
      /** WeChat only: its pictures in order, to save beside the article (named as the article names them). */
      pictures?: { name: string; bytes: Uint8Array }[];
      /** Word: footnotes written; WeChat: entries of the end list; PDF: notes and listed sources. */
      notes: number;
    }
  | { ok: false; reason: 'pdf'; failure: PrintFailure }
  | { ok: false; reason: 'broken-citations'; broken: Problem[] }
  | { ok: false; reason: 'template'; error: TemplateError['reason']; where?: TemplateError['where'] };

/** The start of the names of a WeChat article's pictures saved beside it (`周报.wechat.html` → `周报.wechat-`). */
export function picturePrefix(articleFile: string): string {
  return `${articleFile.replace(/\.html?$/i, '')}-`;
}

/** The usual output file name of a bulletin (`周报.md` → `周报.docx`, `周报.wechat.html`, `周报.html`). */
export function outputName(file: string, format: ExportFormat): string {
  const stem = file.replace(/\.(?:md|markdown)$/i, '');
  const ext = { docx: '.docx', wechat: '.wechat.html', html: '.html', pdf: '.pdf' }[format];
  return `${stem}${ext}`;
}

/** Exports a bulletin. Throws only for a writer's internal error. */
export async function exportBulletin(req: ExportRequest): Promise<ExportOutcome> {
  const doc = readBulletin(req.text, {
    lang: req.lang,
    ...(req.referencesHeading ? { referencesHeading: req.referencesHeading } : {}),
  });
  if (req.refuseBrokenCitations && doc.broken.length > 0)
    return { ok: false, reason: 'broken-citations', broken: doc.broken };
  const laidOut = req.format === 'docx' || req.format === 'pdf';
  const official = laidOut && chooseLayout(req.text, req.layout, req.defaultLayout) === 'official';
  let style;
  if (req.format === 'docx' && req.template) {
    try {
      style = await readTemplate(
        req.template,
        official ? officialAddedStyle(officialPage(), layoutFonts(req.officialFonts)) : undefined,
      );
    } catch (err) {
      if (err instanceof TemplateError)
        return { ok: false, reason: 'template', error: err.reason, ...(err.where ? { where: err.where } : {}) };
      throw err;
    }
  }
  const { images, warnings: imageWarnings } = await loadImages(doc, req.readImage);
  const warnings = [...doc.warnings, ...imageWarnings];
  const layout = official
    ? officialLayout(doc, {
        frontMatter: frontMatter(req.text),
        ...(req.officialFonts ? { fonts: req.officialFonts } : {}),
      })
    : undefined;
  if (req.format === 'pdf') {
    if (!req.print) throw new Error('a PDF export needs a printer');
    const page = writePdfPage(doc, { images, citations: req.citations ?? 'footnotes', ...(layout ? { layout } : {}) });
    const printed = await req.print(page.html);
    if (!printed.ok) return { ok: false, reason: 'pdf', failure: printed.failure };
    return { ok: true, bytes: printed.bytes, warnings, notes: page.notes };
  }
  if (req.format === 'docx') {
    const r = await writeDocx(doc, {
      ...(layout ? { layout } : {}),
      images,
      now: req.now,
      citations: req.citations ?? 'footnotes',
      ...(style ? { style } : {}),
    });
    return { ok: true, bytes: r.bytes, warnings: [...warnings, ...r.warnings], notes: r.footnotes + r.listed };
  }
  if (req.format === 'wechat') {
    const r = writeWechat(doc, images, {
      ...(req.imageBaseUrl ? { imageBaseUrl: req.imageBaseUrl } : {}),
      ...(req.picturePrefix ? { picturePrefix: req.picturePrefix } : {}),
    });
    return {
      ok: true,
      bytes: new TextEncoder().encode(r.html),
      article: r.article,
      pictures: r.pictures,
      warnings: [...warnings, ...r.warnings],
      notes: r.notes,
    };
  }
  const html = writeHtml(req.text, doc, images);
  return { ok: true, bytes: new TextEncoder().encode(html), warnings, notes: 0 };
}
