/**
 * The linear `footnote_tail` (src/citations/footnoteTail.ts) against markdown-it-footnote's own, on
 * markdown-it 12 and 15 configured as VS Code's preview: the same token stream (deep, strict: same
 * tokens, order, meta, children) and the same HTML, for hand-picked documents and generated ones
 * (our insertions and snippets, author footnotes, repeated and inline footnotes, containers,
 * undefined references), alone and under our preview plugin.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runs } from '../fast-check-seed';
import markdownIt, { type MarkdownIt, type StateCore } from 'markdown-it';
import md12 from 'markdown-it-12';
import footnote from 'markdown-it-footnote';
import { applyEdits, citationsPlugin, insertCitation, type CitationSource } from '../../../src/citations';
import { footnoteTail } from '../../../src/citations/footnoteTail';
import { original } from '../../../src/citations/parser';
import { vscodeEngine } from '../../support/renderers';
import { bulletin, source, trickyText } from './helpers';

type CoreRule = (state: StateCore) => void;
type Rules = { __rules__: { name: string; fn: CoreRule }[]; __cache__: unknown };

/** Every `footnote_tail` rule of `md` (two when markdown-it-footnote is installed twice). */
function tails(md: MarkdownIt): { name: string; fn: CoreRule }[] {
  return (md.core.ruler as unknown as Rules).__rules__.filter((r) => r.name === 'footnote_tail');
}

/** Gives every `footnote_tail` of `md` the function `fn` (the ruler's cache rebuilt). */
function setTails(md: MarkdownIt, fn: CoreRule): MarkdownIt {
  for (const r of tails(md)) r.fn = fn;
  (md.core.ruler as unknown as Rules).__cache__ = null;
  return md;
}

/** Documents covering what markdown-it-footnote's tail handles. */
const DOCS = [
  '',
  'no footnotes at all',
  'a[^1] b[^1] c[^1]\n\n[^1]: one — kb (K)\n',
  'ref first[^x], def later.\n\n[^x]: later\n\n[^y]: never referenced\n',
  '未定义[^9]，[^ a]，[^]',
  'inline^[a *b* [^1] c] and ^[second]^[third]\n\n[^1]: in an inline footnote\n',
  '[^m]: first paragraph\n\n    second paragraph\n\n    - a list\n    - in it\n\n        code inside\n\nuse[^m]',
  '[^c]: text\n\n        code last\n\nx[^c]',
  '[^h]:\n# heading, not in the footnote\nx[^h]',
  '[^a]: [^b]: nested definition\n\nx[^a] y[^b]',
  '[^d]: first definition\n[^d]: second definition\n\nx[^d] y[^d]',
  '- item[^1]\n  - nested[^2]\n\n> quote[^3]\n> > deeper[^1]\n\n| a | b |\n| --- | --- |\n| cell[^2] | ^[inline in cell] |\n\n[^1]: one\n[^2]: two\n[^3]: three',
  '> [^q]: definition in a quote\n\n- [^l]: definition in a list item\n\nq[^q] l[^l]',
  '# Title[^t]\n\nSetext[^t]\n===\n\n[^t]: heading refs',
  '`[^1]` code, \\[^1] escaped, [link[^1]](u), ![img[^1]](i.png)\n\n[^1]: x',
  '<div>[^1]</div>\n\n[^1]: <b>html</b> in a definition\n\nx[^1]',
  '[^constructor]: proto\n[^__proto__]: proto\n\nx[^constructor] y[^__proto__] z[^toString]',
  '[^1]: 茶园病虫害绿色防控.docx#0 — 茶树管理 (TEA_MANAGER_001)\n[^2]: 水稻分蘖期管理要点.pdf#1 — 水稻 (RICE)\n\n> 春季修剪。 [^1]\n\n分蘖期[^2]，〔茶树农事操作.docx#2〕，坏的〔a.docx#x〕。',
  'Text[^1]\r\n\r\n[^1]: crlf — kb (K)\r\n',
];

for (const [name, factory] of [
  ['markdown-it 12', md12],
  ['markdown-it 15', markdownIt],
] as const) {
  describe(`citations/footnoteTail on ${name}`, () => {
    const originalTail = original<CoreRule>(vscodeEngine(factory).use(footnote).core.ruler, 'footnote_tail');
    const passageText = (c: { chunkIndex: number }): string | undefined =>
      c.chunkIndex % 2 ? undefined : `段落 ${c.chunkIndex}`;
    /** Pairs of engines (original tail, linear tail) built the same way. */
    const pairs: [string, (tail: CoreRule) => MarkdownIt][] = [
      ['markdown-it-footnote alone', (tail) => setTails(vscodeEngine(factory).use(footnote), tail)],
      ['our plugin', (tail) => setTails(vscodeEngine(factory).use(citationsPlugin, { passageText }), tail)],
      [
        'footnotes installed after our plugin',
        (tail) => setTails(vscodeEngine(factory).use(citationsPlugin, { passageText }).use(footnote), tail),
      ],
      [
        'footnotes installed before our plugin',
        (tail) => setTails(vscodeEngine(factory).use(footnote).use(citationsPlugin, { passageText }), tail),
      ],
    ];
    // built in each test, not when the file loads: Stryker tests a mutant of code run at load with every test
    const enginesOf = () => pairs.map(([label, make]) => [label, make(originalTail), make(footnoteTail)] as const);

    /** Asserts both engines of every pair give the same tokens and HTML for `src`. */
    function same(engines: ReturnType<typeof enginesOf>, src: string): void {
      for (const [label, theirs, ours] of engines) {
        const want = theirs.parse(src, {});
        const got = ours.parse(src, {});
        assert.deepStrictEqual(got, want, `${label}: tokens of ${JSON.stringify(src)}`);
        assert.equal(ours.render(src, {}), theirs.render(src, {}), `${label}: HTML of ${JSON.stringify(src)}`);
        const env = { docId: 'doc' };
        assert.equal(ours.render(src, env), theirs.render(src, { docId: 'doc' }), `${label}: HTML with a docId`);
      }
    }

    it('is what our plugin installs over its own markdown-it-footnote, and only there', () => {
      assert.equal(tails(vscodeEngine(factory).use(citationsPlugin))[0]!.fn, footnoteTail);
      // markdown-it-footnote makes a new `footnote_tail` function at each install: compare by name
      const names = (md: MarkdownIt): string[] => tails(md).map((r) => r.fn.name);
      assert.deepEqual(names(vscodeEngine(factory).use(citationsPlugin)), ['footnoteTail']);
      assert.deepEqual(
        names(vscodeEngine(factory).use(footnote).use(citationsPlugin)),
        ['footnote_tail'],
        'another plugin’s is left alone',
      );
      assert.deepEqual(
        names(vscodeEngine(factory).use(citationsPlugin).use(footnote)),
        ['footnote_tail', 'footnoteTail'],
        'one installed after us runs its own first',
      );
    });

    it('gives the same tokens and HTML as the original on every hand-picked document', () => {
      const engines = enginesOf();
      for (const src of DOCS) same(engines, src);
      // sanity: the documents do exercise the tail
      const html = engines[0]![2].render(DOCS[11]!);
      assert.equal((html.match(/<li id="fn\d+" class="footnote-item">/g) ?? []).length, 4);
      assert.equal((html.match(/class="footnote-backref"/g) ?? []).length, 6);
    });

    it('gives the same tokens and HTML on the bench bulletin’s shape (many footnotes, repeated refs)', () => {
      const refs = Array.from({ length: 300 }, (_, i) => `段${i}[^${(i % 120) + 1}]^[行内${i}]`).join('\n\n');
      const defs = Array.from({ length: 130 }, (_, i) => `[^${i + 1}]: d${i}.docx#${i} — kb (K${i})`).join('\n');
      same(enginesOf(), `${refs}\n\n## 参考资料\n\n${defs}\n`);
    });

    it('property: same tokens and HTML for generated bulletins with our insertions and the author’s footnotes', () => {
      const label = fc.constantFrom('1', '2', '3', 'note', 'a', '10');
      const piece = fc.oneof(
        label.map((l) => `x[^${l}]`),
        label.map((l) => `[^${l}]: ${l} 的定义`),
        label.map((l) => `[^${l}]: 定义\n\n    第二段[^1]`),
        label.map((l) => `> 引用[^${l}]\n> [^${l}]: 引用里的定义`),
        label.map((l) => `- 项[^${l}]\n  - ^[行内 *脚注*]`),
        label.map((l) => `| a | b |\n| --- | --- |\n| [^${l}] | ^[格] |`),
        trickyText.map((t) => `^[${t}]`),
        trickyText.map((t) => `[^${t}]`),
        trickyText,
      );
      const doc = fc
        .tuple(bulletin, fc.array(piece, { maxLength: 8 }), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }))
        .map(([b, ps, tight]) => b + ps.map((p, i) => p + (tight[i] ? '\n' : '\n\n')).join(''));
      const insertion = fc.record({
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        source,
        style: fc.constantFrom('footnote', 'inline') as fc.Arbitrary<'footnote' | 'inline'>,
        snippet: fc.option(
          fc.record({
            text: trickyText,
            as: fc.constantFrom('blockquote', 'paragraph') as fc.Arbitrary<'blockquote' | 'paragraph'>,
          }),
          { nil: undefined },
        ),
      });
      const engines = enginesOf();
      fc.assert(
        fc.property(doc, fc.array(insertion, { maxLength: 4 }), (start, inserts) => {
          let text = start;
          for (const ins of inserts) {
            const s: CitationSource = ins.source;
            const r = insertCitation(text, Math.floor(ins.at * text.length), s, {
              style: ins.style,
              ...(ins.snippet ? { snippet: ins.snippet } : {}),
            });
            if (r.ok) text = applyEdits(text, r.edits);
          }
          same(engines, text);
        }),
        { numRuns: runs(150) },
      );
    });
  });
}
