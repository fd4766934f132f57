import { strict as assert } from 'node:assert';
import type { ToolInfo, ToolListStore } from '../../../src/shunong';
import { observingFetch, rpcMethod, until, useEndpoint } from './helpers';

function memoryStore(initial?: ToolInfo[]): ToolListStore & { saved: ToolInfo[][]; loads: number } {
  const s = {
    saved: [] as ToolInfo[][],
    loads: 0,
    load(_endpoint: string) {
      s.loads++;
      return initial;
    },
    save(_endpoint: string, tools: ToolInfo[]) {
      s.saved.push(tools);
    },
  };
  return s;
}

describe('shunong client: session', () => {
  const ep = useEndpoint();
  const make = ep.client;

  it('connect: initialize, initialized, tools/list; the GET stream is answered locally and never sent', async () => {
    const logs: string[] = [];
    const c = make({ log: (l) => logs.push(l) });
    const tools = await c.connect();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'crop_growth_recognize',
      'get_current_time',
      'knowledge_search',
      'weather_search',
    ]);
    assert.deepEqual(
      ep.emu.requests.map((r) => [r.httpMethod, r.rpcMethod, r.status]),
      [
        ['POST', 'initialize', 200],
        ['POST', 'notifications/initialized', 202],
        ['POST', 'tools/list', 200],
      ],
    );
    assert.ok(ep.emu.requests.every((r) => r.httpMethod !== 'GET'));
    assert.ok(logs.some((l) => l.startsWith('GET ') && l.includes('405') && l.includes('answered locally')));
    const props = tools.find((t) => t.name === 'knowledge_search')?.inputSchema.properties ?? {};
    assert.ok('query' in props);
  });

  it('a warm tool call is exactly one HTTP request on the same session', async () => {
    const c = make();
    await c.knowledgeSearch({ query: '茶树修剪技术要点' });
    const sid = ep.emu.requests[0]?.sessionId;
    const before = ep.emu.requests.length;
    const r = await c.knowledgeSearch({ query: '水稻分蘖期水分管理' });
    assert.ok(r.sources.length > 0);
    const warm = ep.emu.requests.slice(before);
    assert.equal(warm.length, 1);
    assert.equal(warm[0]?.rpcMethod, 'tools/call');
    assert.equal(warm[0]?.sessionId, sid);
    assert.equal(ep.emu.requests.filter((x) => x.rpcMethod === 'initialize').length, 1);
  });

  it('close: the next call opens a new session on the endpoint', async () => {
    const c = make();
    await c.currentTime();
    await c.close();
    await c.currentTime();
    const calls = ep.emu.requests.filter((x) => x.rpcMethod === 'tools/call');
    assert.equal(ep.emu.requests.filter((x) => x.rpcMethod === 'initialize').length, 2);
    assert.equal(calls.length, 2);
    assert.notEqual(calls[0]?.sessionId, calls[1]?.sessionId);
  });

  it('a first call with a cached tool list costs at most 3 requests (initialize, initialized, call)', async () => {
    const warmup = make();
    const tools = await warmup.connect();
    const store = memoryStore(tools);
    const before = ep.emu.requests.length;
    const c = make({ toolStore: store });
    await c.currentTime();
    const first = ep.emu.requests.slice(before);
    assert.deepEqual(
      first.map((r) => r.rpcMethod),
      ['initialize', 'notifications/initialized', 'tools/call'],
    );
    assert.equal(store.loads, 1);
  });

  it('saves the listed tools in the store and tells listeners', async () => {
    const store = memoryStore(undefined);
    const c = make({ toolStore: store });
    const heard: ToolInfo[][] = [];
    const off = c.onDidChangeTools((t) => heard.push(t));
    await c.connect();
    assert.equal(store.saved.length, 1);
    assert.equal(heard.length, 1);
    assert.equal(heard[0]?.length, 4);
    off();
    await c.listTools({ refresh: true });
    assert.equal(heard.length, 1, 'unsubscribed, and an unchanged list is not news');
  });

  it('listTools without refresh answers from memory (no request); with refresh asks the server', async () => {
    const c = make();
    await c.connect();
    const n = ep.emu.requests.length;
    await c.listTools();
    assert.equal(ep.emu.requests.length, n);
    await c.listTools({ refresh: true });
    assert.deepEqual(
      ep.emu.requests.slice(n).map((r) => r.rpcMethod),
      ['tools/list'],
    );
  });

  it('arguments the advertised inputSchema does not declare are not sent, and are logged', async () => {
    const warm = make();
    const tools = (await warm.connect()).map((t) => {
      if (t.name !== 'knowledge_search') return t;
      const props = { ...(t.inputSchema.properties ?? {}) };
      delete props['mode'];
      return { ...t, inputSchema: { ...t.inputSchema, properties: props } };
    });
    const obs = observingFetch();
    const logs: string[] = [];
    const c = make({ toolStore: memoryStore(tools), fetch: obs.fetch, log: (l) => logs.push(l) });
    const r = await c.knowledgeSearch({ query: '茶树修剪技术要点', mode: 'vector', topK: 3 });
    assert.equal(r.sources.length, 3);
    const call = obs.seen.find((s) => rpcMethod(s) === 'tools/call');
    const args = (JSON.parse(call?.body ?? '{}') as { params: { arguments: Record<string, unknown> } }).params
      .arguments;
    assert.deepEqual(args, { query: '茶树修剪技术要点', topK: 3 });
    assert.ok(logs.some((l) => l.includes('knowledge_search does not declare "mode"')));
  });

  it('a changed key gets a new session; calls in flight on the old one finish', async () => {
    await ep.restart({ keys: ['sk_one', 'sk_two'] });
    let key = 'sk_one';
    const c = make({ getKey: () => key });
    await c.connect();
    const sid1 = ep.emu.requests[0]?.sessionId;
    await ep.emu.admin({ latencyMs: 150 });
    const slow = c.knowledgeSearch({ query: '茶树修剪技术要点' });
    await until(() => ep.emu.requests.some((x) => x.tool === 'knowledge_search' && x.status === 0)); // at the endpoint, unanswered
    key = 'sk_two';
    await ep.emu.admin({ latencyMs: 0 });
    const t = await c.currentTime();
    assert.ok(t.date);
    const r = await slow;
    assert.ok(r.sources.length > 0, 'the in-flight call on the old session completed');
    const inits = ep.emu.requests.filter((x) => x.rpcMethod === 'initialize');
    assert.equal(inits.length, 2);
    const timeCall = ep.emu.requests.find((x) => x.tool === 'get_current_time');
    assert.notEqual(timeCall?.sessionId, sid1);
    assert.ok(timeCall?.sessionId);
  });

  it('typed calls: weather now and forecast keep their two shapes apart; current time; recognition', async () => {
    const c = make();
    const now = await c.weatherNow('成都');
    assert.match(now.city, /^\d{9}$/);
    const fc = await c.weatherForecast('成都');
    assert.equal(fc.city, '成都');
    assert.equal(fc.forecast.length, 7);
    const both = await c.weather('成都');
    assert.deepEqual(both, { now: await c.weatherNow('成都'), forecast: await c.weatherForecast('成都') });
    const t = await c.currentTime({ withSolarTerms: true });
    assert.equal(t.timezone, 'Asia/Shanghai');
    assert.equal(t.solar_terms?.length, 24);
    const rec = await c.recognizeCrop({
      imageUrl: `${ep.emu.origin}/samples/tea_buds.jpg`,
      recognitionType: 'tea_count',
    });
    assert.equal(rec.data.model_id, 'tea_count');
    assert.equal(rec.data.recognized_result, 7, 'the seven buds drawn in the sample');
  });

  it('progress of a recognition is passed through', async () => {
    const c = make();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    await c.recognizeCrop(
      { imageUrl: `${ep.emu.origin}/samples/wheat_tillering.png`, recognitionType: 'wheat_stage' },
      { onProgress: (p) => seen.push(p) },
    );
    assert.deepEqual(seen, [
      { progress: 0, total: 3, message: '读取图片' },
      { progress: 1, total: 3, message: '识别中' },
      { progress: 2, total: 3, message: '完成' },
    ]);
  });
});
