/**
 * For any bulletin our insertion can produce, the Word export holds one footnote per reference the
 * citation parser finds (and the WeChat article lists each cited source).
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyzeDocument, applyEdits, insertCitation, type CitationSource } from '../../../src/citations';
import { bulletin, source } from '../citations/helpers';
import markdownIt from 'markdown-it';
import markdownItFootnote from 'markdown-it-footnote';
import { frontMatter } from '../../../src/bulletin/frontMatter';
import { normalizeForParser } from '../../../src/citations/parser';
import { executable, exported, readDocx } from './helpers';

/** A bulletin with citations inserted where an author's cursor could be. */
const cited = fc
  .tuple(
    bulletin,
    fc.array(
      fc.tuple(
        fc.double({ min: 0, max: 1, noNaN: true }),
        source,
        fc.constantFrom('footnote', 'inline') as fc.Arbitrary<'footnote' | 'inline'>,
      ),
      {
        minLength: 1,
        maxLength: 5,
      },
    ),
  )
  .map(([base, inserts]) => {
    let text = base;
    for (const [at, s, style] of inserts) {
      const r = insertCitation(text, Math.floor(at * text.length), s as CitationSource, { style });
      if (r.ok) text = applyEdits(text, r.edits);
    }
    return text;
  });

/**
 * The inline footnotes (`^[…]`, markdown-it-footnote's, which VS Code's preview shows as footnotes
 * too) outside the notes: the citation model does not list them.
 */
function inlineFootnotes(text: string): number {
  const tokens = footnoteReader.parse(normalizeForParser(frontMatter(text).blanked), {});
  const notesAt = tokens.findIndex((t) => t.type === 'footnote_block_open');
  const body = notesAt < 0 ? tokens : tokens.slice(0, notesAt);
  return body
    .flatMap((t) => t.children ?? [])
    .filter((t) => t.type === 'footnote_ref' && (t.meta as { label?: string }).label === undefined).length;
}
const footnoteReader = markdownIt().use(markdownItFootnote);

describe('publish: one footnote per reference (property)', () => {
  it('an inline footnote, even an empty one, is a Word footnote as the preview shows it (seed 1182083242)', async () => {
    const text = '[^1]^[]\n\n## 参考资料\n\n[^1]: !#0 —  ()\n';
    assert.equal(inlineFootnotes(text), 1);
    const docx = await readDocx((await exported({ text, format: 'docx', readImage: async () => undefined })).bytes);
    assert.deepEqual(docx.footnotes, ['!#0', '']);
  });

  it('the .docx has exactly one footnote per reference and inline citation the parser finds', async () => {
    await fc.assert(
      fc.asyncProperty(cited, async (text) => {
        const model = analyzeDocument(text);
        const inNote = (offset: number): boolean =>
          [...model.definitions, ...model.authorDefinitions].some(
            (d) => offset >= d.range.start && offset < d.range.end,
          );
        const expected =
          model.references.filter((r) => r.defined && !inNote(r.range.start)).length +
          model.inlineCitations.filter((c) => c.citation && !inNote(c.range.start)).length +
          inlineFootnotes(text);
        const r = await exported({ text, format: 'docx', readImage: async () => undefined });
        const docx = await readDocx(r.bytes);
        assert.equal(docx.footnotes.length, expected, text);
        const wechat = await exported({ text, format: 'wechat', readImage: async () => undefined });
        assert.deepEqual(executable(wechat.article!), [], text);
      }),
      { numRuns: 60 },
    );
  });
});
