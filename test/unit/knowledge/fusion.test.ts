import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FUSED_SCORE_TYPE, fuseLists, fusedAsList, fusedLabel } from '../../../src/knowledge/fusion';
import { scoreKind } from '../../../src/knowledge/score';
import { passageKey, type ResultList } from '../../../src/knowledge/types';
import { listArb, listsArb, monotoneArb, type TestPassage } from './arbitraries';

const p = (doc: string, chunk: number, score: number): TestPassage => ({
  doc_name: doc,
  chunk_index: chunk,
  score,
  content: doc,
});
const keys = (lists: readonly ResultList<TestPassage>[], k?: number): string[] =>
  fuseLists(lists, k === undefined ? {} : { k }).map((f) => f.key);

describe('knowledge/fusion', () => {
  it('fuses by rank with k = 60, merging duplicates and keeping where each was found', () => {
    const kb1: ResultList<TestPassage> = {
      id: 'TEA',
      scoreType: 'rrf(≈1/(60+rank), 仅用于排序)',
      sources: [p('a', 1, 0.0164), p('b', 2, 0.0161)],
    };
    const kb2: ResultList<TestPassage> = {
      id: 'RICE',
      scoreType: 'cosine_similarity(0~1)',
      sources: [p('c', 0, 0.91), p('a', 1, 0.88)],
    };
    const fused = fuseLists([kb1, kb2]);
    assert.deepEqual(
      fused.map((f) => f.key),
      ['a#1', 'c#0', 'b#2'],
    );
    const a = fused[0];
    assert.ok(a);
    assert.equal(a.rank, 1);
    assert.ok(Math.abs(a.fusedScore - (1 / 61 + 1 / 62)) < 1e-15);
    assert.deepEqual(
      a.hits.map((h) => [h.listId, h.rank, h.scoreKind, h.score]),
      [
        ['TEA', 1, 'rrf', 0.0164],
        ['RICE', 2, 'cosine', 0.88],
      ],
    );
    assert.equal(a.passage, kb1.sources[0], 'the passage of the best-ranked hit');
    assert.deepEqual(fusedLabel(a, fused.length, 2), { key: 'score.fused', args: [1, 3, 2, 2] });
  });

  it('never compares raw scores: a cosine 0.99 does not beat an RRF 0.016 at a worse rank', () => {
    const rrf: ResultList<TestPassage> = {
      scoreType: 'rrf(≈1/(60+rank), 仅用于排序)',
      sources: [p('x', 0, 0.0164), p('y', 0, 0.0161)],
    };
    const cos: ResultList<TestPassage> = {
      scoreType: 'cosine_similarity(0~1)',
      sources: [p('z', 0, 0.99), p('w', 0, 0.98)],
    };
    assert.deepEqual(keys([rrf, cos]), ['x#0', 'z#0', 'y#0', 'w#0']);
    assert.deepEqual(keys([cos, rrf]), ['z#0', 'x#0', 'w#0', 'y#0']);
  });

  it('breaks ties deterministically: more lists, best rank, earlier list', () => {
    const l1 = { sources: [p('a', 0, 1), p('b', 0, 0.5)] };
    const l2 = { sources: [p('c', 0, 1), p('d', 0, 0.5)] };
    assert.deepEqual(keys([l1, l2]), ['a#0', 'c#0', 'b#0', 'd#0']);
    assert.deepEqual(keys([l1, l2]), keys([l1, l2]));
    // k = 0: a, x, y = 1/1 and b = 1/2 + 1/2 all tie; b was found by more lists, then list order
    const many = [
      { sources: [p('a', 0, 1)] },
      { sources: [p('x', 0, 1), p('b', 0, 1)] },
      { sources: [p('y', 0, 1), p('b', 0, 1)] },
    ];
    assert.deepEqual(keys(many, 0), ['b#0', 'a#0', 'x#0', 'y#0']);
  });

  it('counts a repeat inside one list once, at its best rank', () => {
    const fused = fuseLists([{ sources: [p('a', 0, 1), p('b', 0, 0.9), p('a', 0, 0.8)] }]);
    assert.deepEqual(
      fused.map((f) => [f.key, f.hits.length]),
      [
        ['a#0', 1],
        ['b#0', 1],
      ],
    );
  });

  it('handles no lists, empty lists, and rejects a bad k', () => {
    assert.deepEqual(fuseLists([]), []);
    assert.deepEqual(fuseLists([{ sources: [] }, { sources: [] }]), []);
    assert.throws(() => fuseLists([], { k: -1 }), /^RangeError: k must be a finite number ≥ 0, got -1$/);
    assert.throws(() => fuseLists([], { k: Number.NaN }), RangeError);
  });

  it('gives a fused list that reads as RRF', () => {
    const fused = fuseLists([{ sources: [p('a', 0, 0.9)] }, { sources: [p('a', 0, 0.01), p('b', 1, 0.005)] }]);
    const list = fusedAsList(fused);
    assert.equal(scoreKind(list.scoreType), 'rrf');
    assert.equal(list.scoreType, FUSED_SCORE_TYPE);
    assert.deepEqual(
      list.sources.map((s) => [passageKey(s), s.score]),
      fused.map((f) => [f.key, f.fusedScore]),
    );
    assert.equal(list.sources[0]?.content, 'a');
  });

  it("equal rank sets give equal sums whatever the lists' order, so the earlier list wins the tie", () => {
    // Added in list order, 1/61 + 1/61 + 1/62 and 1/62 + 1/61 + 1/61 differ in the last bit.
    const lists = [
      { sources: [p('a', 0, 1)] },
      { sources: [p('a', 0, 1)] },
      { sources: [p('f1', 0, 1), p('a', 0, 1)] },
      { sources: [p('f2', 0, 1), p('b', 0, 1)] },
      { sources: [p('b', 0, 1)] },
      { sources: [p('b', 0, 1)] },
    ];
    const fused = fuseLists(lists);
    assert.deepEqual(
      fused.map((f) => f.key),
      ['a#0', 'b#0', 'f1#0', 'f2#0'],
    );
    assert.equal(fused[0]?.fusedScore, fused[1]?.fusedScore);
  });

  it('at equal fused scores and lists, the better best rank goes first, before list order', () => {
    // k = 0: a = 1/6 + 1/3 and b = 1/4 + 1/4 are both 1/2; a's best rank (3) is in the later list
    const l1 = { sources: [p('x1', 0, 1), p('x2', 0, 1), p('x3', 0, 1), p('b', 0, 1), p('x5', 0, 1), p('a', 0, 1)] };
    const l2 = { sources: [p('y1', 0, 1), p('y2', 0, 1), p('a', 0, 1), p('b', 0, 1)] };
    const order = keys([l1, l2], 0);
    assert.ok(order.indexOf('a#0') < order.indexOf('b#0'), order.join(' '));
  });

  it('at a tie on score, lists and best rank, the list holding the best rank decides, not where a passage was first seen', () => {
    // a and b are both at ranks 1 and 3; b is seen first (list 0) but has its rank 1 in list 2, a in list 1
    const fused = keys([
      { sources: [p('f1', 0, 1), p('f2', 0, 1), p('b', 0, 1)] },
      { sources: [p('a', 0, 1)] },
      { sources: [p('b', 0, 1), p('g', 0, 1), p('a', 0, 1)] },
    ]);
    assert.deepEqual(fused.slice(0, 2), ['a#0', 'b#0']);
  });

  it("three passages alone at rank 1 of three lists keep the lists' order", () => {
    assert.deepEqual(keys([{ sources: [p('x', 0, 1)] }, { sources: [p('y', 0, 1)] }, { sources: [p('z', 0, 1)] }]), [
      'x#0',
      'y#0',
      'z#0',
    ]);
  });

  it("a passage found at the same rank in two lists is the first list's; a list without an id gives its hits none", () => {
    const fused = fuseLists([
      { id: 'TEA', sources: [{ ...p('a', 0, 0.03), content: 'from TEA' }] },
      { sources: [{ ...p('a', 0, 0.03), content: 'from RICE' }] },
    ]);
    assert.equal(fused[0]?.passage.content, 'from TEA');
    assert.deepEqual(
      fused[0]?.hits.map((h) => ('listId' in h ? h.listId : 'none')),
      ['TEA', 'none'],
    );
    assert.equal(fusedAsList(fused).id, 'fused');
  });

  describe('properties', () => {
    it('rescaling the scores of one list monotonically changes nothing', () => {
      fc.assert(
        fc.property(listsArb, fc.nat(), monotoneArb, (lists, which, f) => {
          const i = which % lists.length;
          const rescaled = lists.map((l, j) =>
            j === i ? { ...l, sources: l.sources.map((s) => ({ ...s, score: f(s.score) })) } : l,
          );
          const before = fuseLists(lists);
          const after = fuseLists(rescaled);
          assert.deepEqual(
            after.map((x) => x.key),
            before.map((x) => x.key),
          );
          assert.deepEqual(
            after.map((x) => x.fusedScore),
            before.map((x) => x.fusedScore),
          );
        }),
      );
    });

    it('the fused order of a single list is that list', () => {
      fc.assert(
        fc.property(listArb(), fc.integer({ min: 0, max: 100 }), (list, k) => {
          assert.deepEqual(keys([list], k), list.sources.map(passageKey));
        }),
      );
    });

    it('a passage found in more lists never ranks below one found in fewer at equal (or better) ranks', () => {
      fc.assert(
        fc.property(listsArb, fc.integer({ min: 0, max: 100 }), (lists, k) => {
          const fused = fuseLists(lists, { k });
          const ranks = fused.map((f) => f.hits.map((h) => h.rank).sort((x, y) => x - y));
          for (let a = 0; a < fused.length; a++) {
            for (let b = 0; b < fused.length; b++) {
              const ra = ranks[a] ?? [];
              const rb = ranks[b] ?? [];
              const dominates = ra.length > rb.length && rb.every((r, i) => (ra[i] ?? Infinity) <= r);
              if (dominates) assert.ok(a < b, `${fused[a]?.key} ${ra} should rank above ${fused[b]?.key} ${rb}`);
            }
          }
        }),
      );
    });

    it('a passage placed at the same rank in an extra list moves ahead of its equal', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 5 }),
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 0, max: 3 }),
          (m, n, r) => {
            // A at rank r+1 in m + n lists, B at rank r+1 in n lists (B listed first in every shared list's filler).
            const filler = (i: number): TestPassage[] => Array.from({ length: r }, (_, j) => p(`f${i}`, j, 1));
            const lists: ResultList<TestPassage>[] = [];
            for (let i = 0; i < n; i++) lists.push({ sources: [...filler(i), p('B', 0, 0.5)] });
            for (let i = 0; i < m + n; i++) lists.push({ sources: [...filler(i + 10), p('A', 0, 0.5)] });
            const order = keys(lists);
            assert.ok(order.indexOf('A#0') < order.indexOf('B#0'));
          },
        ),
      );
    });

    it('is deterministic, complete and ordered: every key once, fused scores non-increasing, ranks 1..n', () => {
      fc.assert(
        fc.property(listsArb, (lists) => {
          const fused = fuseLists(lists);
          assert.deepEqual(fuseLists(lists), fused);
          const all = new Set(lists.flatMap((l) => l.sources.map(passageKey)));
          assert.deepEqual(new Set(fused.map((f) => f.key)), all);
          assert.equal(fused.length, all.size);
          fused.forEach((f, i) => {
            assert.equal(f.rank, i + 1);
            if (i > 0) assert.ok((fused[i - 1]?.fusedScore ?? Infinity) >= f.fusedScore);
          });
        }),
      );
    });

    it('ties are broken by list order, not by raw score', () => {
      fc.assert(
        fc.property(listsArb, fc.nat(), monotoneArb, (lists, which, f) => {
          // Reversing the raw scores' meaning of any list (even making them increase) changes nothing.
          const i = which % lists.length;
          const scrambled = lists.map((l, j) =>
            j === i ? { ...l, sources: l.sources.map((s) => ({ ...s, score: -f(s.score) })) } : l,
          );
          assert.deepEqual(keys(scrambled), keys(lists));
        }),
      );
    });
  });
});
