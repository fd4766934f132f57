/** The search runner (single base, fan-out + fusion, misses), in plain Node. */
import * as assert from 'node:assert/strict';
import * as model from '../../../src/knowledge/history';
import { combineMisses, runSearch, type ResultLike, type SearchDeps } from '../../../src/knowledge/search';

const RRF = 'rrf(≈1/(60+rank), 仅用于排序)';
const NAMES: Record<string, string> = { TEA: '茶树管理', RICE: '水稻', CORN: '玉米' };

function result(code: string, docs: [string, number, number][]): ResultLike {
  return {
    kb_code: code,
    kb_name: code
      .split(',')
      .map((c) => NAMES[c] ?? c)
      .join(','),
    score_type: RRF,
    counts: { vector: 10, fulltext: 2, hybrid: docs.length, rerank: 0 },
    sources: docs.map(([d, i, s]) => ({ doc_name: d, chunk_index: i, content: `${d} ${i}`, score: s })),
    warnings: ['Rerank 精排已手动关闭'],
  };
}

class Miss extends Error {
  constructor(
    readonly info: {
      vectorCandidates: number;
      fulltextCandidates: number;
      threshold: number;
      filtered: number;
      bestScore: number;
    },
  ) {
    super('miss');
  }
}

function deps(
  answers: Record<string, ResultLike | Miss>,
  extra: Partial<SearchDeps> = {},
): SearchDeps & { calls: (string | undefined)[] } {
  const calls: (string | undefined)[] = [];
  return {
    calls,
    call: async (o) => {
      calls.push(o.kbCode);
      const a = answers[o.kbCode ?? '*'];
      if (!a) throw new Error(`unexpected ${o.kbCode}`);
      if (a instanceof Miss) throw a;
      return a;
    },
    missOf: (e) => (e instanceof Miss ? e.info : undefined),
    bases: [],
    basesListed: false,
    now: () => new Date('2026-10-25T13:06:13Z'),
    ...extra,
  };
}

const signal = new AbortController().signal;

describe('runSearch', () => {
  it('one knowledge base: one call, the server order, its base on every passage', async () => {
    const d = deps({
      TEA: result('TEA', [
        ['a.docx', 1, 0.0328],
        ['b.docx', 0, 0.0323],
      ]),
    });
    const out = await runSearch({ query: 'q', kbCode: 'TEA' }, d, signal);
    assert.equal(out.kind, 'hit');
    if (out.kind !== 'hit') return;
    assert.deepEqual(d.calls, ['TEA']);
    assert.deepEqual(
      out.record.passages.map((p) => [model.keyOf(p.passage), p.passage.kbCode, p.passage.kbName, p.view.rank]),
      [
        ['a.docx#1', 'TEA', '茶树管理', 1],
        ['b.docx#0', 'TEA', '茶树管理', 2],
      ],
    );
    assert.deepEqual(
      out.record.passages.map((p) => p.view.found),
      ['both', 'both'],
      'sums above 1/61 need both the full-text and the meaning list',
    );
    assert.ok(out.record.passages.every((p) => p.view.belowUsual === undefined));
    assert.deepEqual(out.counts, { vector: 10, fulltext: 2, hybrid: 2, rerank: 0 });
  });

  it('below-threshold labelling: a search under the usual threshold marks what only the lowered threshold let in', async () => {
    const lowered = { query: '玉米 病虫害', kbCode: 'TEA', scoreThreshold: 0.52 };
    const rrf = deps({ TEA: result('TEA', [['a.docx', 1, 0.0164]]) }, { usualThreshold: 0.7 });
    const hit = await runSearch(lowered, rrf, signal);
    assert.ok(hit.kind === 'hit');
    assert.deepEqual(hit.record.passages[0]?.view, { rank: 1, of: 1, found: 'one', threshold: 0.52, belowUsual: 0.7 });

    const fulltextOnly: ResultLike = {
      ...result('TEA', [['a.docx', 1, 0.0164]]),
      counts: { vector: 0, fulltext: 1, hybrid: 1 },
    };
    const ft = await runSearch(lowered, deps({ TEA: fulltextOnly }, { usualThreshold: 0.7 }), signal);
    assert.ok(ft.kind === 'hit');
    assert.equal(ft.record.passages[0]?.view.belowUsual, undefined, 'full-text matches are kept at any threshold');

    const cosine: ResultLike = {
      ...result('TEA', [
        ['a.docx', 1, 0.81],
        ['b.docx', 2, 0.6],
      ]),
      score_type: 'cosine_similarity(0~1)',
    };
    const vec = await runSearch({ ...lowered, mode: 'vector' }, deps({ TEA: cosine }, { usualThreshold: 0.7 }), signal);
    assert.ok(vec.kind === 'hit');
    assert.deepEqual(
      vec.record.passages.map((p) => [p.view.threshold, p.view.belowUsual]),
      [
        [0.52, undefined],
        [0.52, 0.7],
      ],
    );

    const usual = await runSearch({ ...lowered, scoreThreshold: 0.7 }, rrf, signal);
    assert.ok(usual.kind === 'hit' && usual.record.passages[0]?.view.belowUsual === undefined);
  });

  it('all bases, not yet listed: one listing call, then each base separately, fused by rank; never a comma list as a base', async () => {
    const d = deps({
      '*': result('TEA,RICE,CORN', [['a.docx', 1, 0.03]]),
      TEA: result('TEA', [
        ['a.docx', 1, 0.0328],
        ['b.docx', 0, 0.03],
      ]),
      RICE: result('RICE', [['r.docx', 2, 0.0325]]),
      CORN: new Miss({ vectorCandidates: 5, fulltextCandidates: 0, threshold: 0.7, filtered: 5, bestScore: 0.4 }),
    });
    const out = await runSearch({ query: 'q' }, d, signal);
    assert.equal(out.kind, 'hit');
    if (out.kind !== 'hit') return;
    assert.deepEqual(d.calls.slice(0, 1), [undefined]);
    assert.deepEqual([...d.calls.slice(1)].sort(), ['CORN', 'RICE', 'TEA']);
    assert.equal(out.fused, true);
    assert.equal(out.lists, 2);
    assert.ok(out.observed.some((o) => o.listed && o.kbCode === 'TEA,RICE,CORN'));
    const ps = out.record.passages;
    assert.deepEqual(
      ps.map((p) => [model.keyOf(p.passage), p.passage.kbCode]),
      [
        ['a.docx#1', 'TEA'],
        ['r.docx#2', 'RICE'],
        ['b.docx#0', 'TEA'],
      ],
    );
    for (const p of ps) assert.ok(!p.passage.kbCode.includes(',') && !p.passage.kbName.includes(','));
    assert.deepEqual(
      ps.map((p) => p.view.foundIn),
      [1, 1, 1],
    );
    assert.deepEqual(out.counts, { vector: 20, fulltext: 4, hybrid: 3, rerank: 0 });
    assert.deepEqual(out.warnings, ['Rerank 精排已手动关闭']);
  });

  it('all bases already listed: no listing call', async () => {
    const d = deps(
      { TEA: result('TEA', [['a.docx', 1, 0.03]]), RICE: result('RICE', [['a.docx', 1, 0.03]]) },
      { bases: [{ code: 'TEA' }, { code: 'RICE' }], basesListed: true },
    );
    const out = await runSearch({ query: 'q' }, d, signal);
    assert.deepEqual([...d.calls].sort(), ['RICE', 'TEA']);
    assert.ok(out.kind === 'hit');
    assert.equal(out.record.passages.length, 1, 'duplicates (same doc_name#chunk_index) merge');
    assert.equal(out.record.passages[0]?.view.foundIn, 2);
    assert.equal(
      out.record.passages[0]?.passage.kbCode,
      'TEA',
      'attributed to the base of its best hit (the first at equal ranks)',
    );
  });

  it('a miss everywhere is one miss: counts summed, best of the best scores', async () => {
    const m = (v: number, best: number): Miss =>
      new Miss({ vectorCandidates: v, fulltextCandidates: 0, threshold: 0.7, filtered: v, bestScore: best });
    const d = deps(
      { TEA: m(10, 0.5), RICE: m(6, 0.62) },
      { bases: [{ code: 'TEA' }, { code: 'RICE' }], basesListed: true },
    );
    const out = await runSearch({ query: 'q', scoreThreshold: 0.7 }, d, signal);
    assert.equal(out.kind, 'miss');
    if (out.kind !== 'miss') return;
    assert.deepEqual(out.miss, {
      vectorCandidates: 16,
      fulltextCandidates: 0,
      filtered: 16,
      threshold: 0.7,
      bestScore: 0.62,
    });
  });

  it('other failures are thrown when no base answered', async () => {
    const d = deps({}, { bases: [{ code: 'X' }, { code: 'Y' }], basesListed: true });
    await assert.rejects(runSearch({ query: 'q' }, d, signal), /unexpected X/);
  });

  it('combineMisses keeps unknown parts unknown', () => {
    assert.deepEqual(combineMisses([{ threshold: 0.7 }]), {
      vectorCandidates: undefined,
      fulltextCandidates: undefined,
      filtered: undefined,
      threshold: 0.7,
      bestScore: undefined,
    });
  });
});
