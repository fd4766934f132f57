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

  it('one knowledge base: a miss is a miss with nothing observed and nothing failed; other errors are thrown', async () => {
    const info = { vectorCandidates: 3, fulltextCandidates: 0, threshold: 0.7, filtered: 3, bestScore: 0.41 };
    const out = await runSearch({ query: 'q', kbCode: 'TEA' }, deps({ TEA: new Miss(info) }), signal);
    assert.deepEqual(out, {
      kind: 'miss',
      miss: info,
      options: { query: 'q', kbCode: 'TEA' },
      observed: [],
      failed: [],
    });
    await assert.rejects(runSearch({ query: 'q', kbCode: 'RICE' }, deps({}), signal), /unexpected RICE/);
  });

  it('a single answer: its base observed (not as a listing), counts without the missing stages, its mode, no threshold unless one was passed', async () => {
    const answer: ResultLike = {
      ...result('TEA', [['a.docx', 1, 0.0328]]),
      counts: { vector: 4, fulltext: null, hybrid: 1 },
    };
    const out = await runSearch({ query: 'q', kbCode: 'TEA' }, deps({ TEA: answer }), signal);
    assert.ok(out.kind === 'hit');
    assert.deepEqual(out.observed, [{ kbCode: 'TEA', kbName: '茶树管理', listed: false }]);
    assert.deepEqual(out.counts, { vector: 4, hybrid: 1 });
    assert.equal(out.mode, '', 'no mode reported, none shown');
    assert.deepEqual(out.record.passages[0]?.view, { rank: 1, of: 1, found: 'both' });
    assert.deepEqual(out.record.kbCodes, ['TEA']);
    const vector = await runSearch({ query: 'q', kbCode: 'TEA' }, deps({ TEA: { ...answer, mode: 'vector' } }), signal);
    assert.ok(vector.kind === 'hit' && vector.mode === 'vector');
  });

  it('all bases: the listing names one base (either comma, spaces, empty parts): its answer is the result, one call', async () => {
    const d = deps({ '*': result(' TEA ，', [['a.docx', 1, 0.0328]]) });
    const out = await runSearch({ query: 'q' }, d, signal);
    assert.deepEqual(d.calls, [undefined]);
    assert.ok(out.kind === 'hit');
    assert.equal(out.fused, false);
    assert.deepEqual(out.observed, [{ kbCode: ' TEA ，', kbName: ' TEA ，', listed: true }]);
    assert.equal(out.record.passages[0]?.passage.kbCode, 'TEA');
    assert.deepEqual(out.record.kbCodes, ['TEA']);
  });

  it('all bases: a listing with full-width commas and spaces is split into its bases, each searched', async () => {
    const d = deps({
      '*': result('TEA， RICE ,', [['a.docx', 1, 0.03]]),
      TEA: result('TEA', [['a.docx', 1, 0.0328]]),
      RICE: result('RICE', [['r.docx', 2, 0.0325]]),
    });
    const out = await runSearch({ query: 'q' }, d, signal);
    assert.deepEqual([...d.calls.slice(1)].sort(), ['RICE', 'TEA']);
    assert.ok(out.kind === 'hit' && out.fused);
    assert.deepEqual(
      out.observed.map((o) => [o.kbCode, o.listed]),
      [
        ['TEA， RICE ,', true],
        ['TEA', false],
        ['RICE', false],
      ],
    );
  });

  it('all bases: bases known but not from a listing are listed first; one listed base is searched by its code', async () => {
    const known = deps(
      {
        '*': result('TEA,RICE', [['a.docx', 1, 0.03]]),
        TEA: result('TEA', [['a.docx', 1, 0.03]]),
        RICE: result('RICE', [['r.docx', 1, 0.03]]),
      },
      { bases: [{ code: 'TEA' }, { code: 'RICE' }], basesListed: false },
    );
    await runSearch({ query: 'q' }, known, signal);
    assert.equal(known.calls[0], undefined, 'the listing call first');
    const empty = deps({ '*': result('TEA', [['a.docx', 1, 0.03]]) }, { bases: [], basesListed: true });
    await runSearch({ query: 'q' }, empty, signal);
    assert.deepEqual(empty.calls, [undefined], 'listed but none known: listed again');
    const one = deps({ TEA: result('TEA', [['a.docx', 1, 0.03]]) }, { bases: [{ code: 'TEA' }], basesListed: true });
    const out = await runSearch({ query: 'q' }, one, signal);
    assert.deepEqual(one.calls, ['TEA']);
    assert.ok(out.kind === 'hit' && !out.fused && out.record.passages[0]?.passage.kbCode === 'TEA');
  });

  it("all bases: a base that fails is reported beside the others' passages; when one base answers, its list is used as is", async () => {
    const d = deps(
      { TEA: result('TEA', [['a.docx', 1, 0.0328]]) },
      { bases: [{ code: 'TEA' }, { code: 'RICE' }], basesListed: true },
    );
    const out = await runSearch({ query: 'q' }, d, signal);
    assert.ok(out.kind === 'hit');
    assert.equal(out.fused, false);
    assert.deepEqual(
      out.failed.map((f) => [f.kbCode, String(f.error)]),
      [['RICE', 'Error: unexpected RICE']],
    );
    assert.equal(out.record.passages[0]?.passage.kbCode, 'TEA');
    const missAndFail = deps(
      { TEA: new Miss({ vectorCandidates: 1, fulltextCandidates: 0, threshold: 0.7, filtered: 1, bestScore: 0.3 }) },
      { bases: [{ code: 'TEA' }, { code: 'RICE' }], basesListed: true },
    );
    const miss = await runSearch({ query: 'q' }, missAndFail, signal);
    assert.ok(miss.kind === 'miss');
    assert.deepEqual(
      miss.failed.map((f) => f.kbCode),
      ['RICE'],
    );
  });

  it('all bases: cancelling stops the search, even when another base answered (a cancelled base is not a failed one)', async () => {
    const ac = new AbortController();
    const d = deps({}, { bases: [{ code: 'TEA' }, { code: 'RICE' }], basesListed: true });
    d.call = async (o) => {
      if (o.kbCode === 'RICE') return result('RICE', [['r.docx', 1, 0.03]]);
      ac.abort();
      throw new Error('aborted');
    };
    await assert.rejects(runSearch({ query: 'q' }, d, ac.signal), /aborted/);
  });

  it("all bases: at most `concurrency` calls in flight; lists fused in the bases' order whatever order they answer in", async () => {
    let inFlight = 0;
    let most = 0;
    const order = ['CORN', 'RICE', 'TEA'];
    const answers: Record<string, ResultLike> = {
      TEA: result('TEA', [['same.docx', 1, 0.0328]]),
      RICE: result('RICE', [['same.docx', 1, 0.0328]]),
      CORN: result('CORN', [['c.docx', 1, 0.0328]]),
    };
    const d = deps(answers, {
      bases: [{ code: 'TEA' }, { code: 'RICE' }, { code: 'CORN' }],
      basesListed: true,
      concurrency: 2,
    });
    d.call = async (o) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // TEA answers last: later bases finish first
      for (let i = 0; i <= order.indexOf(o.kbCode ?? ''); i++) await new Promise((r) => setImmediate(r));
      inFlight--;
      return answers[o.kbCode ?? ''] as ResultLike;
    };
    const out = await runSearch({ query: 'q' }, d, signal);
    assert.equal(most, 2);
    assert.ok(out.kind === 'hit');
    assert.deepEqual(out.record.kbCodes, ['TEA', 'RICE', 'CORN']);
    assert.equal(out.record.passages[0]?.passage.kbCode, 'TEA', 'a tie goes to the first base');
    const serial = deps(answers, { bases: [{ code: 'TEA' }, { code: 'RICE' }], basesListed: true });
    let now = 0;
    let max = 0;
    const call = serial.call;
    serial.call = async (o, s) => {
      max = Math.max(max, ++now);
      await new Promise((r) => setImmediate(r));
      now--;
      return call(o, s);
    };
    await runSearch({ query: 'q' }, serial, signal);
    assert.equal(max, 2, 'two bases under the default of three: both at once');
  });

  it("fused: each passage read in its own list (its rank there, its base's name trimmed and score type); modes joined once each", async () => {
    const cosine = 'cosine_similarity(0~1)';
    const d = deps(
      {
        TEA: {
          ...result('TEA', [
            ['a.docx', 1, 0.0328],
            ['b.docx', 2, 0.0164],
          ]),
          kb_name: ' 茶树管理 ',
          mode: 'hybrid',
        },
        RICE: { ...result('RICE', [['r.docx', 1, 0.91]]), score_type: cosine, mode: 'vector' },
        CORN: { ...result('CORN', [['c.docx', 1, 0.0328]]), mode: 'hybrid' },
      },
      { bases: [{ code: 'TEA' }, { code: 'RICE' }, { code: 'CORN' }], basesListed: true },
    );
    const out = await runSearch({ query: 'q' }, d, signal);
    assert.ok(out.kind === 'hit');
    assert.equal(out.mode, 'hybrid, vector');
    const byKey = new Map(out.record.passages.map((p) => [model.keyOf(p.passage), p]));
    assert.deepEqual(
      [byKey.get('a.docx#1')?.view.found, byKey.get('b.docx#2')?.view.found, byKey.get('r.docx#1')?.view.found],
      ['both', 'one', undefined],
      'the RRF reading of each passage at its own rank; a cosine list has none',
    );
    assert.equal(byKey.get('a.docx#1')?.passage.kbName, '茶树管理');
    assert.equal(byKey.get('r.docx#1')?.passage.scoreType, cosine);
    assert.deepEqual(
      out.record.passages.map((p) => [p.view.foundIn, p.view.lists]),
      [
        [1, 3],
        [1, 3],
        [1, 3],
        [1, 3],
      ],
    );
    const none = deps(
      { TEA: result('TEA', [['a.docx', 1, 0.03]]), RICE: result('RICE', [['r.docx', 1, 0.03]]) },
      { bases: [{ code: 'TEA' }, { code: 'RICE' }], basesListed: true },
    );
    const plain = await runSearch({ query: 'q' }, none, signal);
    assert.ok(plain.kind === 'hit' && plain.mode === '', 'no list reported a mode');
  });

  it('fused counts: each stage summed over the lists that reported it; a stage nobody reported stays missing', async () => {
    const d = deps(
      {
        TEA: { ...result('TEA', [['a.docx', 1, 0.03]]), counts: { vector: 10, fulltext: null, hybrid: 1 } },
        RICE: { ...result('RICE', [['r.docx', 1, 0.03]]), counts: { vector: 5, hybrid: 1, rerank: Number.NaN } },
      },
      { bases: [{ code: 'TEA' }, { code: 'RICE' }], basesListed: true },
    );
    const out = await runSearch({ query: 'q' }, d, signal);
    assert.ok(out.kind === 'hit');
    assert.deepEqual(out.counts, { vector: 15, hybrid: 2 });
  });

  it('a cosine passage exactly at the usual threshold is not marked as below it', async () => {
    const cosine: ResultLike = {
      ...result('TEA', [['a.docx', 1, 0.7]]),
      score_type: 'cosine_similarity(0~1)',
    };
    const out = await runSearch(
      { query: 'q', kbCode: 'TEA', scoreThreshold: 0.5, mode: 'vector' },
      deps({ TEA: cosine }, { usualThreshold: 0.7 }),
      signal,
    );
    assert.ok(out.kind === 'hit');
    assert.deepEqual(out.record.passages[0]?.view, { rank: 1, of: 1, threshold: 0.5 });
  });

  it('two searches in the same millisecond get different ids', async () => {
    const d = deps({ TEA: result('TEA', [['a.docx', 1, 0.03]]) });
    const a = await runSearch({ query: 'q', kbCode: 'TEA' }, d, signal);
    const b = await runSearch({ query: 'q', kbCode: 'TEA' }, d, signal);
    assert.ok(a.kind === 'hit' && b.kind === 'hit');
    assert.notEqual(a.record.id, b.record.id);
    assert.match(a.record.id, /^[0-9a-z]+-[0-9a-z]+$/);
  });

  it('combineMisses: the first threshold any miss carries', () => {
    assert.equal(combineMisses([{}, { threshold: 0.6 }, { threshold: 0.7 }]).threshold, 0.6);
  });
});
