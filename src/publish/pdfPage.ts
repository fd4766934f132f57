/**
 * The page a PDF is printed from: the bulletin read for publishing, in either layout, as one HTML
 * page with CSS page rules (`pdfCss.ts`: A4, margins, page numbers in the margin boxes). Citations
 * and the author's footnotes are numbered notes at the end, numbered as the Word export numbers them
 * (a note for every reference; with `citations: 'list'`, a source's one number in the references
 * list), each number a link to its note and the note's number a link back. A picture is embedded;
 * one on the web is not fetched, and its place says so. Every text is escaped; the page has no
 * script and its policy forbids any, and any request but its own `data:` pictures. Pure.
 */
import { langTag, wordsOf, type Words } from '../text/words';
import { escapeHtml } from '../text/html';
import { dataUri } from './images';
import type { OfficialLayout } from './layout';
import {
  bodyBelowTitle,
  noteLines,
  readerForm,
  type Block,
  type ImageMap,
  type Inline,
  type Note,
  type PublishDocument,
} from './model';
import { officialCss, standardCss } from './pdfCss';

/** How to write the page. */
export interface PdfPageOptions {
  images: ImageMap;
  /** `footnotes` (default): a note for every reference; `list`: sources in a numbered references list. */
  citations?: 'footnotes' | 'list';
  /** The official layout; the standard one without. */
  layout?: OfficialLayout;
}

/** The page, and how many notes and references it lists. */
export interface PdfPage {
  html: string;
  notes: number;
}

/** The page's policy: nothing runs, nothing is fetched but its own `data:` pictures. */
export const PAGE_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

/** A web address: a picture there is not fetched. */
const REMOTE = /^(?:https?:)?\/\//i;

/** Writes the page. */
export function writePdfPage(doc: PublishDocument, options: PdfPageOptions): PdfPage {
  const words = wordsOf(doc.lang);
  const layout = options.layout;
  const notes = new NoteList(options.citations ?? 'footnotes');
  const html = new PageWriter(words, options.images, notes, layout);
  const body = bodyBelowTitle(doc)
    .map((b) => html.block(b))
    .join('\n');
  const head = layout ? officialHead(layout) : standardHead(doc);
  const end = layout ? officialEnd(layout) : { beforeNotes: '', last: '' };
  const listed = html.notesSection(doc, words);
  const css = layout ? officialCss(layout.fonts) : standardCss();
  const page =
    `<!DOCTYPE html>\n<html lang="${langTag(doc.lang)}">\n<head>\n<meta charset="utf-8">\n` +
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}">\n` +
    `<title>${escapeHtml(doc.title ?? '')}</title>\n<style>${css}</style>\n</head>\n` +
    `<body class="${layout ? 'official' : 'standard'}">\n${head}\n<main>\n${body}\n</main>\n${end.beforeNotes}${listed}${end.last}</body>\n</html>\n`;
  return { html: page, notes: notes.count };
}

/** The notes in the order of their numbers. */
class NoteList {
  /** A note for every reference (an author's note always; a source unless listed). */
  readonly footnotes: Note[] = [];
  /** The sources of the references list (`citations: 'list'`), each once. */
  readonly sources: Exclude<Note, { kind: 'author' }>[] = [];
  private readonly sourceNumber = new Map<string, number>();

  constructor(readonly citations: 'footnotes' | 'list') {}

  get count(): number {
    return this.footnotes.length + this.sources.length;
  }

  /** The number of a reference to `note`, and whether it is in the references list. */
  add(note: Note): { n: number; listed: boolean } {
    if (this.citations === 'list' && note.kind !== 'author') {
      const key = readerForm(note);
      let n = this.sourceNumber.get(key);
      if (n === undefined) {
        this.sources.push(note);
        n = this.sources.length;
        this.sourceNumber.set(key, n);
      }
      return { n, listed: true };
    }
    this.footnotes.push(note);
    return { n: this.footnotes.length, listed: false };
  }
}

/** Blocks and runs into HTML, the notes numbered as they are met. */
class PageWriter {
  /** Inside a note: the notes being written out in it (a note's references are written in place). */
  private readonly expanding = new Set<Note>();
  /** The listed sources referenced already (their first reference carries the anchor back). */
  private readonly cited = new Set<number>();
  private inNote = false;

  constructor(
    private readonly words: Words,
    private readonly images: ImageMap,
    private readonly notes: NoteList,
    private readonly layout: OfficialLayout | undefined,
  ) {}

  block(b: Block): string {
    switch (b.kind) {
      case 'heading': {
        const level = Math.min(Math.max(b.level, 1), 6);
        const number = this.layout?.headings.get(b);
        const cls = number ? ` class="f-${number.font}"` : '';
        return `<h${level}${cls}>${escapeHtml(number?.prefix ?? '')}${this.inline(b.content)}</h${level}>`;
      }
      case 'paragraph':
        return `<p>${this.inline(b.content)}</p>`;
      case 'quote':
        return `<blockquote>${b.blocks.map((x) => this.block(x)).join('')}</blockquote>`;
      case 'code':
        return `<pre><code>${escapeHtml(b.text)}</code></pre>`;
      case 'rule':
        return '<hr>';
      case 'list': {
        const tag = b.ordered ? 'ol' : 'ul';
        const start = b.ordered && b.start !== 1 ? ` start="${b.start}"` : '';
        const items = b.items.map((item) => `<li>${item.map((x) => this.block(x)).join('')}</li>`);
        return `<${tag}${start}>${items.join('')}</${tag}>`;
      }
      case 'table': {
        const row = (tag: 'th' | 'td', cells: Inline[][]): string =>
          `<tr>${cells
            .map((c, i) => {
              const align = b.align[i] ? ` style="text-align:${b.align[i]}"` : '';
              return `<${tag}${align}>${this.inline(c)}</${tag}>`;
            })
            .join('')}</tr>`;
        return `<table><thead>${row('th', b.head)}</thead><tbody>${b.rows.map((r) => row('td', r)).join('')}</tbody></table>`;
      }
    }
  }

  inline(xs: readonly Inline[]): string {
    // a note's number stays on the line of the character before it (outside notes, where it is a number)
    const glue = (i: number): boolean => !this.inNote && xs[i]?.kind === 'text' && xs[i + 1]?.kind === 'note';
    return xs
      .map((x, i) => {
        if (glue(i - 1)) return '';
        if (!glue(i) || x.kind !== 'text') return this.run(x);
        const chars = [...x.text];
        const last = chars.pop()!;
        const head = chars.length ? this.run({ ...x, text: chars.join('') }) : '';
        return `${head}<span class="glued">${this.run({ ...x, text: last })}${this.run(xs[i + 1]!)}</span>`;
      })
      .join('');
  }

  private run(x: Inline): string {
    switch (x.kind) {
      case 'text': {
        let s = escapeHtml(x.text);
        if (x.marks.code) s = `<code>${s}</code>`;
        if (x.marks.bold) s = `<strong>${s}</strong>`;
        if (x.marks.italic) s = `<em>${s}</em>`;
        if (x.marks.strike) s = `<s>${s}</s>`;
        return s;
      }
      case 'break':
        return '<br>';
      case 'link':
        // only a web or mail address is a link in the PDF; anything else is its text
        return /^(?:https?:|mailto:)/i.test(x.href)
          ? `<a href="${escapeHtml(x.href)}">${this.inline(x.children)}</a>`
          : this.inline(x.children);
      case 'image':
        return this.picture(x.src, x.alt);
      case 'note':
        return this.reference(x.note);
    }
  }

  private picture(src: string, alt: string): string {
    const img = this.images.get(src);
    if (img) return `<img src="${escapeHtml(dataUri(img))}" alt="${escapeHtml(alt)}">`;
    if (REMOTE.test(src))
      return `<span class="remote-picture">${escapeHtml(this.words.t('[Picture on the web, not fetched: {0}]', src))}</span>`;
    return '';
  }

  private reference(note: Note): string {
    if (this.inNote) return this.noteInNote(note);
    const { n, listed } = this.notes.add(note);
    const id = listed ? `source-${n}` : `note-${n}`;
    const text = listed ? `[${n}]` : String(n);
    // a listed source has one entry for all its references: its number goes back to the first
    const first = !listed || !this.cited.has(n);
    if (listed) this.cited.add(n);
    const back = first ? ` id="${listed ? `cite-${n}` : `ref-${n}`}"` : '';
    return `<sup class="ref"${back}><a href="#${id}">${text}</a></sup>`;
  }

  /** A reference inside a note: a source as the reader reads it, an author's note as its text in brackets. */
  private noteInNote(note: Note): string {
    if (note.kind !== 'author') return escapeHtml(`〔${readerForm(note)}〕`);
    if (this.expanding.has(note)) return escapeHtml(`[${note.label}]`);
    this.expanding.add(note);
    const lines = noteLines(note.blocks).map((l) => this.inline(l));
    this.expanding.delete(note);
    return `（${lines.join(' ')}）`;
  }

  /** The notes and the references list, after the body. */
  notesSection(doc: PublishDocument, words: Words): string {
    this.inNote = true;
    const out: string[] = [];
    const { footnotes, sources } = this.notes;
    if (footnotes.length) {
      const onlySources = footnotes.every((n) => n.kind !== 'author');
      const heading = onlySources ? (doc.referencesHeading ?? words.t('References')) : words.t('Notes');
      const items = footnotes.map(
        (note, i) =>
          `<li id="note-${i + 1}"><a class="back" href="#ref-${i + 1}">${i + 1}</a> ${this.noteText(note)}</li>`,
      );
      out.push(
        `<section class="notes"><h2 class="notes-heading">${escapeHtml(heading)}</h2><ol>${items.join('')}</ol></section>`,
      );
    }
    if (sources.length) {
      const heading = doc.referencesHeading ?? words.t('References');
      const items = sources.map(
        (note, i) =>
          `<li id="source-${i + 1}"><a class="back" href="#cite-${i + 1}">[${i + 1}]</a> ${escapeHtml(readerForm(note))}</li>`,
      );
      out.push(
        `<section class="notes"><h2 class="notes-heading">${escapeHtml(heading)}</h2><ol>${items.join('')}</ol></section>`,
      );
    }
    this.inNote = false;
    return out.map((s) => `${s}\n`).join('');
  }

  private noteText(note: Note): string {
    if (note.kind !== 'author') return escapeHtml(readerForm(note));
    this.expanding.add(note);
    const text = noteLines(note.blocks)
      .map((l) => this.inline(l))
      .join('<br>');
    this.expanding.delete(note);
    return text;
  }
}

/** The standard layout's title and date. */
function standardHead(doc: PublishDocument): string {
  return (
    (doc.title ? `<h1 class="doc-title">${escapeHtml(doc.title)}</h1>` : '') +
    (doc.date ? `<p class="doc-date">${escapeHtml(doc.date)}</p>` : '')
  );
}

/** The official layout's masthead, title and recipient line. */
function officialHead(layout: OfficialLayout): string {
  const mh = layout.masthead;
  const e = escapeHtml;
  const lines: string[] = [];
  if (mh?.name) lines.push(`<div class="mh-name f-xiaobiaosong">${e(mh.name)}</div>`);
  if (mh?.form === 'upward' && (mh.issue || mh.signer))
    lines.push(
      `<div class="mh-line"><span>${e(mh.issue ?? '')}</span>` +
        `<span>${mh.signer ? `签发人：<span class="f-kaiti">${e(mh.signer)}</span>` : ''}</span></div>`,
    );
  if (mh?.form === 'bulletin' && mh.issue) lines.push(`<div class="mh-issue">${e(mh.issue)}</div>`);
  if (mh?.form === 'bulletin' && (mh.issuer || mh.date))
    lines.push(`<div class="mh-line"><span>${e(mh.issuer ?? '')}</span><span>${e(mh.date ?? '')}</span></div>`);
  const masthead = lines.length ? `<header class="masthead">${lines.join('')}</header>` : '';
  const title = layout.title
    ? `<h1 class="doc-title f-xiaobiaosong${masthead ? ' below-masthead' : ''}">${e(layout.title)}</h1>`
    : '';
  const recipient = layout.recipient ? `<p class="recipient">${e(layout.recipient)}</p>` : '';
  return masthead + title + recipient;
}

/** The official layout's attachments and signature (before the notes) and closing block (the end). */
function officialEnd(layout: OfficialLayout): { beforeNotes: string; last: string } {
  const e = escapeHtml;
  const list = layout.attachments ?? [];
  const attachments = list.length
    ? `<div class="attachments">${list
        .map((name, i) => {
          const text = (list.length > 1 ? `${i + 1}.` : '') + name;
          return i === 0 ? `<p>附件：${e(text)}</p>` : `<p class="more">${e(text)}</p>`;
        })
        .join('')}</div>\n`
    : '';
  const sig = [layout.signature?.issuer, layout.signature?.date].filter((s): s is string => !!s);
  const signature = sig.length ? `<div class="signature">${sig.map((s) => `<p>${e(s)}</p>`).join('')}</div>\n` : '';
  const c = layout.closing;
  const closingLines: string[] = [];
  if (c?.cc) closingLines.push(`<p>抄送：${e(c.cc.join('，'))}。</p>`);
  if (c?.printedBy || c?.printedOn)
    closingLines.push(
      `<p class="printed"><span>${e(c.printedBy ?? '')}</span><span>${c.printedOn ? `${e(c.printedOn)}印发` : ''}</span></p>`,
    );
  // on a page of its own, an even one, at the bottom of its text block
  const closing = closingLines.length
    ? `<div class="closing-page"><footer class="closing">${closingLines.join('')}</footer></div>\n`
    : '';
  return { beforeNotes: attachments + signature, last: closing };
}
