import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runs } from '../fast-check-seed';
import { analyzeDocument, applyEdits, insertCitation, type CitationSource } from '../../../src/citations';
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
      ['#标签\n', 1, '#[^1]标签'],
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
});
