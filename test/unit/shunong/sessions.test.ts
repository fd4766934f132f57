/**
 * The session pool's own rules (shunong/sessions.ts) against the local endpoint and a loopback
 * server that never answers: one session per key made once for concurrent callers, a caller's
 * abort that leaves no listener behind, a key change that retires the old session, close, and the
 * SDK's backstop timeout.
 */
import { strict as assert } from 'node:assert';
import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import {
  AuthError,
  ConfigurationError,
  InsecureEndpointError,
  TimeoutError,
  realScheduler,
  type Scheduler,
} from '../../../src/shunong';
import { ManualScheduler } from '../../support/manual-scheduler';
import { SessionPool, sdkTimeout } from '../../../src/shunong/sessions';
import { ToolCatalog } from '../../../src/shunong/tools';
import { loopback } from '../../support/loopback';
import { LOCAL_KEY, tick, useEndpoint } from './helpers';

function poolFor(
  url: string | undefined,
  configError?: InsecureEndpointError,
  scheduler: Scheduler = realScheduler,
): SessionPool {
  return new SessionPool({
    endpoint: url ?? '',
    url: url === undefined ? undefined : new URL(url),
    configError,
    baseFetch: (input, init) => globalThis.fetch(input, init),
    log: undefined,
    scheduler,
    timeoutMs: 30_000,
    clientInfo: { name: 'sessions-test', version: '0' },
    tools: new ToolCatalog(url ?? '', undefined, undefined, 30_000),
  });
}

const listeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

describe('shunong/sessions: the SDK’s backstop timeout', () => {
  it('is a minute beyond the call’s own budget, and never beyond what a timer can hold (2^31 − 1 ms)', () => {
    assert.equal(sdkTimeout(20_000), 80_000);
    assert.equal(sdkTimeout(2_147_483_647), 2_147_483_647);
  });
});

describe('shunong/sessions: the pool against the local endpoint', () => {
  const OTHER_KEY = 'sk_other_key_2';
  const ep = useEndpoint({ keys: [LOCAL_KEY, OTHER_KEY] });
  let pool: SessionPool;
  afterEach(() => pool.close());

  it('concurrent callers with one key share one session, made once; a later caller gets it too; no listener is left', async () => {
    pool = poolFor(ep.emu.url);
    const signal = new AbortController().signal;
    const [a, b] = await Promise.all([pool.acquire(LOCAL_KEY, signal), pool.acquire(LOCAL_KEY, signal)]);
    assert.equal(a, b);
    assert.equal(await pool.acquire(LOCAL_KEY, signal), a);
    assert.equal(listeners(signal), 0);
  });

  it('a new pool is not closing', () => {
    pool = poolFor(ep.emu.url);
    assert.equal(pool.closed, false);
  });

  it('a session that cannot be made rejects the caller and leaves no listener on its signal', async () => {
    pool = poolFor(ep.emu.url);
    const signal = new AbortController().signal;
    await assert.rejects(pool.acquire('sk_not_a_key', signal), AuthError);
    assert.equal(listeners(signal), 0);
  });

  it('two keys asked at once: each gets a session of its own; the first, superseded, is retired', async () => {
    pool = poolFor(ep.emu.url);
    const signal = new AbortController().signal;
    const [a, b] = await Promise.all([pool.acquire(LOCAL_KEY, signal), pool.acquire(OTHER_KEY, signal)]);
    assert.deepEqual([a.key, b.key], [LOCAL_KEY, OTHER_KEY]);
    assert.equal(a.retired, true);
    assert.equal(b.retired, false);
    assert.equal(await pool.acquire(OTHER_KEY, signal), b, 'the last asked is the current one');
  });

  it('another key: a new session, and the old one is retired', async () => {
    pool = poolFor(ep.emu.url);
    const signal = new AbortController().signal;
    const first = await pool.acquire(LOCAL_KEY, signal);
    const second = await pool.acquire(OTHER_KEY, signal);
    assert.equal(second.key, OTHER_KEY);
    assert.equal(first.retired, true);
    assert.equal(second.retired, false);
  });

  it('recovering from a stale session: the stale one is retired and a new one made; a stale one no longer current is only retired', async () => {
    pool = poolFor(ep.emu.url);
    const signal = new AbortController().signal;
    const stale = await pool.acquire(LOCAL_KEY, signal);
    const fresh = await pool.recover(stale, LOCAL_KEY, signal);
    assert.notEqual(fresh, stale);
    assert.equal(stale.retired, true);
    assert.equal(await pool.recover(stale, LOCAL_KEY, signal), fresh, 'the current session stays');
  });

  it('close: the pool is closed while it closes, open again after, and a later call makes a new session', async () => {
    pool = poolFor(ep.emu.url);
    const signal = new AbortController().signal;
    const before = await pool.acquire(LOCAL_KEY, signal);
    const closing = pool.close();
    assert.equal(pool.closed, true);
    await closing;
    assert.equal(pool.closed, false);
    assert.equal(before.retired, true, 'every session was closed');
    const after = await pool.acquire(LOCAL_KEY, signal);
    assert.notEqual(after, before);
  });

  it('close while a session is being made: once closed, that session is retired and its connection closed', async () => {
    pool = poolFor(ep.emu.url);
    const opening = pool.acquire(LOCAL_KEY, new AbortController().signal);
    await pool.close();
    const made = await opening;
    assert.equal(made.retired, true);
    assert.equal(made.client.transport, undefined, 'its transport is closed');
    assert.notEqual(await pool.acquire(LOCAL_KEY, new AbortController().signal), made);
  });
});

describe('shunong/sessions: a caller’s abort', () => {
  it('an endpoint that never answers: the caller’s abort rejects with its reason, and its listener is gone', async () => {
    const server = await loopback();
    server.routes.set('/mcp', () => undefined);
    const pool = poolFor(`${server.origin}/mcp`);
    try {
      const ctl = new AbortController();
      const waiting = pool.acquire(LOCAL_KEY, ctl.signal);
      assert.equal(listeners(ctl.signal), 1);
      const reason = new Error('the author cancelled');
      ctl.abort(reason);
      await assert.rejects(waiting, (e: unknown) => e === reason);
      assert.equal(listeners(ctl.signal), 0);
      const gone = AbortSignal.abort(new Error('already'));
      await assert.rejects(pool.acquire(LOCAL_KEY, gone), /already/);
    } finally {
      await Promise.all([pool.close(), server.close()]);
    }
  });

  it('an initialization that never ends gives up after the client’s timeout, on the client’s clock', async () => {
    const server = await loopback();
    server.routes.set('/mcp', () => undefined);
    const clock = new ManualScheduler(0);
    const pool = poolFor(`${server.origin}/mcp`, undefined, clock);
    try {
      const waiting = pool.acquire(LOCAL_KEY, new AbortController().signal);
      while (clock.pending === 0) await tick();
      await clock.advance(29_999);
      let settled = false;
      void waiting.then(
        () => (settled = true),
        () => (settled = true),
      );
      await tick();
      assert.equal(settled, false, 'still waiting 1 ms before its timeout');
      await clock.advance(1);
      await assert.rejects(waiting, (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 30_000);
    } finally {
      await Promise.all([pool.close(), server.close()]);
    }
  });

  it('a start superseded by another key’s, then failing, leaves the newer start in place: the next caller of that key joins it', async () => {
    const server = await loopback();
    const held: (() => void)[] = [];
    const refuse = (res: ServerResponse) => () =>
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid api key"}');
    let released = false;
    server.routes.set('/mcp', (req, res) => {
      if (released || req.headers.authorization === 'Bearer sk_first') refuse(res)();
      else held.push(refuse(res));
    });
    const pool = poolFor(`${server.origin}/mcp`);
    const signal = new AbortController().signal;
    try {
      const first = pool.acquire('sk_first', signal);
      const second = pool.acquire('sk_second', signal);
      await assert.rejects(first);
      const again = pool.acquire('sk_second', signal);
      while (held.length === 0) await tick();
      released = true;
      for (const answer of held) answer();
      await Promise.all([assert.rejects(second), assert.rejects(again)]);
      const asked = server.seen.filter((r) => r.headers.authorization === 'Bearer sk_second');
      assert.equal(asked.length, 1, 'one start for the second key, joined by its next caller');
    } finally {
      await Promise.all([pool.close(), server.close()]);
    }
  });

  it('no endpoint URL: the client’s configuration error, or one saying there is no endpoint', async () => {
    const insecure = new InsecureEndpointError('http://example.com/mcp');
    const signal = new AbortController().signal;
    await assert.rejects(poolFor(undefined, insecure).acquire(LOCAL_KEY, signal), (e: unknown) => e === insecure);
    await assert.rejects(
      poolFor(undefined).acquire(LOCAL_KEY, signal),
      (e: unknown) => e instanceof ConfigurationError && e.message === 'No endpoint.',
    );
  });
});
