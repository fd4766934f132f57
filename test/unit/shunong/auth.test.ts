import { strict as assert } from 'node:assert';
import {
  AuthError,
  InsecureEndpointError,
  ShunongClient,
  isLoopbackHost,
  type CallEnvelope,
} from '../../../src/shunong';
import { SECRET_KEY, fakeScheduler, observingFetch, useEndpoint } from './helpers';

describe('shunong client: auth, and the key never leaks', () => {
  const ep = useEndpoint({ keys: [SECRET_KEY] });
  const make = ep.client;

  it('no key configured: AuthError missing-key without any request', async () => {
    for (const getKey of [() => undefined, () => '', async () => '  ']) {
      const c = make({ getKey });
      await assert.rejects(
        c.connect(),
        (e: AuthError) => e instanceof AuthError && e.kind === 'auth' && e.reason === 'missing-key' && e.status === 401,
      );
    }
    assert.equal(ep.emu.requests.length, 0);
  });

  it('a key provider that fails: a missing key naming only the kind of failure; a key with blanks around it is trimmed', async () => {
    const failing = make({
      getKey: () => {
        throw new TypeError(`keychain locked for ${SECRET_KEY}`);
      },
    });
    const before = ep.emu.requests.length;
    await assert.rejects(
      failing.connect(),
      (e: AuthError) =>
        e instanceof AuthError &&
        e.reason === 'missing-key' &&
        e.message === 'The API key could not be read (TypeError).',
    );
    assert.equal(ep.emu.requests.length, before, 'nothing is sent');
    const obs = observingFetch();
    await make({ fetch: obs.fetch, getKey: () => `  ${SECRET_KEY}\n` }).connect();
    assert.ok(obs.seen.every((s) => s.headers.get('authorization') === `Bearer ${SECRET_KEY}`));
  });

  it('a rejected key: AuthError invalid-key from the 401 body, never retried', async () => {
    const c = make({ getKey: () => 'sk_wrong_one' });
    await assert.rejects(
      c.knowledgeSearch({ query: '茶树' }),
      (e: AuthError) => e.reason === 'invalid-key' && !e.message.includes('sk_wrong_one'),
    );
    assert.deepEqual(
      ep.emu.requests.map((r) => r.status),
      [401],
    );
  });

  it('"missing api key" in the 401 body is told apart from "invalid api key"', async () => {
    // The client always sends the key; strip the header on the way out to make the endpoint say "missing".
    const obs = observingFetch({ mutate: (h) => h.delete('authorization') });
    const c = make({ fetch: obs.fetch });
    await assert.rejects(c.connect(), (e: AuthError) => e.reason === 'missing-key');
  });

  it('Authorization: Bearer <key> is read from getKey at request time', async () => {
    const obs = observingFetch();
    let calls = 0;
    const c = make({
      fetch: obs.fetch,
      getKey: () => {
        calls++;
        return SECRET_KEY;
      },
    });
    await c.connect();
    await c.currentTime();
    assert.ok(calls >= 2);
    assert.ok(obs.seen.every((s) => s.headers.get('authorization') === `Bearer ${SECRET_KEY}`));
  });

  it('refuses to send the key over http:// to a non-loopback host (no request at all)', async () => {
    let fetched = 0;
    const c = new ShunongClient({
      endpoint: 'http://platform.example/mcp',
      getKey: () => SECRET_KEY,
      fetch: (() => {
        fetched++;
        return Promise.reject(new Error('must not be called'));
      }) as typeof fetch,
    });
    await assert.rejects(
      c.connect(),
      (e: InsecureEndpointError) => e instanceof InsecureEndpointError && e.kind === 'insecure',
    );
    await assert.rejects(c.callTool('get_current_time'), InsecureEndpointError);
    assert.equal(fetched, 0);
    assert.ok(
      isLoopbackHost('127.0.0.1') &&
        isLoopbackHost('localhost') &&
        isLoopbackHost('[::1]') &&
        !isLoopbackHost('10.0.0.1'),
    );
  });

  it('the key appears in no error, log line or envelope, whatever happens', async () => {
    const captured: string[] = [];
    const logs: string[] = [];
    const sched = fakeScheduler(100_000);
    const c = make({
      log: (l) => logs.push(l),
      scheduler: sched,
      timeoutMs: 600_000,
      retry: { maxAttempts: 2, baseMs: 1 },
    });
    const keep = (x: unknown): void => {
      captured.push(
        x instanceof Error ? `${x.name} ${x.message} ${x.stack ?? ''} ${JSON.stringify(x)}` : JSON.stringify(x),
      );
    };
    const tryIt = async (p: Promise<unknown>): Promise<void> => {
      try {
        keep(await p);
      } catch (e) {
        keep(e);
      }
    };
    await tryIt(c.knowledgeSearch({ query: '茶树修剪技术要点' }));
    await tryIt(c.knowledgeSearch({ query: '火箭发动机燃烧室设计' }));
    await tryIt(c.callTool('knowledge_search', {}, { raiseOnError: false }));
    await tryIt(c.callTool('nothing_like_it', {}, { raiseOnError: false }));
    await ep.emu.admin({ rateLimit: { next: 5, retryAfterSec: 1 } });
    await tryIt(c.currentTime());
    await ep.emu.admin({ rateLimit: null, fail5xx: { next: 5, status: 500 } });
    await tryIt(c.currentTime());
    await ep.emu.admin({ fail5xx: null, expireSessions: true });
    await tryIt(c.currentTime());
    await ep.emu.admin({ cutSse: { next: 2 } });
    await tryIt(c.currentTime());
    const wrong = make({ getKey: () => `${SECRET_KEY}x`, log: (l) => logs.push(l) });
    await tryIt(wrong.connect());
    await tryIt(wrong.callTool('get_current_time', undefined, { raiseOnError: false }) as Promise<CallEnvelope>);
    assert.ok(logs.length > 10);
    assert.ok(logs.some((l) => l.includes('authorization: ***')));
    for (const text of [...captured, ...logs]) assert.ok(!text.includes(SECRET_KEY), `leak: ${text.slice(0, 200)}`);
  });
});
