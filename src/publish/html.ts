/**
 * A bulletin as a standalone HTML page, for print or the web: rendered exactly as VS Code's
 * Markdown preview renders it with our plugin (footnotes as superscript numbers linking to the
 * list, our sources with their knowledge base), pictures embedded, raw HTML left out, and a
 * style sheet of its own (the preview's colours come from the theme; a page has none). Pure.
 */
import type { MarkdownIt } from 'markdown-it';
import { normalizeForParser, PREVIEW_CLASSES, type Token } from '../citations/index';
import { frontMatter } from '../bulletin/frontMatter';
import { dataUri } from './images';
import type { ImageMap, PublishDocument } from './model';
import { newPublishEngine } from './read';
import { withoutBom } from '../text/bom';
import { escapeHtml } from '../text/html';
import { langTag } from '../text/words';

/** The page's styles: readable measure, print-friendly, the citation marks of media/preview.css. */
const PAGE_CSS = `
body { max-width: 46em; margin: 2em auto; padding: 0 1em; color: #222; background: #fff;
  font: 16px/1.7 -apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif; }
h1, h2, h3, h4 { line-height: 1.35; color: #1b5e20; }
img { max-width: 100%; height: auto; }
table { border-collapse: collapse; margin: 1em 0; display: block; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: .35em .7em; }
th { background: #e8f5e9; }
pre { background: #f6f8fa; padding: .8em; overflow-x: auto; }
code { font-family: Menlo, Consolas, "Courier New", monospace; font-size: .92em; }
blockquote { margin: 1em 0; padding: .3em 1em; border-left: 4px solid #a5d6a7; background: #f1f8e9; color: #555; }
.footnotes { font-size: .9em; color: #444; }
.footnotes-sep { border: none; border-top: 1px solid #ddd; margin-top: 2.5em; }
.${PREVIEW_CLASSES.cite} { color: #1b5e20; font-size: .75em; }
.${PREVIEW_CLASSES.source} { font-style: italic; }
.${PREVIEW_CLASSES.undefined}, .${PREVIEW_CLASSES.malformed} { color: #c62828; text-decoration: underline wavy; }
@media print { body { margin: 0; max-width: none; } a { color: inherit; } .footnote-backref { display: none; } }
`;

/** What the page's renderer rules read from the render's environment. */
type PageEnv = { images: ImageMap };

let engine: MarkdownIt | undefined;

/** Writes the page of a bulletin (its whole text, and the document read from it for the title). */
export function writeHtml(text: string, doc: Pick<PublishDocument, 'title' | 'lang'>, images: ImageMap): string {
  const env: PageEnv = { images };
  const body = pageEngine().render(normalizeForParser(frontMatter(withoutBom(text)).blanked), env);
  const lang = langTag(doc.lang);
  return (
    `<!DOCTYPE html>\n<html lang="${lang}">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">\n` +
    `<title>${escapeHtml(doc.title ?? '')}</title>\n<style>${PAGE_CSS}</style>\n</head>\n<body>\n${body}</body>\n</html>\n`
  );
}

/**
 * The page's markdown-it (made on first use): the export's, with pictures embedded (a picture the
 * export could not load is left out) and raw HTML left out but `<br>`.
 */
function pageEngine(): MarkdownIt {
  if (engine) return engine;
  const md = newPublishEngine();
  const rules = md.renderer.rules;
  const image = rules.image!;
  rules.image = (tokens: Token[], idx, options, env, self) => {
    const t = tokens[idx]!;
    const loaded = (env as PageEnv).images.get(String(t.attrGet('src')));
    if (!loaded) return '';
    t.attrSet('src', dataUri(loaded));
    return image(tokens, idx, options, env, self);
  };
  rules.html_block = rules.html_inline = (tokens: Token[], idx) =>
    /^<br\s*\/?>$/i.test(tokens[idx]!.content.trim()) ? '<br>' : '';
  return (engine = md);
}
