/**
 * What we write renders as we mean it in every renderer we target (test/support/renderers.ts):
 * a citation inserted after any prose is exactly one footnote whose text is the source as the author
 * reads it, never glued to a bare URL before it; no Markdown or HTML in a doc_name or kb text takes
 * effect; the lint flags a citation glued to a bare URL by hand.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runs } from '../fast-check-seed';
import { analyzeDocument, applyEdits, insertCitation, lint, type CitationSource } from '../../../src/citations';
import { escapeRegExp } from '../../../src/text/regExp';
import { asRead, RENDERERS, textOf, type Rendered } from '../../support/renderers';
import { anyText, flat, outsideLinks } from './helpers';

/** Words of prose as authors write them around links, and Markdown punctuation. */
const proseWord = fc.constantFrom(
  '详见',
  '茶园',
  ' ',
  '\u3000',
  'https://www.agri.gov.cn/notice',
  'http://a.cn/x_y',
  'https://a.cn/p?q=1&r=2',
  '//cdn.a.cn/f',
  'ftp://a.cn/',
  'www.agri.gov.cn',
  'WWW.A.CN/x',
  'a@b.cn',
  'mailto:a@b.cn',
  // after a blank: GFM would read `www.a.cn[链接](…)` as one literal, the author's link lost before we insert anything
  ' <https://a.cn>',
  ' [链接](https://a.cn/x)',
  ' `https://a.cn/code`',
  '*',
  '_',
  '~',
  '.',
  ',',
  ')',
  '(',
  '!',
  '?',
  ':',
  '-',
  '/',
  '&amp;',
  '1',
  'a',
  '。',
  '〔',
);
const prose = fc.array(proseWord, { minLength: 1, maxLength: 8 }).map((w) => w.join(''));

/** Doc names and kb texts holding Markdown, HTML, links and bidi controls. */
const hostileWord = fc.constantFrom(
  '2026 _草稿_ 茶树*重点*.docx',
  'R&amp;D<br>报告.pdf',
  '**粗**',
  '~~删~~',
  '~单~',
  '`代码`',
  '[x](y)',
  '![i](u)',
  '<!-- c -->',
  '<span>t</span>',
  '&#65;',
  '&copy;',
  'https://a.cn/a.pdf',
  'www.a.cn',
  'a@b.cn',
  '//b.cn/c',
  '\u202egnp.exe',
  '\u2066x\u2069',
  '[^2]',
  '^[脚注]',
  '\\',
  '#',
  '# ',
  '> ',
  '- ',
  '1. ',
  '|',
  '$x$',
  ':smile:',
  ' — ',
  '(K)',
);
const hostile = fc.oneof(
  anyText.filter((s) => !s.includes('\u0000')),
  fc.array(fc.oneof(hostileWord, anyText), { minLength: 1, maxLength: 4 }).map((w) => w.join('')),
);
const hostileSource: fc.Arbitrary<CitationSource> = fc.record({
  docName: hostile.filter((s) => s.trim() !== ''),
  chunkIndex: fc.nat({ max: 1000 }),
  kbName: hostile,
  kbCode: hostile,
});

/** The definition's text as a reader should see it. */
function expected(s: CitationSource): string {
  return asRead(`${flat(s.docName)}#${s.chunkIndex} — ${flat(s.kbName)} (${flat(s.kbCode)})`);
}

/**
 * A definition reads as its source. In markdown-it 12 a link it made of a URL shape (the limit in
 * src/text/markdown.ts) shows linkify's own normalisation of the address (`https://=:7` as
 * `https://:7=`, as a random seed found), so there the text outside its links reads as the source,
 * in order, and each link stands for some of the source's characters.
 */
function assertReadsAsSource(renderer: string, def: string, want: string, message: string): void {
  const links = /<a href="(?!#)[^"]*">[\s\S]*?<\/a>/g;
  if (renderer !== 'markdown-it 12' || def.search(links) < 0) {
    assert.equal(asRead(textOf(def)), want, message);
    return;
  }
  const outside = def.split(links).map((part) => asRead(textOf(part)));
  const inOrder = outside.map(escapeRegExp).join('[\\s\\S]+');
  assert.match(want, new RegExp(`^${inOrder}$`), message);
}

/** Tags a definition may hold in a renderer: none, except markdown-it 12's links of bare URLs (see the README). */
function strayTags(renderer: string, html: string): string[] {
  const tags = html.match(/<[^>]+>/g) ?? [];
  return renderer === 'markdown-it 12' ? tags.filter((t) => !/^<a href="[^"]*">$|^<\/a>$/.test(t)) : tags;
}

/** A citation of each kind as written after some text, and when a renderer has lost it: a footnote
 * reference when it is no reference any more, an inline citation when a link holds it. */
const GLUE = {
  reference: { written: '[^1]\n\n[^1]: a.docx#0 — kb (K)', lost: (r: Rendered) => r.refs !== 1 },
  inline: { written: '〔a.docx#0〕', lost: (r: Rendered) => outsideLinks(r.html).some((l) => l.includes('〕')) },
} as const;

/** Whether the lint flags the text's citation as glued to a bare URL. */
function flaggedGlued(text: string): boolean {
  return lint(text).some((p) => p.code === 'glued-to-url');
}

/** Measured cases of one renderer: it loses a citation of `kind` after each of `taken`, and after none of `notTaken`; the lint flags exactly those. */
function assertMeasured(kind: keyof typeof GLUE, renderer: string, taken: string[], notTaken: string[]): void {
  for (const [before, glued] of [
    ...taken.map((b) => [b, true] as const),
    ...notTaken.map((b) => [b, false] as const),
  ]) {
    const text = `${before}${GLUE[kind].written}\n`;
    assert.equal(GLUE[kind].lost(RENDERERS[renderer]!(text)), glued, `${renderer} after ${before}`);
    assert.equal(flaggedGlued(text), glued, `the lint after ${before}`);
  }
}

describe('citations rendered (markdown-it 12 and 15 as VS Code runs them, micromark + GFM)', () => {
  it('property: a citation inserted after any prose is exactly one footnote reading as its source', () => {
    fc.assert(
      fc.property(prose, hostileSource, (before, s) => {
        const r = insertCitation(before, before.length, s);
        fc.pre(r.ok);
        if (!r.ok) return;
        const out = applyEdits(before, r.edits);
        assert.deepEqual(
          lint(out).filter((p) => p.code === 'glued-to-url'),
          [],
          'our insertion is not glued',
        );
        for (const [name, render] of Object.entries(RENDERERS)) {
          const got = render(out);
          assert.equal(got.refs, 1, `${name}: one reference in ${JSON.stringify(out)}\n${got.html}`);
          assert.equal(got.defs.length, 1, `${name}: one definition in ${JSON.stringify(out)}\n${got.html}`);
          assertReadsAsSource(name, got.defs[0]!, expected(s), `${name}: ${JSON.stringify(out)}\n${got.html}`);
          assert.deepEqual(strayTags(name, got.defs[0]!), [], `${name}: no Markdown/HTML in ${got.defs[0]}`);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('a kb_code markdown-it 12 links and rewrites (random seed -837256442) is still one footnote reading as its source outside the link', () => {
    const s = { docName: 'a', chunkIndex: 0, kbName: '', kbCode: 'https://=:7' };
    const r = insertCitation('详见', 2, s);
    assert.ok(r.ok);
    const out = applyEdits('详见', r.edits);
    for (const [name, render] of Object.entries(RENDERERS)) {
      const got = render(out);
      assert.equal(got.refs, 1, name);
      assert.equal(got.defs.length, 1, name);
      assertReadsAsSource(name, got.defs[0]!, expected(s), `${name}: ${got.html}`);
    }
    assert.equal(asRead(textOf(RENDERERS['markdown-it 15']!(out).defs[0]!)), 'a#0 — (https://=:7)');
  });

  it('property: an inline citation inserted after any prose stays text outside any link', () => {
    fc.assert(
      fc.property(prose, hostileSource, (before, s) => {
        const r = insertCitation(before, before.length, s, { style: 'inline' });
        fc.pre(r.ok);
        if (!r.ok) return;
        const out = applyEdits(before, r.edits);
        const want = asRead(`〔${flat(s.docName)}#${s.chunkIndex}〕`);
        for (const [name, render] of Object.entries(RENDERERS)) {
          const html = render(out).html;
          assert.ok(asRead(textOf(html)).includes(want), `${name}: ${JSON.stringify(out)} → ${html}`);
          // no link runs into it; markdown-it 12 links a URL or e-mail address inside a doc name whatever
          // its escaping (it merges escapes into the text before linkify: see the README)
          if (name === 'markdown-it 12' && /\/\/|@/.test(s.docName)) continue;
          const links = [...html.matchAll(/<a [^>]*>([\s\S]*?)<\/a>/g)].map((m) => textOf(m[1]!));
          assert.ok(!links.some((l) => l.includes('〕')), `${name}: ${JSON.stringify(out)} → ${html}`);
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it('a citation inserted before `(`, `[` or a line-start `:` stays one footnote, not a link text or a definition', () => {
    const s: CitationSource = { docName: '茶树农事操作.docx', chunkIndex: 1, kbName: '茶树管理', kbCode: 'TEA' };
    // glued, markdown-it reads `茶树[^1](见附件)` as a link to 见附件, `[^1][附件]` as a link to the
    // author's [附件] and `[^1]: 见附件` as a second definition: the footnote is lost
    for (const [text, at] of [
      ['茶树(见附件)。\n', '茶树'.length],
      ['茶树[附件]。\n\n[附件]: https://a.cn/f.pdf\n', '茶树'.length],
      [': 见附件。\n', 0],
    ] as const) {
      const r = insertCitation(text, at, s);
      assert.ok(r.ok);
      const out = applyEdits(text, r.edits);
      for (const [name, render] of Object.entries(RENDERERS)) {
        const html = render(out).html;
        assert.equal(render(out).refs, 1, `${name}: one footnote reference in ${JSON.stringify(out)}\n${html}`);
        assert.equal(render(out).defs.length, 1, `${name}: one definition in ${JSON.stringify(out)}\n${html}`);
        const links = outsideLinks(html);
        if (text.startsWith('茶树('))
          assert.deepEqual(links, [], `${name}: no link in ${JSON.stringify(out)}\n${html}`);
        else assert.ok(!links.some((l) => l.includes('^')), `${name}: ${JSON.stringify(out)}\n${html}`);
      }
    }
  });

  it('separates a citation from a bare URL before it, in every insertion path', () => {
    const s: CitationSource = { docName: 'a.docx', chunkIndex: 0, kbName: 'kb', kbCode: 'K' };
    const text = '详见 https://www.agri.gov.cn/notice';
    const foot = insertCitation(text, text.length, s);
    assert.ok(foot.ok);
    assert.equal(foot.inserted, ' [^1]\n\n');
    const inline = insertCitation(text, text.length, s, { style: 'inline' });
    assert.ok(inline.ok);
    assert.equal(inline.inserted, ' 〔a.docx#0〕');
    const mid = insertCitation(`${text}，请查阅。`, text.length, s);
    assert.ok(mid.ok);
    assert.equal(mid.inserted, ' [^1]');
    // not where nothing would glue: after a Chinese word, an e-mail address, a link or a code span
    for (const t of ['茶园', '写信 a@b.cn', '[链接](https://a.cn/x)', '`https://a.cn/x`', '<https://a.cn/x>']) {
      const r = insertCitation(t, t.length, s);
      assert.ok(r.ok);
      assert.equal(r.inserted.trimEnd(), '[^1]', t);
    }
  });

  it('property: the lint flags a citation glued to a bare URL whenever a renderer loses it, and a footnote reference only then', () => {
    // URLs of every schema and case, each followed by what ends a host (or by the citation itself),
    // after the characters the renderers' boundaries tell apart
    const url = fc.constantFrom(
      'https://www.agri.gov.cn/notice',
      'http://a.cn',
      'HTTPS://A.CN',
      'https://a.cn/p?q=1&r=2',
      'http://a.cn/x_y',
      'https://a.cn/x｜',
      'ftp://a.cn',
      'ftp://a.cn/',
      'FTP://a.cn/f?x',
      'ftp://a.cn/f>',
      '//cdn.a.cn/f',
      'www.agri.gov.cn',
      'WWW.A.CN/x',
      'www.a.cn<b',
      'mailto:a@b.cn',
      'a@b.cn',
      'ed2k://a.cn/x',
      'ftp://农业.cn/f',
    );
    const stop = fc.constantFrom(' ', '，', '。', ' 茶园', '\u3000');
    const tail = fc.constantFrom('', '茶园', '。', '，', '.', ')', '(ab)', '{ab}', '/_x', '!', '©');
    // no brackets: `[` and `]` start a link's syntax, a rule of the renderers' parsers, not of their URLs
    const other = fc.constantFrom(
      ...['详见', '茶园', ' ', '\u3000', '\u00a0', 'x', 'X', '1', '。', '：', '<', '>', '｜', '©', '&amp;', '\u202e'],
      ...['*', '_', '~', '.', ',', ')', '(', '!', '?', ':', '-', '+', '/', '#', '$', '=', '|'],
    );
    const word = fc.oneof(
      other,
      fc.tuple(url, stop).map(([u, s]) => u + s),
    );
    const before = fc
      .tuple(fc.array(word, { maxLength: 6 }), fc.option(fc.tuple(url, tail)))
      .map(([w, u]) => `见${w.join('')}${u ? u.join('') : ''}`);
    fc.assert(
      fc.property(before, fc.constantFrom('reference', 'inline' as const), (b, kind) => {
        const text = `${b}${GLUE[kind].written}\n`;
        const model = analyzeDocument(text);
        fc.pre((kind === 'reference' ? model.references : model.inlineCitations).length === 1);
        const lost = Object.entries(RENDERERS)
          .filter(([, render]) => GLUE[kind].lost(render(text)))
          .map(([name]) => name);
        const flagged = flaggedGlued(text);
        // an inline citation may be flagged where markdown-it 12's linkify ends a URL early (see bareUrl.ts)
        if (kind === 'inline' && flagged) return;
        assert.equal(
          flagged,
          lost.length > 0,
          `${kind} after ${JSON.stringify(b)}: lost in ${lost.join(', ') || 'none'}`,
        );
      }),
      { numRuns: runs(1000) },
    );
  });

  it('a footnote reference after an ftp:// link is flagged exactly where markdown-it 15 takes it into the link', () => {
    // measured: markdown-it 15 links a schema as it parses the line, so an ftp:// link with a path takes a
    // following [^1], balanced brackets included; GFM has no ftp:// links
    const taken = [
      ...['见 ftp://a.cn/f', '见 ftp://a.cn/f[ab]', '见 ftp://a.cn/f(ab)', '见 ftp://a.cn/f{ab}', 'ftp://农业.cn/f'],
      ...['见_ftp://a.cn/f', '见@ftp://a.cn/f', '详见ftp://a.cn/f?x', '见 FTP://a.cn/f#x'],
    ];
    const notTaken = [
      ...['见 ftp://a.cn', '见 ftp://a.cn/f(a b)', '见.ftp://a.cn/f', '见-ftp://a.cn/f', 'xftp://a.cn/f'],
      ...['见 ftp://a.cn/，', '见 ftp://a.cn/f)', '见 ftp://a.cn，/f', '见 //cdn.a.cn/f'],
    ];
    assertMeasured('reference', 'markdown-it 15', taken, notTaken);
  });

  it('an inline citation after a bare URL is flagged wherever markdown-it 12 takes it into the link, not after a URL with no path or one that has ended', () => {
    // measured: markdown-it 12 links once the line is parsed, when an inline citation is still text
    const taken = [
      ...[
        '见 ftp://a.cn/x',
        '见(ftp://a.cn/x',
        '见，ftp://a.cn/x',
        '见<FTP://a.cn/f?x',
        '见 ftp://a.cn?x',
        '见 ftp://a.cn#x',
      ],
      ...[
        '见 //a.cn/x',
        '见(//a.cn/x',
        'ftp://农业.cn/f',
        '见 ftp://a.cn/f(ab)',
        '见 ftp://a.cn/x）',
        '见 http://a.cn/x，.<',
      ],
      // a `.`, `,`, `;`, `!` or `?` takes the `>` after it into the link (found by the property below)
      ...['见 ftp://a.cn/f?>', '见 ftp://a.cn/f.>', '见 ftp://a.cn/f,>', '见 ftp://a.cn/f;>', '见 ftp://a.cn/f!>'],
      '见https://www.agri.gov.cn/notice FTP://a.cn/f?x。?>',
    ];
    const notTaken = [
      ...['见 ftp://a.cn', '见 //a.cn', '见 ftp://a.cn/x>', '见 ftp://a.cn/x｜', '见 https://a.cn/x y'],
      ...['见 ftp://a.cn/f:>', '见 ftp://a.cn/f->', '见 ftp://a.cn/f?x?>y>'],
    ];
    assertMeasured('inline', 'markdown-it 12', taken, notTaken);
  });

  it('never splits a bare URL: a cursor inside one, or in letters glued before one, puts the citation after it', () => {
    const s: CitationSource = { docName: 'a.docx', chunkIndex: 0, kbName: 'kb', kbCode: 'K' };
    const url = 'https://www.agri.gov.cn/notice/2026?id=7#part';
    const cases: [string, string, string][] = [
      // text, where the cursor is (after this), the line the citation gives
      [`详见 ${url}，请查阅。`, '详见 https://www.agri', `详见 ${url} [^1]，请查阅。`],
      [`详见 ${url}`, '详见 https:/', `详见 ${url} [^1]`],
      [`See ${url} today.`, 'See https://www.agri.gov.cn/notice/2026?id=7#pa', `See ${url} [^1] today.`],
      ['见 www.agri.gov.cn/x 即可', '见 www.agr', '见 www.agri.gov.cn/x [^1] 即可'],
      ['写 mailto:a@b.cn 即可', '写 mail', '写 mailto:a@b.cn[^1] 即可'],
      // no renderer links a URL glued to a letter before it, so the citation after it needs no space
      ['ahttps://a.cn/x', 'a', 'ahttps://a.cn/x[^1]'],
      ['茶园ahttps://a.cn/x', '茶园a', '茶园ahttps://a.cn/x[^1]'],
      ['茶园https://a.cn/x', '茶园', '茶园https://a.cn/x [^1]'],
      ['茶园ed2k://a.cn/x', '茶园', '茶园ed2k://a.cn/x[^1]'],
      ['茶园12https://a.cn/x', '茶园1', '茶园12https://a.cn/x [^1]'],
      // after a link, in the text that follows it: where the author put it
      ['写 mailto:a@b.cn，请查阅', '写 mailto:a@b.cn，请', '写 mailto:a@b.cn，请[^1]查阅'],
      ['见 //a.cn/x 即可', '见 //a', '见 //a.cn/x[^1] 即可'],
      ['wwwwwww.agri.cn', 'wwww', 'wwwwwww.agri.cn[^1]'],
      // a code span or an escape earlier on the line changes nothing
      ['`代码` 见 https://a.cn/x/y 即可', '`代码` 见 https://a.cn/x', '`代码` 见 https://a.cn/x/y [^1] 即可'],
      ['茶园www.agri.cn', '茶园', '茶园www.agri.cn[^1]'],
      ['`www.agri.gov.cn/x', '`', '`www.agri.gov.cn/x[^1]'],
      ['https://a.cn/p?q=1`', 'https://a.cn', 'https://a.cn/p?q=1` [^1]'],
      // before a link, after a space or in Chinese text before it: where the author put it
      [`详见 ${url}`, '详见 ', `详见 [^1]${url}`],
      [`茶园管理要点如下，详见 ${url}`, '茶园管理要点', `茶园管理要点[^1]如下，详见 ${url}`],
      ['要点如下，详见https://a.cn/x', '要点', '要点[^1]如下，详见https://a.cn/x'],
      ['茶园https://a.cn/x', '茶', '茶[^1]园https://a.cn/x'],
      ['茶园ahttps://a.cn/x', '茶', '茶[^1]园ahttps://a.cn/x'],
    ];
    for (const [text, before, line] of cases) {
      assert.ok(text.startsWith(before), before);
      const r = insertCitation(text, before.length, s);
      assert.ok(r.ok, text);
      const out = applyEdits(text, r.edits);
      assert.equal(out.split('\n')[0], line, text);
      for (const [name, render] of Object.entries(RENDERERS)) {
        const was = render(text);
        const now = render(out);
        assert.equal(now.refs, was.refs + 1, `${name}: ${out}`);
        // every link stays, whole; one that ran on into Chinese text now ends with its URL
        const shown = (html: string): string[] => outsideLinks(html).map((l) => l.slice(l.indexOf('" ') + 2));
        assert.deepEqual(
          shown(now.html),
          shown(was.html).map((t) => t.replace(/\P{ASCII}[\s\S]*$/u, '')),
          `${name}: ${out}`,
        );
      }
    }
  });

  it('does not reuse a number written as [^n] anywhere, in code too (markdown-it 12 may read it as a reference)', () => {
    const s: CitationSource = { docName: 'w', chunkIndex: 0, kbName: '', kbCode: '' };
    const text = '[\nUse `[^1]` in code, and `〔a.docx#1〕` too.\n`';
    const r = insertCitation(text, 0, s);
    assert.ok(r.ok);
    assert.equal(r.label, '2');
    const out = applyEdits(text, r.edits);
    for (const [name, render] of Object.entries(RENDERERS)) assert.equal(render(out).refs, render(text).refs + 1, name);
  });

  it('the lint flags a citation glued to a bare URL and fixes it with a space', () => {
    const text = '详见 https://www.agri.gov.cn/notice[^1]，或 www.a.cn〔a.docx#1〕。\n\n[^1]: a.docx#0 — kb (K)\n';
    const glued = lint(text).filter((p) => p.code === 'glued-to-url');
    assert.deepEqual(
      glued.map((p) => [p.args[0], p.severity]),
      [
        ['[^1]', 'warning'],
        ['〔a.docx#1〕', 'warning'],
      ],
    );
    const fixed = applyEdits(
      text,
      glued.flatMap((p) => p.fix!.edits),
    );
    assert.equal(fixed.split('\n')[0], '详见 https://www.agri.gov.cn/notice [^1]，或 www.a.cn 〔a.docx#1〕。');
    assert.deepEqual(
      lint(fixed).filter((p) => p.code === 'glued-to-url'),
      [],
    );
    // a link, a code span, an e-mail address before it are not bare URLs a citation glues to
    const fine = '[x](https://a.cn/y)[^1] `https://a.cn/y`[^1] a@b.cn[^1]\n\n[^1]: a.docx#0 — kb (K)\n';
    assert.deepEqual(
      lint(fine).filter((p) => p.code === 'glued-to-url'),
      [],
    );
  });

  it('reads doc names written with the old escaping (only \\, [ and ] escaped) as before', () => {
    const old = 'x[^1]\n\n[^1]: 2026 _草稿_ R&amp;D\\[1\\].docx#3 — 茶树管理 (TEA)\n';
    const m = analyzeDocument(old);
    assert.deepEqual(m.definitions[0]!.citation, { docName: '2026 _草稿_ R&amp;D[1].docx', chunkIndex: 3 });
    assert.deepEqual(m.problems, []);
  });
});
