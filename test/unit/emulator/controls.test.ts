/** The local endpoint's controls (DESIGN.md "The local endpoint's controls") and the token bucket. */
import assert from 'node:assert/strict';
import { Agent, get } from 'node:http';
import { LOGGED_STRING_MAX, type Emulator } from '../../emulator/server';
import { callOk, callTool, HEADERS, openSession, post, start } from './helpers';

async function adminPost(emu: Emulator, body: unknown): Promise<Response> {
  return fetch(`${emu.origin}/__admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('emulator controls', function () {
  let emu: Emulator;
  beforeEach(async () => {
    emu = await start();
  });
  afterEach(() => emu.close());

  it('POST /__admin answers the current state in the DESIGN.md format', async () => {
    const r = await adminPost(emu, {
      rateLimit: { next: 3, retryAfterSec: 1 },
      latencyMs: 0,
      fail5xx: { next: 2, status: 503 },
      cutSse: { next: 1 },
      now: '2026-10-25T21:06:13+08:00',
    });
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), {
      expireSessions: false,
      rateLimit: { next: 3, retryAfterSec: 1 },
      latencyMs: 0,
      fail5xx: { next: 2, status: 503 },
      cutSse: { next: 1 },
      now: '2026-10-25T21:06:13+08:00',
    });
    const empty = await adminPost(emu, {});
    assert.equal(((await empty.json()) as { now: string }).now, '2026-10-25T21:06:13+08:00');
    const reset = await emu.admin({ rateLimit: null, fail5xx: null, cutSse: null, now: null });
    assert.deepEqual(reset, {
      expireSessions: false,
      rateLimit: null,
      latencyMs: 0,
      fail5xx: null,
      cutSse: null,
      now: null,
    });
  });

  it('rejects bad control values with 400', async () => {
    const r = await adminPost(emu, { fail5xx: { next: 1, status: 200 } });
    assert.equal(r.status, 400);
    await r.text();
    const n = await adminPost(emu, { now: 'yesterday-ish' });
    assert.equal(n.status, 400);
    await n.text();
  });

  it('expireSessions forgets every session: 404 Session not found afterwards', async () => {
    const sid = await openSession(emu);
    await emu.admin({ expireSessions: true });
    const r = await post(emu, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, { 'mcp-session-id': sid });
    assert.equal(r.status, 404);
    assert.match(await r.text(), /Session not found/);
    // A new initialize works.
    await openSession(emu);
  });

  it('rateLimit: the next N POSTs get 429 with Retry-After, then normal service', async () => {
    const sid = await openSession(emu);
    await emu.admin({ rateLimit: { next: 2, retryAfterSec: 7 } });
    for (let i = 0; i < 2; i++) {
      const r = await post(emu, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': sid });
      assert.equal(r.status, 429);
      assert.equal(r.headers.get('retry-after'), '7');
      await r.text();
    }
    const ok = await post(emu, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': sid });
    assert.equal(ok.status, 200);
    await ok.text();
  });

  it('fail5xx: the next N POSTs fail with the given status', async () => {
    const sid = await openSession(emu);
    await emu.admin({ fail5xx: { next: 1, status: 502 } });
    const r = await post(emu, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': sid });
    assert.equal(r.status, 502);
    await r.text();
    const ok = await post(emu, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': sid });
    assert.equal(ok.status, 200);
    await ok.text();
  });

  it('cutSse: the next SSE reply sends headers and part of the frame, then the socket is destroyed', async () => {
    const sid = await openSession(emu);
    await emu.admin({ cutSse: { next: 1 } });
    const r = await post(emu, { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }, { 'mcp-session-id': sid });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/event-stream');
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    let received = '';
    const dec = new TextDecoder();
    await assert.rejects(async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`stream ended cleanly after: ${received}`);
        received += dec.decode(value, { stream: true });
      }
    }, /terminated|other side closed|socket/i);
    assert.ok(received.length > 0 && received.startsWith(`id:${sid}`), received);
    assert.ok(!received.endsWith('\n\n'));
    const again = await post(emu, { jsonrpc: '2.0', id: 5, method: 'ping' }, { 'mcp-session-id': sid });
    assert.equal(again.status, 200);
    await again.text();
  });

  it('latencyMs delays replies but keeps them correct', async () => {
    const sid = await openSession(emu);
    const state = await emu.admin({ latencyMs: 30 });
    assert.equal(state.latencyMs, 30);
    const t = await callOk(emu, sid, 'get_current_time', {});
    assert.equal(t.timezone, 'Asia/Shanghai');
  });

  it('the controls close their connection after answering; other routes keep theirs open a minute', async () => {
    const agent = new Agent({ keepAlive: true });
    const answer = (path: string) =>
      new Promise<{ connection: string | undefined; keepAlive: string | undefined; closed: Promise<void> }>(
        (resolve, reject) => {
          get(`${emu.origin}${path}`, { agent }, (res) => {
            const closed = new Promise<void>((done) => res.socket.once('close', () => done()));
            res.resume();
            res.on('end', () =>
              resolve({ connection: res.headers.connection, keepAlive: String(res.headers['keep-alive']), closed }),
            );
          }).on('error', reject);
        },
      );
    try {
      const log = await answer('/__admin/requests');
      assert.equal(log.connection, 'close');
      await log.closed;
      const other = await answer('/no-such-page');
      assert.equal(other.connection, 'keep-alive');
      assert.equal(other.keepAlive, 'timeout=65');
    } finally {
      agent.destroy();
    }
  });

  it('GET /__admin/requests lists the requests; one closed by the client during the delay keeps its tool, status 0', async () => {
    const sid = await openSession(emu);
    await emu.admin({ latencyMs: 2000 });
    const abort = new AbortController();
    const call = fetch(`${emu.url}`, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': sid },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'get_current_time', arguments: {} },
      }),
      signal: abort.signal,
    }).catch((e: unknown) => e);
    // The body is read before the delay: wait until the endpoint has it, then give up.
    for (let i = 0; i < 100 && !emu.requests.some((r) => r.tool === 'get_current_time'); i++)
      await new Promise((r) => setTimeout(r, 10));
    abort.abort();
    await call;
    await emu.admin({ latencyMs: 0 });
    await new Promise((r) => setTimeout(r, 50));
    const res = await fetch(`${emu.origin}/__admin/requests`);
    assert.equal(res.status, 200);
    const { requests } = (await res.json()) as {
      requests: { path: string; rpcMethod?: string; tool?: string; status: number }[];
    };
    assert.equal(requests[0]?.rpcMethod, 'initialize');
    const aborted = requests.filter((r) => r.tool === 'get_current_time');
    assert.equal(aborted.length, 1);
    assert.equal(aborted[0]?.status, 0, 'closed before any reply');
    assert.ok(!requests.some((r) => r.path === '/__admin/requests'), 'the log does not list itself');
  });

  it("GET /__admin/requests keeps each tool call's arguments, a long string cut to its start and length", async () => {
    const sid = await openSession(emu);
    await callOk(emu, sid, 'knowledge_search', { query: '水稻 分蘖期 施肥', topK: 3 });
    const long = 'A'.repeat(LOGGED_STRING_MAX + 1);
    await callTool(emu, sid, 'crop_growth_recognize', { imageBase64: long });
    const res = await fetch(`${emu.origin}/__admin/requests`);
    const { requests } = (await res.json()) as {
      requests: { rpcMethod?: string; tool?: string; arguments?: Record<string, unknown> }[];
    };
    const search = requests.find((r) => r.tool === 'knowledge_search');
    assert.deepEqual(search?.arguments, { query: '水稻 分蘖期 施肥', topK: 3 });
    const image = requests.find((r) => r.tool === 'crop_growth_recognize');
    assert.equal(image?.arguments?.['imageBase64'], `${'A'.repeat(64)}… (${LOGGED_STRING_MAX + 1} characters)`);
    assert.equal(
      requests.find((r) => r.rpcMethod === 'initialize' && 'arguments' in r),
      undefined,
    );
  });

  it('now freezes the clock at that instant until now: null', async () => {
    const sid = await openSession(emu);
    await emu.admin({ now: '2026-10-25T21:06:13+08:00' });
    const a = await callOk(emu, sid, 'get_current_time', {});
    const b = await callOk(emu, sid, 'get_current_time', {});
    assert.equal(a.datetime, '2026-10-25 21:06:13');
    assert.deepEqual(a, b);
    await emu.admin({ now: null });
    const c = await callOk(emu, sid, 'get_current_time', {});
    assert.notEqual(c.datetime, '2026-10-25 21:06:13');
  });

  it('/__admin refuses other methods', async () => {
    const r = await fetch(`${emu.origin}/__admin`, { method: 'PUT' });
    assert.equal(r.status, 405);
    await r.text();
  });
});

describe('emulator token bucket (--rate-limit N/s)', () => {
  it('answers 429 with Retry-After once the bucket is empty, and refills with time', async () => {
    let now = 1000;
    const emu = await start({ rateLimitPerSec: 2, monotonicNow: () => now });
    const init = async (): Promise<Response> => {
      const r = await post(emu, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      });
      await r.text();
      return r;
    };
    try {
      assert.equal((await init()).status, 200);
      assert.equal((await init()).status, 200);
      const limited = await init();
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('retry-after'), '1');
      now += 500; // half a second refills one token at 2/s
      assert.equal((await init()).status, 200);
      assert.equal((await init()).status, 429);
    } finally {
      await emu.close();
    }
  });
});
