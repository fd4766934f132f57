import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatSnippet, parseRawCitation, formatCitation } from '../../../src/citations';
import { BIDI_CONTROLS, bidiAsReference, readBidiReference, showBidi } from '../../../src/text/bidi';

const bidi = fc.constantFrom(
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
);
const text = fc
  .array(fc.oneof(bidi, fc.constantFrom('a', '茶', '.', ' ', '&', '#', '<')), { maxLength: 20 })
  .map((a) => a.join(''));

describe('text/bidi', () => {
  it('shows every bidi control, and leaves other text alone', () => {
    assert.equal(showBidi('\u202egnp.exe'), '<U+202E>gnp.exe');
    assert.equal(showBidi('\u061c\u200e\u2069'), '<U+061C><U+200E><U+2069>');
    fc.assert(
      fc.property(text, (s) => {
        const shown = showBidi(s);
        assert.equal(new RegExp(BIDI_CONTROLS.source).test(shown), false);
        assert.equal(shown.replace(/<U\+[0-9A-F]{4}>/g, ''), s.replace(BIDI_CONTROLS, ''));
      }),
    );
  });

  it('writes identifiers with character references that read back exactly', () => {
    assert.equal(bidiAsReference('a\u202eb'), 'a&#x202E;b');
    assert.deepEqual(readBidiReference('x&#x202E;', 1), ['\u202e', 8]);
    assert.equal(readBidiReference('&#x2022;', 0), undefined);
    fc.assert(
      fc.property(
        text.filter((s) => s.trim() !== ''),
        (docName) => {
          const written = formatCitation({ docName, chunkIndex: 3 });
          assert.equal(new RegExp(BIDI_CONTROLS.source).test(written), false);
          assert.deepEqual(parseRawCitation(written), { ok: true, citation: { docName, chunkIndex: 3 } });
        },
      ),
    );
  });

  it('a snippet written into a bulletin shows its bidi controls', () => {
    assert.equal(formatSnippet('见\u202e附件', 'paragraph', '[^1]', '\n'), '见\\<U+202E\\>附件 [^1]');
  });
});
