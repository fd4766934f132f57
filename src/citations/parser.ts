/**
 * The one Markdown parser of the citation layer: markdown-it (CommonMark + GFM tables and
 * strikethrough, raw HTML recognised) with markdown-it-footnote's definition rule, plus four small
 * rules of ours:
 *  - `front_matter`: a YAML (`---`) / TOML (`+++`) block at the very top, closed by the same fence;
 *  - `sn_ref`: every `[^label]` reference, defined or not (the footnote plugin only recognises defined
 *    ones, and we must report undefined references), tagged with its offset in the inline source; a
 *    label holds no blank and no unescaped `[` (as in GFM), so an unclosed `[^` never swallows a citation after it;
 *  - `sn_cite`: the inline style `〔doc#idx〕` (only when the brackets hold a `#`, so Chinese document
 *    numbers like `〔2023〕` stay text), tagged with its offset;
 *  - the footnote definition rule is wrapped to give its tokens a line `map`;
 *  - the table rule is wrapped to give each row's `tr_open` the offset where the row's text starts
 *    ({@link RowMeta}): a list or quote marker may share the line with the row.
 *
 * Why markdown-it and not micromark + mdast: one parse of the 10,000-line bench bulletin costs
 * ~0.1 s with markdown-it and ~1 s with micromark + mdast, and every operation here (insert,
 * renumber, diagnostics) must stay within 1.5× one parse, on every keystroke-debounced pass.
 * markdown-it has no inline offsets, so our inline rules record `state.pos` themselves and
 * `inline-map.ts` maps positions in an inline token's content back to the document. Because the
 * parser's own inline engine runs those rules, code spans, escapes, autolinks, link destinations
 * and raw HTML are respected for free; code blocks, fences, HTML blocks and front matter never reach
 * the inline engine at all.
 */
import markdownIt, { type MarkdownIt, type StateBlock, type StateInline, type Token } from 'markdown-it';
import footnote from 'markdown-it-footnote';

export type { Token };

export type InlineRule = (state: StateInline, silent: boolean) => boolean;
type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/** Where an inline rule matched, in the inline token's content. */
export type InlineSpan = {
  start: number;
  end: number;
};

/** Meta of `sn_ref` tokens. */
export type RefMeta = InlineSpan & { label: string };

/** Meta of `sn_cite` tokens: `raw` is the text between `〔` and `〕`. */
export type CiteMeta = InlineSpan & { raw: string };

/** Meta of a table row's `tr_open`: the document offset where the row's text starts, after any list or quote marker and indentation. */
export type RowMeta = { start: number };

/** Spans recorded by the probing parser (used to place the cursor safely). */
export interface ProbeSpan extends InlineSpan {
  kind: 'code' | 'atomic';
  /** The inline rule that matched (`backticks`, `link`, `escape` …). */
  rule: string;
}

interface Ruler<F> {
  __rules__: { name: string; fn: F; alt: string[] }[];
  at(name: string, fn: F, opts?: { alt: string[] }): void;
  before(before: string, name: string, fn: F, opts?: { alt: string[] }): void;
}

function entry<F>(ruler: unknown, name: string): Ruler<F>['__rules__'][number] {
  // markdown-it exposes no getter for a named rule; `__rules__` is its documented-by-source internal list.
  const found = (ruler as Ruler<F>).__rules__.find((r) => r.name === name);
  if (!found) throw new Error(`markdown-it rule ${name} not found`);
  return found;
}

/** A named rule of a markdown-it ruler. */
export function original<F>(ruler: unknown, name: string): F {
  return entry<F>(ruler, name).fn;
}

/** Puts `wrap` of a named rule in its place; the rules it may interrupt (its `alt`) stay the same. */
function wrapRule<F>(ruler: unknown, name: string, wrap: (rule: F) => F): void {
  const found = entry<F>(ruler, name);
  (ruler as Ruler<F>).at(name, wrap(found.fn), { alt: found.alt });
}

// No rule interrupts anything with it (it has no `alt`), so it is never asked silently. A container
// opening on the first line puts its marker there, so that line is a bare fence only at the top level.
function frontMatter(state: StateBlock, startLine: number, endLine: number): boolean {
  if (startLine !== 0) return false;
  const first = state.src.slice(0, state.eMarks[0]).trimEnd();
  if (first !== '---' && first !== '+++') return false;
  // Stryker disable next-line EqualityOperator: the parser's extra empty line past the last closes nothing
  for (let line = 1; line < endLine; line++) {
    const text = state.src.slice(state.bMarks[line], state.eMarks[line]).trimEnd();
    if (text === first || (first === '---' && text === '...')) {
      // Stryker disable next-line StringLiteral: this token is read (analyze.ts), never rendered, so its tag is not read
      const token = state.push('front_matter', '', 0);
      token.map = [0, line + 1];
      token.markup = first;
      state.line = line + 1;
      return true;
    }
  }
  return false;
}

/** `[^label]`, defined or not (a `sn_ref` token with {@link RefMeta}). */
export function snRef(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const max = state.posMax;
  if (state.src.charCodeAt(start) !== 0x5b || state.src.charCodeAt(start + 1) !== 0x5e) return false;
  let pos = start + 2;
  for (; pos < max; pos++) {
    const c = state.src.charCodeAt(pos);
    // no blank and, as in a CommonMark link label, no unescaped `[`: in `[^a[^1]` only `[^1]` is a reference
    if (c === 0x20 || c === 0x0a || c === 0x09 || (c === 0x5b && state.src.charCodeAt(pos - 1) !== 0x5c)) return false;
    if (c === 0x5d) break;
  }
  if (pos === start + 2 || pos >= max) return false;
  if (!silent) {
    // Stryker disable next-line StringLiteral: rendered by our own rule (citationsPlugin.ts), which reads no tag
    const token = state.push('sn_ref', '', 0);
    const meta: RefMeta = { label: state.src.slice(start + 2, pos), start, end: pos + 1 };
    token.meta = meta;
  }
  state.pos = pos + 1;
  return true;
}

/** The inline style `〔doc#idx〕` (a `sn_cite` token with {@link CiteMeta}). */
export function snCite(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x3014) return false;
  let hash = false;
  let pos = start + 1;
  // Stryker disable next-line EqualityOperator: at posMax lies the inline text's end or a link label's `]`, neither a bracket of ours
  for (; pos < state.posMax; pos++) {
    const c = state.src.charCodeAt(pos);
    if (c === 0x0a || c === 0x3014) return false;
    if (c === 0x23) hash = true;
    if (c === 0x3015) break;
  }
  if (pos >= state.posMax || !hash) return false;
  if (!silent) {
    // Stryker disable next-line StringLiteral: rendered by our own rule (citationsPlugin.ts), which reads no tag
    const token = state.push('sn_cite', '', 0);
    const meta: CiteMeta = { raw: state.src.slice(start + 1, pos), start, end: pos + 1 };
    token.meta = meta;
  }
  state.pos = pos + 1;
  return true;
}

/** The `text` rule swallows runs of ordinary characters; stop it before `〔` so `sn_cite` gets a chance. */
export function stopTextAtCite(text: InlineRule): InlineRule {
  return (state, silent) => {
    const start = state.pos;
    const pending = state.pending.length;
    // The text rule only saves time: markdown-it adds a character no rule matches to the text itself,
    // so text cut later (at the character it stopped at), at every character, or never read by it is the same text.
    // Stryker disable next-line ConditionalExpression: text the text rule never reads is the same text (comment above)
    if (!text(state, silent)) return false;
    // Stryker disable next-line EqualityOperator: a run cut at the character it stopped at is the same text (comment above)
    for (let k = start + 1; k < state.pos; k++) {
      // Stryker disable next-line ConditionalExpression: a run cut at every character is the same text (comment above)
      if (state.src.charCodeAt(k) === 0x3014) {
        // (in silent mode the text rule added nothing to cut)
        state.pending = state.pending.slice(0, pending + (k - start));
        state.pos = k;
        break;
      }
    }
    return true;
  };
}

function mapFootnoteDefs(def: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    const n = state.tokens.length;
    if (!def(state, startLine, endLine, silent)) return false;
    if (!silent) {
      // the rule's first token
      const open = state.tokens[n]!;
      open.map = [startLine, state.line];
      open.meta = { ...(open.meta as object), start: state.bMarks[startLine]! + state.tShift[startLine]! };
    }
    return true;
  };
}

function markTableRows(table: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    const n = state.tokens.length;
    if (!table(state, startLine, endLine, silent)) return false;
    // the containers' markers are still cut off the lines here (bMarks/tShift are restored only after this block)
    for (const tok of state.tokens.slice(n)) {
      if (tok.type !== 'tr_open') continue;
      const line = tok.map![0];
      const meta: RowMeta = { start: state.bMarks[line]! + state.tShift[line]! };
      tok.meta = meta;
    }
    return true;
  };
}

function recording(rule: InlineRule, name: string, kind: ProbeSpan['kind'], linkDest: boolean): InlineRule {
  return (state, silent) => {
    const start = state.pos;
    if (!rule(state, silent)) return false;
    if (!silent) {
      // A link's text is text (a citation may go in it): the link is atomic from the `]` ending its label
      // on. The link rule has just read that label with nested links disabled, and found none.
      // Stryker disable next-line BooleanLiteral: a label holding no link ends at the same `]` either way
      const from = linkDest ? state.md.helpers.parseLinkLabel(state, start, true) : start;
      (state.env as { spans: ProbeSpan[] }).spans.push({ start: from, end: state.pos, kind, rule: name });
    }
    return true;
  };
}

/** A fresh parser as {@link parseBlocks} uses it (which builds one and keeps it). */
export function buildParser(): MarkdownIt {
  const md = markdownIt({ html: true, linkify: false, typographer: false });
  md.use(footnote);
  md.core.ruler.disable('footnote_tail');
  wrapRule(md.block.ruler, 'table', markTableRows);
  // Stryker disable next-line StringLiteral: no rule is enabled, disabled or ordered by this name
  md.block.ruler.before('table', 'front_matter', frontMatter);
  wrapRule(md.block.ruler, 'footnote_def', mapFootnoteDefs);
  md.inline.ruler.at('footnote_ref', snRef);
  md.inline.ruler.before('text', 'sn_cite', snCite);
  wrapRule(md.inline.ruler, 'text', stopTextAtCite);
  return md;
}

/**
 * A parser (from {@link buildParser}) made to record its inline constructs in `env.spans`, as
 * {@link probeInline} uses it (which builds one and keeps it).
 */
export function recordingSpans(md: MarkdownIt): MarkdownIt {
  const wrap = (name: string, kind: ProbeSpan['kind'], linkDest = false): void =>
    wrapRule<InlineRule>(md.inline.ruler, name, (rule) => recording(rule, name, kind, linkDest));
  wrap('backticks', 'code');
  for (const name of [
    'image',
    'autolink',
    'html_inline',
    'entity',
    'escape',
    'footnote_inline',
    'footnote_ref',
    'sn_cite',
  ])
    wrap(name, 'atomic');
  wrap('link', 'atomic', true);
  return md;
}

let main: MarkdownIt | undefined;
let prober: MarkdownIt | undefined;

/** Parses a whole document (text must already be {@link normalizeForParser}d). */
export function parseBlocks(text: string): Token[] {
  main ??= buildParser();
  return main.parse(text, {});
}

/**
 * Re-parses one inline content string with every atomic construct recorded: code spans (where a
 * citation must not go) and links, images, autolinks, HTML tags, entities, escapes, references
 * (which a citation must not split). Cheap: only for the one block under the cursor.
 */
export function probeInline(content: string): ProbeSpan[] {
  prober ??= recordingSpans(buildParser());
  const env = { spans: [] as ProbeSpan[] };
  prober.parseInline(content, env);
  return env.spans;
}

/**
 * markdown-it turns CRLF and CR into LF before parsing, which would shift every offset. This makes
 * the same change without changing the length (`\r\n` → ` \n`, lone `\r` → `\n`); a trailing space
 * before a line break changes no Markdown structure.
 */
export function normalizeForParser(text: string): string {
  return text.replace(/\r\n/g, ' \n').replace(/\r/g, '\n');
}
