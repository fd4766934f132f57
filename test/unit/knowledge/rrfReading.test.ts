/** Reading an RRF sum as found by both retrievers, by one, or cannot be told (src/knowledge/rrfReading.ts). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { readRrf, roundingTolerance, rrfTerm, type FoundBy } from '../../../src/knowledge/rrfReading';

/** The vendor's page on knowledge_search (tool reference), verbatim (test/fixtures/vendor/SOURCE.md). */
const VENDOR = readFileSync(join(__dirname, '../../fixtures/vendor/mcp-tool-reference.txt'), 'utf8');

interface Truth {
  readonly doc: number;
  readonly vectorRank?: number;
  readonly fulltextRank?: number;
  readonly exact: number;
}

/**
 * A hybrid search as the vendor describes it: two ranked lists of distinct documents, each
 * passage scored Σ 1/(60 + rank) over the lists holding it, ordered by that sum.
 */
const searchArb = fc
  .record({
    vector: fc.uniqueArray(fc.integer({ min: 0, max: 150 }), { maxLength: 90 }),
    fulltext: fc.uniqueArray(fc.integer({ min: 0, max: 150 }), { maxLength: 90 }),
    decimals: fc.constantFrom(4, 5, 6, 17),
  })
  .filter((s) => s.vector.length + s.fulltext.length > 0);

function fuse(vector: readonly number[], fulltext: readonly number[]): Truth[] {
  const byDoc = new Map<number, { doc: number; vectorRank?: number; fulltextRank?: number; exact: number }>();
  vector.forEach((doc, i) => byDoc.set(doc, { doc, vectorRank: i + 1, exact: rrfTerm(i + 1) }));
  fulltext.forEach((doc, i) => {
    const t = byDoc.get(doc);
    if (t) byDoc.set(doc, { ...t, fulltextRank: i + 1, exact: t.exact + rrfTerm(i + 1) });
    else byDoc.set(doc, { doc, fulltextRank: i + 1, exact: rrfTerm(i + 1) });
  });
  return [...byDoc.values()].sort((a, b) => b.exact - a.exact || a.doc - b.doc);
}

const round = (x: number, d: number): number => (d >= 17 ? x : Number(x.toFixed(d)));

function truthOf(t: Truth): 'both' | 'vector' | 'fulltext' {
  return t.vectorRank !== undefined && t.fulltextRank !== undefined
    ? 'both'
    : t.vectorRank !== undefined
      ? 'vector'
      : 'fulltext';
}

function agrees(reading: FoundBy, truth: 'both' | 'vector' | 'fulltext'): boolean {
  switch (reading) {
    case 'unknown':
      return true;
    case 'one':
      return truth !== 'both';
    default:
      return reading === truth;
  }
}

describe('knowledge/rrfReading', () => {
  it("reads the vendor's own example: score 0.0164 with counts 32 / 2 / 2 is one retriever's rank 1", () => {
    assert.ok(VENDOR.includes('"score_type": "rrf(≈1/(60+rank), 仅用于排序)"'));
    assert.ok(VENDOR.includes('"counts": {"vector": 32, "fulltext": 2, "hybrid": 2, "rerank": 0}'));
    assert.ok(VENDOR.includes('"score": 0.0164'));
    assert.ok(VENDOR.includes('只能用于排序'));
    const counts = { vector: 32, fulltext: 2, hybrid: 2, rerank: 0 };
    assert.equal(readRrf(0.0164, { rank: 1, counts }), 'one');
    // Without counts, 0.0164 (= 1/61 to four decimals) could be a both-lists sum of far ranks.
    assert.equal(readRrf(0.0164), 'unknown');
    assert.equal(readRrf(0.0164, { rank: 1 }), 'unknown');
  });

  it('a sum above 1/61 beyond its rounding needs both lists; 1/61 itself does not', () => {
    assert.equal(readRrf(0.0325), 'both');
    assert.equal(readRrf(1 / 61 + 1 / 62), 'both');
    assert.equal(readRrf(1 / 61), 'unknown');
    assert.equal(readRrf(0.0165), 'both');
    assert.equal(readRrf(0.0164), 'unknown');
  });

  it('counts that leave one retriever empty, or no overlap, name the one', () => {
    assert.equal(readRrf(0.0164, { counts: { vector: 12, fulltext: 0, hybrid: 5 } }), 'vector');
    assert.equal(readRrf(0.0164, { counts: { vector: 0, fulltext: 3, hybrid: 3 } }), 'fulltext');
    assert.equal(readRrf(0.0161, { counts: { vector: 3, fulltext: 2, hybrid: 5 } }), 'one');
  });

  it("a sum below one list's term at its rank is both lists'", () => {
    assert.equal(readRrf(rrfTerm(70) + rrfTerm(90), { rank: 3 }), 'both', 'under 1/63');
    assert.equal(readRrf(rrfTerm(62) + rrfTerm(63), { rank: 3 }), 'unknown', 'between 1/63 and 1/61: not told');
    assert.equal(readRrf(round(rrfTerm(200) + rrfTerm(150), 4), { rank: 2 }), 'both');
  });

  it('roundingTolerance is half a unit of the last decimal written', () => {
    assert.equal(roundingTolerance(0.0164), 0.00005);
    assert.equal(roundingTolerance(0.016), 0.0005);
    assert.equal(roundingTolerance(1 / 61), 1e-12);
  });

  it('property: never contradicts how the passage was found (rank, counts, rounding), whatever the ranks', () => {
    fc.assert(
      fc.property(
        searchArb,
        fc.boolean(),
        fc.nat({ max: 40 }),
        ({ vector, fulltext, decimals }, withCounts, filtered) => {
          const fused = fuse(vector, fulltext);
          // counts.vector counts the vector candidates before the threshold filtered some out.
          const counts = {
            vector: vector.length + filtered,
            fulltext: fulltext.length,
            hybrid: fused.length,
            rerank: 0,
          };
          fused.forEach((t, i) => {
            const score = round(t.exact, decimals);
            const reading = readRrf(score, { rank: i + 1, ...(withCounts ? { counts } : {}) });
            assert.ok(agrees(reading, truthOf(t)), `${JSON.stringify(t)} at rank ${i + 1} read ${reading}`);
          });
        },
      ),
    );
  });

  it('property: with short lists (≤ 55 each) every passage found by both is read as both', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 120 }), { maxLength: 55 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 120 }), { maxLength: 55 }),
        (vector, fulltext) => {
          fuse(vector, fulltext).forEach((t, i) => {
            if (truthOf(t) === 'both') assert.equal(readRrf(round(t.exact, 4), { rank: i + 1 }), 'both');
          });
        },
      ),
    );
  });

  it('property: a list one retriever filled alone is read as that retriever at every rank', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.constantFrom('vector', 'fulltext'), (n, which) => {
        const counts =
          which === 'vector' ? { vector: n, fulltext: 0, hybrid: n } : { vector: 0, fulltext: n, hybrid: n };
        for (let rank = 1; rank <= n; rank++) assert.equal(readRrf(round(rrfTerm(rank), 4), { rank, counts }), which);
      }),
    );
  });

  it('nothing is read from a score that is not a positive number', () => {
    for (const s of [0, -0.01, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(readRrf(s), 'unknown');
  });

  it('the rules in their order, each with a case only it decides', () => {
    // a retriever with no candidate found nothing: the other one, even for a sum that looks like both
    assert.equal(readRrf(0.0325, { counts: { vector: 12, fulltext: 0, hybrid: 12 } }), 'vector');
    assert.equal(readRrf(0.0325, { counts: { vector: 0, fulltext: 12, hybrid: 12 } }), 'fulltext');
    // neither had one: no retriever can be named, and the sum is one list's at most
    assert.equal(readRrf(0.0164, { counts: { vector: 0, fulltext: 0, hybrid: 0 } }), 'one');
    // no overlap (vector + fulltext − hybrid ≤ 0): neither a high sum nor a low rank makes it both
    assert.equal(readRrf(0.0325, { counts: { vector: 3, fulltext: 2, hybrid: 5 } }), 'one');
    assert.equal(readRrf(rrfTerm(70) + rrfTerm(90), { rank: 3, counts: { vector: 3, fulltext: 2, hybrid: 5 } }), 'one');
    // a rank that is not a 1-based integer tells nothing
    assert.equal(readRrf(0.0164, { rank: 0 }), 'unknown');
    assert.equal(readRrf(0.015, { rank: 1.5 }), 'unknown');
    // under the smallest both-lists sum the counts allow (1/160 + 1/160 = 0.0125, rounding included) it is one list's
    const wide = { vector: 100, fulltext: 100, hybrid: 150 };
    assert.equal(readRrf(0.015, { counts: wide }), 'unknown');
    assert.equal(readRrf(0.0125, { counts: wide }), 'unknown', 'within the rounding of the smallest sum');
    assert.equal(readRrf(0.0119, { counts: wide }), 'one');
    // under 1/(60 + fulltext) it cannot be the full-text list's, and likewise for vector
    assert.equal(readRrf(0.012, { counts: { vector: 100, fulltext: 5, hybrid: 103 } }), 'vector');
    assert.equal(readRrf(0.012, { counts: { vector: 5, fulltext: 100, hybrid: 103 } }), 'fulltext');
  });

  it('a count that is not a number of candidates (negative) is ignored, not used', () => {
    assert.equal(readRrf(0.0325, { counts: { vector: 3, fulltext: -5, hybrid: 1 } }), 'both');
    assert.equal(readRrf(0, { counts: { vector: 12, fulltext: 0, hybrid: 5 } }), 'unknown', 'nor a zero score');
  });

  it('a score written with an exponent gets the smallest tolerance', () => {
    assert.equal(roundingTolerance(1.5e-7), 1e-12);
  });
});
