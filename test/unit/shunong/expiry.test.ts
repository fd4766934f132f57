import { strict as assert } from 'node:assert';
import type { ToolInfo } from '../../../src/shunong';
import { observingFetch, rpcMethod, useEndpoint } from './helpers';

describe('shunong client: expired sessions', () => {
  const ep = useEndpoint();
  const make = ep.client;

  it('mid-use: 404 Session not found → one re-initialize (new session), tool list refreshed, call retried once', async () => {
    const c = make();
    const heard: ToolInfo[][] = [];
    await c.connect();
    c.onDidChangeTools((t) => heard.push(t));
    const before = ep.emu.requests.length;
    await ep.emu.admin({ expireSessions: true });
    const r = await c.knowledgeSearch({ query: '茶树修剪技术要点' });
    assert.ok(r.sources.length > 0);
    const after = ep.emu.requests.slice(before).map((x) => [x.rpcMethod, x.status]);
    assert.deepEqual(after, [
      ['tools/call', 404],
      ['initialize', 200],
      ['notifications/initialized', 202],
      ['tools/list', 200],
      ['tools/call', 200],
    ]);
    const sids = new Set(ep.emu.requests.filter((x) => x.status === 200).map((x) => x.sessionId));
    assert.equal(sids.size, 2);
    // the next call is warm again on the new session
    const n = ep.emu.requests.length;
    await c.currentTime();
    assert.equal(ep.emu.requests.length - n, 1);
  });

  it('inside connect: a 404 on notifications/initialized → initialized again with a new transport and Client', async () => {
    let armed = true;
    const obs = observingFetch({
      after: async (s) => {
        if (armed && rpcMethod(s) === 'initialize') {
          armed = false;
          await ep.emu.admin({ expireSessions: true });
        }
      },
    });
    const c = make({ fetch: obs.fetch });
    const tools = await c.connect();
    assert.equal(tools.length, 4);
    assert.deepEqual(
      ep.emu.requests.map((x) => [x.rpcMethod, x.status]),
      [
        ['initialize', 200],
        ['notifications/initialized', 404],
        ['initialize', 200],
        ['notifications/initialized', 202],
        ['tools/list', 200],
      ],
    );
    const n = ep.emu.requests.length;
    await c.currentTime();
    assert.equal(ep.emu.requests.length - n, 1, 'the recovered session is kept');
  });

  it('inside connect: a 404 on tools/list → initialized again', async () => {
    let armed = true;
    const obs = observingFetch({
      after: async (s) => {
        if (armed && rpcMethod(s) === 'notifications/initialized') {
          armed = false;
          await ep.emu.admin({ expireSessions: true });
        }
      },
    });
    const c = make({ fetch: obs.fetch });
    await c.connect();
    assert.deepEqual(
      ep.emu.requests.map((x) => [x.rpcMethod, x.status]),
      [
        ['initialize', 200],
        ['notifications/initialized', 202],
        ['tools/list', 404],
        ['initialize', 200],
        ['notifications/initialized', 202],
        ['tools/list', 200],
      ],
    );
  });

  it('a 400 naming the session id is an expiry too', async () => {
    // Drop the session header once: the endpoint answers 400 "Mcp-Session-Id header is required".
    let armed = false;
    const obs = observingFetch({
      mutate: (h, body) => {
        if (armed && body?.includes('"tools/call"')) {
          armed = false;
          h.delete('mcp-session-id');
        }
      },
    });
    const c = make({ fetch: obs.fetch });
    await c.connect();
    armed = true;
    const before = ep.emu.requests.length;
    await c.currentTime();
    assert.deepEqual(
      ep.emu.requests.slice(before).map((x) => [x.rpcMethod, x.status]),
      [
        ['tools/call', 400],
        ['initialize', 200],
        ['notifications/initialized', 202],
        ['tools/list', 200],
        ['tools/call', 200],
      ],
    );
  });

  it('concurrent calls during an expiry share one re-initialize (single flight)', async () => {
    const c = make();
    await c.connect();
    await ep.emu.admin({ expireSessions: true });
    const before = ep.emu.requests.length;
    const results = await Promise.all([
      c.knowledgeSearch({ query: '茶树修剪技术要点' }),
      c.knowledgeSearch({ query: '水稻分蘖期水分管理' }),
      c.currentTime(),
      c.weatherNow('成都'),
      c.weatherForecast('北京'),
    ]);
    assert.equal(results.length, 5);
    const after = ep.emu.requests.slice(before);
    assert.equal(after.filter((x) => x.rpcMethod === 'initialize').length, 1);
    assert.equal(after.filter((x) => x.rpcMethod === 'tools/call' && x.status === 404).length, 5);
    assert.equal(after.filter((x) => x.rpcMethod === 'tools/call' && x.status === 200).length, 5);
  });

  it('inside connect, expiring on every initialization: tried twice, noted once, then an error, not a loop', async () => {
    const obs = observingFetch({
      after: async (s) => {
        if (rpcMethod(s) === 'initialize') await ep.emu.admin({ expireSessions: true });
      },
    });
    const log: string[] = [];
    const c = make({ fetch: obs.fetch, log: (l) => log.push(l) });
    await assert.rejects(
      c.connect(),
      (e: Error & { kind?: string; status?: number }) =>
        e.kind === 'protocol' && e.message === 'The session expired again while initializing.' && e.status === 404,
    );
    assert.equal(ep.emu.requests.filter((x) => x.rpcMethod === 'initialize').length, 2);
    assert.deepEqual(
      log.filter((l) => l.startsWith('note: session expired')),
      ['note: session expired during initialization (HTTP 404); initializing again'],
    );
  });

  it('a session that expires again right after re-initializing is an error, not a loop', async () => {
    const obs = observingFetch({
      after: async (s) => {
        if (rpcMethod(s) === 'tools/list' && s.status === 200) await ep.emu.admin({ expireSessions: true });
      },
    });
    const c = make({ fetch: obs.fetch });
    await c.connect();
    await ep.emu.admin({ expireSessions: true });
    await assert.rejects(
      c.currentTime(),
      (e: Error & { kind?: string }) => e.kind === 'protocol' && /expired again/.test(e.message),
    );
    // the first session, then exactly one re-initialization; the call is tried on each, once
    assert.equal(ep.emu.requests.filter((x) => x.rpcMethod === 'initialize').length, 2);
    assert.deepEqual(
      ep.emu.requests.filter((x) => x.rpcMethod === 'tools/call').map((x) => x.status),
      [404, 404],
    );
  });
});
