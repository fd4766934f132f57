/**
 * What insertion, renumbering and the preview's plugin produce, checked by rendering it: markdown-it
 * 12 and 15 as VS Code's preview sets them (linkify on) and micromark with GFM. A citation is one
 * footnote reference per reference written, renumbering changes nothing a reader sees, and no text
 * from outside (a doc name, a knowledge base, a passage) becomes a link, an image or HTML.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import markdownIt from 'markdown-it';
import md12 from 'markdown-it-12';
import {
  analyzeDocument,
  applyEdits,
  citationsPlugin,
  insertCitation,
  renumber,
  type CitationSource,
} from '../../../src/citations';
import { FRONT_MATTER } from '../../../src/bulletin/frontMatter';
import { runs } from '../fast-check-seed';
import { BIDI, PUNCTUATION, ending, hostileLine, withEnding } from '../hostile';
import { RENDERERS, vscodeEngine } from '../../support/renderers';
import { bulletin, outsideLinks, source } from './helpers';

/** What VS Code's preview renders: the document without its front matter (the preview hides it). */
function shown(text: string): string {
  return text.replace(FRONT_MATTER, '');
}

/**
 * Documents the renderers disagree on before anything is inserted, so they say nothing about what we
 * write: a footnote definition right under a table row or a quote line (markdown-it continues the
 * table or the quote over it, micromark reads a definition), and an author's label defined twice
 * (which the lint flags; micromark counts a reference put in the first one twice, as a random run found).
 */
function ambiguous(text: string): boolean {
  return (
    /(?:^|\n)(?:[^\n]*\||[ ]{0,3}>)[^\n]*\r?\n {0,3}\[\^[^\]\s]+\]:/.test(text) ||
    analyzeDocument(text).authorDefinitions.some((d) => d.duplicateLabel)
  );
}

/** The HTML before the footnotes list. */
function bodyOf(html: string): string {
  return html.split(/<hr class="footnotes-sep">|<section data-footnotes=""/)[0]!;
}

/** Elements a renderer makes of HTML or Markdown in text: links (not footnotes'), images, raw HTML. */
function madeOf(html: string): string[] {
  // micromark links `www.` followed by anything, even a blank: an author's `www.` that ended a line
  // becomes a link once a citation follows it, whatever the citation is
  html = html.replace(/<a href="http:\/\/www">(www)<\/a>/gi, '$1');
  const raw = [...html.matchAll(/<(img|script|iframe|div|span|b|i|u|br|font|object|embed)[\s>/]/g)].map((m) => m[1]!);
  return [...outsideLinks(html), ...raw].sort();
}

const hostileSource: fc.Arbitrary<CitationSource> = fc.record({
  docName: fc
    .oneof(
      source.map((s) => s.docName),
      hostileLine,
    )
    .filter((s) => s.trim() !== ''),
  chunkIndex: fc.nat({ max: 1000 }),
  kbName: fc.oneof(
    source.map((s) => s.kbName),
    hostileLine,
  ),
  kbCode: hostileLine,
});

describe('citations rendered: insertion, renumbering and the preview plugin', () => {
  it('property: a footnote inserted anywhere in a bulletin is one more footnote reference, and makes no link, image or HTML', () => {
    fc.assert(
      fc.property(bulletin, fc.nat(), hostileSource, (text, pos, s) => {
        const r = insertCitation(text, pos % (text.length + 1), s);
        if (!r.ok || ambiguous(text)) return;
        const out = applyEdits(text, r.edits);
        // a renderer shows no footnote that nothing references, nor what is written in it
        const model = analyzeDocument(text);
        const lineStart = text.lastIndexOf('\n', r.offset - 1) + 1;
        const opened = /^ {0,3}\[\^([^\]\s]+)\]:/.exec(text.slice(lineStart))?.[1];
        const unshown =
          (opened !== undefined && !text.split(`[^${opened}]`).some((after, i) => i > 0 && !after.startsWith(':'))) ||
          model.authorDefinitions.some(
            (d) =>
              d.range.start <= r.offset &&
              r.offset <= d.range.end &&
              !model.references.some((x) => !x.ours && x.label === d.label),
          );
        // a cursor in a link's text or an e-mail address splits it: the link is the author's to lose; a
        // bare URL that runs into Chinese text ends where the renderers guess, and a citation put
        // after its ASCII part ends it there (src/citations/bareUrl.ts)
        const head = /\S*$/.exec(text.slice(0, r.offset))![0];
        const word = head + /^\S*/.exec(text.slice(r.offset))![0];
        const url = /(?:(?:[a-z][a-z\d+.-]*:)?\/\/|www\.|mailto:)[\x21-\x3b\x3d\x3f-\x7e]*/i.exec(word);
        const runsOn = url !== null && url.index + url[0].length <= head.length && /\P{ASCII}/u.test(word);
        if (unshown || runsOn || /\]\(|@/.test(word)) return;
        for (const [name, render] of Object.entries(RENDERERS)) {
          const before = render(shown(text));
          const after = render(shown(out));
          const what = `${name}: ${JSON.stringify(text)} → ${JSON.stringify(out)}\n${after.html}`;
          assert.equal(after.refs, before.refs + 1, what);
          // nothing new (what the author's text loses at the cursor, a hard line break, is not made)
          const had = madeOf(bodyOf(before.html));
          const made = madeOf(bodyOf(after.html)).filter((m) => {
            const i = had.indexOf(m);
            if (i >= 0) had.splice(i, 1);
            return i < 0;
          });
          assert.deepEqual(made, [], what);
        }
      }),
      { numRuns: runs(60) },
    );
  });

  it('property: renumbering changes nothing a reader sees but the numbers', () => {
    const ours = fc.array(fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 5 })), { maxLength: 6 });
    const uses = fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 6 });
    fc.assert(
      fc.property(bulletin, ours, uses, ending, fc.boolean(), (base, defs, used, e, removeUnused) => {
        // labels the author's footnotes use are not ours to define again (our insertion never does;
        // written by hand, the renderers show the first definition and renumbering may change which)
        const seen = new Set<number>(analyzeDocument(base).authorLabels.map(Number));
        const lines = defs
          .filter(([l]) => !seen.has(l) && seen.add(l))
          .map(([l, c]) => `[^${l}]: d${c}.docx#${c} — kb (K)`);
        const text = withEnding(
          `${base.replace(/\r\n/g, '\n')}\n\n正文${used.map((u) => `[^${u}]`).join('，')}。\n\n## 参考资料\n\n${lines.join('\n')}\n`,
          e,
        );
        if (ambiguous(text)) return;
        const out = applyEdits(text, renumber(text, { mergeDuplicates: false, removeUnused }).edits);
        // a footnote's id carries its label, and a reference with no definition shows its label
        const seen2 = (html: string): string =>
          html.replace(/(user-content-fn(?:ref)?-)[^"]*/g, '$1#').replace(/\[\^\d+\]/g, '[^#]');
        for (const [name, render] of Object.entries(RENDERERS))
          assert.equal(
            seen2(render(shown(out)).html),
            seen2(render(shown(text)).html),
            `${name}: ${JSON.stringify(text)} → ${JSON.stringify(out)}`,
          );
      }),
      { numRuns: runs(60) },
    );
  });

  for (const [name, factory] of [
    ['markdown-it 12', md12],
    ['markdown-it 15', markdownIt],
  ] as const) {
    it(`property: the preview plugin on ${name} shows each citation once and no outside text as a link, image or HTML`, () => {
      const md = vscodeEngine(factory).use(citationsPlugin, { passageText: (c) => `${c.docName}<b>"x"</b>` });
      // the author's prose: both scripts' brackets and punctuation, bidi controls, but no URL or link
      // of its own (random runs found its brackets making `[]()`, an empty link, and `[【]:【`, a link
      // reference definition: the author's Markdown, not outside text)
      const prose = fc
        .array(fc.constantFrom(...PUNCTUATION, ...BIDI, '茶园', '修剪', ' '), { minLength: 1, maxLength: 8 })
        .map((p) => p.join(''))
        .filter((p) => !/\]\(|\]:/.test(p));
      const cite = fc.tuple(prose, hostileSource, fc.constantFrom('footnote', 'inline'));
      fc.assert(
        fc.property(fc.array(cite, { minLength: 1, maxLength: 4 }), ending, (cites, e) => {
          // paragraphs of prose, each ending with its citation (inserted from the last, so offsets hold)
          let text = cites.map(([p]) => p).join('\n\n');
          const ends = cites.map((_, i) => cites.slice(0, i + 1).reduce((n, [p]) => n + p.length + 2, -2));
          for (let i = cites.length - 1; i >= 0; i--) {
            const [, s, style] = cites[i]!;
            const r = insertCitation(text, ends[i]!, s, { style: style as 'footnote' | 'inline' });
            assert.ok(r.ok, r.ok ? '' : r.message);
            text = applyEdits(text, r.edits);
          }
          text = withEnding(text, e);
          const html = md.render(text);
          const what = `${JSON.stringify(text)}\n${html}`;
          const footnotes = cites.filter(([, , st]) => st === 'footnote').length;
          const inline = cites.length - footnotes;
          assert.equal((html.match(/<sup class="footnote-ref">/g) ?? []).length, footnotes, what);
          assert.equal((html.match(/<sup class="shunong-cite"/g) ?? []).length, inline, what);
          assert.ok((html.match(/<span class="shunong-source">/g) ?? []).length <= footnotes, what);
          // markdown-it 12 links a bare URL in a definition whatever its escaping (the limit in src/text/markdown.ts)
          const linked = name === 'markdown-it 12' ? html.replace(/<a href="[^"#][^"]*">([^<]*)<\/a>/g, '$1') : html;
          const tags = [...linked.matchAll(/<([a-z0-9]+)([^>]*)>/g)].map((m) => `${m[1]}${m[2]}`);
          for (const t of tags)
            assert.match(
              t,
              /^(p|h2|hr class="footnotes-sep"|section class="footnotes"|ol class="footnotes-list"|li id="fn\d+" class="footnote-item"|sup class="footnote-ref"|a( title="[^"<>]*")? href="#fn\d+" id="fnref\d+(:\d+)?"|a href="#fnref\d+(:\d+)?" class="footnote-backref"|span class="shunong-source"|sup class="shunong-cite"( title="[^"<>]*")?)$/,
              what,
            );
        }),
        { numRuns: runs(60) },
      );
    });
  }
});
