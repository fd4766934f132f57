/**
 * The verify plan against the local endpoint over real HTTP on 127.0.0.1: verified, changed, not
 * located, unknown knowledge base; the network failing half-way; a 429 storm; one request per
 * distinct source; today's outcomes reused.
 */
import { strict as assert } from 'node:assert';
import { analyzeDocument, formatDefinition } from '../../../src/citations/index';
import { verifySources, type VerifyOptions } from '../../../src/citations/verify';
import { VerifyCache } from '../../../src/citations/verifyCache';
import { beijingDate } from '../../../src/time/beijing';
import { collectSources, removeCitationEdits, type VerifySource } from '../../../src/citations/verifySources';
import { applyEdits } from '../../../src/citations/edits';
import type { ShunongClient } from '../../../src/shunong';
import { cachedTeaPassage, NOW, passage, sampleBulletin, TEA } from './verifyFixtures';
import { fakeScheduler, useEndpoint } from '../shunong/helpers';

function sourcesOf(...texts: string[]): VerifySource[] {
  return collectSources(texts.map((text, i) => ({ file: `b${i}.md`, text, model: analyzeDocument(text) })));
}

function toolCalls(ep: { emu: { requests: { rpcMethod?: string; tool?: string }[] } }): number {
  return ep.emu.requests.filter((r) => r.rpcMethod === 'tools/call' && r.tool === 'knowledge_search').length;
}

function searchOf(client: ShunongClient): VerifyOptions['search'] {
  return (args, signal) => client.knowledgeSearch(args, signal ? { signal } : {});
}

describe('citations: verify sources against the knowledge base (local endpoint)', () => {
  const ep = useEndpoint({ client: () => ({ scheduler: fakeScheduler(100_000), timeoutMs: 600_000 }) });

  it('collects each distinct source once; author footnotes are not sources; texts come from the snippets', () => {
    const text = sampleBulletin();
    const sources = sourcesOf(text, text);
    assert.equal(sources.length, 6);
    assert.ok(sources.every((s) => s.uses.length === 2));
    const inline = sources.find((s) => s.kbCode === undefined);
    assert.equal(inline?.citation, '水稻分蘖期管理要点.pdf#2');
    assert.equal(inline?.citedText, passage('水稻分蘖期管理要点.pdf', 2));
    const first = sources.find((s) => s.citation === '茶树修剪技术要点.docx#1');
    assert.equal(first?.citedText, passage('茶树修剪技术要点.docx', 1));
    // [^3] is mid-paragraph after another sentence: only the sentence that ends at it.
    const third = sources.find((s) => s.kbCode === 'TEA_MANAGR_001');
    assert.equal(
      third?.citedText,
      passage('茶树修剪技术要点.docx', 3)
        .slice(0, 40)
        .replace(/^.*[。；]/u, ''),
    );
  });

  it('verified, changed, not located, unknown knowledge base — one request per distinct source plus one', async () => {
    const client = ep.client();
    const passages = cachedTeaPassage('7月底驻芽期时，提示对茶树进行深修。');
    const text = sampleBulletin();
    const sources = sourcesOf(text, text);
    const cache = new VerifyCache();
    const report = await verifySources(sources, { search: searchOf(client), passages, cache, now: () => NOW });
    const by = new Map(report.results.map((r) => [`${r.source.kbCode ?? '*'} ${r.source.citation}`, r.outcome]));
    assert.equal(by.get('TEA_MANAGER_001 茶树修剪技术要点.docx#1')?.status, 'verified');
    assert.equal(by.get('* 水稻分蘖期管理要点.pdf#2')?.status, 'verified');
    assert.equal(by.get('TEA_MANAGER_001 茶树修剪技术要点.docz#1')?.status, 'not-located');
    assert.equal(by.get('TEA_MANAGER_001 茶树修剪技术要点.docx#99')?.status, 'not-located');
    const unknown = by.get('TEA_MANAGR_001 茶树修剪技术要点.docx#3');
    assert.equal(unknown?.status, 'unknown-kb');
    if (unknown?.status === 'unknown-kb')
      assert.ok(unknown.known.includes('TEA_MANAGER_001') && unknown.known.length === 6);
    const changed = by.get('TEA_MANAGER_001 茶树农事操作.docx#1');
    assert.equal(changed?.status, 'changed');
    if (changed?.status === 'changed') {
      assert.equal(changed.cached, '7月底驻芽期时，提示对茶树进行深修。');
      assert.equal(changed.passage.content, passage('茶树农事操作.docx', 1));
    }
    const verified = by.get('TEA_MANAGER_001 茶树修剪技术要点.docx#1');
    if (verified?.status === 'verified') {
      assert.equal(verified.passage.content, passage('茶树修剪技术要点.docx', 1));
      assert.equal(verified.passage.kbName, '茶树管理');
    }
    // 5 searched (the unknown knowledge base is known from the search over all bases) + that one search.
    assert.equal(report.requests, 6);
    assert.equal(toolCalls(ep), 6);
    const args = ep.emu.requests.filter((r) => r.rpcMethod === 'tools/call').map((r) => r.arguments ?? {});
    assert.equal(args[0]?.kbCode, undefined, 'the first search is over all bases');
    for (const a of args.slice(1)) {
      assert.equal(a.scoreThreshold, 0);
      assert.equal(a.topK, 20);
    }
    assert.ok(
      args.some((a) => a.query === '7月底驻芽期时，提示对茶树进行深修。'),
      'the cached text is the query',
    );
    assert.ok(args.some((a) => a.query === passage('水稻分蘖期管理要点.pdf', 2) && a.kbCode === undefined));
    assert.equal(report.results.filter((r) => r.date === beijingDate(NOW)).length, 6);
  });

  it('a second run the same Beijing day sends nothing; the next day, or with refresh, it asks again', async () => {
    const client = ep.client();
    const text = sampleBulletin();
    const cache = new VerifyCache();
    const first = await verifySources(sourcesOf(text), { search: searchOf(client), cache, now: () => NOW });
    const sent = toolCalls(ep);
    assert.equal(sent, first.requests);
    const again = VerifyCache.fromJSON(JSON.parse(JSON.stringify(cache.toJSON())));
    const second = await verifySources(sourcesOf(text), {
      search: searchOf(client),
      cache: again,
      now: () => NOW + 3_600_000,
    });
    assert.equal(second.requests, 0);
    assert.equal(toolCalls(ep), sent);
    assert.ok(second.results.every((r) => r.cached));
    assert.deepEqual(
      second.results.map((r) => r.outcome.status),
      first.results.map((r) => r.outcome.status),
    );
    // 16:00 UTC is midnight in Beijing: a new day.
    const nextDay = await verifySources(sourcesOf(text), {
      search: searchOf(client),
      cache: again,
      now: () => Date.parse('2026-12-01T16:00:00Z'),
    });
    assert.equal(nextDay.requests, first.requests);
    const refreshed = await verifySources(sourcesOf(text), {
      search: searchOf(client),
      cache: again,
      refresh: true,
      now: () => Date.parse('2026-12-01T16:30:00Z'),
    });
    assert.equal(refreshed.requests, first.requests);
  });

  it('the network failing half-way: nothing is reported as not located; the rest is unverified and not sent', async () => {
    const client = ep.client();
    const docs = ['茶树修剪技术要点.docx', '茶树农事操作.docx', '茶园病虫害绿色防控.docx'];
    const lines: string[] = [];
    const defs: string[] = [];
    let n = 0;
    for (const doc of docs)
      for (let i = 0; i < 5; i++) {
        n++;
        lines.push(`> ${passage(doc, i)}[^${n}]`, '');
        defs.push(formatDefinition(String(n), { docName: doc, chunkIndex: i, ...TEA }));
      }
    const text = [...lines, '## 参考资料', '', ...defs, ''].join('\n');
    const sources = sourcesOf(text);
    assert.equal(sources.length, 15);
    let answered = 0;
    let failed = false;
    let startedAfterFailure = 0;
    const report = await verifySources(sources, {
      now: () => NOW,
      search: async (args, signal) => {
        if (failed) startedAfterFailure++;
        try {
          const r = await client.knowledgeSearch(args, signal ? { signal } : {});
          // After the fifth answer (the search over all bases and four sources) the endpoint goes away.
          if (++answered === 5) await ep.emu.close();
          return r;
        } catch (e) {
          failed = true;
          throw e;
        }
      },
    });
    const statuses = report.results.map((r) => r.outcome.status);
    assert.ok(!statuses.includes('not-located'), statuses.join());
    const verified = statuses.filter((s) => s === 'verified').length;
    assert.ok(verified >= 4, `verified ${verified}`);
    const left = report.results.filter((r) => r.outcome.status === 'unverified');
    assert.equal(verified + left.length, 15);
    for (const r of left) if (r.outcome.status === 'unverified') assert.equal(r.outcome.reason, 'network');
    assert.equal(platformKind(report.stoppedBy), 'network');
    // Nothing is sent once a search has failed for the network (only what was in flight then).
    assert.equal(startedAfterFailure, 0);
    assert.ok(report.requests < 15, `requests ${report.requests}`);
  });

  it('a 429 storm: the client backs off (honouring Retry-After), the run stops instead of storming', async () => {
    const sched = fakeScheduler(100_000);
    const client = ep.client({ scheduler: sched });
    await client.connect();
    const text = [
      ...Array.from({ length: 12 }, (_, i) => `> ${passage('茶树农事操作.docx', i % 10)}[^${i + 1}]\n`),
      '## 参考资料',
      '',
      ...Array.from({ length: 12 }, (_, i) =>
        formatDefinition(String(i + 1), {
          docName: i < 10 ? '茶树农事操作.docx' : '茶叶采摘与防灾.txt',
          chunkIndex: i % 10,
          ...TEA,
        }),
      ),
      '',
    ].join('\n');
    const sources = sourcesOf(text);
    assert.equal(sources.length, 12);
    await ep.emu.admin({ rateLimit: { next: 1000, retryAfterSec: 2 } });
    const before = ep.emu.requests.length;
    const report = await verifySources(sources, { search: searchOf(client), now: () => NOW });
    const posts = ep.emu.requests.length - before;
    assert.ok(report.results.every((r) => r.outcome.status === 'unverified'));
    for (const r of report.results)
      if (r.outcome.status === 'unverified') assert.equal(r.outcome.reason, 'rate-limited');
    // The search over all bases: 4 attempts (the client's budget), then the run stops: nothing else is sent.
    assert.equal(posts, 4, `POSTs during the storm: ${posts}`);
    assert.equal(report.requests, 1);
    assert.ok(sched.slept.length >= 3 && sched.slept.every((ms) => ms >= 2000), `backoff ${sched.slept.join()}`);
  });

  it('a 429 storm that starts mid-run: searches in flight back off, later ones are not sent', async () => {
    const sched = fakeScheduler(100_000);
    const client = ep.client({ scheduler: sched });
    const text = [
      ...Array.from({ length: 10 }, (_, i) => `> ${passage('茶树修剪技术要点.docx', i % 9)}[^${i + 1}]\n`),
      '## 参考资料',
      '',
      ...Array.from({ length: 10 }, (_, i) =>
        formatDefinition(String(i + 1), { docName: '茶树修剪技术要点.docx', chunkIndex: i, ...TEA }),
      ),
      '',
    ].join('\n');
    let answered = 0;
    const report = await verifySources(sourcesOf(text), {
      now: () => NOW,
      search: async (args, signal) => {
        const r = await client.knowledgeSearch(args, signal ? { signal } : {});
        if (++answered === 3) await ep.emu.admin({ rateLimit: { next: 1000, retryAfterSec: 1 } });
        return r;
      },
    });
    const calls = ep.emu.requests.filter((r) => r.rpcMethod === 'tools/call').length;
    const statuses = report.results.map((r) => r.outcome.status);
    assert.ok(!statuses.includes('not-located'));
    assert.ok(statuses.includes('unverified'));
    // At most four searches in flight, each with at most four attempts, after the storm began.
    assert.ok(calls <= 3 + 4 * 4, `tools/call POSTs ${calls}`);
    assert.ok(sched.slept.every((ms) => ms >= 1000));
  });

  it('a rejected key leaves every source unverified with the reason, after one request', async () => {
    const client = ep.client({ getKey: () => 'sk_wrong_key' });
    const report = await verifySources(sourcesOf(sampleBulletin()), { search: searchOf(client), now: () => NOW });
    assert.ok(report.results.every((r) => r.outcome.status === 'unverified'));
    for (const r of report.results) if (r.outcome.status === 'unverified') assert.equal(r.outcome.reason, 'auth');
    assert.equal(ep.emu.requests.filter((r) => r.status === 401).length, 1);
  });

  it('at most four searches in flight; requests = distinct sources across files', async () => {
    await ep.emu.admin({ latencyMs: 20 });
    const client = ep.client();
    await client.connect();
    let inflight = 0;
    let max = 0;
    const docs = ['茶树修剪技术要点.docx', '茶园施肥与土壤管理.pdf'];
    const file = (k: number): string => {
      const idx = [k, k + 1, k + 2];
      return [
        ...idx.map((i, j) => `> ${passage(docs[i % 2]!, i % 7)}[^${j + 1}]\n`),
        '## 参考资料',
        '',
        ...idx.map((i, j) => formatDefinition(String(j + 1), { docName: docs[i % 2]!, chunkIndex: i % 7, ...TEA })),
        '',
      ].join('\n');
    };
    const sources = sourcesOf(file(0), file(1), file(2), file(3));
    assert.equal(sources.length, 6);
    const report = await verifySources(sources, {
      now: () => NOW,
      search: async (args, signal) => {
        max = Math.max(max, ++inflight);
        try {
          return await client.knowledgeSearch(args, signal ? { signal } : {});
        } finally {
          inflight--;
        }
      },
    });
    assert.equal(max, 4);
    assert.equal(report.requests, 7);
    assert.equal(toolCalls(ep), 7);
    assert.ok(report.results.every((r) => r.outcome.status === 'verified'));
  });

  it('cancel: searches in flight are aborted, the rest not sent, nothing reported as not located', async () => {
    await ep.emu.admin({ latencyMs: 200 });
    const client = ep.client();
    await client.connect();
    const ctl2 = new AbortController();
    const run = verifySources(sourcesOf(sampleBulletin()), {
      search: (args, signal) => {
        const p = client.knowledgeSearch(args, signal ? { signal } : {});
        ctl2.abort();
        return p;
      },
      now: () => NOW,
      signal: ctl2.signal,
    });
    const r2 = await run;
    assert.equal(r2.cancelled, true);
    assert.equal(r2.requests, 1);
    assert.ok(
      r2.results.every((r) => r.outcome.status === 'unverified'),
      JSON.stringify(r2.results.map((r) => r.outcome)),
    );
    assert.ok(r2.results.every((r) => r.outcome.status !== 'unverified' || r.outcome.reason === 'cancelled'));
  });

  it('remove the citation: the definition and its references, or the inline citation', () => {
    const text = sampleBulletin();
    const model = analyzeDocument(text);
    const [source] = sourcesOf(text).filter((s) => s.citation === '茶树修剪技术要点.docz#1');
    const out = applyEdits(text, removeCitationEdits(text, model, source!.uses[0]!));
    assert.ok(!out.includes('[^2]') && !out.includes('docz'));
    assert.ok(out.includes(passage('茶树修剪技术要点.docx', 2)), 'the snippet stays');
    const inline = sourcesOf(text).find((s) => s.kbCode === undefined)!;
    const out2 = applyEdits(text, removeCitationEdits(text, model, inline.uses[0]!));
    assert.ok(!out2.includes('〔水稻分蘖期管理要点.pdf#2〕'));
    assert.deepEqual(analyzeDocument(out).problems, []);
  });

  it('remove the citation: two definitions of its label ending a file without a final line break both go', () => {
    const text = '正文[^1]。\n\n## 参考资料\n\n[^1]: a.docx#1 — kb (K)\n[^1]: b.docx#2 — kb (K)';
    const model = analyzeDocument(text);
    const use = sourcesOf(text).find((s) => s.citation === 'a.docx#1')!.uses[0]!;
    assert.equal(applyEdits(text, removeCitationEdits(text, model, use)), '正文。\n\n## 参考资料\n');
  });
});

function platformKind(e: unknown): string | undefined {
  return (e as { kind?: string } | undefined)?.kind;
}

describe('citations: verify, the knowledge base of a passage found by an inline citation', () => {
  // An inline citation names no base: the answer's base is the passage's when it names one, and the
  // cached passage's when it names several (a search over all of them, comma-joined).
  const answer = (kbCode: string, kbName: string) => ({
    kb_code: kbCode,
    kb_name: kbName,
    query: 'q',
    mode: 'hybrid',
    score_type: 'cosine_similarity(0~1)',
    total: 1,
    counts: { vector: 1, fulltext: 0 },
    sources: [{ doc_name: '甲.docx', chunk_index: 1, content: '茶园冬季修剪。', score: 0.9 }],
    warnings: [],
  });
  const cached = {
    citation: '甲.docx#1',
    content: '茶园冬季修剪。',
    kbCode: 'OLD_001',
    kbName: '旧库',
    query: 'q',
    score: 0.8,
    scoreType: 'cosine_similarity(0~1)',
    retrievedAt: '2026-11-30T00:00:00.000Z',
  };
  const baseOf = async (kbCode: string, kbName: string): Promise<[string, string]> => {
    const report = await verifySources(sourcesOf('茶园〔甲.docx#1〕。\n'), {
      now: () => NOW,
      passages: { get: (c) => (c === cached.citation ? cached : undefined) },
      search: async () => answer(kbCode, kbName),
    });
    const outcome = report.results[0]!.outcome;
    assert.equal(outcome.status, 'verified');
    return outcome.status === 'verified' ? [outcome.passage.kbCode, outcome.passage.kbName] : ['', ''];
  };

  it('one base named: that base, whatever the cache said', async () => {
    assert.deepEqual(await baseOf('TEA_001', '茶叶'), ['TEA_001', '茶叶']);
  });

  it('several bases named: the cached passage’s', async () => {
    assert.deepEqual(await baseOf('TEA_001,RICE_001', '茶叶,水稻'), ['OLD_001', '旧库']);
  });
});
