/**
 * The export reads a bulletin with one parse; the citation analysis (a second parse) runs only when
 * the tokens say something may be broken. Property: whenever the analysis finds an error, the
 * tokens said so; and the references section found from the tokens is the analysis' own.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyzeDocument, applyEdits, insertCitation, type CitationSource } from '../../../src/citations';
import { recognisedHeadings } from '../../../src/citations/analyze';
import { frontMatter } from '../../../src/bulletin/frontMatter';
import { mayBeBroken, parseForPublish, readBulletin } from '../../../src/publish/read';
import { bulletin, fragment, source } from '../citations/helpers';

const risky = fc.constantFrom(
  '见 http://a.b/c[^1]。',
  '见 www.agri.gov.cn[^2]',
  '写信 a@b.cn[^1]',
  '[^1]: dup.docx#1 — 茶 (K)',
  '[^2]: 茶.docx#x — 茶 (K)',
  '甲[^missing]。',
  '乙〔坏引用〕。',
  '丙〔a.docx#1〕。',
  '## 参考资料',
  '## References',
  '### 参考资料',
  '> ## 参考资料',
  '- ## 参考资料',
  '| 参考资料 |\n| --- |\n| x |',
  '[^3]: 作者注。\n\n    ## 参考资料',
);
const doc = fc
  .tuple(
    bulletin,
    fc.array(fc.oneof(risky, fragment), { maxLength: 6 }),
    fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), source), { maxLength: 3 }),
  )
  .map(([base, extra, inserts]) => {
    let text = `${base}\n${extra.join('\n\n')}\n`;
    for (const [at, s] of inserts) {
      const r = insertCitation(text, Math.floor(at * text.length), s as CitationSource);
      if (r.ok) text = applyEdits(text, r.edits);
    }
    return text;
  });

describe('publish: one parse unless something may be broken (property)', () => {
  it('the tokens flag every bulletin in which the analysis finds an error', () => {
    fc.assert(
      fc.property(doc, (text) => {
        const errors = analyzeDocument(text).problems.filter((p) => p.severity === 'error');
        if (errors.length > 0)
          assert.ok(mayBeBroken(parseForPublish(text).tokens, text), `${errors[0]!.message}\n${text}`);
      }),
      { numRuns: 300 },
    );
  });

  it('an empty front matter ends at its second `---`: what follows is read, up to the next thematic break (found by the property below)', () => {
    const text = '---\n---\n> ## 参考资料\n\n正文。\n\n---\n';
    assert.equal(readBulletin(text, { lang: 'zh' }).referencesHeading, '参考资料');
    assert.equal(frontMatter(text).blanked, '   \n   \n> ## 参考资料\n\n正文。\n\n---\n');
    assert.equal(frontMatter('---\r\n...\r\n正文').blanked, '   \r\n   \r\n正文');
  });

  it('an indented paragraph after a blank line continues an unreferenced definition: its references are checked (found by the property above)', () => {
    for (const eol of ['\n', '\r\n']) {
      const text = ['', '[^1]: dup.docx#1 — 茶 (K)', '', '    [^3] 续段', ''].join(eol);
      assert.ok(analyzeDocument(text).problems.some((p) => p.severity === 'error'));
      assert.ok(mayBeBroken(parseForPublish(text).tokens, text));
    }
  });

  it('finds the references section the analysis finds', () => {
    fc.assert(
      fc.property(doc, (text) => {
        const model = analyzeDocument(text);
        const section = model.referencesSection;
        const defs = [...model.definitions, ...model.authorDefinitions];
        // a heading inside an author's footnote (an indented continuation) is the footnote's, not the body's
        if (
          section &&
          defs.some(
            (d) => section.headingLine >= d.line && section.headingLine < ('endLine' in d ? d.endLine : d.line + 1),
          )
        )
          return;
        const read = readBulletin(text, { lang: 'zh' });
        assert.equal(read.referencesHeading !== undefined, section !== undefined, text);
        if (section) {
          assert.ok(recognisedHeadings().has(read.referencesHeading!), text);
          assert.ok(text.split(/\r?\n/)[section.headingLine]!.includes(read.referencesHeading!), text);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads a clean bulletin without the analysis, and a broken one with it', () => {
    assert.equal(mayBeBroken(parseForPublish('甲[^1]。\n\n[^1]: a.docx#1 — 茶 (K)\n').tokens, ''), false);
    const r = readBulletin('甲[^9]。\n', { lang: 'zh' });
    assert.deepEqual(
      r.broken.map((p) => p.code),
      ['undefined-reference'],
    );
  });

  it('flags the citations and definitions the tokens cannot vouch for, each kind on its own', () => {
    const ours = '[^1]: a.docx#1 — 茶 (K)';
    const flagged = (text: string): boolean => mayBeBroken(parseForPublish(text).tokens, text);
    for (const text of [
      '甲[^无]\n',
      '甲〔a.docx#z〕\n',
      `甲[^1]\n\n[^1]: a.docx#z — 茶 (K)\n`,
      '见 http://a.b/c[^1]。\n\n[^1]: a.docx#1 — 茶 (K)\n',
      '见 [a〔b〕](http://a.b/c)\n',
      '[^note]: 作者注\n',
      '[^1]: 见[^2]\n',
      '[^1]: 见〔a.docx#1〕\n',
      `${ours}\n续\n`,
      `${ours}\r\n续\r\n`,
      `${ours}\n\n    续\n`,
      `${ours}\n\n\n\t续\n`,
      `${'正文'.repeat(20)}\n\n${ours}\n续\n`,
      `${ours}\n续写 [^2]: 的样子\n`,
      '[^1]: a.docx#x — 茶 (K)\n',
      '甲[^1]\n\n- [^1]: a.docx#z — 茶 (K)\n',
      `甲[^1]\n\n${ours}\n> [^1]: a.docx#3 — 茶 (K)\n`,
      '甲[^x][^X]\n\n[^x]: 注一\n[^X]: 注二\n',
    ])
      assert.equal(flagged(text), true, text);
    for (const text of [
      `甲[^1]。\n\n${ours}\n`,
      `甲[^A]。\n\n[^A]: 注\n`,
      `${ours}\n[^2]: b.docx#2 — 茶 (K)\n`,
      `${ours}\n\n正文\n`,
      `${ours}\n\n   续\n`,
      `${ours}\n  \n正文\n`,
      `${ours}\n\n    \n正文\n`,
      `${ours}\n\n正文    中有空格\n`,
      `${ours}\n[^12]: b.docx#2 — 茶 (K)\n`,
      `${ours}\n    [^2]: b.docx#2 — 茶 (K)\n`,
      '甲[^A]。\n\n[^A]: 茶.docx#第二段 — 茶 (K)\n',
      ours,
      `  ${ours}\n`,
      '甲〔a.docx#1〕\n',
      '见 [链接](http://a.b/c)〔a.docx#1〕 **粗**\n',
      '甲〔坏〕乙 \\[^1\\]\n',
      '**[注意]** 见 [[附件]](http://a.b/c)\n',
      `甲[^1]，写作 [^1]: 的样子。\n\n${ours}\n`,
      '甲[^1]。\n\n[^1]: 作者注。\n',
      '[^1]:  a.docx#1 — 茶 (K)\n',
    ])
      assert.equal(flagged(text), false, text);
  });
});
