/**
 * The Markdown renderers what we write must survive (DESIGN.md, "Citation format"): markdown-it 12
 * (VS Code 1.100) and 15 (VS Code 1.139's generation) configured as VS Code's preview configures
 * them (html on, linkify on with fuzzyLink off, breaks and typographer off) with markdown-it-footnote,
 * and micromark with GFM (GitHub). Each gives its footnotes back as plain text.
 */
import markdownIt from 'markdown-it';
import md12 from 'markdown-it-12';
import footnote from 'markdown-it-footnote';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

/** What a renderer made of a document: its HTML, the footnote references and the definitions' HTML. */
export interface Rendered {
  html: string;
  refs: number;
  /** Each definition's inner HTML, without its back link and paragraph tags. */
  defs: string[];
}

type Factory = typeof markdownIt;

/** A markdown-it engine as VS Code's preview builds it (before any plugin). */
export function vscodeEngine(factory: Factory): ReturnType<Factory> {
  const md = factory({ html: true });
  md.linkify.set({ fuzzyLink: false });
  md.set({ breaks: false, linkify: true, typographer: false });
  return md;
}

function markdownItRenderer(factory: Factory): (src: string) => Rendered {
  const md = vscodeEngine(factory).use(footnote);
  return (src) => {
    const html = md.render(src);
    const refs = (html.match(/<sup class="footnote-ref">/g) ?? []).length;
    const defs = [...html.matchAll(/<li id="fn\d+" class="footnote-item">([\s\S]*?)<\/li>/g)].map((m) =>
      m[1]!
        .replace(/\s*<a href="#fnref[^"]*" class="footnote-backref">↩︎<\/a>/g, '')
        .replace(/<\/?p>/g, '')
        .trim(),
    );
    return { html, refs, defs };
  };
}

function micromarkRenderer(src: string): Rendered {
  const html = micromark(src, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  const refs = (html.match(/data-footnote-ref=""/g) ?? []).length;
  const defs = [...html.matchAll(/<li id="user-content-fn-[^"]*">([\s\S]*?)<\/li>/g)].map((m) =>
    m[1]!
      .replace(/\s*<a href="#user-content-fnref-[^"]*" data-footnote-backref=""[^>]*>↩<\/a>/g, '')
      .replace(/<\/?p>/g, '')
      .trim(),
  );
  return { html, refs, defs };
}

/** The three renderers by name. */
export const RENDERERS: Record<string, (src: string) => Rendered> = {
  'markdown-it 12': markdownItRenderer(md12),
  'markdown-it 15': markdownItRenderer(markdownIt),
  'micromark + GFM': micromarkRenderer,
};

/** The text of some HTML (tags dropped, the entities renderers write decoded). */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Whitespace as a reader sees it: runs collapsed, ends trimmed. */
export function asRead(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
