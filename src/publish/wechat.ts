/**
 * A bulletin as a WeChat official-account article (公众号): one self-contained HTML file whose
 * styles are `style=` attributes written while rendering (WeChat's editor strips `<style>` and
 * classes), with no links at all (WeChat drops external ones): links and citations become numbered
 * notes listed at the end, pictures are embedded, tables scroll sideways at a phone's width, and
 * nothing is executable (no script, no event attribute; every text escaped). Pure.
 */
import { langTag, wordsOf } from '../text/words';
import { escapeHtml } from '../text/html';
import { dataUri } from './images';
import {
  bodyBelowTitle,
  noteLines,
  plainOf,
  readerForm,
  type Block,
  type ImageMap,
  type Inline,
  type Note,
  type PublishDocument,
  type PublishWarning,
} from './model';

/** Inline styles, one per element kind (phone-first: 16 px text, 1.75 line height). */
const WECHAT_STYLE = {
  article:
    "font-family:-apple-system,BlinkMacSystemFont,'PingFang SC','Hiragino Sans GB','Microsoft YaHei',sans-serif;" +
    'font-size:16px;line-height:1.75;color:#333333;letter-spacing:0.5px;word-wrap:break-word;overflow-wrap:break-word;',
  title: 'font-size:22px;line-height:1.4;font-weight:bold;color:#1b5e20;margin:0 0 8px;',
  date: 'font-size:14px;color:#888888;margin:0 0 20px;',
  /** The font size in pixels of a heading of each level, 1 to 6. */
  h: [20, 18, 17, 16, 16, 16],
  heading: 'font-weight:bold;color:#1b5e20;line-height:1.5;margin:24px 0 12px;',
  p: 'margin:0 0 16px;text-align:justify;',
  quote: 'margin:0 0 16px;padding:8px 12px;border-left:4px solid #a5d6a7;background:#f1f8e9;color:#555555;',
  list: 'margin:0 0 16px;padding-left:24px;',
  li: 'margin:4px 0;',
  pre: 'margin:0 0 16px;padding:12px;background:#f6f8fa;border-radius:4px;overflow-x:auto;font-size:13px;line-height:1.5;white-space:pre;',
  code: "font-family:Menlo,Consolas,'Courier New',monospace;",
  codeInline:
    "font-family:Menlo,Consolas,'Courier New',monospace;font-size:14px;background:#f3f3f3;padding:1px 4px;border-radius:3px;",
  tableWrap: 'margin:0 0 16px;overflow-x:auto;',
  table: 'border-collapse:collapse;min-width:100%;font-size:14px;line-height:1.6;',
  th: 'border:1px solid #dddddd;padding:6px 8px;background:#e8f5e9;font-weight:bold;',
  td: 'border:1px solid #dddddd;padding:6px 8px;',
  img: 'display:block;max-width:100%;height:auto;margin:8px auto;',
  hr: 'border:none;border-top:1px solid #e0e0e0;margin:24px 0;',
  mark: 'font-size:12px;line-height:0;color:#1b5e20;vertical-align:super;',
  notes: 'margin:32px 0 0;padding-top:12px;border-top:1px solid #e0e0e0;',
  notesHeading: 'font-size:16px;font-weight:bold;color:#1b5e20;margin:0 0 8px;',
  note: 'font-size:14px;line-height:1.6;color:#666666;margin:0 0 6px;word-break:break-all;',
} as const;

/** What was written. */
export interface WechatResult {
  /** The whole file (a page around the article). */
  html: string;
  /** The article alone: what goes on the clipboard for WeChat's editor. */
  article: string;
  /** Notes in the end list. */
  notes: number;
  /** The pictures in the order they first appear, named as the article names them with a base URL. */
  pictures: { name: string; bytes: Uint8Array }[];
  warnings: PublishWarning[];
}

/** How to write. */
export interface WechatOptions {
  /**
   * Where the station hosts the pictures (no trailing slash): the article's pictures are
   * `<base>/<name>` instead of embedded `data:` URIs (WeChat's editor may drop those).
   */
  imageBaseUrl?: string;
  /** The start of the pictures' file names (`周报.wechat-` gives `周报.wechat-1.jpeg`, …). */
  picturePrefix?: string;
}

/** WeChat keeps lists two levels deep. */
const MAX_LIST_DEPTH = 2;

/** One entry of the end list. */
type EndNote = { kind: 'note'; note: Note } | { kind: 'link'; text: string; href: string };

/** Writes the article. */
export function writeWechat(doc: PublishDocument, images: ImageMap, options: WechatOptions = {}): WechatResult {
  const words = wordsOf(doc.lang);
  const warnings: PublishWarning[] = [];
  const pictures: WechatResult['pictures'] = [];
  const pictureSrc = new Map<string, string>();
  const srcOf = (src: string): string | undefined => {
    const img = images.get(src);
    if (!img) return undefined;
    let out = pictureSrc.get(src);
    if (out === undefined) {
      const name = `${options.picturePrefix ?? 'picture-'}${pictures.length + 1}.${img.format}`;
      pictures.push({ name, bytes: img.bytes });
      out = options.imageBaseUrl ? `${options.imageBaseUrl}/${encodeURIComponent(name)}` : dataUri(img);
      pictureSrc.set(src, out);
    }
    return out;
  };
  const list: EndNote[] = [];
  const numbers = new Map<string, number>();
  const number = (key: string, entry: EndNote): number => {
    let n = numbers.get(key);
    if (n === undefined) {
      list.push(entry);
      n = list.length;
      numbers.set(key, n);
    }
    return n;
  };
  const mark = (n: number): string => `<sup style="${WECHAT_STYLE.mark}">[${n}]</sup>`;
  const noteKey = new Map<Note, string>();
  const keyOf = (note: Note): string => {
    let k = noteKey.get(note);
    if (k === undefined) {
      k = note.kind === 'author' ? `author:${note.label}:${noteKey.size}` : `source:${readerForm(note)}`;
      noteKey.set(note, k);
    }
    return k;
  };

  const inline = (xs: readonly Inline[]): string =>
    xs
      .map((x) => {
        switch (x.kind) {
          case 'text': {
            let s = escapeHtml(x.text);
            if (x.marks.code) s = `<code style="${WECHAT_STYLE.codeInline}">${s}</code>`;
            if (x.marks.bold) s = `<strong>${s}</strong>`;
            if (x.marks.italic) s = `<em>${s}</em>`;
            if (x.marks.strike) s = `<s>${s}</s>`;
            return s;
          }
          case 'break':
            return '<br>';
          case 'link': {
            const text = inline(x.children);
            const plainText = plainOf(x.children);
            if (!/^(?:https?:|mailto:)/i.test(x.href) || plainText === x.href) return text;
            return text + mark(number(`link:${x.href}`, { kind: 'link', text: plainText, href: x.href }));
          }
          case 'image': {
            const src = srcOf(x.src);
            return src ? `<img src="${escapeHtml(src)}" alt="${escapeHtml(x.alt)}" style="${WECHAT_STYLE.img}">` : '';
          }
          case 'note':
            return mark(number(keyOf(x.note), { kind: 'note', note: x.note }));
        }
      })
      .join('');

  /** `lists`: how many lists hold the block. */
  const block = (b: Block, lists = 0): string => {
    switch (b.kind) {
      case 'heading': {
        const level = Math.min(Math.max(b.level, 1), 6);
        return `<h${level} style="font-size:${WECHAT_STYLE.h[level - 1]}px;${WECHAT_STYLE.heading}">${inline(b.content)}</h${level}>`;
      }
      case 'paragraph':
        return `<p style="${WECHAT_STYLE.p}">${inline(b.content)}</p>`;
      case 'quote':
        return `<blockquote style="${WECHAT_STYLE.quote}">${b.blocks.map((x) => itemBlock(x, lists)).join('')}</blockquote>`;
      case 'code':
        return `<pre style="${WECHAT_STYLE.pre}"><code style="${WECHAT_STYLE.code}">${escapeHtml(b.text)}</code></pre>`;
      case 'rule':
        return `<hr style="${WECHAT_STYLE.hr}">`;
      case 'list': {
        const tag = b.ordered ? 'ol' : 'ul';
        const start = b.ordered && b.start !== 1 ? ` start="${b.start}"` : '';
        const items = (lists + 1 >= MAX_LIST_DEPTH ? b.items.flatMap(hoisted) : b.items).map(
          (item) => `<li style="${WECHAT_STYLE.li}">${item.map((x) => itemBlock(x, lists + 1)).join('')}</li>`,
        );
        return `<${tag}${start} style="${WECHAT_STYLE.list}">${items.join('')}</${tag}>`;
      }
      case 'table': {
        // markdown-it gives every row as many cells as the head (empty ones for a short row, none past the head)
        const row = (tag: 'th' | 'td', cells: Inline[][]): string =>
          `<tr>${cells
            .map((c, i) => {
              const align = b.align[i] ? `text-align:${b.align[i]};` : '';
              return `<${tag} style="${tag === 'th' ? WECHAT_STYLE.th : WECHAT_STYLE.td}${align}">${inline(c)}</${tag}>`;
            })
            .join('')}</tr>`;
        return (
          `<section style="${WECHAT_STYLE.tableWrap}"><table style="${WECHAT_STYLE.table}">` +
          `<thead>${row('th', b.head)}</thead><tbody>${b.rows.map((r) => row('td', r)).join('')}</tbody></table></section>`
        );
      }
    }
  };
  /** A paragraph inside a list item or a quote: without its bottom margin. */
  const itemBlock = (b: Block, lists: number): string =>
    b.kind === 'paragraph' ? `<p style="margin:0;">${inline(b.content)}</p>` : block(b, lists);
  /** An item of a list at the deepest level WeChat keeps, and the items of the lists in it after it, at its level. */
  const hoisted = (item: Block[]): Block[][] => {
    const own = item.filter((x) => x.kind !== 'list');
    const deeper = item.flatMap((x) => {
      if (x.kind !== 'list') return [];
      warnings.push({ code: 'list-too-deep', line: x.line });
      return x.items.flatMap(hoisted);
    });
    return [own, ...deeper];
  };

  const title = doc.title ? `<h1 style="${WECHAT_STYLE.title}">${escapeHtml(doc.title)}</h1>` : '';
  const date = doc.date ? `<p style="${WECHAT_STYLE.date}">${escapeHtml(doc.date)}</p>` : '';
  const blocks = bodyBelowTitle(doc).map((b) => block(b));
  // Stryker disable next-line StringLiteral: a line between blocks is for a person reading the file; no reader of the article sees it
  const body = blocks.join('\n');
  const entries: string[] = [];
  // a link inside an author's note adds an entry while the list is written
  for (let i = 0; i < list.length; i++)
    entries.push(`<p style="${WECHAT_STYLE.note}">[${i + 1}] ${endNoteHtml(list[i]!, inline)}</p>`);
  const onlySources = list.every((e) => e.kind === 'note' && e.note.kind !== 'author');
  const heading = onlySources ? (doc.referencesHeading ?? words.t('References')) : words.t('Notes');
  const notes = list.length
    ? `\n<section style="${WECHAT_STYLE.notes}"><p style="${WECHAT_STYLE.notesHeading}">${escapeHtml(heading)}</p>${entries.join('')}</section>`
    : '';
  const article = `<section style="${WECHAT_STYLE.article}">${title}${date}\n${body}${notes}\n</section>`;
  const lang = langTag(doc.lang);
  const html =
    `<!DOCTYPE html>\n<html lang="${lang}">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(doc.title ?? '')}</title>\n</head>\n` +
    `<body style="margin:0;padding:16px;background:#ffffff;">\n${article}\n</body>\n</html>\n`;
  return { html, article, notes: list.length, pictures, warnings };
}

function endNoteHtml(e: EndNote, inline: (xs: readonly Inline[]) => string): string {
  if (e.kind === 'link') return `${escapeHtml(e.text)}: ${escapeHtml(e.href)}`;
  const note = e.note;
  if (note.kind !== 'author') return escapeHtml(readerForm(note));
  return noteLines(note.blocks).map(inline).filter(Boolean).join(' ');
}
