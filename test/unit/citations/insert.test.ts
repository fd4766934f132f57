import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runs } from '../fast-check-seed';
import { analyzeDocument, applyEdits, insertCitation, type CitationSource } from '../../../src/citations';
import { RENDERERS } from '../../support/renderers';
import { anyText, bulletin, flat, source } from './helpers';

const tea: CitationSource = {
  docName: '茶树农事操作.docx',
  chunkIndex: 1,
  kbName: '茶树管理',
  kbCode: 'TEA_MANAGER_001',
};

function insertOk(
  text: string,
  at: number,
  s: CitationSource,
  opts: Parameters<typeof insertCitation>[3] = {},
): { text: string; label?: string } {
  const r = insertCitation(text, at, s, opts);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return { text: applyEdits(text, r.edits), ...(r.label !== undefined ? { label: r.label } : {}) };
}

/** Every renderer shows one footnote reference and one footnote more in `after` than in `before`. */
function assertOneFootnoteMore(before: string, after: string): void {
  for (const [name, render] of Object.entries(RENDERERS)) {
    const was = render(before);
    const now = render(after);
    const what = `${name}: ${JSON.stringify(after)}\n${now.html}`;
    assert.equal(now.refs, was.refs + 1, what);
    assert.equal(now.defs.length, was.defs.length + 1, what);
  }
}

describe('citations/insert', () => {
  it('writes [^1] at the cursor and creates the references section at the end', () => {
    const t = '# 周报\n\n茶园春季管理。\n';
    const { text } = insertOk(t, t.indexOf('。'), tea);
    assert.equal(
      text,
      '# 周报\n\n茶园春季管理[^1]。\n\n## 参考资料\n\n[^1]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)\n',
    );
  });

  it("names a new references section by the document's language unless a heading is set", () => {
    const t = 'Spring tea care.\n';
    const def = '[^1]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)\n';
    assert.equal(insertOk(t, 0, tea, { lang: 'en' }).text, `[^1]Spring tea care.\n\n## References\n\n${def}`);
    assert.equal(insertOk(t, 0, tea, { lang: 'zh' }).text, `[^1]Spring tea care.\n\n## 参考资料\n\n${def}`);
    assert.equal(insertOk(t, 0, tea, { lang: 'zh', referencesHeading: '' }).text.includes('## 参考资料'), true);
    const set = insertOk(t, 0, tea, { lang: 'en', referencesHeading: '## 参考文献' }).text;
    assert.equal(set, `[^1]Spring tea care.\n\n## 参考文献\n\n${def}`);
  });

  it('knows both 参考资料 and References as the references section when no heading is set; only the set one when it is', () => {
    for (const heading of ['参考资料', 'References']) {
      const t = `a [^1] b\n\n## ${heading}\n\n[^1]: x.docx#1 — k (K)\n`;
      for (const lang of ['zh', 'en'] as const) {
        const out = insertOk(t, t.indexOf(' b'), tea, { lang }).text;
        assert.equal(out.match(/^## /gm)?.length, 1, `${heading} ${lang}: one section`);
        assert.ok(out.endsWith('[^1]: x.docx#1 — k (K)\n[^2]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)\n'));
      }
      assert.equal(analyzeDocument(t).referencesSection?.headingLine, 2);
      assert.equal(analyzeDocument(t, { referencesHeading: '参考文献' }).referencesSection, undefined);
    }
  });

  it('reuses the number of the same source, skips author labels, keeps number order', () => {
    let t =
      '甲[^2]乙[^a]丙\n\n[^2]: 作者的二。\n[^a]: 作者的 a。\n\n## 参考资料\n\n[^1]: x.docx#5 — k (K)\n[^4]: y.docx#6 — k (K)\n';
    const r1 = insertCitation(t, t.indexOf('丙'), { ...tea, docName: 'x.docx', chunkIndex: 5 });
    assert.ok(r1.ok && r1.reused && r1.label === '1' && r1.edits.length === 1);
    t = insertOk(t, t.indexOf('丙'), tea).text;
    assert.match(t, /丙/);
    assert.ok(t.includes('[^4]: y.docx#6 — k (K)\n[^5]: 茶树农事操作.docx#1'));
    t = insertOk(t, 0, { ...tea, chunkIndex: 9 }, { referencesHeading: '参考资料' }).text;
    assert.ok(t.startsWith('[^6]甲'));
  });

  it('puts a definition in number order inside an existing section, with CRLF kept', () => {
    const t =
      'a [^1] b [^3]\r\n\r\n## 参考资料\r\n\r\n[^1]: x.docx#1 — k (K)\r\n[^3]: z.docx#3 — k (K)\r\n\r\n## 附录\r\n';
    const r = insertCitation(t, 1, tea);
    assert.ok(r.ok);
    assert.equal(r.label, '4');
    const out = applyEdits(t, r.edits);
    assert.ok(
      out.includes('[^3]: z.docx#3 — k (K)\r\n[^4]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)\r\n\r\n## 附录'),
      out,
    );
  });

  it('writes the inline style and refuses code, HTML and front matter', () => {
    const t = '---\nx: 1\n---\n正文`code`。\n\n```\nfence\n```\n\n<div>\nhtml\n</div>\n';
    assert.equal(
      insertOk(t, t.indexOf('。'), tea, { style: 'inline' }).text.includes('正文`code`〔茶树农事操作.docx#1〕。'),
      true,
    );
    for (const [at, error] of [
      [t.indexOf('x: 1'), 'in-front-matter'],
      [t.indexOf('ode'), 'in-code'],
      [t.indexOf('fence'), 'in-code'],
      [t.indexOf('html'), 'in-html'],
    ] as const) {
      const r = insertCitation(t, at, tea);
      assert.ok(!r.ok && r.error === error, `${at} ${error}`);
    }
  });

  it('moves out of a link destination or entity instead of breaking it', () => {
    const t = '见[链接](http://x.y/abc) &amp; 后文\n';
    const out = insertOk(t, t.indexOf('abc'), tea).text;
    assert.ok(out.startsWith('见[链接](http://x.y/abc)[^1] &amp;'), out);
    const out2 = insertOk(t, t.indexOf('amp'), tea, { style: 'inline' }).text;
    assert.ok(out2.includes('&amp;〔'), out2);
  });

  it('inside an unclosed `[^…` the citation stays a citation (found by the property below)', () => {
    const t = 'aa[^aaa\n\n';
    for (let at = 0; at <= t.length; at++) {
      const out = insertOk(t, at, tea).text;
      assert.deepEqual(
        analyzeDocument(out).references.map((r) => r.label),
        ['1'],
        JSON.stringify(out),
      );
    }
    assert.equal(insertOk(t, 5, tea).text.split('\n')[0], 'aa[^a[^1]aa');
  });

  it('a line holding only an ideographic space (U+3000) is text, not a blank line (found by the property below)', () => {
    // before the author's footnote: the quote is closed by a real blank line, so the footnote stays one
    const t1 = '\n\u3000\n[^note]: 作者自己的注释，不要动。\n\n';
    const r1 = insertCitation(t1, 0, tea, { snippet: { text: '', as: 'blockquote' } });
    assert.ok(r1.ok);
    const out1 = applyEdits(t1, r1.edits);
    assert.ok(out1.startsWith('> [^1]\n\n\u3000\n[^note]:'), JSON.stringify(out1));
    assert.deepEqual(
      analyzeDocument(out1).authorDefinitions.map((d) => d.label),
      ['note'],
    );
    // after it: the `\u3000` line continues the footnote, so the citation goes after a blank line
    const t2 = '[^7]: 作者自己的第七条。\n    续行。\n\u3000\n\n';
    const out2 = insertOk(t2, t2.length - 1, tea).text;
    const m = analyzeDocument(out2);
    assert.equal(
      out2.slice(m.authorDefinitions[0]!.range.start, m.authorDefinitions[0]!.range.end),
      '[^7]: 作者自己的第七条。\n    续行。\n\u3000',
    );
    assert.deepEqual(
      m.references.map((r) => r.label),
      ['1'],
    );
  });

  it('a snippet after a footnote goes after its last line of text, not onto an indented blank line (found by the property below)', () => {
    for (const t of [
      '[^7]: 作者自己的第七条。\n    续行。\n\n\n\n\t\n',
      '[^7]: 作者自己的第七条。\n    续行。\n| 作物 | 建议 |\n| --- | --- |\n| 茶 | 修剪 |\n\n\t\n',
    ]) {
      const r = insertCitation(t, 0, tea, { snippet: { text: '', as: 'blockquote' } });
      assert.ok(r.ok);
      const out = applyEdits(t, r.edits);
      const m = analyzeDocument(out);
      assert.equal(
        out.slice(m.authorDefinitions[0]!.range.start, m.authorDefinitions[0]!.range.end),
        t.slice(0, t.indexOf('\n\n')),
        JSON.stringify(out),
      );
      assert.deepEqual(
        m.references.map((x) => x.label),
        ['1'],
      );
    }
  });

  it('a citation in an empty heading keeps it a heading (found by a rendering property)', () => {
    for (const [t, at, want] of [
      ['#\n', 1, '# [^1]'],
      ['前文\n\n###\n', 7, '前文\n\n### [^1]'],
      ['  ## \n', 4, '  ## [^1] '],
      ['> ##\n', 4, '> ## [^1]'],
      ['- # #\n', 3, '- # [^1] #'],
      ['#标签\n', 1, '#[^1]标签'],
      ['# 标题\n', 4, '# 标题[^1]'],
      // a `#` that ends the heading's text is no empty heading
      ['# 标题#\n', 5, '# 标题#[^1]'],
    ] as const) {
      const out = insertOk(t, at, tea).text;
      assert.equal(out.split('\n\n## 参考资料')[0], want, JSON.stringify(t));
    }
  });

  it('writes an escaped snippet as a blockquote ending with its citation', () => {
    const t = '第一段。\n\n第二段。\n';
    const snippet = '# 标题\n| a | b |\n|---|---|\n`code` <b>x</b> & [^1] 〔d#1〕\n\n1. 列表';
    const r = insertCitation(t, 1, tea, { snippet: { text: snippet, as: 'blockquote' } });
    assert.ok(r.ok);
    const out = applyEdits(t, r.edits);
    assert.equal(
      out.split('## 参考资料')[0],
      '第一段。\n\n> \\# 标题\n> \\| a \\| b \\|\n> \\|---\\|---\\|\n> \\`code\\` \\<b\\>x\\</b\\> \\& \\[^1\\] &#x3014;d#1&#x3015;\n>\n> 1\\. 列表 [^1]\n\n第二段。\n\n',
    );
    const m = analyzeDocument(out);
    assert.equal(m.references.length, 1);
    assert.equal(m.inlineCitations.length, 0);
  });

  it('property: any source inserted anywhere is found again, and nothing else changes', () => {
    fc.assert(
      fc.property(
        bulletin,
        fc.nat(),
        source,
        fc.constantFrom('footnote', 'inline') as fc.Arbitrary<'footnote' | 'inline'>,
        fc.option(
          fc.tuple(anyText, fc.constantFrom('blockquote', 'paragraph') as fc.Arbitrary<'blockquote' | 'paragraph'>),
          { nil: undefined },
        ),
        (text, pos, s, style, snip) => {
          const before = analyzeDocument(text);
          const at = pos % (text.length + 1);
          const r = insertCitation(text, at, s, {
            style,
            ...(snip !== undefined ? { snippet: { text: snip[0], as: snip[1] } } : {}),
          });
          if (!r.ok) return;
          for (const e of r.edits) assert.equal(e.start, e.end, 'insertions only');
          const out = applyEdits(text, r.edits);
          const after = analyzeDocument(out);
          const want = { docName: flat(s.docName), chunkIndex: s.chunkIndex };
          if (style === 'inline') {
            assert.equal(after.inlineCitations.length, before.inlineCitations.length + 1);
            assert.equal(
              after.inlineCitations.filter(
                (c) => c.citation && c.citation.docName === want.docName && c.citation.chunkIndex === want.chunkIndex,
              ).length,
              before.inlineCitations.filter(
                (c) => c.citation && c.citation.docName === want.docName && c.citation.chunkIndex === want.chunkIndex,
              ).length + 1,
            );
          } else {
            const defs = after.definitions.filter((d) => d.label === r.label);
            assert.equal(defs.length, 1);
            assert.deepEqual(defs[0]!.citation, want);
            assert.equal(defs[0]!.kbName, flat(s.kbName));
            assert.equal(
              after.references.filter((x) => x.label === r.label).length,
              before.references.filter((x) => x.label === r.label).length + 1,
            );
            assert.equal(after.definitions.length, before.definitions.length + (r.reused ? 0 : 1));
          }
          // the author's footnotes are untouched (unless the cursor was in one's text) and every other reference stays
          assert.deepEqual(
            after.authorDefinitions.map((d) => d.label),
            before.authorDefinitions.map((d) => d.label),
          );
          const shift = r.inserted.length;
          before.authorDefinitions.forEach((d, i) => {
            if (d.range.start <= r.offset && r.offset <= d.range.end) return;
            const moved = d.range.start > r.offset ? shift : 0;
            const now = after.authorDefinitions[i]!;
            assert.equal(now.range.start, d.range.start + moved);
            assert.equal(out.slice(now.range.start, now.range.end), text.slice(d.range.start, d.range.end));
          });
          assert.equal(after.references.length, before.references.length + (style === 'footnote' ? 1 : 0));
          assert.equal(after.inlineCitations.length - before.inlineCitations.length, style === 'inline' ? 1 : 0);
        },
      ),
      { numRuns: runs(400) },
    );
  });
});

describe('citations/insert at the end of a document', () => {
  const src: CitationSource = {
    docName: '茶树农事操作.docx',
    chunkIndex: 1,
    kbName: '茶树管理',
    kbCode: 'TEA_MANAGER_001',
  };
  const section = '## 参考资料\n\n[^1]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)\n';
  for (const tail of ['', '\n', '\n\n', '\n\n\n']) {
    it(`keeps exactly one blank line before a new references section (text ending ${JSON.stringify(tail)})`, () => {
      const t = `夏季管理要点如下。${tail}`;
      const snippet = insertCitation(t, t.length, src, { snippet: { text: '浅修。', as: 'blockquote' } });
      assert.ok(snippet.ok);
      assert.match(
        applyEdits(t, snippet.edits),
        new RegExp(`> 浅修。 ?\\[\\^1\\]\\n\\n${section.replace(/[[\]^().#]/g, '\\$&')}$`),
      );
      const ref = insertCitation(t, t.length, src, {});
      assert.ok(ref.ok);
      assert.ok(applyEdits(t, ref.edits).endsWith(`[^1]\n\n${section}`));
    });
  }

  it('puts a blank line between the citation and a new references section when the cursor is on any empty line at the end', () => {
    for (const tail of ['\n\n', '\n\n\n', '\n\n\n\n']) {
      const t = `夏季管理要点如下。${tail}`;
      for (let at = '夏季管理要点如下。\n'.length; at <= t.length; at++) {
        for (const opts of [{}, { snippet: { text: '浅修。', as: 'blockquote' as const } }]) {
          const r = insertCitation(t, at, src, opts);
          assert.ok(r.ok);
          const out = applyEdits(t, r.edits);
          // the author's blank lines after the cursor stay
          assert.match(out, /\[\^1\]\n\n+## 参考资料\n\n\[\^1\]: /, JSON.stringify(out));
          assertOneFootnoteMore(t, out);
        }
      }
    }
  });
});

describe('citations/insert: where the cursor may be', () => {
  it('refuses a source with a blank doc name or a chunk index that is not a non-negative safe integer', () => {
    const t = '茶园春季管理。\n';
    for (const bad of [
      { ...tea, docName: ' \t' },
      { ...tea, chunkIndex: -1 },
      { ...tea, chunkIndex: 1.5 },
      { ...tea, chunkIndex: Number.NaN },
      { ...tea, chunkIndex: 2 ** 53 },
    ]) {
      const r = insertCitation(t, 0, bad);
      assert.ok(!r.ok && r.error === 'invalid-source', JSON.stringify(bad));
    }
    for (const good of [
      { ...tea, chunkIndex: 0 },
      { ...tea, docName: ' 茶.docx ' },
      { ...tea, chunkIndex: 2 ** 53 - 1 },
    ])
      assert.ok(insertCitation(t, 0, good).ok, JSON.stringify(good));
  });

  it('each refusal explains itself in its own sentence', () => {
    const cases: [string, number, CitationSource, string][] = [
      ['甲\n', 0, { ...tea, docName: '' }, 'invalid-source'],
      ['`code`\n', 2, tea, 'in-code'],
      ['<div>\nhtml\n</div>\n', 7, tea, 'in-html'],
      ['---\nx: 1\n---\n甲\n', 5, tea, 'in-front-matter'],
      ['甲[^1]\n\n## 参考资料\n\n[^1]: x.docx#1 — k (K)\n', 12, tea, 'in-references'],
      ['甲\n\n---\n', 3, tea, 'not-in-text'],
      ['甲\n\n```\ncode\n', 0, tea, 'unclosed-block'],
    ];
    const messages = cases.map(([t, at, s, error]) => {
      const r = insertCitation(t, at, s);
      assert.ok(!r.ok && r.error === error, `${JSON.stringify(t)}: ${error}`);
      assert.match(r.message, /^[A-Z][^\n]+\.$/, error);
      return r.message;
    });
    assert.equal(new Set(messages).size, messages.length);
  });

  it('a cursor between CR and LF puts the citation before the line break, which stays whole', () => {
    const t = '甲\r\n乙\r\n';
    const out = insertOk(t, '甲\r'.length, tea).text;
    assert.ok(out.startsWith('甲[^1]\r\n乙\r\n\r\n## 参考资料\r\n'), JSON.stringify(out));
    assertOneFootnoteMore(t, out);
    // after a CR that ends a line alone, the cursor is on the next line
    const cr = '甲\r乙\r';
    assert.ok(insertOk(cr, '甲\r'.length, tea).text.startsWith('甲\r[^1]乙\r'));
  });

  it("refuses the references section's heading and our definition lines, not the author's footnotes or the text before them", () => {
    const t = '甲[^1]乙[^a]\n\n[^a]: 作者的注。\n\n## 参考资料\n\n[^1]: x.docx#1 — k (K)\n';
    for (const on of ['## 参考', '[^1]: x', '[^1]: x.docx#1 — k (K)']) {
      const r = insertCitation(t, t.indexOf(on) + on.length, tea);
      assert.ok(!r.ok && r.error === 'in-references', on);
    }
    for (const at of [1, t.indexOf('作者')]) {
      const out = insertOk(t, at, tea).text;
      assertOneFootnoteMore(t, out);
    }
  });
});

describe('citations/insert: the text written at the cursor', () => {
  /** The footnote reference is a paragraph of its own in every renderer. */
  function assertOwnParagraph(out: string): void {
    for (const [name, render] of Object.entries(RENDERERS)) {
      const html = render(out).html;
      assert.match(html, /<p><sup[^>]*><a [^>]*>\[?1\]?<\/a><\/sup><\/p>/, `${name}: ${JSON.stringify(out)}\n${html}`);
    }
  }

  it('on an empty line the citation is a paragraph of its own, one blank line from its neighbours, none added where one is', () => {
    for (const [t, at, want] of [
      ['甲\n\n乙\n', 2, '甲\n\n[^1]\n\n乙\n'],
      ['甲\n\n\n乙\n', 2, '甲\n\n[^1]\n\n乙\n'],
      ['甲\n\n\n乙\n', 3, '甲\n\n[^1]\n\n乙\n'],
      ['\n\n乙\n', 0, '[^1]\n\n乙\n'],
      ['> 甲\n\n> 乙\n', 4, '> 甲\n\n[^1]\n\n> 乙\n'],
    ] as const) {
      const out = insertOk(t, at, tea).text;
      assert.equal(out.split('\n\n## 参考资料')[0], want.slice(0, -1), JSON.stringify(t));
      assertOwnParagraph(out);
    }
  });

  it('refuses an empty line inside a list, quote or footnote (text there would end it) and a line with no text', () => {
    for (const [t, at] of [
      ['- 甲\n\n- 乙\n', '- 甲\n'.length],
      ['> 甲\n>\n> 乙\n', '> 甲\n'.length],
      ['[^a]: 甲\n\n    乙\n\n正文[^a]\n', '[^a]: 甲\n'.length],
      ['甲\n\n---\n', '甲\n\n'.length],
      ['甲\n\n***\n', '甲\n\n*'.length],
    ] as const) {
      const r = insertCitation(t, at, tea);
      assert.ok(!r.ok && r.error === 'not-in-text', JSON.stringify(t));
    }
    // after the list, quote or footnote has ended: a paragraph of its own
    for (const [t, at] of [
      ['- 甲\n- 乙\n\n\n后文\n', '- 甲\n- 乙\n\n'.length],
      ['[^a]: 甲\n\n\n正文[^a]\n', '[^a]: 甲\n\n'.length],
      // nothing but blank lines follow in the footnote
      ['[^a]: 甲\n\n\n正文[^a]\n', '[^a]: 甲\n'.length],
    ] as const) {
      const out = insertOk(t, at, tea).text;
      assertOneFootnoteMore(t, out);
      assertOwnParagraph(out);
    }
  });

  it('in a table row, the citation goes into the cell nearest the cursor', () => {
    const t = '| 作物 | 建议 |\n| --- | --- |\n| 茶 | 修剪 |\n';
    const row = '| 作物 | 建议 |\n| --- | --- |\n';
    for (const [cursor, line] of [
      ['|', '| [^1]茶 | 修剪 |'],
      ['| 茶', '| 茶[^1] | 修剪 |'],
      ['| 茶 ', '| 茶[^1] | 修剪 |'],
      ['| 茶 |', '| 茶 | [^1]修剪 |'],
      ['| 茶 | 修', '| 茶 | 修[^1]剪 |'],
      ['| 茶 | 修剪 |', '| 茶 | 修剪[^1] |'],
    ] as const) {
      const out = insertOk(t, row.length + cursor.length, tea).text;
      assert.equal(out.split('\n')[2], line, cursor);
      assertOneFootnoteMore(t, out);
    }
  });

  it('on a later line of a paragraph, the citation goes on that line', () => {
    const t = '甲一\n乙二\n丙三\n';
    for (const [cursor, want] of [
      ['甲一\n乙', '甲一\n乙[^1]二\n丙三'],
      ['甲一\n乙二', '甲一\n乙二[^1]\n丙三'],
      ['甲一\n乙二\n', '甲一\n乙二\n[^1]丙三'],
      ['甲一\n乙二\n丙三', '甲一\n乙二\n丙三[^1]'],
    ] as const) {
      const out = insertOk(t, cursor.length, tea).text;
      assert.equal(out.split('\n\n')[0], want, cursor);
    }
    // in a quote and a list item: after the markers, before the text
    for (const [t2, cursor, want] of [
      ['> 甲\n> 乙\n', '> 甲\n>', '> 甲\n> [^1]乙'],
      ['- 甲\n  乙\n', '- 甲\n ', '- 甲\n  [^1]乙'],
    ] as const) {
      const out = insertOk(t2, cursor.length, tea).text;
      assert.equal(out.split('\n\n')[0], want, cursor);
      assertOneFootnoteMore(t2, out);
    }
  });
});

describe('citations/insert: what keeps a citation a citation', () => {
  it('after an odd run of backslashes (it would escape the `[`) or a `^` (an inline footnote) a space comes first; after an even run none', () => {
    for (const [t, want] of [
      ['路径 C:\\', '路径 C:\\ [^1]'],
      ['路径 C:\\\\', '路径 C:\\\\[^1]'],
      ['路径 C:\\\\\\', '路径 C:\\\\\\ [^1]'],
      ['2^', '2^ [^1]'],
    ] as const) {
      for (const rest of ['', ' 后文']) {
        const text = t + rest;
        const out = insertOk(text, t.length, tea).text;
        assert.equal(out.split('\n')[0], want + rest, JSON.stringify(text));
        assertOneFootnoteMore(text, out);
      }
    }
  });

  it('before a `(`, a `[` or a `:` a space comes after it (else a link, a reference link or, at a line start, a definition); before other marks none', () => {
    for (const [t, at, want] of [
      ['见(附表)。\n', 1, '见[^1] (附表)。'],
      ['见[附表]。\n\n[附表]: http://x.y\n', 1, '见[^1] [附表]。'],
      [':后文\n', 0, '[^1] :后文'],
      ['见（附表）\n', 1, '见[^1]（附表）'],
      ['见{附表}\n', 1, '见[^1]{附表}'],
    ] as const) {
      const out = insertOk(t, at, tea).text;
      assert.equal(out.split('\n')[0], want, JSON.stringify(t));
      assertOneFootnoteMore(t, out);
    }
  });
});

describe('citations/insert: the definition', () => {
  const def = (n: number): string => `[^${n}]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)`;

  it("goes after the section's last definition, whatever their order; ours outside the section do not count", () => {
    const t =
      '甲[^3][^1][^2]\n\n[^2]: y.docx#2 — k (K)\n\n## 参考资料\n\n[^3]: z.docx#3 — k (K)\n[^1]: x.docx#1 — k (K)\n\n## 附录\n\n[^5]: w.docx#5 — k (K)\n';
    const { text, label } = insertOk(t, 1, tea);
    assert.equal(label, '6');
    assert.ok(text.includes(`[^1]: x.docx#1 — k (K)\n${def(6)}\n\n## 附录`), text);
    assertOneFootnoteMore(t, text);
  });

  it('in a section with no definition yet: one blank line under the heading, and one before any text that follows it', () => {
    for (const [t, want] of [
      ['甲\n\n## 参考资料\n', `甲[^1]\n\n## 参考资料\n\n${def(1)}\n`],
      ['甲\n\n## 参考资料', `甲[^1]\n\n## 参考资料\n\n${def(1)}`],
      ['甲\n\n## 参考资料\n\n乙\n', `甲[^1]\n\n## 参考资料\n\n${def(1)}\n\n乙\n`],
      // text right under the heading would otherwise continue the definition
      ['甲\n\n## 参考资料\n乙\n', `甲[^1]\n\n## 参考资料\n\n${def(1)}\n\n乙\n`],
      ['甲\n\n## 参考资料\n\n## 附录\n', `甲[^1]\n\n## 参考资料\n\n${def(1)}\n\n## 附录\n`],
    ] as const) {
      const out = insertOk(t, 1, tea).text;
      assert.equal(out, want, JSON.stringify(t));
      assertOneFootnoteMore(t, out);
    }
    // ours above the section do not count
    const above = '甲[^2]\n\n[^2]: y.docx#2 — k (K)\n\n## 参考资料\n';
    const out = insertOk(above, 0, tea).text;
    assert.ok(out.endsWith(`## 参考资料\n\n${def(3)}\n`), out);
    assertOneFootnoteMore(above, out);
  });

  it('a new references section at the end is one blank line after the text, whatever the text ends with', () => {
    for (const [t, eol] of [
      ['甲\n乙', '\n'],
      ['甲\n乙\n', '\n'],
      ['甲\n乙\n\n', '\n'],
      ['甲\r\n乙', '\r\n'],
      ['甲\r\n乙\r\n', '\r\n'],
      ['甲\r\n乙\r\n\r\n', '\r\n'],
    ] as const) {
      const out = insertOk(t, 1, tea).text;
      assert.equal(out, `甲[^1]${eol}乙${eol}${eol}## 参考资料${eol}${eol}${def(1)}${eol}`, JSON.stringify(t));
    }
    // blank lines the author left at the end stay
    assert.ok(insertOk('甲\n\n\n', 1, tea).text.startsWith('甲[^1]\n\n\n## 参考资料\n'));
  });

  it('refuses to add a references section where the document ends inside an unclosed fence or raw HTML block', () => {
    const open = [
      '```\ncode\n',
      '```',
      '~~~\ncode\n``\n',
      '````\ncode\n```\n',
      '```\ncode\n~~~\n',
      '```\ncode\n`a``\n',
      '<!-- 注释\n',
      '  <!-- 注释\n',
      '<?php echo 1;\n',
      '<![CDATA[ x\n',
      '<![CDATA[ a > b\n',
      '<!DOCTYPE html\n',
      '<script>\nx\n',
      '<SCRIPT>\nx\n',
      '<pre>\nx\n',
      '<style>\nx\n',
      '<textarea>\nx\n',
      // the name at the document's very end, no line break after it
      '<pre',
    ];
    const closed = [
      '```\ncode\n```',
      '```\ncode\n```\n',
      '```\ncode\n````\n',
      '```\ncode\n ``` \n',
      '~~~\ncode\n~~~\n',
      '```\ncode\n```\n\n',
      '<!-- 注释 -->\n',
      '<!-- 注释\n-->\n',
      // an empty comment or instruction closes itself, as every renderer reads it
      '<!-->\n',
      '<!--->\n',
      '<?>\n',
      '<?php echo 1; ?>\n',
      '<![CDATA[ x ]]>\n',
      '<!DOCTYPE html>\n',
      '<SCRIPT>\nx\n</script>\n',
      '<pre>\nx\n</PRE>\n',
      '<pre>\nx</style>\n',
      // indented code is no raw HTML, whatever it shows
      '    <!-- 注释\n',
      // ended by a blank line (or the end of the document), as every block of HTML but those above
      '<div>\nx\n',
      '<div>\nx\n\n后文\n',
      // what only opens such a block at the line start is text inside another
      '<div>\n<!-- 注释\n',
      // a tag whose name only starts like one of those: ended by a blank line too
      '<preview>\nx\n',
      '<scripture>\nx\n',
    ];
    for (const block of open) {
      const r = insertCitation(`甲\n\n${block}`, 1, tea);
      assert.ok(!r.ok && r.error === 'unclosed-block', JSON.stringify(block));
      // with a section already there, nothing is appended, so nothing falls inside the block
      const t = `甲[^1]\n\n## 参考资料\n\n[^1]: x.docx#1 — k (K)\n\n${block}`;
      assertOneFootnoteMore(t, insertOk(t, 1, tea).text);
    }
    for (const block of closed) {
      const t = `甲\n\n${block}`;
      const out = insertOk(t, 1, tea).text;
      assert.ok(out.endsWith(`## 参考资料\n\n${def(1)}\n`), JSON.stringify(out));
      assertOneFootnoteMore(t, out);
    }
  });
});

describe('citations/insert: a cited snippet', () => {
  const quote = { snippet: { text: '摘录', as: 'blockquote' as const } };

  /** Each renderer shows the snippet as a quote of its own, holding the one footnote reference. */
  function assertOwnQuote(before: string, out: string): void {
    assertOneFootnoteMore(before, out);
    for (const [name, render] of Object.entries(RENDERERS)) {
      const html = render(out).html;
      assert.match(
        html,
        /<blockquote>\n<p>摘录 <sup[^>]*><a [^>]*>\[?1\]?<\/a><\/sup><\/p>\n<\/blockquote>/,
        `${name}: ${html}`,
      );
    }
  }

  it('goes after the whole paragraph, list or table under the cursor, one blank line from what follows', () => {
    for (const [t, at, want] of [
      ['甲一\n甲二\n\n乙\n', 1, '甲一\n甲二\n\n> 摘录 [^1]\n\n乙\n'],
      ['甲\n# 乙\n', 1, '甲\n\n> 摘录 [^1]\n\n# 乙\n'],
      ['- 甲\n- 乙\n\n丙\n', 3, '- 甲\n- 乙\n\n> 摘录 [^1]\n\n丙\n'],
      ['- 甲\n\n  甲续\n- 乙\n丙\n', 3, '- 甲\n\n  甲续\n- 乙\n丙\n\n> 摘录 [^1]\n'],
      ['| a | b |\n| - | - |\n| c | d |\n\n丙\n', 3, '| a | b |\n| - | - |\n| c | d |\n\n> 摘录 [^1]\n\n丙\n'],
    ] as const) {
      const out = insertOk(t, at, tea, quote).text;
      assert.equal(out.split('\n## 参考资料')[0], want, JSON.stringify(t));
      assertOwnQuote(t, out);
    }
  });

  it('on an empty line goes there, one blank line from each neighbour', () => {
    for (const [t, at] of [
      ['甲\n\n乙\n', 2],
      ['甲\n\n\n乙\n', 2],
      ['甲\n\n\n乙\n', 3],
    ] as const) {
      const out = insertOk(t, at, tea, quote).text;
      assert.equal(out.split('\n## 参考资料')[0], '甲\n\n> 摘录 [^1]\n\n乙\n', JSON.stringify(t));
      assertOwnQuote(t, out);
    }
  });
});

describe('citations/insert: the cursor and the number', () => {
  it('a cursor before the start or past the end of the text is taken as the start or the end', () => {
    const t = '茶园春季管理。';
    assert.ok(insertOk(t, -5, tea).text.startsWith('[^1]茶园'));
    assert.ok(insertOk(t, t.length + 10, tea).text.startsWith('茶园春季管理。[^1]\n'));
  });

  it('an inline citation on the last, empty line keeps the document ending with a line break', () => {
    assert.equal(insertOk('甲\n\n', 3, tea, { style: 'inline' }).text, '甲\n\n〔茶树农事操作.docx#1〕\n');
    assert.equal(insertOk('甲\n\n\n', 3, tea, { style: 'inline' }).text, '甲\n\n〔茶树农事操作.docx#1〕\n');
    const snippet = { text: '摘录', as: 'blockquote' as const };
    assert.equal(
      insertOk('甲\n\n', 3, tea, { style: 'inline', snippet }).text,
      '甲\n\n> 摘录 〔茶树农事操作.docx#1〕\n',
    );
  });

  it('an inline citation is one edit, with no label and nothing reused', () => {
    const r = insertCitation('甲。\n', 1, tea, { style: 'inline' });
    assert.deepEqual(r, {
      ok: true,
      edits: [{ start: 1, end: 1, newText: '〔茶树农事操作.docx#1〕' }],
      reused: false,
      inserted: '〔茶树农事操作.docx#1〕',
      offset: 1,
    });
  });

  it('does not reuse a label defined a second time (a renderer shows the first definition, another source)', () => {
    const t =
      '甲[^1]\n\n## 参考资料\n\n[^1]: x.docx#1 — k (K)\n[^1]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)\n';
    const r = insertCitation(t, t.indexOf('[^1]'), tea);
    assert.ok(r.ok && !r.reused && r.label === '2', JSON.stringify(r));
    const out = applyEdits(t, r.edits);
    for (const [name, render] of Object.entries(RENDERERS))
      assert.ok(
        render(out).defs.some((d) => d.startsWith('茶树农事操作.docx#1')),
        `${name}: ${render(out).html}`,
      );
  });

  it('does not reuse a number written in code after an unclosed `[^`', () => {
    const r = insertCitation('见 `[^注 [^1]` 。\n', 0, tea);
    assert.ok(r.ok && r.label === '2', JSON.stringify(r));
  });

  it('skips a number of several digits written anywhere as `[^n]`, in code too', () => {
    const t = '甲[^9]，见 `[^10]`。\n\n## 参考资料\n\n[^9]: x.docx#1 — k (K)\n';
    const r = insertCitation(t, 1, tea);
    assert.ok(r.ok && r.label === '11', JSON.stringify(r));
  });

  it('midway between two table cells, the citation ends the cell before', () => {
    const t = '| 茶 |  修剪 |\n| --- | --- |\n';
    const out = insertOk(t, '| 茶 |'.length, tea).text;
    assert.equal(out.split('\n')[0], '| 茶[^1] |  修剪 |');
    assertOneFootnoteMore(t, out);
  });

  it('in a row with an empty cell or fewer cells than the header, the citation goes inside the row, never before its first pipe', () => {
    const head = '| 作物 | 建议 |\n| --- | --- |\n';
    // the row, split at the cursor, and the row written
    for (const [before, after, line] of [
      // an empty cell is just after the pipe opening it
      ['', '|| 修剪 |', '|[^1]| 修剪 |'],
      ['|', '| 修剪 |', '|[^1]| 修剪 |'],
      ['> ', '|| 修剪 |', '> |[^1]| 修剪 |'],
      // so is an empty last cell's, with the cursor in its blanks or after the row's closing pipe
      // (a citation there would be a cell the header lacks, which no renderer shows)
      ['| 茶 | ', ' |', '| 茶 |[^1]  |'],
      ['| 茶 |  |', '', '| 茶 |[^1]  |'],
      // a cell the row lacks is at the row's end: after a closing pipe, the citation fills it
      ['', '| 茶 |', '| [^1]茶 |'],
      ['', '| 茶', '| [^1]茶'],
      ['| 茶 |', '', '| 茶 |[^1]'],
    ] as const) {
      const top = before.startsWith('>') ? head.replace(/^/gm, '> ').slice(0, -2) : head;
      const t = `${top}${before}${after}\n`;
      const out = insertOk(t, top.length + before.length, tea).text;
      assert.equal(out.split('\n')[2], line, JSON.stringify(before + after));
      assertOneFootnoteMore(t, out);
    }
  });

  it("at the end of a heading in a list or quote, the citation ends the heading's text, not the marker holding the same text", () => {
    for (const line of ['1. # 1', '> # >', '- ## - ##']) {
      const t = `${line}\n`;
      const out = insertOk(t, line.length, tea).text;
      const text = line.endsWith('##') ? line.slice(0, -3) : line;
      assert.equal(out.split('\n')[0], `${text}[^1]${line.slice(text.length)}`, line);
      assertOneFootnoteMore(t, out);
    }
  });
});

describe('citations/insert: next to a bare URL', () => {
  it('an escape, an entity or a lone backtick is part of the URL before the cursor; a link or code span ends it', () => {
    const s: CitationSource = { docName: 'a.docx', chunkIndex: 0, kbName: 'kb', kbCode: 'K' };
    for (const [text, before, line] of [
      // GFM runs the URL on over `\_`: the citation would join it
      ['详见 https://a.cn/x\\_y', '详见 https://a.cn/x\\_y', '详见 https://a.cn/x\\_y [^1]'],
      // so does it over an entity and over a backtick that opens no code span
      ['详见 https://a.cn/x&amp;y', '详见 https://a.cn/x&amp;y', '详见 https://a.cn/x&amp;y [^1]'],
      ['详见 https://a.cn/x`y 后', '详见 https://a.cn/x`y', '详见 https://a.cn/x`y [^1] 后'],
      ['详见 https://a.cn/x``y', '详见 https://a.cn/x``y', '详见 https://a.cn/x``y [^1]'],
      // after the link, its destination is no bare URL the cursor is in
      ['[x](https://a.cn/y)abc def', '[x](https://a.cn/y)ab', '[x](https://a.cn/y)ab[^1]c def'],
      // a URL that a code span ends: at the cursor, after a space
      ['https://a.cn/x`code`', 'https://a.cn/x', 'https://a.cn/x [^1]`code`'],
    ] as const) {
      const r = insertCitation(text, before.length, s);
      assert.ok(r.ok);
      const out = applyEdits(text, r.edits);
      assert.equal(out.split('\n')[0], line, text);
      assertOneFootnoteMore(text, out);
    }
  });
});
