/**
 * markdown-it's token stream (with markdown-it-footnote and the citations plugin) → the blocks and
 * inline runs of `model.ts`. Raw HTML is not carried over: comments silently (one on a line of its
 * own in a paragraph, as a safety directive, with its line break), `<br>` as a line break, anything
 * else left out with a warning (nothing executable reaches an export). Pure.
 */
import { citationKey, parseRawCitation, type Token } from '../citations/index';
import type { Align, Block, Inline, Marks, Note, PublishWarning } from './model';

/** What the walker needs besides the tokens. */
export interface WalkContext {
  /** The footnotes by markdown-it-footnote's id. */
  notes: ReadonlyMap<number, Note>;
  /** Where warnings go. */
  warnings: PublishWarning[];
  /** The line of a heading to leave out (the references heading with only our definitions under it). */
  skipHeadingLine?: number | undefined;
}

/** Walks block tokens once, front to back. */
export class Walker {
  /** Every image met, with its 0-based line. */
  readonly images: { src: string; line: number }[] = [];
  private i = 0;
  private line = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly ctx: WalkContext,
  ) {}

  /** Blocks until `close` (a token type) or the end; the closing token is consumed. */
  blocks(close?: string): Block[] {
    const out: Block[] = [];
    while (this.i < this.tokens.length) {
      const t = this.tokens[this.i]!;
      if (t.type === close) {
        this.i++;
        return out;
      }
      if (t.map) this.line = t.map[0];
      const b = this.block(t);
      if (b) out.push(b);
    }
    return out;
  }

  private block(t: Token): Block | undefined {
    switch (t.type) {
      case 'heading_open': {
        const content = this.inlineAfter();
        if (this.line === this.ctx.skipHeadingLine) return undefined;
        return { kind: 'heading', level: Number(t.tag.slice(1)), content };
      }
      case 'paragraph_open':
        return { kind: 'paragraph', content: this.inlineAfter() };
      case 'bullet_list_open':
      case 'ordered_list_open':
        return this.list(t);
      case 'blockquote_open':
        this.i++;
        return { kind: 'quote', blocks: this.blocks('blockquote_close') };
      case 'table_open':
        return this.table();
      case 'fence':
      case 'code_block':
        this.i++;
        return { kind: 'code', lang: t.info.trim().split(/\s/)[0]!, text: t.content.replace(/\n$/, '') };
      case 'hr':
        this.i++;
        return { kind: 'rule' };
      case 'html_block':
        this.i++;
        if (!isComment(t.content)) this.leftOut();
        return undefined;
      default:
        this.i++; // closing tokens met on the way (a hidden paragraph's), footnote anchors
        return undefined;
    }
  }

  /** The runs of a heading or a paragraph, which markdown-it writes as three tokens (open, inline, close); past them. */
  private inlineAfter(): Inline[] {
    const inline = this.tokens[this.i + 1]!;
    this.i += 3;
    return this.inlines(inline.children ?? []);
  }

  private list(t: Token): Block {
    const line = this.line;
    const ordered = t.type === 'ordered_list_open';
    // markdown-it gives a list's first number (up to nine digits) when it is not 1
    const start = Number(attr(t, 'start') ?? 1);
    this.i++;
    // a list holds only its items, each closed; then its own closing token
    const items: Block[][] = [];
    while (this.tokens[this.i]!.type === 'list_item_open') {
      this.i++;
      items.push(this.blocks('list_item_close'));
    }
    this.i++;
    return { kind: 'list', ordered, start, items, line };
  }

  private table(): Block {
    const line = this.line;
    const align: Align[] = [];
    const head: Inline[][] = [];
    const rows: Inline[][][] = [];
    let row: Inline[][] | undefined;
    // Stryker disable next-line BooleanLiteral: markdown-it opens every table with its head (thead_open), which sets it
    let inHead = false;
    // Stryker disable next-line EqualityOperator: markdown-it closes every table, so the loop ends at its table_close first
    for (this.i++; this.i < this.tokens.length; this.i++) {
      const t = this.tokens[this.i]!;
      if (t.type === 'table_close') break;
      if (t.type === 'thead_open') inHead = true;
      else if (t.type === 'thead_close') inHead = false;
      else if (t.type === 'tr_open') row = [];
      else if (t.type === 'tr_close' && row) {
        if (inHead) head.push(...row);
        else rows.push(row);
        row = undefined;
      } else if ((t.type === 'th_open' || t.type === 'td_open') && row) {
        if (inHead) align.push(alignOf(attr(t, 'style')));
        // a cell is an opening token, its inline token (empty for an empty cell) and a closing one
        row.push(this.inlines(this.tokens[this.i + 1]!.children ?? []));
      }
    }
    // Stryker disable next-line UpdateOperator: one token back is the table's tbody_close or thead_close, a closing token blocks() passes over as it does table_close
    this.i++;
    return { kind: 'table', align, head, rows, line };
  }

  /** Inline children → runs, marks carried down. */
  inlines(children: readonly Token[]): Inline[] {
    const out: Inline[][] = [[]];
    const marks: Marks[] = [{}];
    const top = (): Marks => marks[marks.length - 1]!;
    const push = (x: Inline): void => {
      const runs = out[out.length - 1]!;
      const last = runs[runs.length - 1];
      // one run for adjacent text of the same marks (markdown-it splits text at every special character)
      if (x.kind === 'text' && last?.kind === 'text' && sameMarks(last.marks, x.marks))
        runs[runs.length - 1] = { kind: 'text', text: last.text + x.text, marks: last.marks };
      else runs.push(x);
    };
    // Stryker disable next-line ArrayDeclaration: markdown-it pairs every link_close with a link_open, so nothing is taken that was not put
    const hrefs: string[] = [];
    for (let k = 0; k < children.length; k++) {
      const c = children[k]!;
      switch (c.type) {
        case 'text':
          if (c.content) push({ kind: 'text', text: c.content, marks: top() });
          break;
        case 'code_inline':
          push({ kind: 'text', text: c.content, marks: { ...top(), code: true } });
          break;
        case 'softbreak':
          // a comment on a line of its own in a paragraph (a safety directive) goes with its line break
          if (!commentLine(children, k + 1)) push({ kind: 'text', text: ' ', marks: top() });
          break;
        case 'hardbreak':
          push({ kind: 'break' });
          break;
        case 'strong_open':
        case 'em_open':
        case 's_open':
          marks.push({
            ...top(),
            ...(c.type === 'strong_open' ? { bold: true } : c.type === 'em_open' ? { italic: true } : { strike: true }),
          });
          break;
        case 'strong_close':
        case 'em_close':
        case 's_close': // markdown-it pairs every closing token with an opening one
          marks.pop();
          break;
        case 'link_open':
          hrefs.push(attr(c, 'href')!); // markdown-it makes a link only of an address it accepts
          out.push([]);
          break;
        case 'link_close': {
          const inner = out.pop()!;
          push({ kind: 'link', href: hrefs.pop()!, children: inner });
          break;
        }
        case 'image': {
          const src = attr(c, 'src')!; // every image token has its src, empty when written empty
          const title = attr(c, 'title');
          this.images.push({ src, line: this.line });
          push({ kind: 'image', src, alt: plain(c.children ?? []), ...(title ? { title } : {}) });
          break;
        }
        case 'html_inline':
          // one tag per token, so nothing follows the `>`
          if (/^<br\s*\/?>/i.test(c.content)) push({ kind: 'break' });
          else if (!/^<!--/.test(c.content)) this.leftOut();
          break;
        case 'footnote_ref':
          push(this.reference(c));
          break;
        case 'sn_cite': {
          const raw = (c.meta as { raw: string }).raw;
          const parsed = parseRawCitation(raw);
          // a malformed one stays as written (and is listed as broken)
          if (parsed.ok) push({ kind: 'note', note: { kind: 'source', key: citationKey(parsed.citation) } });
          else push({ kind: 'text', text: `〔${raw}〕`, marks: top() });
          break;
        }
        case 'sn_ref':
          // a reference without a definition: as written (listed as broken)
          push({ kind: 'text', text: `[^${(c.meta as { label: string }).label}]`, marks: top() });
          break;
        // (an `sn_source` is only ever the one inline of a source note, which read.ts reads itself)
      }
    }
    return out[0]!;
  }

  /** A reference to a footnote: markdown-it-footnote makes one only to a note it lists (read before the walk). */
  private reference(c: Token): Inline {
    return { kind: 'note', note: this.ctx.notes.get((c.meta as { id: number }).id)! };
  }

  private leftOut(): void {
    this.ctx.warnings.push({ code: 'html-left-out', line: this.line });
  }
}

function sameMarks(a: Marks, b: Marks): boolean {
  return !a.bold === !b.bold && !a.italic === !b.italic && !a.strike === !b.strike && !a.code === !b.code;
}

function alignOf(style: string | null): Align {
  return /text-align:(left|center|right)/.exec(style ?? '')?.[1] as Align;
}

/** Whether inline token `i` is a comment alone on its line: the paragraph's line break before it, another or the end after. */
function commentLine(children: readonly Token[], i: number): boolean {
  const c = children[i];
  const next = children[i + 1];
  return c?.type === 'html_inline' && /^<!--/.test(c.content) && (next === undefined || next.type === 'softbreak');
}

/** An HTML block that is only comments (each one ends at its first `-->`, as in HTML). */
export function isComment(html: string): boolean {
  return /^(?:\s*<!--(?:(?!-->)[\s\S])*-->)+\s*$/.test(html);
}

/** The plain text of inline tokens (an image's alt). */
function plain(children: readonly Token[]): string {
  return children.map((c) => (c.children ? plain(c.children) : c.type === 'softbreak' ? ' ' : c.content)).join('');
}

/** A token's attribute as a string (markdown-it's types allow numbers). */
function attr(t: Token, name: string): string | null {
  const v = t.attrGet(name);
  return v === null ? null : String(v);
}
