/**
 * What a bulletin is once read for publishing (see `read.ts`): blocks of inline runs, the notes its
 * references point to, its front matter, and what was left out on the way. Every writer (Word,
 * WeChat, HTML) renders from this one model, so the three agree on what a citation is.
 */
import type { Lang } from '../text/words';
import type { Problem } from '../citations/model';

/** Character formatting of a text run. */
export interface Marks {
  bold?: true;
  italic?: true;
  strike?: true;
  code?: true;
}

/** A note a reference points to: a cited source, or the author's own footnote. */
export type Note =
  | {
      kind: 'source';
      /** `doc_name#chunk_index`, unescaped (the reader's form). */
      key: string;
      /** Present for our definitions `[^n]: doc#idx — kb (code)`; an inline `〔doc#idx〕` has none. */
      kbName?: string;
      kbCode?: string;
    }
  | {
      kind: 'author';
      label: string;
      blocks: Block[];
    }
  | {
      /** A citation that could not be read (malformed, or a reference without a definition): its text as written. */
      kind: 'broken';
      text: string;
    };

/** The reader's form of a note that names a source: `doc_name#chunk_index — kb_name` (or the text as written). */
export function readerForm(note: Exclude<Note, { kind: 'author' }>): string {
  if (note.kind === 'broken') return note.text;
  return note.kbName ? `${note.key} — ${note.kbName}` : note.key;
}

/** An inline run. */
export type Inline =
  | { kind: 'text'; text: string; marks: Marks }
  | { kind: 'break' }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'image'; src: string; alt: string; title?: string }
  /** A reference to a note; every occurrence is its own reference (the same note object when repeated). */
  | { kind: 'note'; note: Note };

/** Column alignment of a table. */
export type Align = 'left' | 'center' | 'right' | undefined;

/** A block. */
export type Block =
  | { kind: 'heading'; level: number; content: Inline[] }
  | { kind: 'paragraph'; content: Inline[] }
  /** `line`: the 0-based line it starts on (for messages). */
  | { kind: 'list'; ordered: boolean; start: number; items: Block[][]; line: number }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'code'; lang: string; text: string }
  /** `line`: the 0-based line it starts on (for messages). */
  | { kind: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][]; line: number }
  | { kind: 'rule' };

/** Something the export left out or could not read; the host words it in the user's language. */
export type PublishWarning =
  | { code: 'broken-citation'; problem: Problem }
  | { code: 'html-left-out'; line: number }
  | { code: 'image-missing'; src: string; line: number }
  | { code: 'image-unsupported'; src: string; line: number; format: string }
  | { code: 'image-remote'; src: string; line: number }
  /** A table wider than Word's 63 columns, written as several tables of 63 columns at most. */
  | { code: 'table-too-wide'; line: number; columns: number }
  /** A list nested deeper than WeChat keeps (two levels), its items written at the second level. */
  | { code: 'list-too-deep'; line: number };

/** A bulletin read for publishing. */
export interface PublishDocument {
  /** The front matter's `title`, else the first level-1 heading's text. */
  title?: string;
  /** The front matter's `date` as written. */
  date?: string;
  /** The language the export's own words (note headings) are written in. */
  lang: Lang;
  /** The body: the references section's heading is left out when only our definitions were under it. */
  blocks: Block[];
  /** The references heading the bulletin uses (its text), for the notes list; undefined when it has none. */
  referencesHeading?: string;
  /** Every image the body and the author notes use, with the 0-based line it is on (for messages), in order. */
  images: { src: string; line: number }[];
  /** Problems found while reading (broken citations, HTML left out); image problems are added by the writers. */
  warnings: PublishWarning[];
  /** The bulletin's broken citations (the citation analysis' errors), for `refuseBrokenCitations`. */
  broken: Problem[];
}

/** An image the host found and read, ready to embed. */
export interface LoadedImage {
  bytes: Uint8Array;
  format: 'jpeg' | 'png' | 'gif' | 'bmp' | 'webp';
  width: number;
  height: number;
}

/** The images a writer may embed, by their `src` as written; a missing one is left out with a warning. */
export type ImageMap = ReadonlyMap<string, LoadedImage>;

/** The plain text of inline runs that hold no link (a link's own text, a heading's): their text runs. */
export function plainOf(xs: readonly Inline[]): string {
  return xs.map((x) => (x.kind === 'text' ? x.text : '')).join('');
}

/**
 * A note's blocks as lines of inline runs, as a note holds them (a Word footnote has paragraphs
 * only; a WeChat end note is one line): quotes and list items by their paragraphs, code as code
 * text, a table row by row, its cells between ` | `.
 */
export function noteLines(blocks: readonly Block[]): Inline[][] {
  const out: Inline[][] = [];
  for (const b of blocks) {
    if (b.kind === 'paragraph' || b.kind === 'heading') out.push(b.content);
    else if (b.kind === 'quote') out.push(...noteLines(b.blocks));
    else if (b.kind === 'list') for (const item of b.items) out.push(...noteLines(item));
    else if (b.kind === 'code') out.push([{ kind: 'text', text: b.text, marks: { code: true } }]);
    else if (b.kind === 'table')
      for (const r of [b.head, ...b.rows])
        out.push(r.flatMap((c, i) => [...(i ? [{ kind: 'text' as const, text: ' | ', marks: {} }] : []), ...c]));
  }
  return out;
}

/** The body without a first level-1 heading that repeats the title (the title block shows it). */
export function bodyBelowTitle(doc: Pick<PublishDocument, 'blocks' | 'title'>): Block[] {
  const first = doc.blocks[0];
  if (!doc.title || first?.kind !== 'heading' || first.level !== 1) return doc.blocks;
  // a heading that carries more than text (a citation, a picture, a link) stays, so nothing is lost
  if (first.content.some((i) => i.kind !== 'text')) return doc.blocks;
  return plainOf(first.content).trim() === doc.title.trim() ? doc.blocks.slice(1) : doc.blocks;
}
