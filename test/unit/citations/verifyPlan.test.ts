/**
 * The verify plan with the search handed in (pure): what is asked, what each answer means, which
 * failures stop the run, the cache, cancelling and the number of searches in flight.
 */
import { strict as assert } from 'node:assert';
import { CitationCache, type CitationContext } from '../../../src/citations/retrievalContext';
import {
  basesOf,
  contextOfFound,
  queryFor,
  sameText,
  verifySources,
  type VerifyOptions,
} from '../../../src/citations/verify';
import { VerifyCache, type KnowledgeBase, type VerifyOutcome } from '../../../src/citations/verifyCache';
import { sourceKey, type VerifySource } from '../../../src/citations/verifySources';
import type { KnowledgeSearchArgs } from '../../../src/shunong/client';
import {
  AuthError,
  CancelledError,
  ConfigurationError,
  InsecureEndpointError,
  KnowledgeMissError,
  NetworkError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  TimeoutError,
} from '../../../src/shunong/errors';
import type { KnowledgeResult } from '../../../src/shunong/schemas';
import { tick } from '../shunong/helpers';

/** 2026-12-01 09:00 in Beijing. */
const NOW = Date.parse('2026-12-01T01:00:00Z');
const TODAY = '2026-12-01';
const K: KnowledgeBase = { code: 'K', name: '甲库' };
const L: KnowledgeBase = { code: 'L', name: '乙库' };

function src(docName: string, chunkIndex: number, kb?: KnowledgeBase, citedText = ''): VerifySource {
  const citation = `${docName}#${chunkIndex}`;
  return {
    key: sourceKey(kb?.code, citation),
    docName,
    chunkIndex,
    citation,
    uses: [],
    citedText,
    ...(kb ? { kbCode: kb.code, kbName: kb.name } : {}),
  };
}

interface Found {
  doc: string;
  idx: number;
  content: string;
  score?: number;
}

/** A knowledge_search answer naming `kbs` (comma-joined, as a search over several bases does). */
function hit(found: Found[], ...kbs: KnowledgeBase[]): KnowledgeResult {
  const bases = kbs.length ? kbs : [K];
  return {
    kb_code: bases.map((b) => b.code).join(','),
    kb_name: bases.map((b) => b.name).join(','),
    query: 'q',
    mode: 'hybrid',
    score_type: 'rerank',
    total: found.length,
    counts: { vector: found.length, fulltext: 0 },
    sources: found.map((f) => ({ doc_name: f.doc, chunk_index: f.idx, content: f.content, score: f.score ?? 0.5 })),
    warnings: [],
  };
}

function miss(): KnowledgeMissError {
  return new KnowledgeMissError('no passage', 0, 0, 0, 0, undefined);
}

/** A search that records its arguments and answers with `answer` (a throw becomes a rejection). */
function recorder(answer: (args: KnowledgeSearchArgs, n: number) => KnowledgeResult | Promise<KnowledgeResult>): {
  calls: KnowledgeSearchArgs[];
  search: VerifyOptions['search'];
} {
  const calls: KnowledgeSearchArgs[] = [];
  return {
    calls,
    search: async (args) => {
      calls.push(args);
      return answer(args, calls.length);
    },
  };
}

/** The platform of these tests: bases K and L; a search over all of them names both. */
const PASSAGES: Record<string, Found[]> = {
  K: [
    { doc: 'a.docx', idx: 1, content: '春茶采摘后及时修剪。', score: 0.91 },
    { doc: 'a.docx', idx: 2, content: '修剪后施肥。' },
  ],
  L: [{ doc: 'b.pdf', idx: 0, content: '水稻分蘖期浅水勤灌。' }],
};
function platform(args: KnowledgeSearchArgs): KnowledgeResult {
  if (args.kbCode === undefined) return hit([...PASSAGES.K!, ...PASSAGES.L!], K, L);
  const kb = [K, L].find((b) => b.code === args.kbCode);
  if (!kb) throw miss();
  return hit(PASSAGES[kb.code]!, kb);
}

function cachedContext(citation: string, content: string, kb: KnowledgeBase = K): CitationContext {
  return {
    citation,
    kbCode: kb.code,
    kbName: kb.name,
    query: '旧查询',
    score: 0.7,
    scoreType: 'rerank',
    retrievedAt: '2026-11-01T00:00:00.000Z',
    content,
  };
}

function passagesOf(...contexts: CitationContext[]): CitationCache {
  const c = new CitationCache();
  for (const x of contexts) c.put(x);
  return c;
}

const statuses = (r: { results: { outcome: VerifyOutcome }[] }): string[] => r.results.map((x) => x.outcome.status);
const reasons = (r: { results: { outcome: VerifyOutcome }[] }): string[] =>
  r.results.map((x) => (x.outcome.status === 'unverified' ? x.outcome.reason : x.outcome.status));

describe('citations: the verify plan (the search handed in)', () => {
  it('a source the search returns is verified with the passage as found, asked in its own base after one search over all', async () => {
    const s = src('a.docx', 1, K, '被引用的这一句');
    const { calls, search } = recorder(platform);
    const report = await verifySources([s], { search, now: () => NOW });
    assert.deepEqual(calls, [
      { query: '被引用的这一句', topK: 1, scoreThreshold: 0 },
      { query: '被引用的这一句', kbCode: 'K', topK: 20, scoreThreshold: 0 },
    ]);
    assert.equal(report.requests, 2);
    assert.deepEqual(report.knowledgeBases, [K, L]);
    assert.deepEqual(report.results, [
      {
        source: s,
        date: TODAY,
        cached: false,
        outcome: {
          status: 'verified',
          passage: {
            content: '春茶采摘后及时修剪。',
            kbCode: 'K',
            kbName: '甲库',
            query: '被引用的这一句',
            score: 0.91,
            scoreType: 'rerank',
            retrievedAt: '2026-12-01T01:00:00.000Z',
          },
        },
      },
    ]);
    assert.equal(report.cancelled, false);
    assert.equal(report.stoppedBy, undefined);
  });

  it('only the passage of both the document and the chunk cited counts: a neighbour chunk or another document is not located', async () => {
    const { search } = recorder(() =>
      hit([
        { doc: 'a.docx', idx: 2, content: '邻近的段落。' },
        { doc: 'other.docx', idx: 1, content: '另一文档的同号段落。' },
      ]),
    );
    const report = await verifySources([src('a.docx', 1, K), src('a.docx', 1)], { search, now: () => NOW });
    assert.deepEqual(
      report.results.map((r) => r.outcome),
      [{ status: 'not-located', kbCode: 'K' }, { status: 'not-located' }],
    );
  });

  it('a search that finds nothing says "not located", never "unverified", and the run goes on', async () => {
    const { calls, search } = recorder((args, n) => {
      if (n === 2) throw miss();
      return platform(args);
    });
    const report = await verifySources([src('x.docx', 1, K), src('a.docx', 1, K)], {
      search,
      now: () => NOW,
      concurrency: 1,
    });
    assert.deepEqual(statuses(report), ['not-located', 'verified']);
    assert.equal(calls.length, 3);
    assert.equal(report.stoppedBy, undefined);
  });

  it('a citation of a base the account does not have is unknown, with the bases known, and not searched', async () => {
    const { calls, search } = recorder(platform);
    const report = await verifySources([src('a.docx', 1, { code: 'Z', name: '错库' }), src('a.docx', 1)], {
      search,
      now: () => NOW,
    });
    assert.deepEqual(report.results[0]!.outcome, { status: 'unknown-kb', kbCode: 'Z', known: ['K', 'L'] });
    assert.equal(report.results[1]!.outcome.status, 'verified', 'an inline citation names no base: never unknown');
    assert.ok(!calls.some((a) => a.kbCode === 'Z'));
    assert.equal(calls.length, 2);
  });

  it('when the search over all bases finds nothing, each source is searched in its own base anyway', async () => {
    const { calls, search } = recorder((args) => {
      if (args.topK === 1) throw miss();
      return hit([{ doc: 'a.docx', idx: 1, content: '春茶采摘后及时修剪。' }], { code: 'Z', name: '某库' });
    });
    const report = await verifySources([src('a.docx', 1, { code: 'Z', name: '某库' })], { search, now: () => NOW });
    assert.deepEqual(statuses(report), ['verified']);
    assert.deepEqual(
      calls.map((a) => a.kbCode),
      [undefined, 'Z'],
    );
    assert.equal(report.knowledgeBases, undefined);
    assert.equal(report.stoppedBy, undefined);
  });

  it('a failure of the search over all bases that does not stop the run: each source is still searched', async () => {
    const { calls, search } = recorder((args) => {
      if (args.topK === 1) throw new ServerError(502, 3);
      return platform(args);
    });
    const report = await verifySources([src('a.docx', 1, K), src('b.pdf', 0, L)], { search, now: () => NOW });
    assert.deepEqual(statuses(report), ['verified', 'verified']);
    assert.equal(calls.length, 3);
    assert.equal(report.knowledgeBases, undefined);
    assert.equal(report.stoppedBy, undefined);
  });

  it('inline citations only: no search over all bases; their searches name no base', async () => {
    const { calls, search } = recorder(platform);
    const report = await verifySources([src('a.docx', 1), src('b.pdf', 0)], { search, now: () => NOW });
    assert.deepEqual(statuses(report), ['verified', 'verified']);
    assert.equal(report.requests, 2);
    assert.ok(calls.every((a) => !('kbCode' in a) && a.topK === 20 && a.scoreThreshold === 0));
    assert.equal(report.knowledgeBases, undefined);
  });

  it('an inline citation takes the base the search names: the one base, else the cached passage’s, else the list as named', async () => {
    const inline = src('a.docx', 1);
    const one = recorder(() => hit([{ doc: 'a.docx', idx: 1, content: '春茶采摘后及时修剪。' }], K));
    const two = recorder(() => hit([{ doc: 'a.docx', idx: 1, content: '春茶采摘后及时修剪。' }], K, L));
    const kbOf = async (search: VerifyOptions['search'], passages?: CitationCache) => {
      const r = await verifySources([inline], { search, now: () => NOW, ...(passages ? { passages } : {}) });
      const o = r.results[0]!.outcome;
      return o.status === 'verified' || o.status === 'changed' ? [o.passage.kbCode, o.passage.kbName] : [o.status];
    };
    assert.deepEqual(await kbOf(one.search), ['K', '甲库']);
    assert.deepEqual(await kbOf(two.search), ['K,L', '甲库,乙库']);
    const cached = passagesOf(cachedContext('a.docx#1', '春茶采摘后及时修剪。', L));
    assert.deepEqual(await kbOf(two.search, cached), ['L', '乙库']);
    assert.deepEqual(await kbOf(one.search, cached), ['K', '甲库'], 'one base named: that one, whatever was cached');
  });

  it('a citation that names its base keeps that base and name, whatever the search calls it', async () => {
    const { search } = recorder(() =>
      hit([{ doc: 'a.docx', idx: 1, content: '春茶采摘后及时修剪。' }], { code: 'K', name: '甲库（改名）' }, L),
    );
    const report = await verifySources([src('a.docx', 1, K)], {
      search,
      now: () => NOW,
      cache: (() => {
        const c = new VerifyCache();
        c.setKnowledgeBases(TODAY, [K, L]);
        return c;
      })(),
    });
    const o = report.results[0]!.outcome;
    assert.ok(o.status === 'verified');
    assert.deepEqual([o.passage.kbCode, o.passage.kbName], ['K', '甲库']);
  });

  it('the cached passage is the query and the judge: other line breaks are unchanged, another text is changed', async () => {
    const { calls, search } = recorder(platform);
    const passages = passagesOf(
      cachedContext('a.docx#1', '春茶采摘后\n  及时修剪。'),
      cachedContext('a.docx#2', '修剪后不施肥。'),
    );
    const report = await verifySources([src('a.docx', 1, K, '引文'), src('a.docx', 2, K, '引文')], {
      search,
      passages,
      now: () => NOW,
      concurrency: 1,
    });
    assert.deepEqual(
      calls.map((a) => a.query),
      ['春茶采摘后\n  及时修剪。', '春茶采摘后\n  及时修剪。', '修剪后不施肥。'],
    );
    assert.equal(report.results[0]!.outcome.status, 'verified');
    const changed = report.results[1]!.outcome;
    assert.ok(changed.status === 'changed');
    assert.equal(changed.cached, '修剪后不施肥。');
    assert.equal(changed.passage.content, '修剪后施肥。');
  });

  it('a cached passage of another base is neither the query nor the judge; an inline citation uses any', async () => {
    const { calls, search } = recorder(platform);
    const passages = passagesOf(cachedContext('a.docx#1', '别库的旧文本。', L));
    const report = await verifySources([src('a.docx', 1, K, '引文'), src('a.docx', 1, undefined, '引文')], {
      search,
      passages,
      now: () => NOW,
      concurrency: 1,
    });
    assert.deepEqual(
      calls.map((a) => a.query),
      ['引文', '引文', '别库的旧文本。'],
    );
    assert.deepEqual(statuses(report), ['verified', 'changed']);
  });

  it('the query: the cached text trimmed (at most 2,000 characters), else the cited text, else the document name without its extension', () => {
    const s = src('茶树.修剪.docx', 1, K, '引文');
    const ctx = (content: string) => cachedContext(s.citation, content);
    assert.equal(queryFor(s, ctx('  缓存的文本。\n')), '缓存的文本。');
    assert.equal(queryFor(s, ctx('长'.repeat(2500))), '长'.repeat(2000));
    assert.equal(queryFor(s, ctx(' \n\t')), '引文');
    assert.equal(queryFor(s, undefined), '引文');
    assert.equal(queryFor({ ...s, citedText: '' }, undefined), '茶树.修剪');
    assert.equal(queryFor({ ...s, citedText: '', docName: 'README' }, undefined), 'README');
    assert.equal(queryFor({ ...s, citedText: '', docName: '.docx' }, undefined), '.docx');
  });

  it('texts are the same whatever their whitespace, and only then', () => {
    assert.equal(sameText('春茶 采摘\n后修剪。', '春茶采摘后\r\n\t修剪。'), true);
    assert.equal(sameText('春茶采摘后修剪。', '春茶采摘后不修剪。'), false);
    assert.equal(sameText('a b', 'ab c'), false);
  });

  const STOPPERS: [string, () => unknown][] = [
    ['auth', () => new AuthError('invalid-key')],
    ['rate-limited', () => new RateLimitedError(2000, 4)],
    ['network', () => new NetworkError('connect ECONNREFUSED', 'ECONNREFUSED')],
    ['cancelled', () => new CancelledError()],
    ['insecure', () => new InsecureEndpointError('http://example.com')],
    ['config', () => new ConfigurationError('not a URL')],
  ];
  for (const [kind, make] of STOPPERS)
    it(`the run stops at a failure of kind ${kind}: it is reported, the later sources are unverified for it and not sent`, async () => {
      const err = make();
      const { calls, search } = recorder(() => {
        throw err;
      });
      const report = await verifySources([src('a.docx', 1), src('a.docx', 2), src('b.pdf', 0)], {
        search,
        now: () => NOW,
        concurrency: 1,
      });
      assert.equal(calls.length, 1);
      assert.equal(report.requests, 1);
      assert.equal(report.stoppedBy, err);
      assert.deepEqual(reasons(report), [kind, kind, kind]);
      assert.ok(
        report.results.every((r) => r.outcome.status === 'unverified' && r.outcome.message === (err as Error).message),
      );
    });

  for (const [kind, make] of [
    ['server', () => new ServerError(500, 3)],
    ['timeout', () => new TimeoutError(30_000)],
    ['protocol', () => new ProtocolError('unexpected reply')],
    ['internal', () => new Error('a bug')],
  ] as [string, () => unknown][])
    it(`a failure of kind ${kind} leaves its own source unverified; the others are still searched`, async () => {
      const { calls, search } = recorder((args, n) => {
        if (n === 1) throw make();
        return platform(args);
      });
      const report = await verifySources([src('a.docx', 1), src('a.docx', 2)], {
        search,
        now: () => NOW,
        concurrency: 1,
      });
      assert.equal(calls.length, 2);
      assert.deepEqual(reasons(report), [kind, 'verified']);
      assert.equal(report.stoppedBy, undefined);
    });

  it('an unverified source says why in the UI’s sentence when one is given, else the failure’s message', async () => {
    const failing = recorder(() => {
      throw new NetworkError('offline');
    });
    const sources = [src('a.docx', 1)];
    const plain = await verifySources(sources, { search: failing.search, now: () => NOW });
    assert.deepEqual(plain.results[0]!.outcome, { status: 'unverified', reason: 'network', message: 'offline' });
    const told = await verifySources(sources, {
      search: failing.search,
      now: () => NOW,
      describe: (e) => `无法连接：${(e as Error).message}`,
    });
    assert.deepEqual(told.results[0]!.outcome, {
      status: 'unverified',
      reason: 'network',
      message: '无法连接：offline',
    });
    const thrown = recorder(() => {
      throw 'not an Error';
    });
    const odd = await verifySources(sources, { search: thrown.search, now: () => NOW });
    assert.deepEqual(odd.results[0]!.outcome, { status: 'unverified', reason: 'internal', message: 'not an Error' });
  });

  it('the first failure that stops the run is the one reported, though another was in flight', async () => {
    const first = new NetworkError('down');
    const second = new AuthError('invalid-key');
    const { calls, search } = recorder(async (_args, n) => {
      await tick();
      if (n === 2) await tick();
      throw n === 1 ? first : second;
    });
    const report = await verifySources([src('a.docx', 1), src('a.docx', 2), src('b.pdf', 0)], {
      search,
      now: () => NOW,
      concurrency: 2,
    });
    assert.equal(calls.length, 2);
    assert.equal(report.stoppedBy, first);
    assert.deepEqual(reasons(report), ['network', 'auth', 'network']);
  });

  it("today's outcomes are reused without a request; new ones are remembered with today's date; unverified ones are not", async () => {
    const cache = new VerifyCache();
    const known = src('a.docx', 1, K);
    const fresh = src('a.docx', 2, K);
    const failing = src('b.pdf', 0, L);
    cache.put(known.key, TODAY, { status: 'not-located', kbCode: 'K' });
    cache.put(fresh.key, '2026-11-30', { status: 'not-located', kbCode: 'K' });
    cache.setKnowledgeBases(TODAY, [K, L]);
    const progress: [number, number, string][] = [];
    const { calls, search } = recorder((args) => {
      if (args.kbCode === 'L') throw new ServerError(500, 3);
      return platform(args);
    });
    const report = await verifySources([known, fresh, failing], {
      search,
      cache,
      now: () => NOW,
      concurrency: 1,
      onProgress: (done, total, s) => progress.push([done, total, s.citation]),
    });
    assert.deepEqual(
      calls.map((a) => a.kbCode),
      ['K', 'L'],
      "today's bases are known: no search over all of them",
    );
    assert.deepEqual(
      report.results.map((r) => [r.outcome.status, r.date, r.cached]),
      [
        ['not-located', TODAY, true],
        ['verified', TODAY, false],
        ['unverified', TODAY, false],
      ],
    );
    assert.deepEqual(progress, [
      [1, 3, 'a.docx#1'],
      [2, 3, 'a.docx#2'],
      [3, 3, 'b.pdf#0'],
    ]);
    assert.equal(cache.onDate(fresh.key, TODAY)?.outcome.status, 'verified');
    assert.equal(cache.get(failing.key), undefined);
    assert.deepEqual(report.knowledgeBases, [K, L]);
  });

  it('an outcome of another day is asked again and dated today; the bases learned are remembered for today', async () => {
    const cache = new VerifyCache();
    const s = src('a.docx', 1, K);
    cache.put(s.key, '2026-11-30', { status: 'not-located', kbCode: 'K' });
    cache.setKnowledgeBases('2026-11-30', [K]);
    const { calls, search } = recorder(platform);
    const report = await verifySources([s], { search, cache, now: () => NOW });
    assert.equal(calls.length, 2);
    assert.deepEqual(
      report.results.map((r) => [r.outcome.status, r.date, r.cached]),
      [['verified', TODAY, false]],
    );
    assert.deepEqual(cache.knowledgeBases(TODAY), [K, L]);
  });

  it('refresh asks again for what was found today, the bases included', async () => {
    const cache = new VerifyCache();
    const s = src('a.docx', 1, K);
    cache.put(s.key, TODAY, { status: 'not-located', kbCode: 'K' });
    cache.setKnowledgeBases(TODAY, [K]);
    const { calls, search } = recorder(platform);
    const report = await verifySources([s], { search, cache, refresh: true, now: () => NOW });
    assert.equal(calls.length, 2);
    assert.deepEqual(statuses(report), ['verified']);
    assert.deepEqual(report.knowledgeBases, [K, L]);
    assert.equal(cache.onDate(s.key, TODAY)?.outcome.status, 'verified');
  });

  it('the search over all bases asks with the first source not taken from the cache', async () => {
    const cache = new VerifyCache();
    const done = src('a.docx', 1, K, '已核对的');
    const next = src('a.docx', 2, K, '未核对的');
    cache.put(done.key, TODAY, { status: 'not-located', kbCode: 'K' });
    const { calls, search } = recorder(platform);
    await verifySources([done, next], {
      search,
      cache,
      now: () => NOW,
      passages: passagesOf(cachedContext('a.docx#2', '缓存的段落。')),
    });
    assert.deepEqual(calls[0], { query: '缓存的段落。', topK: 1, scoreThreshold: 0 });
  });

  it('cancelled before it starts: nothing is sent, every source is unverified as cancelled', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const { calls, search } = recorder(platform);
    const report = await verifySources([src('a.docx', 1, K), src('a.docx', 1)], {
      search,
      now: () => NOW,
      signal: ctl.signal,
    });
    assert.equal(calls.length, 0);
    assert.equal(report.requests, 0);
    assert.equal(report.cancelled, true);
    assert.ok(report.stoppedBy instanceof CancelledError);
    assert.deepEqual(reasons(report), ['cancelled', 'cancelled']);
  });

  it('cancelled half-way: what was answered stands, the rest is unverified as cancelled and not sent', async () => {
    const ctl = new AbortController();
    const { calls, search } = recorder((args, n) => {
      if (n === 1) ctl.abort();
      return platform(args);
    });
    const report = await verifySources([src('a.docx', 1), src('a.docx', 2), src('b.pdf', 0)], {
      search,
      now: () => NOW,
      signal: ctl.signal,
      concurrency: 1,
    });
    assert.equal(calls.length, 1);
    assert.equal(report.cancelled, true);
    assert.deepEqual(reasons(report), ['verified', 'cancelled', 'cancelled']);
    assert.ok(report.stoppedBy instanceof CancelledError);
  });

  it('a signal that is never aborted: the run is not cancelled', async () => {
    const { search } = recorder(platform);
    const report = await verifySources([src('a.docx', 1)], {
      search,
      now: () => NOW,
      signal: new AbortController().signal,
    });
    assert.equal(report.cancelled, false);
    assert.deepEqual(statuses(report), ['verified']);
  });

  it('searches in flight: four by default, else the concurrency given rounded down, at least one', async () => {
    const maxInFlight = async (concurrency?: number): Promise<number> => {
      let inflight = 0;
      let max = 0;
      const { search } = recorder(async (args) => {
        max = Math.max(max, ++inflight);
        await tick();
        inflight--;
        return platform(args);
      });
      const sources = Array.from({ length: 7 }, (_, i) => src('a.docx', i + 1));
      const report = await verifySources(sources, {
        search,
        now: () => NOW,
        ...(concurrency !== undefined ? { concurrency } : {}),
      });
      assert.equal(report.results.length, 7);
      assert.ok(report.results.every((r) => r !== undefined));
      return max;
    };
    assert.equal(await maxInFlight(), 4);
    assert.equal(await maxInFlight(2), 2);
    assert.equal(await maxInFlight(2.9), 2);
    assert.equal(await maxInFlight(0), 1);
    assert.equal(await maxInFlight(-3), 1);
    assert.equal(await maxInFlight(50), 7);
  });

  it('no sources: nothing is sent', async () => {
    const { calls, search } = recorder(platform);
    const report = await verifySources([], { search, now: () => NOW });
    assert.deepEqual(report, { results: [], requests: 0, cancelled: false });
    assert.equal(calls.length, 0);
  });

  it('the bases a search over all of them names: code and name in the same order, blanks trimmed, empty codes left out', () => {
    assert.deepEqual(basesOf({ kb_code: 'A, B ,C,', kb_name: '甲库, 乙库 ' }), [
      { code: 'A', name: '甲库' },
      { code: 'B', name: '乙库' },
      { code: 'C', name: '' },
    ]);
    assert.deepEqual(basesOf({ kb_code: '', kb_name: '' }), []);
  });

  it('a verified passage becomes the cache record of its citation', () => {
    const { citation, ...retrieval } = cachedContext('a.docx#1', '春茶采摘后及时修剪。');
    assert.deepEqual(contextOfFound({ citation }, retrieval), { citation, ...retrieval });
  });
});
