/** Text escaped for a regular expression matches itself, and only itself. */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { escapeRegExp } from '../../../src/text/regExp';

/** Every character the pattern syntax reads, with letters and both scripts around them. */
const SYNTAX = '.*+?^${}()|[]\\';
const text = fc.string({ unit: fc.constantFrom(...SYNTAX, 'a', 'w', '1', '-', '/', ' ', '茶', '〔', '\n') });

describe('text: escapeRegExp', () => {
  it('escapes each character the pattern syntax reads, and nothing else', () => {
    for (const c of SYNTAX) assert.equal(escapeRegExp(c), `\\${c}`, c);
    assert.equal(escapeRegExp('茶树 a-1/w〔〕'), '茶树 a-1/w〔〕');
    assert.equal(escapeRegExp('a.b.c'), 'a\\.b\\.c', 'every occurrence');
  });

  it('any text, escaped, matches exactly itself (with and without the u flag)', () => {
    fc.assert(
      fc.property(text, text, (s, other) => {
        for (const flags of ['', 'u']) {
          const exact = new RegExp(`^${escapeRegExp(s)}$`, flags);
          assert.ok(exact.test(s), `${JSON.stringify(s)} /${flags}`);
          assert.equal(exact.test(other), other === s, `${JSON.stringify(other)} against ${JSON.stringify(s)}`);
        }
      }),
    );
  });
});
