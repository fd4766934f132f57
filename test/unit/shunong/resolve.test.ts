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
import { nameSimilarity, suggestToolNames } from '../../../src/shunong/resolve';
import { observingFetch, rpcMethod, useEndpoint } from './helpers';

const TOOLS = ['weather_search', 'knowledge_search', 'crop_growth_recognize', 'get_current_time'];

describe('tool-name resolution', () => {
  it('exact, service-prefixed, legacy dotted, method name, unique partial', () => {
    assert.deepEqual(resolveToolName('knowledge_search', TOOLS), { name: 'knowledge_search', by: 'exact' });
    assert.deepEqual(resolveToolName('shunong_knowledge_search', TOOLS), { name: 'knowledge_search', by: 'prefixed' });
    assert.deepEqual(resolveToolName('shunong.knowledge_search', TOOLS), { name: 'knowledge_search', by: 'prefixed' });
    assert.deepEqual(resolveToolName('Shunong.knowledge_search', TOOLS), { name: 'knowledge_search', by: 'prefixed' });
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

  it('an exact name wins even padded with blanks; a prefixed exact name wins over a second tool spelt the same', () => {
    assert.deepEqual(resolveToolName('  knowledge_search ', TOOLS), { name: 'knowledge_search', by: 'exact' });
    const twins = ['knowledge_search', 'knowledgeSearch'];
    assert.deepEqual(resolveToolName('shunong_knowledge_search', twins), { name: 'knowledge_search', by: 'prefixed' });
    assert.deepEqual(resolveToolName('knowledgeSearch', twins), { name: 'knowledgeSearch', by: 'exact' });
    assert.throws(
      () => resolveToolName('KNOWLEDGE-SEARCH', twins),
      (e: AmbiguousToolError) => e instanceof AmbiguousToolError && e.candidates.join() === twins.join(),
    );
    assert.throws(
      () => resolveToolName('KNOWLEDGE-SEARCH', [...twins, 'knowledge_search_v2']),
      (e: AmbiguousToolError) => e.candidates.join() === twins.join(),
      'the candidates are the names spelt the same, not every name containing it',
    );
  });

  it('a name of separators only, or the prefix alone, matches nothing and lists the available tools', () => {
    for (const name of ['___', 'shunong_']) {
      assert.throws(
        () => resolveToolName(name, TOOLS),
        (e: UnknownToolError) =>
          e instanceof UnknownToolError &&
          e.available.join() === TOOLS.join() &&
          e.message === `No tool named "${name}". Available tools: ${TOOLS.join(', ')}.`,
        name,
      );
    }
  });

  it('similarity: 1 − the edit distance of the normalised names over the longer length', () => {
    assert.equal(nameSimilarity('kitten', 'sitting'), 1 - 3 / 7);
    assert.equal(nameSimilarity('abc', 'abcd'), 0.75);
    assert.equal(nameSimilarity('abcd', 'abc'), 0.75);
    assert.equal(nameSimilarity('knowledgeSearch', 'knowledge_search'), 1);
    assert.equal(nameSimilarity('___', '-'), 0, 'nothing to compare');
  });

  it('similarity: the share of words in common, whatever their order, case, separators or script', () => {
    assert.equal(nameSimilarity('search_knowledge', 'knowledge_search'), 1);
    assert.equal(nameSimilarity('timeCurrentGet', 'get_current_time'), 1);
    assert.equal(nameSimilarity('_search__knowledge_', 'knowledge-search'), 1);
    assert.equal(nameSimilarity('查询_天气', '天气.查询'), 1);
    assert.equal(nameSimilarity('search', 'knowledge_search'), 0.5, 'one word of two');
  });

  it('similarity: a near-miss word counts for its own similarity from 0.6 up, and nothing below', () => {
    assert.equal(nameSimilarity('search_knowlege', 'knowledge_search'), (1 + 8 / 9) / 2);
    // abxye is 0.6 of abcde, abxyz 0.4
    assert.equal(nameSimilarity('zzzzz_abxye', 'abcde_zzzzz'), 0.8);
    assert.equal(nameSimilarity('zzzzz_abxyz', 'abcde_zzzzz'), 0.5);
  });

  it('suggestions: scores rounded to hundredths, from 0.4 up, best first, ties by name, three at most, the prefix ignored', () => {
    assert.deepEqual(suggestToolNames('kitten', ['sitting']), [{ name: 'sitting', score: 0.57 }]);
    assert.deepEqual(suggestToolNames('abxyz', ['abcde', 'abxyq', 'zzzzz']), [
      { name: 'abxyq', score: 0.8 },
      { name: 'abcde', score: 0.4 },
    ]);
    assert.deepEqual(suggestToolNames('tool', ['x_tool', 'a_tool', 'c_tool', 'b_tool', 'tool_zz']), [
      { name: 'a_tool', score: 0.8 },
      { name: 'b_tool', score: 0.8 },
      { name: 'c_tool', score: 0.8 },
    ]);
    assert.deepEqual(suggestToolNames('shunong_wether_serch', TOOLS), suggestToolNames('wether_serch', TOOLS));
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
      bestScore: 0.5809,
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
    const says = async (args: unknown, message: RegExp | string) => {
      const e = await c.callTool('get_current_time', args as string, { raiseOnError: false });
      assert.ok(!e.success);
      if (typeof message === 'string') assert.equal(e.message, message, JSON.stringify(args));
      else assert.match(e.message, message, JSON.stringify(args));
    };
    await says('{nope', /^The arguments are not valid JSON: \S/);
    for (const json of ['[1]', 'null', '3', '"text"']) await says(json, 'The arguments must be a JSON object.');
    for (const value of [[1], 3]) await says(value, 'The arguments must be an object.');
    assert.ok(
      (await c.callTool('get_current_time', ' \n ', { raiseOnError: false })).success,
      'blank text is no arguments',
    );
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
