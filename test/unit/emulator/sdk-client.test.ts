/** The official SDK client (a real third-party client) connects, lists and calls against the endpoint. */
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Emulator } from '../../emulator/server';
import { KEY, start } from './helpers';

describe('emulator with the official SDK Client', () => {
  let emu: Emulator;
  let client: Client;
  before(async () => {
    emu = await start();
    client = new Client({ name: 'sdk-test', version: '1.0.0' });
    client.onerror = () => undefined; // the GET stream's 400 is expected ("带上 Authorization 再用 GET 才会返回 400")
    const transport = new StreamableHTTPClientTransport(new URL(emu.url), {
      requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
      },
    });
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
    await emu.close();
  });

  it('negotiates 2025-06-18 with agriwis-mcp', () => {
    assert.deepEqual(client.getServerVersion(), { name: 'agriwis-mcp', version: '1.0.0' });
    assert.deepEqual(client.getServerCapabilities()?.tools, { listChanged: true });
  });

  it('lists the four tools', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'crop_growth_recognize',
      'get_current_time',
      'knowledge_search',
      'weather_search',
    ]);
  });

  it('calls tools and gets double-encoded results and isError failures', async () => {
    await emu.admin({ now: '2026-10-25T21:06:13+08:00' });
    const t = await client.callTool({ name: 'get_current_time', arguments: {} });
    const text = (t.content as { type: string; text: string }[])[0]?.text ?? '';
    assert.equal((JSON.parse(text) as { datetime: string }).datetime, '2026-10-25 21:06:13');
    const k = await client.callTool({ name: 'knowledge_search', arguments: { query: '茶树修剪技术要点' } });
    assert.equal(k.isError, false);
    const miss = await client.callTool({ name: 'knowledge_search', arguments: { query: '火星登陆舱推进剂燃烧效率' } });
    assert.equal(miss.isError, true);
    assert.match(
      (miss.content as { text: string }[])[0]?.text ?? '',
      /^Error invoking method: knowledgeSearch\n知识库未命中相关片段/,
    );
    const prompts = await client.listPrompts();
    assert.deepEqual(prompts.prompts, []);
    await emu.admin({ now: null });
  });

  it('receives progress notifications when it asks for them', async () => {
    const seen: number[] = [];
    const r = await client.callTool(
      {
        name: 'crop_growth_recognize',
        arguments: { imageUrl: `${emu.origin}/samples/tea_buds.png`, recognitionType: 'tea_count' },
      },
      undefined,
      { onprogress: (p) => seen.push(p.progress) },
    );
    assert.equal(r.isError, false);
    assert.ok(seen.length >= 1);
  });
});
