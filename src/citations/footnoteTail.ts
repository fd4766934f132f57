/**
 * A linear `footnote_tail` for markdown-it-footnote 4, installed by the preview plugin when it is the
 * one installing markdown-it-footnote (never over another extension's). The original copies the
 * whole token array once per footnote (`concat`), which is quadratic: on the 1,458 footnotes of the
 * bench bulletin it cost more than the rest of the parse. This one appends in place and produces the
 * same token stream: the definitions' tokens cut out of the document, then one
 * `footnote_block_open`, per footnote a `footnote_open` (meta `{ id, label }`), its tokens (a
 * paragraph around an inline footnote's tokens, or the definition's tokens), one `footnote_anchor`
 * per reference inside the last paragraph, `footnote_close`, and `footnote_block_close`.
 * test/unit/citations/footnoteTail.test.ts compares it with the original on markdown-it 12 and 15.
 * Pure: no `vscode`.
 */
import type { StateCore, Token } from 'markdown-it';

/** One footnote of markdown-it-footnote's `env.footnotes.list`: a definition's, or an inline one. */
interface FootnoteItem {
  label?: string;
  count?: number;
  content?: string;
  tokens?: Token[];
}

interface FootnoteEnv {
  footnotes?: { list?: FootnoteItem[] };
}

/** Cuts the definitions' tokens out of `tokens`; returns what stays and each label's tokens (keys `:label`). */
function cutDefinitions(tokens: Token[]): { kept: Token[]; defs: Map<string, Token[]> } {
  const kept: Token[] = [];
  const defs = new Map<string, Token[]>();
  let current: Token[] = [];
  let label: string | undefined;
  let inside = false;
  // as the original: a nested definition's `open` starts a new list, every `close` ends the current one
  for (const t of tokens) {
    if (t.type === 'footnote_reference_open') {
      inside = true;
      current = [];
      label = (t.meta as { label: string }).label;
    } else if (t.type === 'footnote_reference_close') {
      inside = false;
      defs.set(`:${label}`, current);
    } else if (inside) current.push(t);
    else kept.push(t);
  }
  return { kept, defs };
}

/** An inline footnote's tokens wrapped in a paragraph, as the original builds them. */
function inlineParagraph(state: StateCore, item: FootnoteItem): Token[] {
  const open = new state.Token('paragraph_open', 'p', 1);
  open.block = true;
  const inline = new state.Token('inline', '', 0);
  inline.children = item.tokens!;
  inline.content = item.content!;
  const close = new state.Token('paragraph_close', 'p', -1);
  close.block = true;
  return [open, inline, close];
}

/**
 * The core rule: markdown-it-footnote's `footnote_tail` in linear time, same tokens in the same order.
 * Install with `md.core.ruler.at('footnote_tail', footnoteTail)` right after `md.use(footnote)`.
 */
export function footnoteTail(state: StateCore): void {
  const env = state.env as FootnoteEnv;
  if (!env.footnotes) return;
  const { kept: out, defs } = cutDefinitions(state.tokens);
  state.tokens = out;
  const list = env.footnotes.list;
  if (!list) return;
  out.push(new state.Token('footnote_block_open', '', 1));
  // as the original, what a footnote appends stays from the one before when it has neither tokens nor label
  let tokens: Token[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = list[i]!;
    const open = new state.Token('footnote_open', '', 1);
    open.meta = { id: i, label: item.label };
    out.push(open);
    if (item.tokens) tokens = inlineParagraph(state, item);
    // Stryker disable next-line ConditionalExpression: markdown-it-footnote's list holds inline footnotes (with tokens) and references (with a label of one character or more), never neither
    else if (item.label) tokens = defs.get(`:${item.label}`);
    if (tokens) for (const t of tokens) out.push(t);
    const last = out[out.length - 1]!.type === 'paragraph_close' ? out.pop() : undefined;
    // Stryker disable next-line EqualityOperator: a reference's count is 1 or more once it is listed, an inline footnote's is undefined: none is 0
    const count = item.count! > 0 ? item.count! : 1;
    for (let j = 0; j < count; j++) {
      const anchor = new state.Token('footnote_anchor', '', 0);
      anchor.meta = { id: i, subId: j, label: item.label };
      out.push(anchor);
    }
    if (last) out.push(last);
    out.push(new state.Token('footnote_close', '', -1));
  }
  out.push(new state.Token('footnote_block_close', '', -1));
}
