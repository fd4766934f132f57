/**
 * Reads a bulletin for publishing: the project's Markdown stack (markdown-it with footnotes and the
 * citations plugin the preview uses, so the export sees exactly the footnotes the preview shows)
 * turned into the model of `model.ts`. Pure: no `vscode`.
 */
import type { MarkdownIt } from 'markdown-it';
import { withoutBom } from '../text/bom';
import type { Lang } from '../text/words';
import {
  analyzeDocument,
  citationsPlugin,
  isOurLabel,
  markdownIt,
  normalizeForParser,
  parseDefinitionBody,
  parseRawCitation,
  recognisedHeadings,
  type CitationOptions,
  type Token,
} from '../citations/index';
import { frontMatter } from '../bulletin/frontMatter';
import type { Block, Note, PublishDocument, PublishWarning } from './model';
import { isComment, Walker } from './walk';

/** How to read a bulletin. */
export interface ReadOptions extends CitationOptions {
  /** The language of the export's own words. */
  lang: Lang;
}

let engine: MarkdownIt | undefined;

/** A new markdown-it as the export reads bulletins: as VS Code's preview runs it (HTML and linkify on, fuzzy links off), with citations. */
export function newPublishEngine(): MarkdownIt {
  const md = markdownIt({ html: true, linkify: true, breaks: false, typographer: false });
  // Stryker disable next-line ObjectLiteral: linkify-it 6 (markdown-it 15's) has fuzzy links off by default; set as the preview sets it, whatever a later default
  md.linkify.set({ fuzzyLink: false });
  return md.use(citationsPlugin);
}

/** The export's reader (one {@link newPublishEngine}, made on first use). */
function publishEngine(): MarkdownIt {
  return (engine ??= newPublishEngine());
}

/** Parses a bulletin into block tokens, front matter blanked (line numbers kept). */
export function parseForPublish(text: string): { tokens: Token[]; fields: Record<string, string> } {
  const fm = frontMatter(text);
  const body = normalizeForParser(fm.blanked);
  return { tokens: publishEngine().parse(body, {}), fields: fm.fields };
}

/** Reads a bulletin (its whole text) for the writers. Never throws for any text. */
export function readBulletin(text: string, options: ReadOptions): PublishDocument {
  const clean = withoutBom(text);
  const { tokens, fields } = parseForPublish(clean);
  const footStart = tokens.findIndex((t) => t.type === 'footnote_block_open');
  // Stryker disable next-line EqualityOperator: the footnote block holds only notes the body references, so it never comes first
  const bodyTokens = footStart < 0 ? tokens : tokens.slice(0, footStart);
  // The citation analysis (a second parse) only when the tokens show that something may be broken:
  // it is what names the broken citations, with their lines.
  // Stryker disable next-line ConditionalExpression: where mayBeBroken says no, the analysis finds no error (the property in quick.test.ts); skipping it is for speed
  const broken = mayBeBroken(tokens, clean)
    ? analyzeDocument(clean, options).problems.filter((p) => p.severity === 'error')
    : [];
  const warnings: PublishWarning[] = broken.map((problem) => ({ code: 'broken-citation', problem }));
  const noteImages: PublishDocument['images'] = [];
  // Stryker disable next-line MethodExpression: readNotes reads only from each footnote_open, and the body holds none
  const notes = readNotes(tokens.slice(bodyTokens.length), warnings, noteImages);

  const section = referencesSection(bodyTokens, recognisedHeadings(options));
  const skipHeading =
    section !== undefined && sectionIsOnlyDefinitions(bodyTokens, section.line, section.endLine)
      ? section.line
      : undefined;
  const walker = new Walker(bodyTokens, { notes, warnings, skipHeadingLine: skipHeading });
  const blocks = walker.blocks();

  const title = fields.title || firstHeading(blocks);
  return {
    ...(title ? { title } : {}),
    ...(fields.date ? { date: fields.date } : {}),
    lang: options.lang,
    blocks,
    ...(section ? { referencesHeading: section.text } : {}),
    images: [...walker.images, ...noteImages],
    warnings: dedupe(warnings),
    broken,
  };
}

/**
 * Whether the citation analysis may find an error: a reference without a definition or a
 * malformed citation in the tokens, a label defined twice or never referenced (markdown-it leaves
 * such a definition and what it holds out of the tokens), or a citation glued to a bare URL (which
 * linkify reads as part of the link). False means it finds none (a property test holds the two together).
 */
export function mayBeBroken(tokens: readonly Token[], text: string): boolean {
  const referenced = new Set<string>();
  for (const t of tokens) {
    if (t.type !== 'inline') continue;
    for (const c of t.children!) {
      if (c.type === 'footnote_ref') referenced.add(String((c.meta as { label?: string }).label).toLowerCase());
      // a citation glued to a bare URL: linkify made it part of the link
      // Stryker disable next-line ConditionalExpression: a yes where no is right only costs the analysis, which then finds nothing
      if (c.type === 'text' && c.level > 0 && /\[\^|〔/.test(c.content)) return true;
      if (c.type === 'sn_ref') return true;
      if (c.type === 'sn_cite' && !parseRawCitation((c.meta as { raw: string }).raw).ok) return true;
      if (c.type === 'sn_source' && (c.meta as { error?: string }).error !== undefined) return true;
    }
  }
  const labels = new Set<string>();
  for (const m of text.matchAll(/^[ \t>]*\[\^([^\]\s]+)\]:(.*)/gm)) {
    const label = m[1]!.toLowerCase();
    if (labels.has(label)) return true;
    labels.add(label);
    // A definition nothing references is not in the tokens, nor what it holds: safe only when it
    // is one of ours on one line, read above, that cites nothing itself.
    if (!referenced.has(label)) {
      if (!isOurLabel(label) || /\[\^|〔/.test(m[2]!)) return true;
      const following = text
        .slice(m.index! + m[0].length)
        .split(/\r?\n/)
        .slice(1);
      const next = following[0];
      if (next !== undefined && next.trim() !== '' && !/^[ \t>]*\[\^[^\]\s]+\]:/.test(next)) return true;
      // after blank lines, an indented line still continues the footnote
      const resumed = following.find((l) => l.trim() !== '');
      // Stryker disable next-line MethodExpression: as above, a yes where no is right only costs the analysis
      if (next?.trim() === '' && /^(?: {4}|\t)/.test(resumed ?? '')) return true;
    }
    // one of ours that nothing references is not in the tokens: read it here
    if (isOurLabel(label) && parseDefinitionBody(m[2]!)?.parsed.ok === false) return true;
  }
  return false;
}

/**
 * The references section as the citation analysis finds it: the last recognised heading, up to the
 * next of its level or higher (the end of the text without one). A heading's inline token follows
 * it, its text trimmed by markdown-it.
 */
function referencesSection(
  tokens: readonly Token[],
  wanted: ReadonlySet<string>,
): { line: number; endLine: number; text: string } | undefined {
  const headings: { line: number; level: number; text: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'heading_open' && t.map)
      headings.push({ line: t.map[0], level: Number(t.tag.slice(1)), text: tokens[i + 1]!.content });
  }
  for (let h = headings.length - 1; h >= 0; h--) {
    const head = headings[h]!;
    if (!wanted.has(head.text)) continue;
    const next = headings.slice(h + 1).find((n) => n.level <= head.level);
    return { line: head.line, endLine: next?.line ?? Infinity, text: head.text };
  }
  return undefined;
}

/**
 * The notes of the footnote block, by markdown-it-footnote's id. Every note exists before any is
 * read, so that a reference inside a note (to a source, or to another note) points at its note.
 */
function readNotes(tokens: Token[], warnings: PublishWarning[], images: PublishDocument['images']): Map<number, Note> {
  const notes = new Map<number, Note>();
  const authored: { note: Extract<Note, { kind: 'author' }>; inner: Token[] }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== 'footnote_open') continue;
    const meta = (t.meta ?? {}) as { id: number; label?: string };
    // markdown-it-footnote closes every note it opens
    // Stryker disable next-line EqualityOperator: the token at i opens the note, it is no footnote_close
    const end = tokens.findIndex((x, j) => j > i && x.type === 'footnote_close');
    // Stryker disable next-line ArithmeticOperator: the two tokens before are footnote_open and footnote_block_open or the last note's footnote_close, which sourceNote and the Walker pass over
    const inner = tokens.slice(i + 1, end);
    // an inline note (^[…]) has no label: it is named by its number, which no reader sees (nothing refers to it)
    // Stryker disable next-line ArithmeticOperator: as above
    const note = sourceNote(inner) ?? { kind: 'author', label: meta.label ?? String(meta.id + 1), blocks: [] };
    if (note.kind === 'author') authored.push({ note, inner });
    notes.set(meta.id, note);
    i = end;
  }
  for (const { note, inner } of authored) {
    const walker = new Walker(inner, { notes, warnings });
    note.blocks = walker.blocks();
    images.push(...walker.images); // a picture in an author's note is embedded (or named as missing) like any other
  }
  return notes;
}

/** One footnote's content as a source note (one `sn_source` of ours; broken when malformed), else undefined. */
function sourceNote(inner: Token[]): Note | undefined {
  const inlines = inner.filter((t) => t.type === 'inline');
  // Stryker disable next-line ConditionalExpression: the citations plugin reads a source only in a note of one line, which has one inline token
  const source = inlines.length === 1 ? inlines[0]!.children!.find((c) => c.type === 'sn_source') : undefined;
  if (!source) return undefined;
  const m = source.meta as { raw: string; key: string; kbName: string; kbCode: string; error?: string };
  if (m.error !== undefined) return { kind: 'broken', text: m.raw };
  return { kind: 'source', key: m.key, kbName: m.kbName, kbCode: m.kbCode };
}

/**
 * Nothing but footnote definitions (gone from the body), blank lines and comments under the heading:
 * no token that starts there (a closing token has no lines; a nested one starts inside its block).
 */
function sectionIsOnlyDefinitions(tokens: Token[], headingLine: number, endLine: number): boolean {
  return !tokens.some(
    (t) =>
      t.map !== null &&
      t.map[0] > headingLine &&
      t.map[0] < endLine &&
      !(t.type === 'html_block' && isComment(t.content)),
  );
}

/** The text of the first level-1 heading. */
function firstHeading(blocks: Block[]): string | undefined {
  const h = blocks.find((b) => b.kind === 'heading' && b.level === 1);
  if (!h || h.kind !== 'heading') return undefined;
  return h.content.map((i) => (i.kind === 'text' ? i.text : '')).join('') || undefined;
}

/** The warnings, each once (a line with two pieces of raw HTML is one warning). */
function dedupe(warnings: PublishWarning[]): PublishWarning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = JSON.stringify(w);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
