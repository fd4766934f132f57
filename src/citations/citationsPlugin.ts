/**
 * The markdown-it plugin that renders citations as a reader should see them — in VS Code's
 * Markdown preview (src/features/markdownPreview/) and in exports. Pure: no `vscode`.
 *
 * - Footnotes (ours and the author's) render as footnotes, through markdown-it-footnote:
 *   superscript numbers linking to a numbered list and back. When a footnote rule is already
 *   there (markdown-it-footnote installed by another extension's plugin: Markdown Footnotes,
 *   Markdown All in One), it is used as it is. When another plugin installs it after us, its second
 *   footnote list is dropped (a core rule at the end), so footnotes never render twice. When we
 *   install it, its quadratic `footnote_tail` is replaced by a linear one giving the same tokens
 *   (./footnoteTail.ts); another extension's is left alone.
 * - Our definitions `[^n]: doc#idx — kb (code)` show the doc name unescaped, the knowledge base's
 *   name and code; their references get a title (the passage's first words when the host knows the
 *   passage, else the source).
 * - The inline style `〔doc#idx〕` renders as a superscript source label.
 * - A reference without a definition and a malformed citation are marked (`shunong-undefined`,
 *   `shunong-malformed`; styled by media/preview.css).
 * - Every text from a bulletin or the server goes in escaped (and bidi controls shown), never as HTML.
 */
import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import { showBidi } from '../text/bidi';
import { footnoteTail } from './footnoteTail';
import { citationKey, isOurLabel, parseDefinitionBody, parseRawCitation } from './citation';
import { original, snCite, snRef, stopTextAtCite, type CiteMeta, type InlineRule, type RefMeta } from './parser';
import type { CitationError } from './model';
import type { Citation } from './types';

/** What the host gives the plugin. Every field is optional. */
export interface PreviewOptions {
  /** The text of a cited passage, when the host has it (best effort; called while rendering). */
  passageText?: (c: Citation) => string | undefined;
  /** Texts of the marks, in the reader's language (English by default). */
  text?: Partial<PreviewText>;
}

/** Texts the plugin shows (as `title` attributes). */
export interface PreviewText {
  undefinedReference: (label: string) => string;
  malformed: (failure: CitationError) => string;
}

const DEFAULT_TEXT: PreviewText = {
  undefinedReference: (label) => `Footnote [^${label}] has no definition.`,
  malformed: (failure) => `Malformed citation: ${failure.message}`,
};

/** Class names (media/preview.css). */
export const PREVIEW_CLASSES = {
  source: 'shunong-source',
  cite: 'shunong-cite',
  undefined: 'shunong-undefined',
  malformed: 'shunong-malformed',
} as const;

const TITLE_LENGTH = 80;
const WRAPPED = Symbol('shunong.footnote_ref');

/** The first words of a passage, for a title: whitespace flattened, cut at about 80 characters. */
export function firstWords(text: string, max = TITLE_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** markdown-it-footnote is installed: its block rule is there (it adds its inline and core rules with it). */
function hasFootnotes(md: MarkdownIt): boolean {
  return (md.block.ruler as unknown as { __rules__: { name: string }[] }).__rules__.some(
    (r) => r.name === 'footnote_def',
  );
}

/** The plugin: `md.use(citationsPlugin, options)`. */
export function citationsPlugin(md: MarkdownIt, options: PreviewOptions = {}): void {
  const text = { ...DEFAULT_TEXT, ...options.text };
  if (!hasFootnotes(md)) {
    md.use(footnote);
    md.core.ruler.at('footnote_tail', footnoteTail);
  }
  md.inline.ruler.before('text', 'sn_cite', snCite);
  md.inline.ruler.at('text', stopTextAtCite(original<InlineRule>(md.inline.ruler, 'text')));
  // last: a defined reference is markdown-it-footnote's (its rule comes first, whoever installed it)
  md.inline.ruler.push('sn_ref', snRef);
  md.core.ruler.push('shunong_citations', (state) => decorate(state, options));
  const esc = (s: string): string => md.utils.escapeHtml(showBidi(s));
  const title = (s: string | undefined): string => (s ? ` title="${esc(s)}"` : '');

  md.renderer.rules.sn_ref = (tokens, idx) => {
    const label = (tokens[idx]!.meta as RefMeta).label;
    const written = `[^${label}]`;
    return `<span class="${PREVIEW_CLASSES.undefined}"${title(text.undefinedReference(label))}>${esc(written)}</span>`;
  };
  md.renderer.rules.sn_cite = (tokens, idx) => {
    const raw = (tokens[idx]!.meta as CiteMeta).raw;
    const parsed = parseRawCitation(raw);
    if (!parsed.ok)
      return `<span class="${PREVIEW_CLASSES.malformed}"${title(text.malformed(parsed))}>〔${esc(raw)}〕</span>`;
    const hint = options.passageText?.(parsed.citation);
    return `<sup class="${PREVIEW_CLASSES.cite}"${title(hint !== undefined ? firstWords(hint) : undefined)}>${esc(citationKey(parsed.citation))}</sup>`;
  };
  md.renderer.rules.sn_source = (tokens, idx) => {
    const m = tokens[idx]!.meta as unknown as SourceMeta;
    if (m.error !== undefined)
      return `<span class="${PREVIEW_CLASSES.malformed}"${title(text.malformed(m.error))}>${esc(m.raw)}</span>`;
    return `<span class="${PREVIEW_CLASSES.source}">${esc(m.key)}</span> — ${esc(m.kbName)} (${esc(m.kbCode)})`;
  };
}

type RenderRule = NonNullable<MarkdownIt['renderer']['rules']['text']>;

type SourceMeta = {
  raw: string;
  key: string;
  kbName: string;
  kbCode: string;
  error?: CitationError;
};

/**
 * After every other core rule: drops a second footnote list (markdown-it-footnote installed twice),
 * turns our definitions' text into `sn_source` tokens and gives their references a title.
 */
function decorate(state: StateCore, options: PreviewOptions): void {
  const tokens = state.tokens;
  const first = dropSecondLists(tokens);
  const titles = new Map<string, string>();
  let label: string | undefined;
  let body: Token[] = [];
  // footnote_open tokens only come inside the footnote list, at the end
  for (let i = first; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'footnote_open') {
      label = (t.meta as { label?: string } | null)?.label;
      body = [];
    } else if (t.type === 'footnote_close') {
      // ours only when the definition is one paragraph and nothing else (a second paragraph, a
      // heading or a table under it make it the author's note, shown as written)
      const hint =
        label !== undefined && isOurLabel(label) && body.length === 3 && body[0]!.type === 'paragraph_open'
          ? ours(state, body[1]!, options)
          : undefined;
      if (hint !== undefined) titles.set(label!, hint);
      label = undefined;
    } else if (t.type !== 'footnote_anchor') body.push(t);
  }
  // Stryker disable next-line ConditionalExpression: with no title the loop below gives none, and the renderer adds none
  if (titles.size === 0) return;
  wrapFootnoteRef(state.md);
  // (only inline tokens have children)
  for (const t of tokens) {
    for (const c of t.children ?? []) {
      // Stryker disable next-line ConditionalExpression: the other children with a label are our undefined references, and a label without a definition has no title
      if (c.type !== 'footnote_ref') continue;
      const l = (c.meta as { label?: string } | null)?.label;
      const hint = l !== undefined ? titles.get(l) : undefined;
      // Stryker disable next-line ConditionalExpression: the renderer reads an undefined title as none
      if (hint !== undefined) c.meta = { ...(c.meta as object), snTitle: hint };
    }
  }
}

/**
 * Drops every footnote list after the first (markdown-it-footnote installed twice or more); where the
 * first one starts (the end of the tokens when there is none).
 */
function dropSecondLists(tokens: Token[]): number {
  const blocks: number[] = [];
  for (let i = 0; i < tokens.length; i++) if (tokens[i]!.type === 'footnote_block_open') blocks.push(i);
  // Footnote lists are appended at the end, each by its own core rule: what follows a list is the next
  // one or nothing, so a list's end is its close token or the end of the tokens alike.
  for (const start of blocks.slice(1).reverse()) {
    let end = start + 1;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: a list ends at its close token or the end of the tokens alike
    while (end < tokens.length && tokens[end]!.type !== 'footnote_block_close') end++;
    // Stryker disable next-line MethodExpression,ArithmeticOperator: a list ends at its close token or the end of the tokens alike
    tokens.splice(start, Math.min(end + 1, tokens.length) - start);
  }
  return blocks[0] ?? tokens.length;
}

/** Our definition's paragraph becomes one `sn_source` token; the title its references get (or undefined: not ours). */
function ours(state: StateCore, inline: Token, options: PreviewOptions): string | undefined {
  const body = parseDefinitionBody(inline.content);
  if (!body) return undefined;
  // Stryker disable next-line StringLiteral: its renderer rule writes the HTML, never reading the tag
  const source = new state.Token('sn_source', '', 0);
  const parsed = body.parsed;
  const key = parsed.ok ? citationKey(parsed.citation) : body.citationRaw;
  const meta: SourceMeta = {
    raw: inline.content,
    key,
    kbName: body.kbName,
    kbCode: body.kbCode,
    ...(parsed.ok ? {} : { error: parsed }),
  };
  source.meta = meta;
  inline.children = [source];
  if (!parsed.ok) return undefined;
  const passage = options.passageText?.(parsed.citation);
  return passage !== undefined ? firstWords(passage) : `${key} — ${body.kbName}`;
}

/**
 * Gives footnote references their title: markdown-it-footnote's renderer (whichever plugin
 * installed it, and even if it was installed after us) wrapped once, on the first render needing it.
 */
function wrapFootnoteRef(md: MarkdownIt): void {
  const rules = md.renderer.rules as Record<string, (RenderRule & { [WRAPPED]?: true }) | undefined>;
  const inner = rules.footnote_ref;
  if (!inner || inner[WRAPPED]) return;
  const wrapped: RenderRule & { [WRAPPED]?: true } = (tokens, idx, opts, env, self) => {
    const html = inner(tokens, idx, opts, env, self);
    const t = (tokens[idx]!.meta as { snTitle?: string } | null)?.snTitle;
    // a function, so a `$&` or `$'` in the passage is text, not a replacement pattern
    return t === undefined ? html : html.replace('<a ', () => `<a title="${md.utils.escapeHtml(showBidi(t))}" `);
  };
  wrapped[WRAPPED] = true;
  rules.footnote_ref = wrapped;
}
