import assert from 'node:assert/strict';
import { applyMinSimilarity } from '../../../src/knowledge/threshold';
import type { ResultList } from '../../../src/knowledge/types';
import type { TestPassage } from './arbitraries';

const p = (doc: string, score: number): TestPassage => ({ doc_name: doc, chunk_index: 0, score, content: '' });

describe('knowledge/threshold (client-side minimum similarity)', () => {
  it('filters cosine lists, keeping the order and saying how many were hidden', () => {
    const list: ResultList<TestPassage> = {
      id: 'v',
      scoreType: 'cosine_similarity(0~1)',
      sources: [p('a', 0.9), p('b', 0.75), p('c', 0.6)],
    };
    const r = applyMinSimilarity(list, 0.75);
    assert.equal(r.applied, true);
    assert.equal(r.reason, 'applied');
    assert.equal(r.removed, 1);
    assert.deepEqual(
      r.list.sources.map((s) => s.doc_name),
      ['a', 'b'],
    );
    assert.equal(r.list.id, 'v');
    assert.deepEqual(r.message, { key: 'minSimilarity.applied', args: ['0.75', 1, 3] });
    assert.equal(list.sources.length, 3, 'input untouched');
  });

  it('leaves RRF lists unchanged, with the reason for the UI', () => {
    const list: ResultList<TestPassage> = {
      scoreType: 'rrf(≈1/(60+rank), 仅用于排序)',
      sources: [p('a', 0.0164), p('b', 0.0161)],
    };
    const r = applyMinSimilarity(list, 0.7);
    assert.equal(r.list, list);
    assert.equal(r.applied, false);
    assert.equal(r.reason, 'not-similarity-rrf');
    assert.equal(r.message.key, 'minSimilarity.ignoredRrf');
  });

  it('leaves unknown lists unchanged and names the type', () => {
    const list: ResultList<TestPassage> = { scoreType: 'bm25', sources: [p('a', 3)] };
    const r = applyMinSimilarity(list, 0.7);
    assert.equal(r.list, list);
    assert.equal(r.reason, 'not-similarity-unknown');
    assert.equal(r.applied, false);
    assert.deepEqual(r.message.args, ['bm25']);
    const untyped = applyMinSimilarity({ sources: [p('a', 3)] }, 0.7);
    assert.deepEqual([untyped.reason, untyped.message.args], ['not-similarity-unknown', ['']], 'no score_type at all');
  });

  it('is off for 0, negative or absent minimums, and rejects NaN', () => {
    const list: ResultList<TestPassage> = { scoreType: 'cosine_similarity(0~1)', sources: [p('a', 0.1)] };
    for (const min of [0, -1, undefined]) {
      const r = applyMinSimilarity(list, min);
      assert.equal(r.list, list);
      assert.equal(r.reason, 'disabled');
      assert.equal(r.applied, false);
    }
    assert.throws(() => applyMinSimilarity(list, Number.NaN), /^RangeError: minimum similarity is NaN$/);
  });
});
