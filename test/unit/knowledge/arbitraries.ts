/** fast-check generators shared by the knowledge tests. */
import fc from 'fast-check';
import type { PassageLike, ResultList } from '../../../src/knowledge/types';

export interface TestPassage extends PassageLike {
  readonly content: string;
}

/** A passage key drawn from a small pool, so lists overlap often. */
const passageArb = fc.record({
  doc_name: fc.constantFrom('茶树农事操作.docx', '水稻栽培.pdf', 'a#b.md', '玉米.docx'),
  chunk_index: fc.integer({ min: 0, max: 5 }),
});

/** A result list as the server gives it: distinct passages, scores non-increasing in order. */
export const listArb = (
  scoreType: fc.Arbitrary<string | undefined> = fc.constantFrom(
    'rrf(≈1/(60+rank), 仅用于排序)',
    'cosine_similarity(0~1)',
    undefined,
  ),
): fc.Arbitrary<ResultList<TestPassage>> =>
  fc
    .record({
      id: fc.string({ minLength: 1, maxLength: 6 }),
      scoreType,
      passages: fc.uniqueArray(passageArb, { selector: (p) => `${p.doc_name}#${p.chunk_index}`, maxLength: 12 }),
      scores: fc.array(fc.double({ min: 0.0001, max: 1, noNaN: true }), { minLength: 12, maxLength: 12 }),
    })
    .map(({ id, scoreType: st, passages, scores }) => {
      const sorted = [...scores].sort((a, b) => b - a);
      return {
        id,
        ...(st !== undefined ? { scoreType: st } : {}),
        sources: passages.map((p, i) => ({ ...p, content: `${p.doc_name} ${p.chunk_index}`, score: sorted[i] ?? 0 })),
      };
    });

/** Several lists. */
export const listsArb = fc.array(listArb(), { minLength: 1, maxLength: 6 });

/** Strictly increasing maps of (0, 1] into positive numbers. */
export const monotoneArb = fc.constantFrom(
  (x: number) => x * 1000,
  (x: number) => x / 60 + 0.001,
  (x: number) => x ** 3,
  (x: number) => Math.log1p(x),
  (x: number) => 1 / (61 - x),
);
