import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatMessage, messagesEn } from '../../../src/knowledge/messages';
import { messagesZhCn } from '../../support/knowledgeMessagesZh';
import { formatScore, presentScore, presentScores, scoreKind } from '../../../src/knowledge/score';
import { resultListOf, type ResultList } from '../../../src/knowledge/types';
import { listArb, type TestPassage } from './arbitraries';

const RRF = 'rrf(≈1/(60+rank), 仅用于排序)';
const COS = 'cosine_similarity(0~1)';
const p = (doc: string, score: number): TestPassage => ({ doc_name: doc, chunk_index: 1, score, content: '' });

describe('knowledge/score', () => {
  it('scoreKind reads score_type', () => {
    assert.equal(scoreKind(RRF), 'rrf');
    assert.equal(scoreKind(' RRF '), 'rrf');
    assert.equal(scoreKind(COS), 'cosine');
    assert.equal(scoreKind('cosine'), 'cosine');
    for (const other of [undefined, null, '', 'bm25', 'dot_product', 'rrfx', 'similarity(cosine)'])
      assert.equal(scoreKind(other), 'unknown', String(other));
  });

  it('shows RRF as rank and which searches likely found it, never as a percentage or a bar', () => {
    const list: ResultList<TestPassage> = { scoreType: RRF, sources: [p('a', 0.0325), p('b', 0.0161), p('c', 0.0082)] };
    const d = presentScore(list.sources[0] as TestPassage, list);
    assert.equal(d.kind, 'rrf');
    assert.equal(d.rank, 1);
    assert.equal(d.of, 3);
    assert.deepEqual(d.label, { key: 'score.rrf.both', args: [1, 3] });
    // 0.0161 = 1/62: one list's rank 2, or both lists' far ranks; the counts tell.
    assert.equal(presentScores(list)[1]?.label.key, 'score.rrf.unknown');
    const counts = { vector: 4, fulltext: 2, hybrid: 5, rerank: 0 };
    assert.equal(presentScores(list, counts)[1]?.label.key, 'score.rrf.one');
    // 0.0082 at rank 3 is under 1/63: both lists' (when the order is the sums' own).
    assert.equal(presentScores(list)[2]?.label.key, 'score.rrf.both');
    assert.equal(presentScores(list, { rerank: 3 })[2]?.label.key, 'score.rrf.unknown', 'reranked: rank tells nothing');
    for (const s of presentScores(list)) {
      for (const catalogue of [messagesEn, messagesZhCn]) {
        const text = formatMessage(s.label, catalogue) + formatMessage(s.note, catalogue);
        assert.ok(!text.includes('%') && !/0\.0164/.test(text), text);
      }
    }
    for (const catalogue of [messagesEn, messagesZhCn])
      assert.ok(!/[▰▱]/.test(formatMessage(presentScores(list)[0]?.label ?? d.label, catalogue)));
  });

  it('shows cosine as similarity', () => {
    const list: ResultList<TestPassage> = { scoreType: COS, sources: [p('a', 0.81234), p('b', 0.7)] };
    const d = presentScore(list.sources[0] as TestPassage, list);
    assert.deepEqual(d, {
      kind: 'cosine',
      rank: 1,
      of: 2,
      similarity: 0.81234,
      label: { key: 'score.cosine', args: [1, 2, '0.812'] },
      note: { key: 'score.note.cosine', args: [] },
    });
  });

  it('shows an unknown score type by rank, with the raw value and the type named', () => {
    const list: ResultList<TestPassage> = { scoreType: 'bm25', sources: [p('a', 12.5), p('b', 3)] };
    const d = presentScore(p('b', 3), list);
    assert.equal(d.kind, 'unknown');
    assert.ok(d.kind === 'unknown' && d.raw === 3 && d.rank === 2);
    assert.deepEqual(d.label.args, [2, 2, '3']);
    assert.deepEqual(d.note, { key: 'score.note.unknown', args: ['bm25'] });
  });

  it('reads no rank bound from a list whose scores rise', () => {
    const increasing: ResultList<TestPassage> = { scoreType: RRF, sources: [p('a', 0.005), p('b', 0.006)] };
    assert.deepEqual(
      presentScores(increasing).map((d) => d.label.key),
      ['score.rrf.unknown', 'score.rrf.unknown'],
    );
    const falling: ResultList<TestPassage> = { scoreType: RRF, sources: [p('b', 0.006), p('a', 0.005)] };
    assert.deepEqual(
      presentScores(falling).map((d) => d.label.key),
      ['score.rrf.both', 'score.rrf.both'],
    );
  });

  it('finds the passage by identity or by doc_name#chunk_index, and refuses one not in the list', () => {
    const list: ResultList<TestPassage> = { scoreType: RRF, sources: [p('a', 0.02), p('b', 0.01)] };
    assert.equal(presentScore(p('b', 0.01), list).rank, 2);
    assert.throws(() => presentScore(p('zzz', 0.01), list), /^RangeError: zzz#1 is not in the list$/);
    // identity first: a passage repeated under the same key is read where it is
    const again = p('a', 0.01);
    assert.equal(presentScore(again, { scoreType: RRF, sources: [p('a', 0.02), p('b', 0.015), again] }).rank, 3);
  });

  it('equal neighbouring scores still read as ordered: each rank bounds what one list could give', () => {
    assert.deepEqual(
      presentScores({ scoreType: RRF, sources: [p('a', 0.03), p('b', 0.015), p('c', 0.015)] }).map((d) => d.label.key),
      ['score.rrf.both', 'score.rrf.both', 'score.rrf.both'],
    );
  });

  it('a list with no score_type is unknown and says so with an empty type', () => {
    const [d] = presentScores({ sources: [p('a', 3)] });
    assert.deepEqual(d?.note, { key: 'score.note.unknown', args: [''] });
  });

  it('reads a knowledge_search result as a list (kb_code as id, score_type, server order)', () => {
    const result = { kb_code: 'TEA_MANAGER_001,RICE_001', score_type: RRF, sources: [p('a', 0.0164)], total: 1 };
    const list = resultListOf(result);
    assert.deepEqual(list, { id: 'TEA_MANAGER_001,RICE_001', scoreType: RRF, sources: result.sources });
    assert.equal(presentScore(result.sources[0] as TestPassage, list).kind, 'rrf');
    assert.deepEqual(resultListOf({ sources: [] }), { sources: [] });
  });

  it('formatScore', () => {
    assert.equal(formatScore(0.63850001), '0.6385');
    assert.equal(formatScore(0.7), '0.7');
    assert.deepEqual(
      [Number.NaN, Number.POSITIVE_INFINITY].map((x) => formatScore(x)),
      ['NaN', 'Infinity'],
    );
  });

  it('property: ranks are 1..n in order, and an RRF label names only its rank and a reading', () => {
    fc.assert(
      fc.property(listArb(fc.constantFrom(RRF, 'x')), (list) => {
        const shown = presentScores(list);
        shown.forEach((d, i) => {
          assert.equal(d.rank, i + 1);
          assert.equal(d.of, list.sources.length);
          if (d.kind === 'rrf')
            assert.deepEqual(d.label, { key: `score.rrf.${d.found}`, args: [i + 1, list.sources.length] });
        });
      }),
    );
  });
});
