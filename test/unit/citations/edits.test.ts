/** Batches of text edits (src/citations/edits.ts): the order they are applied in, merges, overlaps. */
import * as assert from 'node:assert/strict';
import { applyEdits, normalizeEdits } from '../../../src/citations/edits';

const at = (start: number, newText: string, end = start) => ({ start, end, newText });

describe('citations: batches of edits', () => {
  it('sorts edits by where they start, then where they end', () => {
    assert.deepEqual(normalizeEdits([at(6, 'c', 7), at(0, 'a', 1), at(3, 'b', 4)]), [
      at(0, 'a', 1),
      at(3, 'b', 4),
      at(6, 'c', 7),
    ]);
    assert.deepEqual(normalizeEdits([at(4, 'r', 6), at(2, 'i')]), [at(2, 'i'), at(4, 'r', 6)]);
  });

  it('insertions at one offset become one, in the order given', () => {
    assert.deepEqual(normalizeEdits([at(3, 'x'), at(1, 'a', 2), at(3, 'y'), at(3, 'z')]), [
      at(1, 'a', 2),
      at(3, 'xyz'),
    ]);
    assert.equal(applyEdits('0123456', [at(3, 'B'), at(3, 'A')]), '012BA3456', 'the given order, not sorted by text');
  });

  it('an insertion at the start of a replacement goes before the replacement, as one edit', () => {
    assert.deepEqual(normalizeEdits([at(2, 'R', 5), at(2, 'i')]), [at(2, 'iR', 5)]);
    assert.equal(applyEdits('0123456', [at(2, 'R', 5), at(2, 'i')]), '01iR56');
  });

  it('an insertion at the end of a replacement stays apart from it, after it', () => {
    assert.deepEqual(normalizeEdits([at(5, 'i'), at(2, 'R', 5)]), [at(2, 'R', 5), at(5, 'i')]);
    assert.equal(applyEdits('0123456', [at(5, 'i'), at(2, 'R', 5)]), '01Ri56');
  });

  it('edits that overlap are refused, naming where', () => {
    assert.throws(() => normalizeEdits([at(2, 'a', 5), at(4, 'b', 6)]), /^Error: overlapping edits at 4$/);
    assert.throws(() => normalizeEdits([at(2, 'a', 5), at(2, 'b', 6)]), /overlapping edits at 2/);
    assert.throws(
      () => normalizeEdits([at(2, 'a', 5), at(3, 'b')]),
      /overlapping edits at 3/,
      'an insertion inside a replacement',
    );
    assert.doesNotThrow(() => normalizeEdits([at(2, 'a', 5), at(5, 'b', 6)]), 'touching is not overlapping');
  });

  it('edits that change nothing are dropped; a deletion is kept', () => {
    assert.deepEqual(normalizeEdits([at(1, ''), at(2, 'x'), at(4, '', 6)]), [at(2, 'x'), at(4, '', 6)]);
    assert.deepEqual(normalizeEdits([at(1, ''), at(1, '')]), []);
  });

  it('the edits given are not changed', () => {
    const edits = [at(3, 'b'), at(3, 'c'), at(1, 'a')];
    const copy = structuredClone(edits);
    const [first] = normalizeEdits(edits);
    assert.deepEqual(edits, copy, 'neither reordered nor merged in place');
    first!.newText = 'changed';
    assert.equal(edits[2]!.newText, 'a', 'the edits returned are copies');
  });

  it('applies a batch as the editor would: the text between edits kept, each edit in place', () => {
    assert.equal(applyEdits('abcdef', []), 'abcdef');
    assert.equal(applyEdits('abcdef', [at(6, '!'), at(0, '>'), at(2, 'X', 4)]), '>abXef!');
    assert.equal(applyEdits('abcdef', [at(1, '', 5)]), 'af');
  });
});
