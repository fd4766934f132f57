import { strict as assert } from 'node:assert';
import { z } from 'zod';
import {
  ImageDownloadError,
  InputValidationError,
  KnowledgeMissError,
  ResultShapeError,
  ShunongClient,
  ToolFailureError,
  isRankOnlyScoreType,
  parseToolFailure,
  parseToolResult,
} from '../../../src/shunong';
import { useEndpoint } from './helpers';

describe('failure texts → typed failures (parseToolFailure)', () => {
  it('knowledge miss: candidate counts, threshold, filtered count, best score', () => {
    const e = parseToolFailure(
      'Error invoking method: knowledgeSearch\n知识库未命中相关片段(候选: 向量 32 条 / 全文 0 条); score_threshold=0.7 过滤掉全部 32 条候选(最高分 0.6385), 可降低阈值或传 0 关闭过滤。可改用更具体的关键词或同义词重试, 或适当降低 score_threshold; 在获得命中内容前不要编造引用',
    );
    assert.ok(e instanceof KnowledgeMissError);
    assert.equal(e.kind, 'knowledge-miss');
    assert.equal(e.vectorCandidates, 32);
    assert.equal(e.fulltextCandidates, 0);
    assert.equal(e.threshold, 0.7);
    assert.equal(e.filtered, 32);
    assert.equal(e.bestScore, 0.6385);
    assert.ok(e.reason.startsWith('知识库未命中'));
    assert.ok(e.isToolFailure);
  });

  it('knowledge miss without a threshold part', () => {
    const e = parseToolFailure(
      'Error invoking method: knowledgeSearch\n知识库未命中相关片段(候选: 向量 0 条 / 全文 0 条); 可改用更具体的关键词',
    );
    assert.ok(e instanceof KnowledgeMissError);
    assert.equal(e.vectorCandidates, 0);
    assert.equal(e.threshold, undefined);
    assert.equal(e.bestScore, undefined);
  });

  it('image download: HTTP status and URL; redirect; connect timeout', () => {
    const a = parseToolFailure(
      'Error invoking method: cropGrowthRecognize\n图片下载失败: HTTP 404 https://example.com/a.jpg',
    );
    assert.ok(a instanceof ImageDownloadError);
    assert.equal(a.status, 404);
    assert.equal(a.url, 'https://example.com/a.jpg');
    assert.equal(a.timedOut, false);
    const b = parseToolFailure('Error invoking method: cropGrowthRecognize\n图片下载失败: HTTP 302');
    assert.ok(b instanceof ImageDownloadError);
    assert.equal(b.status, 302);
    assert.equal(b.url, undefined);
    const c = parseToolFailure('Error invoking method: cropGrowthRecognize\nHTTP connect timed out');
    assert.ok(c instanceof ImageDownloadError);
    assert.equal(c.timedOut, true);
    assert.equal(c.status, undefined);
  });

  it('input validation: tool and detail', () => {
    const e = parseToolFailure(
      "Tool (knowledge_search) input validation failed: Validation failed: JSON schema validation errors: [: required property 'query' not found]",
    );
    assert.ok(e instanceof InputValidationError);
    assert.equal(e.tool, 'knowledge_search');
    assert.match(e.detail, /required property 'query'/);
  });

  it('any other Error invoking method: method and reason', () => {
    const e = parseToolFailure('Error invoking method: weatherSearch\n城市不存在: 火星');
    assert.ok(e instanceof ToolFailureError);
    assert.equal(e.method, 'weatherSearch');
    assert.equal(e.reason, '城市不存在: 火星');
    const f = parseToolFailure('something odd');
    assert.ok(f instanceof ToolFailureError);
    assert.equal(f.method, '');
    assert.equal(f.reason, 'something odd');
  });
});

describe('results → typed values (parseToolResult)', () => {
  const kr = {
    kb_code: 'A',
    kb_name: 'a',
    query: 'q',
    mode: 'hybrid',
    score_type: 'rrf(≈1/(60+rank), 仅用于排序)',
    total: 1,
    counts: { vector: 32, fulltext: 2, hybrid: 2, rerank: 0 },
    sources: [{ doc_name: 'd.docx', chunk_index: 1, content: 'c', score: 0.0164 }],
    warnings: ['Rerank 精排已手动关闭'],
  };
  const wrap = (v: unknown, isError = false): { content: unknown[]; isError: boolean } => ({
    content: [{ type: 'text', text: typeof v === 'string' ? v : JSON.stringify(v) }],
    isError,
  });

  it('parses the double-encoded JSON and validates it', () => {
    const r = parseToolResult('knowledge_search', wrap(kr));
    assert.deepEqual(r, kr);
  });

  it('isError text is never data', () => {
    assert.throws(
      () =>
        parseToolResult(
          'crop_growth_recognize',
          wrap('Error invoking method: cropGrowthRecognize\n图片下载失败: HTTP 404 http://x/a.jpg', true),
        ),
      ImageDownloadError,
    );
  });

  it('a mismatch names the tool and the field path', () => {
    const bad = { ...kr, sources: [{ ...kr.sources[0], score: 'high' }] };
    assert.throws(
      () => parseToolResult('knowledge_search', wrap(bad)),
      (e: ResultShapeError) =>
        e instanceof ResultShapeError &&
        e.tool === 'knowledge_search' &&
        e.field === 'sources.0.score' &&
        /knowledge_search/.test(e.message) &&
        /sources\.0\.score/.test(e.message),
    );
  });

  it('text that is not JSON is a shape error for known tools; raw text for unknown tools', () => {
    assert.throws(
      () => parseToolResult('get_current_time', wrap('not json')),
      (e: ResultShapeError) => e.field === 'content[0].text',
    );
    assert.equal(parseToolResult('some_tool', wrap('plain')), 'plain');
    assert.throws(() => parseToolResult('get_current_time', { content: [] }), ResultShapeError);
  });

  it('the payload is the first item of type text with a string text; any other content is no text at all', () => {
    const content = [
      null,
      'text',
      { type: 'image', data: 'AAAA', text: '{"wrong":"image"}' },
      { type: 'resource', text: '{"wrong":"resource"}' },
      { type: 'text', text: 42 },
      { type: 'text', text: '{"right":1}' },
      { type: 'text', text: '{"wrong":"second"}' },
    ];
    assert.deepEqual(parseToolResult('some_tool', { content }), { right: 1 });
    for (const bad of [undefined, 'text', { type: 'text', text: '{}' }, [{ type: 'image', text: '{}' }]]) {
      assert.throws(
        () => parseToolResult('get_current_time', { content: bad }),
        (e: ResultShapeError) =>
          e instanceof ResultShapeError &&
          e.message ===
            'Unexpected result from get_current_time: field "content[0].text" is missing (no text content in the result)',
        JSON.stringify(bad),
      );
    }
  });

  it('text that is not JSON: the message quotes its first 60 characters', () => {
    const text = `${'甲'.repeat(60)}乙 and more`;
    assert.throws(
      () => parseToolResult('weather_search', wrap(text)),
      (e: ResultShapeError) =>
        e.message ===
        `Unexpected result from weather_search: field "content[0].text" is not JSON (starts with "${'甲'.repeat(60)}")`,
    );
  });

  it('a payload of the wrong type at its root names the field "(root)" and zod\'s reason', () => {
    assert.throws(
      () => parseToolResult('knowledge_search', wrap('"just text"')),
      (e: ResultShapeError) =>
        e.field === '(root)' &&
        /^Unexpected result from knowledge_search: field "\(root\)" does not match: \S/.test(e.message),
    );
  });

  it('isError without any text is a tool failure with no reason of ours', () => {
    assert.throws(
      () => parseToolResult('weather_search', { content: [], isError: true }),
      (e: ToolFailureError) => e instanceof ToolFailureError && e.reason === '' && e.method === '',
    );
  });

  it('empty sources are a miss for knowledge_search only, with the candidate counts of the result', () => {
    const miss = { ...kr, total: 0, counts: { vector: 7, fulltext: 3 }, sources: [] };
    assert.throws(
      () => parseToolResult('knowledge_search', wrap(miss)),
      (e: KnowledgeMissError) =>
        e instanceof KnowledgeMissError &&
        e.reason === 'the search returned no passages (empty sources)' &&
        e.vectorCandidates === 7 &&
        e.fulltextCandidates === 3,
    );
    const withSources = z.object({ sources: z.array(z.unknown()) });
    assert.deepEqual(parseToolResult('other_search', wrap({ sources: [] }), withSources), { sources: [] });
  });

  it('score types: rrf is rank-only, cosine is a similarity', () => {
    assert.equal(isRankOnlyScoreType('rrf(≈1/(60+rank), 仅用于排序)'), true);
    assert.equal(isRankOnlyScoreType('cosine_similarity(0~1)'), false);
    assert.equal(isRankOnlyScoreType('something new'), true);
  });

  it('score types: a similarity is named cosine or similarity (any case) and says nothing of rank-only; anything else ranks only', () => {
    for (const t of ['cosine', 'similarity', 'COSINE_SIMILARITY', 'Cosine(0~1)'])
      assert.equal(isRankOnlyScoreType(t), false, t);
    for (const t of ['rrf', 'RRF fused cosine', 'similarity, 仅用于排序', 'bm25', ''])
      assert.equal(isRankOnlyScoreType(t), true, t);
  });
});

describe('failures from the local endpoint', () => {
  const ep = useEndpoint({ per: 'block', downloadTimeoutMs: 200 });
  let c: ShunongClient;
  before(() => {
    c = ep.client();
  });

  it('a query outside the knowledge bases: KnowledgeMissError with the numbers of the failure text', async () => {
    // The vendor page (000, "未命中行为"): "问题超出已开通知识库覆盖范围时，默认阈值（0.7）会把候选全部过滤掉",
    // worded "知识库未命中相关片段(候选: 向量 32 条 / 全文 0 条); score_threshold=0.7 过滤掉全部 32 条候选(最高分 …)".
    await assert.rejects(c.knowledgeSearch({ query: '火箭发动机燃烧室设计' }), (e: KnowledgeMissError) => {
      assert.ok(e instanceof KnowledgeMissError);
      assert.equal(e.kind, 'knowledge-miss');
      assert.equal(e.vectorCandidates, 32);
      assert.equal(e.fulltextCandidates, 0);
      assert.equal(e.threshold, 0.7);
      assert.equal(e.filtered, 32, 'the default threshold filtered every vector candidate');
      assert.equal(e.bestScore, 0.5809);
      assert.ok(e.bestScore < e.threshold, 'the best candidate is under the threshold');
      assert.ok(
        e.reason.startsWith(
          '知识库未命中相关片段(候选: 向量 32 条 / 全文 0 条); score_threshold=0.7 过滤掉全部 32 条候选(最高分 0.5809)',
        ),
        e.reason,
      );
      return true;
    });
  });

  it('a vector-mode hit has a cosine score type and only passages above the default threshold, best first', async () => {
    // The vendor page (000): "vector 模式下 score_type 为 cosine_similarity(0~1)，才是 0~1 的余弦相似度".
    const r = await c.knowledgeSearch({ query: '茶树修剪技术要点', mode: 'vector' });
    assert.equal(r.score_type, 'cosine_similarity(0~1)');
    assert.equal(isRankOnlyScoreType(r.score_type), false);
    assert.deepEqual(
      r.sources.map((s) => s.score),
      [0.883, 0.8758, 0.8749, 0.8742, 0.819],
    );
    assert.equal(r.total, 5);
    assert.deepEqual(r.warnings, ['Rerank 精排已手动关闭']);
  });

  it('input validation (no query) through the generic layer', async () => {
    await assert.rejects(
      c.callTool('knowledge_search', {}),
      (e: InputValidationError) => e.kind === 'input-validation' && e.tool === 'knowledge_search',
    );
    const env = await c.callTool('knowledge_search', {}, { raiseOnError: false });
    assert.equal(env.success, false);
    assert.equal(env.success === false && env.data.kind, 'input-validation');
  });

  it('image download: 404 with status and URL, 302, and a timeout', async () => {
    const missing = `${ep.emu.origin}/samples/nope.jpg`;
    await assert.rejects(
      c.recognizeCrop({ imageUrl: missing, recognitionType: 'tea_count' }),
      (e: ImageDownloadError) => e.kind === 'image-download' && e.status === 404 && e.url === missing && !e.timedOut,
    );
    await assert.rejects(
      c.recognizeCrop({ imageUrl: `${ep.emu.origin}/samples-redirect/tea_buds.jpg`, recognitionType: 'tea_count' }),
      (e: ImageDownloadError) => e.kind === 'image-download' && e.status === 302,
    );
    await assert.rejects(
      c.recognizeCrop({ imageUrl: `${ep.emu.origin}/samples-slow/tea_buds.jpg`, recognitionType: 'tea_count' }),
      (e: ImageDownloadError) => e.kind === 'image-download' && e.timedOut,
    );
  });

  it('base64 images (bare and data URI) are recognized; a bad one is a tool failure', async () => {
    const bytes = await (await fetch(`${ep.emu.origin}/samples/wheat_tillering.png`)).arrayBuffer();
    const b64 = Buffer.from(bytes).toString('base64');
    const r = await c.recognizeCrop({ imageBase64: b64, recognitionType: 'wheat_stage' });
    assert.equal(r.data.model_id, 'wheat_stage');
    const r2 = await c.recognizeCrop({ imageBase64: `data:image/png;base64,${b64}`, recognitionType: 'wheat_stage' });
    assert.equal(r2.data.model_id, 'wheat_stage');
    await assert.rejects(
      c.recognizeCrop({ imageBase64: '!!!', recognitionType: 'tea_stage' }),
      (e: ToolFailureError) => e.kind === 'tool-failure' && e.method === 'cropGrowthRecognize',
    );
  });
});
