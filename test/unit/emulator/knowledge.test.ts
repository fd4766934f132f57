/** knowledge_search against the page "MCP 工具参考" (000) and the project decisions table. */
import assert from 'node:assert/strict';
import { calibrate, RetrievalEngine, RRF_K, type SearchResult } from '../../emulator/retrieval';
import type { Emulator } from '../../emulator/server';
import { callOk, callTool, openSession, sharedEngine, start } from './helpers';

const ALL_CODES = 'TEA_MANAGER_001,Strip_Intercropping,RICE_001,CORN_001,SOYBEAN_001,WHEAT_001';
const ALL_NAMES = '茶树管理,玉米大豆带状复合种植技术,水稻,玉米,大豆,小麦';
const MISS =
  /^Error invoking method: knowledgeSearch\n知识库未命中相关片段\(候选: 向量 (\d+) 条 \/ 全文 (\d+) 条\); score_threshold=0\.7 过滤掉全部 (\d+) 条候选\(最高分 (0\.\d{4})\), 可降低阈值或传 0 关闭过滤。可改用更具体的关键词或同义词重试, 或适当降低 score_threshold; 在获得命中内容前不要编造引用$/;

describe('emulator knowledge_search', function () {
  let emu: Emulator;
  let sid: string;
  before(async function () {
    this.timeout(20_000);
    emu = await start();
    sid = await openSession(emu);
  });
  after(() => emu.close());

  it('the sample knowledge base has ≥150 passages in ≥15 documents over the six bases', () => {
    const e = sharedEngine();
    assert.ok(e.passages.length >= 150, `${e.passages.length} passages`);
    assert.ok(new Set(e.passages.map((p) => p.docName)).size >= 15);
    assert.deepEqual(e.kbs.map((k) => k.code).join(','), ALL_CODES);
  });

  it('茶树修剪技术要点 hits a pruning passage (hybrid, page shape and score_type)', async () => {
    const r = await callOk<SearchResult>(emu, sid, 'knowledge_search', { query: '茶树修剪技术要点' });
    assert.deepEqual(Object.keys(r), [
      'kb_code',
      'kb_name',
      'query',
      'mode',
      'score_type',
      'total',
      'counts',
      'sources',
      'warnings',
    ]);
    assert.equal(r.kb_code, ALL_CODES);
    assert.equal(r.kb_name, ALL_NAMES);
    assert.equal(r.query, '茶树修剪技术要点');
    assert.equal(r.mode, 'hybrid');
    assert.equal(r.score_type, 'rrf(≈1/(60+rank), 仅用于排序)');
    assert.deepEqual(r.warnings, ['Rerank 精排已手动关闭']);
    assert.equal(r.counts.rerank, 0);
    assert.equal(r.counts.vector, 32);
    assert.ok(r.counts.hybrid >= r.total && r.total === r.sources.length && r.total === 5);
    const top = r.sources[0];
    assert.ok(top && /修剪/.test(top.content), top?.content);
    assert.deepEqual(Object.keys(top), ['doc_name', 'chunk_index', 'content', 'score']);
    assert.match(top.doc_name, /\.(docx|pdf|txt|doc)$/);
    // RRF scores: at most 2/(60+1), "常见 0.01~0.03", non-increasing.
    for (const s of r.sources) assert.ok(s.score > 1 / (RRF_K + 64) && s.score <= 2 / (RRF_K + 1) + 1e-4);
    for (let i = 1; i < r.sources.length; i++) assert.ok((r.sources[i - 1]?.score ?? 0) >= (r.sources[i]?.score ?? 0));
  });

  it('火星登陆舱推进剂燃烧效率 misses at the default threshold with the page text and real numbers', async () => {
    const r = await callTool(emu, sid, 'knowledge_search', { query: '火星登陆舱推进剂燃烧效率' });
    assert.equal(r.isError, true);
    const m = MISS.exec(r.text);
    assert.ok(m, r.text);
    assert.equal(m[1], '32');
    assert.equal(m[2], '0');
    assert.equal(m[3], '32');
    assert.ok(Number(m[4]) < 0.7);
  });

  it('scoreThreshold 0 disables filtering ("只有在显式传 scoreThreshold: 0 时，才会返回与问题无关的低分片段")', async () => {
    const r = await callOk<SearchResult>(emu, sid, 'knowledge_search', {
      query: '火星登陆舱推进剂燃烧效率',
      scoreThreshold: 0,
      mode: 'vector',
    });
    assert.equal(r.total, 5);
    assert.ok(r.sources.every((s) => s.score < 0.7));
  });

  it('vector mode scores are calibrated cosines (0~1), on-topic above 0.7', async () => {
    const r = await callOk<SearchResult>(emu, sid, 'knowledge_search', {
      query: '茶树修剪技术要点',
      mode: 'vector',
      topK: 3,
    });
    assert.equal(r.mode, 'vector');
    assert.equal(r.score_type, 'cosine_similarity(0~1)');
    assert.equal(r.counts.fulltext, 0);
    assert.equal(r.sources.length, 3);
    for (const s of r.sources) assert.ok(s.score >= 0.7 && s.score <= 1);
  });

  it('kbCode limits the search and the echoed kb_code / kb_name', async () => {
    const r = await callOk<SearchResult>(emu, sid, 'knowledge_search', { query: '分蘖期水分管理', kbCode: 'RICE_001' });
    assert.equal(r.kb_code, 'RICE_001');
    assert.equal(r.kb_name, '水稻');
    const e = sharedEngine();
    const riceDocs = new Set(e.passages.filter((p) => e.kbs[p.kb]?.code === 'RICE_001').map((p) => p.docName));
    assert.ok(r.sources.every((s) => riceDocs.has(s.doc_name)));
    const two = await callOk<SearchResult>(emu, sid, 'knowledge_search', {
      query: '播种密度',
      kbCode: 'WHEAT_001,CORN_001',
    });
    assert.equal(two.kb_code, 'CORN_001,WHEAT_001');
    assert.equal(two.kb_name, '玉米,小麦');
    const bad = await callTool(emu, sid, 'knowledge_search', { query: '水稻', kbCode: 'NOPE_001' });
    assert.equal(bad.text, 'Error invoking method: knowledgeSearch\n知识库不存在或未开通: NOPE_001');
  });

  it('topK up to 20; useRerank re-scores the top candidates, counts.rerank, no warning', async () => {
    const r = await callOk<SearchResult>(emu, sid, 'knowledge_search', {
      query: '玉米大豆带状复合种植密度',
      topK: 20,
      useRerank: true,
    });
    assert.deepEqual(r.warnings, []);
    assert.equal(r.counts.rerank, Math.min(20, r.counts.hybrid));
    assert.ok(r.sources.length <= 20 && r.sources.length > 5);
    const rr = r.sources.map((s) => s.rerank_score ?? -1);
    for (let i = 1; i < rr.length; i++) assert.ok((rr[i - 1] ?? 0) >= (rr[i] ?? 0));
  });

  it('is deterministic', async () => {
    const a = await callOk(emu, sid, 'knowledge_search', { query: '小麦赤霉病防治' });
    const b = await callOk(emu, sid, 'knowledge_search', { query: '小麦赤霉病防治' });
    assert.deepEqual(a, b);
  });
});

describe('retrieval engine', () => {
  it('calibrate is monotonic and maps 0 → 0.45, ~0.097 → 0.7, 1 → ~1', () => {
    let prev = -1;
    for (let c = 0; c <= 1; c += 0.01) {
      const v = calibrate(c);
      assert.ok(v > prev);
      prev = v;
    }
    assert.ok(Math.abs(calibrate(0) - 0.45) < 1e-9);
    assert.ok(Math.abs(calibrate(0.097) - 0.7) < 0.001);
    assert.ok(calibrate(1) > 0.998);
  });

  it('scales the corpus with generated variants (×3) and still ranks a pruning passage first', () => {
    const e = new RetrievalEngine(
      [
        {
          kb_code: 'TEA_MANAGER_001',
          kb_name: '茶树管理',
          documents: [
            {
              doc_name: '茶树农事操作.docx',
              chunks: ['茶树修剪分为轻修剪和深修剪。剪口要平整。', '春茶采摘前清除杂草。'],
            },
          ],
        },
      ],
      3,
    );
    assert.equal(e.passages.length, 6);
    assert.equal(new Set(e.passages.map((p) => p.docName)).size, 3);
    const r = e.search({ query: '茶树修剪', topK: 3, scoreThreshold: 0.7, useRerank: false, mode: 'hybrid' });
    assert.ok(r.ok && /修剪/.test(r.result.sources[0]?.content ?? ''));
  });
});
