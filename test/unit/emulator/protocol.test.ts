/** Protocol to the byte, against the vendor's page "MCP 接入" (001). */
import assert from 'node:assert/strict';
import type { Emulator } from '../../emulator/server';
import { HEADERS, callTool, openSession, post, rpc, sseEvents, start } from './helpers';

describe('emulator protocol', function () {
  let emu: Emulator;
  const logLines: string[] = [];
  before(async function () {
    this.timeout(20_000);
    emu = await start({ keys: ['sk_local_demo', 'sk_second'], log: (l) => logLines.push(l) });
  });
  after(() => emu.close());

  describe('auth and methods', () => {
    it('answers 401 with the page body when the key is missing', async () => {
      const r = await fetch(emu.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: HEADERS.accept as string },
        body: '{}',
      });
      assert.equal(r.status, 401);
      assert.equal(await r.text(), '{"error":"missing api key, header: Authorization: Bearer<api key>"}');
    });
    it('answers 401 with the page body for an unknown key', async () => {
      const r = await post(emu, {}, { authorization: 'Bearer sk_xxxxxxxxxxxxxxxx' });
      assert.equal(r.status, 401);
      assert.equal(await r.text(), '{"error":"invalid api key"}');
    });
    it('accepts every configured key', async () => {
      const r = await post(
        emu,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'k', version: '1' } },
        },
        { authorization: 'Bearer sk_second' },
      );
      assert.equal(r.status, 200);
      await r.text();
    });
    it('GET without a key is 401, with a key 400 ("不带密钥直接 GET 该地址会先因鉴权失败返回 401；带上 Authorization 再用 GET 才会返回 400")', async () => {
      const a = await fetch(emu.url);
      assert.equal(a.status, 401);
      await a.text();
      const b = await fetch(emu.url, { headers: { authorization: HEADERS.authorization as string } });
      assert.equal(b.status, 400);
      await b.text();
    });
    it('only POST on /mcp: DELETE is 405, other paths 404', async () => {
      const d = await fetch(emu.url, { method: 'DELETE', headers: { authorization: HEADERS.authorization as string } });
      assert.equal(d.status, 405);
      await d.text();
      const o = await fetch(`${emu.origin}/other`, { method: 'POST' });
      assert.equal(o.status, 404);
      await o.text();
    });
    it('requires both application/json and text/event-stream in Accept (406 otherwise)', async () => {
      for (const accept of ['application/json', 'text/event-stream']) {
        const r = await post(emu, { jsonrpc: '2.0', id: 1, method: 'ping' }, { accept });
        assert.equal(r.status, 406);
        await r.text();
      }
    });
    it('answers malformed JSON with a JSON-RPC parse error', async () => {
      const r = await post(emu, '{not json');
      assert.equal(r.status, 400);
      assert.equal(((await r.json()) as { error: { code: number } }).error.code, -32700);
    });
  });

  describe('handshake', () => {
    it('answers initialize as application/json with mcp-session-id, the page body byte for byte', async () => {
      const r = await post(emu, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'my-client', version: '1.0.0' },
        },
      });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/json');
      assert.match(
        r.headers.get('mcp-session-id') ?? '',
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      assert.equal(
        await r.text(),
        '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"completions":{},"logging":{},"prompts":{"listChanged":true},"resources":{"subscribe":false,"listChanged":true},"tools":{"listChanged":true}},"serverInfo":{"name":"agriwis-mcp","version":"1.0.0"}}}',
      );
    });
    it('always answers protocol version 2025-06-18, whatever the client asks', async () => {
      for (const v of ['2025-03-26', '2024-11-05', '2099-01-01']) {
        const r = await post(emu, {
          jsonrpc: '2.0',
          id: 7,
          method: 'initialize',
          params: { protocolVersion: v, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        });
        assert.equal(
          ((await r.json()) as { result: { protocolVersion: string } }).result.protocolVersion,
          '2025-06-18',
        );
      }
    });
    it('notifications/initialized → 202 with no body ("该请求返回 202 Accepted，无响应体")', async () => {
      const r0 = await post(emu, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      });
      const sid = r0.headers.get('mcp-session-id') as string;
      await r0.text();
      const r = await post(emu, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sid });
      assert.equal(r.status, 202);
      assert.equal(await r.text(), '');
      assert.equal(r.headers.get('content-type'), null);
    });
    it('rejects a request without mcp-session-id with 400 naming Mcp-Session-Id', async () => {
      const r = await post(emu, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
      assert.equal(r.status, 400);
      assert.match(await r.text(), /Mcp-Session-Id/);
    });
    it('answers an unknown session id with 404 Session not found', async () => {
      const r = await post(
        emu,
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
        { 'mcp-session-id': '2f7c1e8a-9b3d-4c5e-8a1f-0d6b2c4e9a71' },
      );
      assert.equal(r.status, 404);
      assert.match(await r.text(), /Session not found/);
    });
  });

  describe('SSE replies', () => {
    let sid: string;
    before(async () => {
      sid = await openSession(emu);
    });
    it('frames tools/list as exactly id:<sid>\\nevent:message\\ndata:<json>\\n\\n, one event', async () => {
      const r = await post(emu, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, { 'mcp-session-id': sid });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'text/event-stream');
      const body = await r.text();
      assert.match(
        body,
        new RegExp(
          `^id:${sid}\\nevent:message\\ndata:\\{"jsonrpc":"2\\.0","id":2,"result":\\{"tools":\\[.*\\]\\}\\}\\n\\n$`,
          's',
        ),
      );
      const [msg] = sseEvents(body, sid) as {
        result: { tools: { name: string; inputSchema: Record<string, unknown> }[] };
      }[];
      assert.deepEqual(
        msg?.result.tools.map((t) => t.name),
        ['weather_search', 'knowledge_search', 'crop_growth_recognize', 'get_current_time'],
      );
    });
    it('advertises draft-7 input schemas with query required and the decided defaults', async () => {
      const reply = await rpc(emu, sid, 'tools/list');
      const tools = (
        reply.result as {
          tools: {
            name: string;
            inputSchema: {
              $schema: string;
              required?: string[];
              properties: Record<string, { default?: unknown; maximum?: number; enum?: string[] }>;
            };
          }[];
        }
      ).tools;
      const ks = tools.find((t) => t.name === 'knowledge_search')?.inputSchema;
      assert.equal(ks?.$schema, 'http://json-schema.org/draft-07/schema#');
      assert.deepEqual(ks?.required, ['query']);
      assert.equal(ks?.properties.topK?.default, 5);
      assert.equal(ks?.properties.topK?.maximum, 20);
      assert.equal(ks?.properties.scoreThreshold?.default, 0.7);
      assert.equal(ks?.properties.useRerank?.default, false);
      assert.deepEqual(ks?.properties.mode?.enum, ['hybrid', 'vector']);
      const rec = tools.find((t) => t.name === 'crop_growth_recognize')?.inputSchema;
      assert.deepEqual(rec?.properties.recognitionType?.enum, ['wheat_stage', 'tea_count', 'tea_stage']);
      assert.equal(rec?.properties.recognitionType?.default, 'wheat_stage');
    });
    it('prompts/list and resources/list are empty arrays ("prompts/list 与 resources/list 返回空数组")', async () => {
      assert.deepEqual((await rpc(emu, sid, 'prompts/list')).result, { prompts: [] });
      assert.deepEqual((await rpc(emu, sid, 'resources/list')).result, { resources: [] });
      assert.deepEqual((await rpc(emu, sid, 'resources/templates/list')).result, { resourceTemplates: [] });
    });
    it('answers ping as SSE with an empty result', async () => {
      assert.deepEqual((await rpc(emu, sid, 'ping')).result, {});
    });
    it('double-encodes tool results: content[0].text is a JSON string, isError false', async () => {
      const reply = await rpc(emu, sid, 'tools/call', {
        name: 'weather_search',
        arguments: { location: '成都', date: 'now' },
      });
      const result = reply.result as { content: { type: string; text: string }[]; isError: boolean };
      assert.equal(result.content[0]?.type, 'text');
      assert.equal(result.isError, false);
      assert.equal((JSON.parse(result.content[0]?.text ?? '') as { city: string }).city, '101270101');
      assert.deepEqual(Object.keys(result), ['content', 'isError']);
    });
    it('words the missing-query failure exactly as the page', async () => {
      const r = await callTool(emu, sid, 'knowledge_search', {});
      assert.equal(r.isError, true);
      assert.equal(
        r.text,
        "Tool (knowledge_search) input validation failed: Validation failed: JSON schema validation errors: [: required property 'query' not found]",
      );
    });
    it('words other violations in the same style', async () => {
      assert.equal(
        (await callTool(emu, sid, 'knowledge_search', { query: '水稻', topK: 50 })).text,
        'Tool (knowledge_search) input validation failed: Validation failed: JSON schema validation errors: [topK: must have a maximum value of 20]',
      );
      assert.equal(
        (await callTool(emu, sid, 'knowledge_search', { query: 3 })).text,
        'Tool (knowledge_search) input validation failed: Validation failed: JSON schema validation errors: [query: integer found, string expected]',
      );
      assert.equal(
        (await callTool(emu, sid, 'knowledge_search', { query: '水稻', mode: 'bm25' })).text,
        'Tool (knowledge_search) input validation failed: Validation failed: JSON schema validation errors: [mode: does not have a value in the enumeration [hybrid, vector]]',
      );
      const r = await callTool(emu, sid, 'weather_search', { date: 'now', extra: 1 });
      assert.equal(r.isError, true);
      assert.match(
        r.text,
        /^Tool \(weather_search\) input validation failed: Validation failed: JSON schema validation errors: \[.*: required property 'location' not found.*property 'extra' is not defined/,
      );
    });
    it('answers an unknown tool with a JSON-RPC error', async () => {
      const reply = await rpc(emu, sid, 'tools/call', { name: 'nope', arguments: {} });
      assert.equal(reply.error?.code, -32602);
    });
    it('sends progress events before the reply only when a progressToken is given', async () => {
      const r = await post(
        emu,
        {
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: {
            name: 'crop_growth_recognize',
            arguments: { imageUrl: `${emu.origin}/samples/tea_buds.png`, recognitionType: 'tea_count' },
            _meta: { progressToken: 'p1' },
          },
        },
        { 'mcp-session-id': sid },
      );
      const events = sseEvents(await r.text(), sid) as {
        method?: string;
        id?: number;
        params?: { progressToken: string };
      }[];
      assert.ok(events.length >= 2);
      assert.ok(
        events.slice(0, -1).every((e) => e.method === 'notifications/progress' && e.params?.progressToken === 'p1'),
      );
      assert.equal(events.at(-1)?.id, 9);
    });
    it('notifications/cancelled aborts the tool work and ends its open reply without an event', async () => {
      const pending = post(
        emu,
        {
          jsonrpc: '2.0',
          id: 77,
          method: 'tools/call',
          params: { name: 'crop_growth_recognize', arguments: { imageUrl: `${emu.origin}/samples-slow/tea_buds.png` } },
        },
        { 'mcp-session-id': sid },
      );
      // Wait until the endpoint has started the download (it shows up in the request log).
      while (!emu.requests.some((q) => q.path === '/samples-slow/tea_buds.png'))
        await new Promise((r) => setTimeout(r, 10));
      const c = await post(
        emu,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 77, reason: 'user' } },
        { 'mcp-session-id': sid },
      );
      assert.equal(c.status, 202);
      const r = await pending;
      assert.equal(await r.text(), '');
      // The aborted download closed its connection: the never-answered slow request is logged as closed (status 0).
      while (!logLines.some((l) => /^GET \/samples-slow\/tea_buds\.png 0 \d+ms$/.test(l)))
        await new Promise((res) => setTimeout(res, 10));
    });
  });

  describe('bookkeeping', () => {
    it('records every request with method, tool, status and session', async () => {
      const sid = await openSession(emu);
      await callTool(emu, sid, 'get_current_time', {});
      const recs = emu.requests.filter((q) => q.sessionId === sid);
      assert.deepEqual(
        recs.map((q) => [q.httpMethod, q.path, q.rpcMethod, q.tool, q.status]),
        [
          ['POST', '/mcp', 'initialize', undefined, 200],
          ['POST', '/mcp', 'notifications/initialized', undefined, 202],
          ['POST', '/mcp', 'tools/call', 'get_current_time', 200],
        ],
      );
    });
    it('logs one line per request with method, tool, status and ms, never the key', () => {
      assert.ok(logLines.some((l) => /^POST \/mcp tools\/call get_current_time 200 \d+ms$/.test(l)));
      assert.ok(logLines.every((l) => !l.includes('sk_local_demo') && !l.includes('sk_second')));
    });
  });
});
