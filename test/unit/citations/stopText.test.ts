/**
 * `stopTextAtCite` (src/citations/parser.ts) keeps the next `〔` it found on the inline state; it
 * must stop the `text` rule exactly where a fresh scan of each run would, also when a link's label
 * is tokenized again from an earlier position.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import markdownIt from 'markdown-it';
import md12 from 'markdown-it-12';
import { original, snCite, stopTextAtCite, type InlineRule } from '../../../src/citations/parser';
import { vscodeEngine } from '../../support/renderers';

/** The rule as it was: a scan of the whole run after each `text` match. */
function scanning(text: InlineRule): InlineRule {
  return (state, silent) => {
    const start = state.pos;
    const pending = state.pending.length;
    if (!text(state, silent)) return false;
    for (let k = start + 1; k < state.pos; k++) {
      if (state.src.charCodeAt(k) === 0x3014) {
        if (!silent) state.pending = state.pending.slice(0, pending + (k - start));
        state.pos = k;
        break;
      }
    }
    return true;
  };
}

for (const [name, factory] of [
  ['markdown-it 12', md12],
  ['markdown-it 15', markdownIt],
] as const) {
  describe(`citations/parser stopTextAtCite on ${name}`, () => {
    const engine = (wrap: (t: InlineRule) => InlineRule): ReturnType<typeof markdownIt> => {
      const md = vscodeEngine(factory);
      md.inline.ruler.before('text', 'sn_cite', snCite);
      md.inline.ruler.at('text', wrap(original<InlineRule>(md.inline.ruler, 'text')));
      md.renderer.rules.sn_cite = (tokens, idx) => `<cite>${JSON.stringify(tokens[idx]!.meta)}</cite>`;
      return md;
    };
    const ours = engine(stopTextAtCite);
    const theirs = engine(scanning);
    const same = (src: string): void => {
      assert.deepStrictEqual(ours.parse(src, {}), theirs.parse(src, {}), JSON.stringify(src));
      assert.equal(ours.render(src), theirs.render(src), JSON.stringify(src));
    };

    it('stops where a fresh scan stops, in links re-tokenized from an earlier position too', () => {
      for (const src of [
        '前文〔a.docx#1〕后文〔b.docx#2〕',
        '[链接〔a.docx#1〕文字](http://x.cn) 〔b.docx#2〕',
        '[外[内〔a.docx#1〕]〔b〕](u) 尾〔c.docx#3〕',
        '*强调〔a.docx#1〕* **粗〔b.docx#2〕** 〔无井号〕〔d.docx#4〕',
        '![图〔a.docx#1〕](i.png)〔e.docx#5〕',
      ])
        same(src);
      assert.match(ours.render('[链接〔a.docx#1〕](u)'), /<a href="u">链接<cite>/);
    });

    it('property: same tokens and HTML as a fresh scan of each run', () => {
      const piece = fc.constantFrom(
        '〔',
        '〕',
        '#1',
        'a',
        '茶',
        ' ',
        '[',
        ']',
        '(u)',
        '*',
        '_',
        '`',
        '!',
        '\\',
        '\n',
        '<',
        '>',
      );
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 40 }), (ps) => same(ps.join(''))),
        { numRuns: Number(process.env.FC_RUNS ?? 300) },
      );
    });
  });
}
