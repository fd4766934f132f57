/**
 * The preview plugin on markdown-it 12 and 15 configured as VS Code's preview configures them
 * (html on, linkify on with fuzzyLink off, breaks and typographer off).
 */
import assert from 'node:assert/strict';
import markdownIt from 'markdown-it';
import md12 from 'markdown-it-12';
import footnote from 'markdown-it-footnote';
import { citationsPlugin, firstWords, type PreviewOptions } from '../../../src/citations';
import { footnoteTail } from '../../../src/citations/footnoteTail';
import { original } from '../../../src/citations/parser';
import { vscodeEngine } from '../../support/renderers';

const BULLETIN = [
  '# 茶园管理',
  '',
  '> 春季修剪。 [^1]',
  '',
  '作者的注释[^note]，行内引用〔茶树农事操作.docx#2〕，未定义[^9]，坏的〔a.docx#x〕。',
  '',
  'Use `[^1]` and `〔a.docx#1〕` in code.',
  '',
  '## 参考资料',
  '',
  '[^1]: 2026 \\_草稿\\_ 茶树\\*重点\\*.docx#0 — 茶树管理 (TEA_MANAGER_001)',
  '[^2]: a.docx#x — 茶树管理 (TEA)',
  '',
  '[^note]: 作者自己的注释。',
  '',
  'x[^2]',
  '',
].join('\n');

for (const [name, factory] of [
  ['markdown-it 12', md12],
  ['markdown-it 15', markdownIt],
] as const) {
  describe(`citations/citationsPlugin on ${name}`, () => {
    const render = (src: string, opts?: PreviewOptions, before?: 'footnote-first' | 'footnote-after'): string => {
      const md = vscodeEngine(factory);
      if (before === 'footnote-first') md.use(footnote);
      md.use(citationsPlugin, opts);
      if (before === 'footnote-after') md.use(footnote);
      return md.render(src);
    };

    it('renders footnotes as footnotes: superscript numbers, a numbered list, links back', () => {
      const html = render(BULLETIN);
      assert.match(html, /<sup class="footnote-ref"><a [^>]*href="#fn1" id="fnref1">\[1\]<\/a><\/sup>/);
      assert.match(html, /<sup class="footnote-ref"><a href="#fn2" id="fnref2">\[2\]<\/a><\/sup>/, 'the author’s');
      assert.equal((html.match(/<section class="footnotes">/g) ?? []).length, 1);
      assert.equal((html.match(/<li id="fn\d+" class="footnote-item">/g) ?? []).length, 3);
      assert.equal((html.match(/class="footnote-backref"/g) ?? []).length, 3);
      assert.match(html, /<li id="fn2" class="footnote-item"><p>作者自己的注释。 <a href="#fnref2"/);
    });

    it('shows our source unescaped with its knowledge base, and titles its reference', () => {
      const html = render(BULLETIN);
      assert.match(
        html,
        /<span class="shunong-source">2026 _草稿_ 茶树\*重点\*\.docx#0<\/span> — 茶树管理 \(TEA_MANAGER_001\)/,
      );
      assert.match(html, /<a title="2026 _草稿_ 茶树\*重点\*\.docx#0 — 茶树管理" href="#fn1" id="fnref1">/);
      const withPassage = render(BULLETIN, {
        passageText: (c) => (c.chunkIndex === 0 ? `  春季  修剪\n要点：${'剪'.repeat(100)}` : undefined),
      });
      assert.match(withPassage, /<a title="春季 修剪 要点：剪+…" href="#fn1"/);
      assert.equal(firstWords('abc def ghi', 8), 'abc def…');
    });

    it('renders the inline style as a superscript source label', () => {
      const html = render(BULLETIN, { passageText: (c) => (c.chunkIndex === 2 ? '修剪后施肥' : undefined) });
      assert.match(html, /<sup class="shunong-cite" title="修剪后施肥">茶树农事操作\.docx#2<\/sup>/);
      assert.match(html, /<code>〔a\.docx#1〕<\/code>/, 'nothing in code');
      assert.match(html, /<code>\[\^1\]<\/code>/);
    });

    it('marks an undefined reference and malformed citations, in the given language', () => {
      const english = render(BULLETIN);
      const reason = 'Malformed citation: &quot;x&quot; is not a non-negative integer chunk_index';
      assert.match(english, new RegExp(`<span class="shunong-malformed" title="${reason}">〔a\\.docx#x〕</span>`));
      const html = render(BULLETIN, {
        text: {
          undefinedReference: (l) => `脚注 [^${l}] 没有定义。`,
          malformed: (f) => `引用有误：${f.error} ${f.subject}`,
        },
      });
      assert.match(html, /<span class="shunong-undefined" title="脚注 \[\^9\] 没有定义。">\[\^9\]<\/span>/);
      assert.match(html, /<span class="shunong-malformed" title="引用有误：bad-chunk-index x">〔a\.docx#x〕<\/span>/);
      assert.match(
        html,
        /<li id="fn3" class="footnote-item"><p><span class="shunong-malformed" title="引用有误：bad-chunk-index x">a\.docx#x — /,
      );
    });

    it('escapes every field; server text never becomes HTML, bidi controls show', () => {
      const src = [
        'x[^1] y〔\\<img src=x onerror=alert(1)\\>#1〕',
        '',
        '[^1]: \\<script\\>alert(1)\\</script\\>&#x202E;gnp.exe#0 — \\<b\\>kb\\</b\\> (\\<i\\>K\\</i\\>)',
        '',
      ].join('\n');
      const html = render(src, { passageText: () => '"><script>alert(2)</script>' });
      assert.doesNotMatch(html, /<script|<img|<b>|<i>/);
      assert.match(
        html,
        /&lt;script&gt;alert\(1\)&lt;\/script&gt;&lt;U\+202E&gt;gnp\.exe#0<\/span> — &lt;b&gt;kb&lt;\/b&gt;/,
      );
      assert.match(html, /title="&quot;&gt;&lt;script&gt;alert\(2\)&lt;\/script&gt;"/);
      assert.match(html, /<sup class="shunong-cite"[^>]*>&lt;img src=x onerror=alert\(1\)&gt;#1<\/sup>/);
    });

    it("a passage holding $&, $' or $` shows as written in its reference's title (found by a rendering property)", () => {
      const html = render('x[^1]\n\n[^1]: a.docx#0 — kb (K)\n', { passageText: () => "$& $' $` $<b>" });
      assert.match(html, /<a title="\$&amp; \$' \$` \$&lt;b&gt;" href="#fn1" id="fnref1">\[1\]<\/a>/);
    });

    it('builds on a footnote plugin already there, and drops a second list when one comes after', () => {
      const alone = render(BULLETIN);
      for (const order of ['footnote-first', 'footnote-after'] as const) {
        const html = render(BULLETIN, {}, order);
        assert.equal((html.match(/<section class="footnotes">/g) ?? []).length, 1, order);
        assert.equal(html, alone, order);
      }
    });
  });
}

describe('citations/citationsPlugin rules', () => {
  const engine = (): ReturnType<typeof vscodeEngine> => vscodeEngine(markdownIt);
  const render = (src: string, setup: (md: ReturnType<typeof vscodeEngine>) => void = () => {}): string => {
    const md = engine();
    md.use(citationsPlugin);
    setup(md);
    return md.render(src);
  };

  it('an undefined reference is titled in English unless the host gives its words', () => {
    assert.match(
      render(BULLETIN),
      /<span class="shunong-undefined" title="Footnote \[\^9\] has no definition\.">\[\^9\]<\/span>/,
    );
  });

  it('a title is a passage’s first words: all when they fit, else cut at a space past the middle, or at the maximum', () => {
    assert.equal(firstWords('字'.repeat(80)), '字'.repeat(80));
    assert.equal(firstWords('字'.repeat(81)), `${'字'.repeat(80)}…`);
    assert.equal(firstWords('abcd', 4), 'abcd');
    assert.equal(firstWords('abcdefghij', 8), 'abcdefgh…');
    assert.equal(firstWords('abcdefghijkl mn', 8), 'abcdefgh…');
    assert.equal(firstWords('abcde fghij', 8), 'abcde…');
    assert.equal(firstWords('abcd efghij', 8), 'abcd efg…', 'a space at the middle is not past it');
  });

  it('a footnote plugin already there is used as it is; without one, markdown-it-footnote comes with the linear tail', () => {
    const theirs = engine().use(footnote);
    const tail = original(theirs.core.ruler, 'footnote_tail');
    theirs.use(citationsPlugin);
    assert.equal(original(theirs.core.ruler, 'footnote_tail'), tail);
    const defs = (md: ReturnType<typeof vscodeEngine>): number =>
      (md.block.ruler as unknown as { __rules__: { name: string }[] }).__rules__.filter(
        (r) => r.name === 'footnote_def',
      ).length;
    assert.equal(defs(theirs), 1);
    const ours = engine().use(citationsPlugin);
    assert.equal(original(ours.core.ruler, 'footnote_tail'), footnoteTail);
    assert.equal(defs(ours), 1);
  });

  it('drops every extra footnote list, however many footnote plugins come after it', () => {
    const html = render(BULLETIN, (md) => md.use(footnote).use(footnote));
    assert.equal(html, render(BULLETIN));
  });

  it('its rules can be turned off by name, as markdown-it’s own are', () => {
    const src = 'x[^1] y〔a.docx#1〕 z[^9]\n\n[^1]: a.docx#1 — k (K)\n';
    const on = render(src);
    assert.match(on, /shunong-cite/);
    assert.match(on, /shunong-undefined/);
    assert.match(on, /shunong-source/);
    const off = render(src, (md) => md.disable(['sn_cite', 'sn_ref', 'shunong_citations']));
    assert.doesNotMatch(off, /shunong-/);
    assert.match(off, /y〔a\.docx#1〕 z\[\^9\]/);
    assert.match(off, /<p>a\.docx#1 — k \(K\) <a href="#fnref1"/);
  });

  it('a definition of our form with a second paragraph, or under the author’s label, is shown as written', () => {
    const html = render('x[^1] y[^note]\n\n[^1]: a.docx#1 — k (K)\n\n    更多。\n\n[^note]: b.docx#2 — k (K)\n');
    assert.doesNotMatch(html, /shunong-source|title=/);
    assert.match(html, /<p>a\.docx#1 — k \(K\)<\/p>/);
    assert.match(html, /<p>b\.docx#2 — k \(K\) <a href="#fnref2"/);
  });

  it('a definition of our form with a heading or a table under its paragraph is shown as written, its reference untitled', () => {
    for (const more of ['    # 小结', '    | 甲 |\n    | --- |\n    | c.docx#3 — k (K) |']) {
      const html = render(`x[^1]\n\n[^1]: a.docx#1 — k (K)\n\n${more}\n`);
      assert.doesNotMatch(html, /shunong-source|title=/, more);
      assert.match(html, /<p>a\.docx#1 — k \(K\)<\/p>/, more);
    }
    // nor is one that is a heading, whatever it reads like
    const heading = render('x[^1]\n\n[^1]: # a.docx#1 — k (K)\n');
    assert.doesNotMatch(heading, /shunong-source|title=/);
    assert.match(heading, /<h1>a\.docx#1 — k \(K\)<\/h1>/);
  });
});
