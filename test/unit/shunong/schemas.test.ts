/**
 * The shapes every tool result is checked against (shunong/schemas.ts), rule by rule: what the
 * vendor's pages document for each field, what is optional, and what is refused. Each case goes
 * through parseToolResult, as a result from the platform does.
 */
import { strict as assert } from 'node:assert';
import { ResultShapeError, ToolInfoSchema, parseToolResult } from '../../../src/shunong';

const wrap = (v: unknown) => ({ content: [{ type: 'text', text: JSON.stringify(v) }] });
const refused = (tool: string, v: unknown, field: string) =>
  assert.throws(
    () => parseToolResult(tool, wrap(v)),
    (e: unknown) => e instanceof ResultShapeError && e.field === field,
    `${tool}: ${field}`,
  );

const source = { doc_name: '茶树栽培.docx', chunk_index: 3, content: '春茶后轻修剪。', score: 0.0164 };
const knowledge = {
  kb_code: 'TEA_001',
  kb_name: '茶叶知识库',
  query: '修剪',
  mode: 'hybrid',
  score_type: 'rrf(≈1/(60+rank), 仅用于排序)',
  total: 1,
  counts: { vector: 32, fulltext: 2 },
  sources: [source],
};

describe('shunong/schemas: the documented result shapes', () => {
  it('knowledge_search: chunk_index a whole number from 0, total too; hybrid and rerank counts optional; warnings default to none', () => {
    assert.deepEqual(parseToolResult('knowledge_search', wrap(knowledge)), { ...knowledge, warnings: [] });
    const zero = { ...knowledge, sources: [{ ...source, chunk_index: 0 }] };
    assert.equal(parseToolResult<typeof knowledge>('knowledge_search', wrap(zero)).sources[0]!.chunk_index, 0);
    refused('knowledge_search', { ...knowledge, sources: [{ ...source, chunk_index: 1.5 }] }, 'sources.0.chunk_index');
    refused('knowledge_search', { ...knowledge, sources: [{ ...source, chunk_index: -1 }] }, 'sources.0.chunk_index');
    refused('knowledge_search', { ...knowledge, total: -1 }, 'total');
    refused('knowledge_search', { ...knowledge, total: 0.5 }, 'total');
    refused('knowledge_search', { ...knowledge, counts: { vector: 1 } }, 'counts.fulltext');
    refused('knowledge_search', { ...knowledge, counts: { ...knowledge.counts, rerank: 'x' } }, 'counts.rerank');
    refused('knowledge_search', { ...knowledge, warnings: [1] }, 'warnings.0');
    for (const f of ['kb_code', 'kb_name', 'query', 'mode', 'score_type'])
      refused('knowledge_search', { ...knowledge, [f]: 1 }, f);
    for (const f of ['doc_name', 'content'])
      refused('knowledge_search', { ...knowledge, sources: [{ ...source, [f]: 1 }] }, `sources.0.${f}`);
  });

  it('weather_search: now (city code and strings) or a forecast of at least one day, told apart by forecast', () => {
    const now = {
      city: '101270101',
      weather: '多云',
      temperature: '12',
      humidity: '80%',
      wind: '东北风2级',
      updateTime: '10:00',
    };
    assert.deepEqual(parseToolResult('weather_search', wrap(now)), now);
    const day = {
      date: '2026-12-04',
      weather: '小雨',
      high: '12',
      low: '6',
      wind: '北风',
      humidity: '90%',
      week: '星期五',
    };
    assert.deepEqual(parseToolResult('weather_search', wrap({ city: '成都', forecast: [day] })), {
      city: '成都',
      forecast: [day],
    });
    assert.throws(() => parseToolResult('weather_search', wrap({ city: '成都', forecast: [] })), ResultShapeError);
    assert.throws(() => parseToolResult('weather_search', wrap({ ...now, temperature: 12 })), ResultShapeError);
    const { week: _week, ...noWeek } = day;
    assert.throws(
      () => parseToolResult('weather_search', wrap({ city: '成都', forecast: [noWeek] })),
      ResultShapeError,
    );
  });

  it('crop_growth_recognize: boxes of four numbers; recognized_result a string, a number or null; the picture fields optional', () => {
    const data = {
      task_type: 'tea_count',
      detections: [{ class_id: 0, confidence: 0.9, bbox: [1, 2, 3, 4], class_name: 'bud' }],
      count: 1,
      model_id: 'm',
      model_name: 'M',
      recognized_result: null,
    };
    const ok = { status: 'success', data, message: 'ok' };
    assert.deepEqual(parseToolResult('crop_growth_recognize', wrap(ok)), ok);
    for (const r of ['一芽一叶', 3]) {
      const got = parseToolResult<typeof ok>(
        'crop_growth_recognize',
        wrap({ ...ok, data: { ...data, recognized_result: r } }),
      );
      assert.equal(got.data.recognized_result, r);
    }
    const withError = {
      ...ok,
      error: null,
      data: { ...data, inference_time: 12, input_size: [640, 640], original_compressed: true },
    };
    assert.deepEqual(parseToolResult('crop_growth_recognize', wrap(withError)), withError);
    const box = (bbox: number[]) => ({ ...ok, data: { ...data, detections: [{ ...data.detections[0], bbox }] } });
    refused('crop_growth_recognize', box([1, 2, 3]), 'data.detections.0.bbox');
    refused('crop_growth_recognize', box([1, 2, 3, 4, 5]), 'data.detections.0.bbox');
    refused('crop_growth_recognize', { ...ok, data: { ...data, recognized_result: true } }, 'data.recognized_result');
    refused('crop_growth_recognize', { ...ok, error: 5 }, 'error');
  });

  it('get_current_time: the solar term fields required, the list of terms optional', () => {
    const time = {
      timezone: 'Asia/Shanghai',
      datetime: '2026-12-04 10:00:00',
      date: '2026-12-04',
      time: '10:00:00',
      weekday: '星期五',
      unix: 1796004000,
      solar_term: '小雪',
      solar_term_date: '2026-11-22',
      next_solar_term: '大雪',
      next_solar_term_date: '2026-12-07',
      days_to_next_solar_term: 3,
      solar_term_year: 2026,
    };
    assert.deepEqual(parseToolResult('get_current_time', wrap(time)), time);
    const listed = { ...time, solar_terms: [{ name: '大雪', date: '2026-12-07' }] };
    assert.deepEqual(parseToolResult('get_current_time', wrap(listed)), listed);
    refused('get_current_time', { ...time, days_to_next_solar_term: '3' }, 'days_to_next_solar_term');
    refused('get_current_time', { ...time, solar_terms: [{ name: '大雪' }] }, 'solar_terms.0.date');
  });

  it('an advertised tool: a name and an object input schema, whatever else it declares', () => {
    const info = {
      name: 't',
      inputSchema: { type: 'object', properties: { q: {} }, required: ['q'], additionalProperties: false },
    };
    assert.deepEqual(ToolInfoSchema.parse(info), info);
    assert.equal(ToolInfoSchema.safeParse({ name: 't', inputSchema: { type: 'array' } }).success, false);
    assert.equal(
      ToolInfoSchema.safeParse({ name: 't', inputSchema: { type: 'object', required: 'q' } }).success,
      false,
    );
    assert.equal(ToolInfoSchema.safeParse({ inputSchema: { type: 'object' } }).success, false);
  });
});
