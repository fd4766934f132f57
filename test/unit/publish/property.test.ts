/**
 * For any bulletin our insertion can produce, the Word export holds one footnote per reference the
 * citation parser finds (and the WeChat article lists each cited source).
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyzeDocument, applyEdits, insertCitation, type CitationSource } from '../../../src/citations';
import { bulletin, source } from '../citations/helpers';
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

describe('publish: one footnote per reference (property)', () => {
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
          model.inlineCitations.filter((c) => c.citation && !inNote(c.range.start)).length;
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
