import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  AmbiguousToolError,
  ShunongClient,
  UnknownToolError,
  methodNameOf,
  realScheduler,
  resolveToolName,
  type CallEnvelope,
  type KnowledgeResult,
} from '../../../src/shunong';
import { observingFetch, rpcMethod, useEndpoint } from './helpers';

const TOOLS = ['weather_search', 'knowledge_search', 'crop_growth_recognize', 'get_current_time'];

describe('tool-name resolution', () => {
  it('exact, service-prefixed, legacy dotted, method name, unique partial', () => {
    assert.deepEqual(resolveToolName('knowledge_search', TOOLS), { name: 'knowledge_search', by: 'exact' });
    assert.deepEqual(resolveToolName('shunong_knowledge_search', TOOLS), { name: 'knowledge_search', by: 'prefixed' });
    assert.deepEqual(resolveToolName('shunong.knowledge_search', TOOLS), { name: 'knowledge_search', by: 'prefixed' });
    assert.deepEqual(resolveToolName('knowledgeSearch', TOOLS), { name: 'knowledge_search', by: 'method' });
    assert.deepEqual(resolveToolName('cropGrowthRecognize', TOOLS), { name: 'crop_growth_recognize', by: 'method' });
    assert.deepEqual(resolveToolName('shunong.getCurrentTime', TOOLS), { name: 'get_current_time', by: 'prefixed' });
    assert.deepEqual(resolveToolName('knowledge', TOOLS), { name: 'knowledge_search', by: 'partial' });
    assert.deepEqual(resolveToolName('time', TOOLS), { name: 'get_current_time', by: 'partial' });
    assert.deepEqual(resolveToolName('shunong_crop', TOOLS), { name: 'crop_growth_recognize', by: 'partial' });
  });

  it('ambiguous names list the candidates', () => {
    assert.throws(
      () => resolveToolName('search', TOOLS),
      (e: AmbiguousToolError) =>
        e instanceof AmbiguousToolError &&
        e.kind === 'ambiguous-tool' &&
        e.candidates.join() === 'weather_search,knowledge_search' &&
        /weather_search/.test(e.message),
    );
  });

  it('unknown names get scored suggestions and never resolve to another tool', () => {
    assert.throws(
      () => resolveToolName('knowlege_serch', TOOLS),
      (e: UnknownToolError) =>
        e instanceof UnknownToolError &&
        e.suggestions[0]?.name === 'knowledge_search' &&
        (e.suggestions[0]?.score ?? 0) > 0.7 &&
        /Did you mean knowledge_search/.test(e.message),
    );
    assert.throws(
      () => resolveToolName('weather_now', TOOLS),
      (e: UnknownToolError) => e.suggestions[0]?.name === 'weather_search',
    );
    assert.throws(
      () => resolveToolName('zzzz', TOOLS),
      (e: UnknownToolError) => e.suggestions.length === 0 && /Available tools/.test(e.message),
    );
  });

  it('property: a result is always an advertised tool that contains the request (normalised)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (s) => {
        try {
          const r = resolveToolName(s, TOOLS);
          return TOOLS.includes(r.name);
        } catch (e) {
          return e instanceof UnknownToolError || e instanceof AmbiguousToolError;
        }
      }),
    );
  });

  it('method names', () => {
    assert.equal(methodNameOf('knowledge_search'), 'knowledgeSearch');
    assert.equal(methodNameOf('crop_growth_recognize'), 'cropGrowthRecognize');
  });
});

describe('generic call layer against the local endpoint', () => {
  const ep = useEndpoint({ per: 'block' });
  let c: ShunongClient;
  const obs = observingFetch();
  before(() => {
    c = ep.client({ fetch: obs.fetch });
  });

  it('envelope on success: parsed data and metadata', async () => {
    // executionTimeMs is read off the client's scheduler: a clock that moves 1234 ms while the tool call is out.
    let now = Date.parse('2026-12-01T08:00:00Z');
    const timed = observingFetch({
      mutate: (_headers, body) => {
        if (body && (JSON.parse(body) as { method?: string }).method === 'tools/call') now += 1234;
      },
    });
    const client = ep.client({ fetch: timed.fetch, scheduler: { ...realScheduler, now: () => now } });
    const env = await client.callTool('shunong.knowledge_search', '{"query":"茶树修剪技术要点","topK":2}');
    assert.equal(env.success, true);
    assert.ok(env.success);
    const data = env.data as KnowledgeResult;
    assert.equal(data.sources.length, 2, 'topK from the JSON-string arguments');
    assert.equal(env.metadata.toolName, 'shunong.knowledge_search');
    assert.equal(env.metadata.resolvedToolName, 'knowledge_search');
    assert.equal(env.metadata.serviceName, 'shunong');
    assert.match(env.metadata.traceId, /^[0-9a-f]{16}$/);
    assert.equal(env.metadata.executionTimeMs, 1234, 'the time the call took on the client scheduler');
    assert.match(env.message, /knowledge_search/);
  });

  it('raiseOnError false: a tool failure is success false with the reason as message', async () => {
    const env = await c.callTool('knowledge', { query: '火箭发动机燃烧室设计' }, { raiseOnError: false });
    assert.equal(env.success, false);
    assert.ok(!env.success);
    assert.equal(env.data.kind, 'knowledge-miss');
    assert.ok(env.message.startsWith('知识库未命中'));
    assert.equal(env.metadata.resolvedToolName, 'knowledge_search');
    assert.deepEqual(env.data.details, {
      vectorCandidates: 32,
      fulltextCandidates: 0,
      threshold: 0.7,
      filtered: 32,
      bestScore: 0.5806,
    });
  });

  it('unknown and ambiguous names: no tools/call is sent', async () => {
    const before = obs.seen.filter((s) => rpcMethod(s) === 'tools/call').length;
    await assert.rejects(c.callTool('search', { query: 'x' }), AmbiguousToolError);
    const env = await c.callTool('wether', { location: '成都' }, { raiseOnError: false });
    assert.ok(!env.success);
    assert.equal(env.data.kind, 'unknown-tool');
    assert.equal(env.metadata.resolvedToolName, null);
    assert.match(env.message, /weather_search/);
    assert.equal(obs.seen.filter((s) => rpcMethod(s) === 'tools/call').length, before);
  });

  it('bad JSON arguments are an invalid-arguments failure', async () => {
    await assert.rejects(
      c.callTool('get_current_time', '{nope'),
      (e: Error & { kind?: string }) => e.kind === 'invalid-arguments',
    );
    await assert.rejects(
      c.callTool('get_current_time', '[1]'),
      (e: Error & { kind?: string }) => e.kind === 'invalid-arguments',
    );
    const env = await c.callTool('get_current_time', '', { raiseOnError: false });
    assert.ok(env.success);
  });

  it('batch: bounded concurrency, envelopes in call order, failures included', async () => {
    await ep.emu.admin({ latencyMs: 30 });
    obs.resetMax();
    const calls = [
      { name: 'weather_search', args: { location: '成都', date: 'now' } },
      { name: 'knowledgeSearch', args: { query: '茶树修剪技术要点' } },
      { name: 'nope_tool' },
      { name: 'time' },
      { name: 'knowledge', args: { query: '火箭发动机燃烧室设计' } },
      { name: 'get_current_time', args: '{"format":"YYYY"}' },
    ];
    const seenBefore = obs.seen.length;
    const out: CallEnvelope[] = await c.callToolsBatch(calls, { concurrency: 2 });
    await ep.emu.admin({ latencyMs: 0 });
    assert.equal(out.length, 6);
    assert.deepEqual(
      out.map((e) => e.success),
      [true, true, false, true, false, true],
    );
    assert.deepEqual(
      out.map((e) => e.metadata.resolvedToolName),
      ['weather_search', 'knowledge_search', null, 'get_current_time', 'knowledge_search', 'get_current_time'],
    );
    assert.equal(obs.maxInflight(), 2, 'at most 2 requests in flight, and the bound was used');
    assert.equal(obs.seen.slice(seenBefore).filter((s) => rpcMethod(s) === 'tools/call').length, 5);
    const year = out[5];
    assert.ok(year?.success);
    assert.match((year.data as { datetime: string }).datetime, /^\d{4}$/);
  });
});
