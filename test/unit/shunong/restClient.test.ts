/**
 * The REST client's own rules (shunong/rest/client.ts) against a loopback server on 127.0.0.1 whose
 * every reply the test writes: what one request carries, how a reply is read, how each HTTP status
 * and transport failure is reported, the retries and their log, and the deadlines on the client's clock.
 */
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  AuthError,
  CancelledError,
  ConfigurationError,
  NetworkError,
  ProtocolError,
  RateLimitedError,
  ResultShapeError,
  ServerError,
  ShunongRestClient,
  TimeoutError,
  backoffDelay,
  chatRequest,
  retryPolicy,
  type ChatStreamEvent,
  type RestClientOptions,
} from '../../../src/shunong';
import { loopback } from '../../support/loopback';
import { ManualScheduler } from '../../support/manual-scheduler';
import { SECRET_KEY, fakeScheduler, until } from './helpers';

const PATH = '/api/v1/chat/completions';
const REQUEST = chatRequest('水稻分蘖期应该如何管理水层？', {});

const COMPLETION = {
  id: 'cmpl-1',
  object: 'chat.completion',
  model: 'agriwis',
  choices: [
    {
      index: 0,
      finish_reason: 'stop',
      message: {
        role: 'assistant',
        content: '浅水勤灌。',
        annotations: [{ type: 'url_citation', url: 'https://example.com/a' }],
      },
    },
  ],
  usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
};

/** One `chat.completion.chunk` event. */
function chunk(fields: { id?: string; choices?: unknown[]; usage?: unknown }): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [], ...fields })}\n\n`;
}

/** A choice of a chunk. */
function delta(d: Record<string, unknown>, finish: string | null = null, index = 0): unknown {
  return { index, delta: d, finish_reason: finish };
}

/** What the server received of one request. */
interface Received {
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

type Reply = (res: ServerResponse, req: IncomingMessage) => void;

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

const events =
  (...parts: string[]): Reply =>
  (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(parts.join(''));
  };

/** Drains a stream; the events it yielded, or what it threw. */
async function drain(it: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const ev of it) out.push(ev);
  return out;
}

describe('shunong/rest/client: the REST client against a loopback server', () => {
  let host: Awaited<ReturnType<typeof loopback>>;
  let received: Received[];
  beforeEach(async () => {
    host = await loopback();
    received = [];
  });
  afterEach(() => host.close());

  /** The server answers its n-th request with the n-th reply (the last one repeated). */
  function answer(...replies: Reply[]): void {
    host.routes.set(PATH, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        received.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
        const reply = replies[Math.min(received.length, replies.length) - 1];
        reply?.(res, req);
      });
    });
  }

  function client(o: Partial<RestClientOptions> = {}): ShunongRestClient {
    return new ShunongRestClient({ endpoint: `${host.origin}/mcp`, getKey: () => SECRET_KEY, ...o });
  }

  describe('a request', () => {
    it('a completion is one POST to the base’s /chat/completions: the key as a Bearer header, JSON both ways, stream false', async () => {
      answer(json(200, COMPLETION));
      const r = await client().complete(REQUEST);
      assert.deepEqual(r, {
        id: 'cmpl-1',
        content: '浅水勤灌。',
        annotations: [{ type: 'url_citation', url: 'https://example.com/a' }],
        usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
        finishReason: 'stop',
      });
      assert.equal(received.length, 1);
      const [one] = received;
      assert.equal(one?.headers.authorization, `Bearer ${SECRET_KEY}`);
      assert.equal(one?.headers['content-type'], 'application/json');
      assert.equal(one?.headers.accept, 'application/json');
      assert.deepEqual(one?.body, { ...REQUEST, stream: false });
    });

    it('a stream asks for an event stream (stream true)', async () => {
      answer(events('data: [DONE]\n\n'));
      await drain(client().stream(REQUEST));
      assert.equal(received[0]?.headers.accept, 'text/event-stream');
      assert.deepEqual(received[0]?.body, { ...REQUEST, stream: true });
    });

    it('the key is read at each call and sent trimmed; a key of blanks is no key, and nothing is sent', async () => {
      answer(json(200, COMPLETION));
      let key = `  ${SECRET_KEY}\n`;
      const c = client({ getKey: () => key });
      await c.complete(REQUEST);
      assert.equal(received[0]?.headers.authorization, `Bearer ${SECRET_KEY}`);
      key = ' \t';
      await assert.rejects(
        c.complete(REQUEST),
        (e: AuthError) => e instanceof AuthError && e.reason === 'missing-key' && e.message.startsWith('No Shunong'),
      );
      assert.equal(received.length, 1);
    });

    it('a key provider that fails: a missing key naming only the kind of failure, and nothing is sent', async () => {
      answer(json(200, COMPLETION));
      await assert.rejects(
        client({
          getKey: () => {
            throw new TypeError(`secret store locked: ${SECRET_KEY}`);
          },
        }).complete(REQUEST),
        (e: AuthError) =>
          e instanceof AuthError &&
          e.reason === 'missing-key' &&
          e.message === 'The API key could not be read (TypeError).',
      );
      await assert.rejects(
        client({
          getKey: () => Promise.reject('locked' as unknown as Error),
        }).complete(REQUEST),
        (e: AuthError) => e instanceof AuthError && e.message === 'The API key could not be read (error).',
      );
      assert.equal(received.length, 0);
    });

    it('a signal aborted before the call: CancelledError, and nothing is sent', async () => {
      answer(json(200, COMPLETION));
      await assert.rejects(client().complete(REQUEST, { signal: AbortSignal.abort() }), CancelledError);
      await assert.rejects(drain(client().stream(REQUEST, { signal: AbortSignal.abort() })), CancelledError);
      assert.equal(received.length, 0);
    });

    it('the call leaves no listener on the caller’s signal, whether it succeeds or fails', async () => {
      answer(json(200, COMPLETION), json(418, 'teapot'));
      const ctl = new AbortController();
      await client().complete(REQUEST, { signal: ctl.signal });
      assert.equal(getEventListeners(ctl.signal, 'abort').length, 0);
      await assert.rejects(client().complete(REQUEST, { signal: ctl.signal }), ProtocolError);
      assert.equal(getEventListeners(ctl.signal, 'abort').length, 0);
    });
  });

  describe('the endpoint and the base URL', () => {
    it('the base is given, or derived from the MCP endpoint; trailing slashes are dropped', () => {
      assert.equal(client().baseUrl, `${host.origin}/api/v1`);
      assert.equal(client({ baseUrl: 'https://example.com/v2//' }).baseUrl, 'https://example.com/v2');
      assert.equal(client({ endpoint: 'https://example.com/x/mcp/' }).baseUrl, 'https://example.com/x/api/v1');
    });

    it('an endpoint that is not a URL: a configuration failure naming it, and nothing is sent', async () => {
      answer(json(200, COMPLETION));
      const c = client({ endpoint: 'not a url' });
      assert.equal(c.baseUrl, '');
      assert.equal(c.isLocal, false);
      await assert.rejects(
        c.complete(REQUEST),
        (e: ConfigurationError) =>
          e instanceof ConfigurationError && e.message === 'The endpoint is not a valid URL: not a url',
      );
      assert.equal(received.length, 0);
    });

    it('local means a loopback host; plain http elsewhere only when allowed', async () => {
      assert.equal(client().isLocal, true);
      // no request leaves the machine: the fetch given answers itself
      const asked: string[] = [];
      const far = client({
        endpoint: 'http://example.com/mcp',
        allowInsecureHttp: true,
        fetch: (input) => {
          asked.push(String(input));
          return Promise.resolve(new Response(JSON.stringify(COMPLETION), { status: 200 }));
        },
      });
      assert.equal(far.isLocal, false);
      assert.equal(far.baseUrl, 'http://example.com/api/v1');
      assert.equal((await far.complete(REQUEST)).id, 'cmpl-1');
      assert.deepEqual(asked, ['http://example.com/api/v1/chat/completions']);
      assert.equal(client({ endpoint: 'https://example.com/mcp' }).isLocal, false);
    });
  });

  describe('a completion’s reply', () => {
    it('no content, no annotations and no usage read as an empty answer; a null finish reason stays null', async () => {
      answer(
        json(200, {
          ...COMPLETION,
          choices: [
            { index: 0, finish_reason: null, message: { role: 'assistant', content: null, annotations: null } },
          ],
          usage: undefined,
        }),
      );
      assert.deepEqual(await client().complete(REQUEST), {
        id: 'cmpl-1',
        content: '',
        annotations: [],
        usage: undefined,
        finishReason: null,
      });
    });

    it('a body that is not JSON, or not a completion: ResultShapeError naming the field', async () => {
      answer(json(200, '<html>'), json(200, { ...COMPLETION, choices: [] }), json(200, { ...COMPLETION, id: 7 }));
      await assert.rejects(
        client().complete(REQUEST),
        (e: ResultShapeError) =>
          e instanceof ResultShapeError &&
          e.message === 'Unexpected result from chat.completions: field "(body)" is not JSON',
      );
      await assert.rejects(
        client().complete(REQUEST),
        (e: ResultShapeError) => e instanceof ResultShapeError && e.field === 'choices' && /1/.test(e.problem),
      );
      await assert.rejects(
        client().complete(REQUEST),
        (e: ResultShapeError) =>
          e instanceof ResultShapeError &&
          e.tool === 'chat.completions' &&
          e.field === 'id' &&
          /string/.test(e.problem),
      );
    });
  });

  describe('HTTP failures', () => {
    it('401: a missing key when the body says so, a rejected key otherwise; never retried', async () => {
      answer(json(401, { error: 'Missing API key' }), json(401, { error: 'invalid api key' }));
      await assert.rejects(
        client().complete(REQUEST),
        (e: AuthError) => e instanceof AuthError && e.reason === 'missing-key',
      );
      await assert.rejects(
        client().complete(REQUEST),
        (e: AuthError) => e instanceof AuthError && e.reason === 'invalid-key',
      );
      assert.equal(received.length, 2);
    });

    it('another status: a protocol failure with the status and the error of the body, never retried', async () => {
      answer(json(404, { error: { message: 'no such model' } }));
      await assert.rejects(
        client().complete(REQUEST),
        (e: ProtocolError) =>
          e instanceof ProtocolError &&
          e.status === 404 &&
          e.message === 'The endpoint answered HTTP 404: no such model',
      );
      assert.equal(received.length, 1);
    });

    it('the error of a body: its error string, its error’s message, else its first 300 characters', async () => {
      const long = `${'x'.repeat(300)}TAIL`;
      answer(
        json(503, { error: 'overloaded' }),
        json(503, { error: { message: 'try later' } }),
        json(503, { error: { code: 1 } }),
        json(503, long),
        json(503, ''),
      );
      const once = { retry: { maxAttempts: 1 } };
      const messages: string[] = [];
      for (let i = 0; i < 5; i++)
        await assert.rejects(client(once).complete(REQUEST), (e: ServerError) => {
          assert.ok(e instanceof ServerError);
          assert.equal(e.status, 503);
          assert.equal(e.attempts, 1);
          messages.push(e.message);
          return true;
        });
      assert.deepEqual(messages, [
        'The Shunong endpoint failed with HTTP 503 after 1 attempt(s): overloaded',
        'The Shunong endpoint failed with HTTP 503 after 1 attempt(s): try later',
        'The Shunong endpoint failed with HTTP 503 after 1 attempt(s): {"error":{"code":1}}',
        `The Shunong endpoint failed with HTTP 503 after 1 attempt(s): ${'x'.repeat(300)}`,
        'The Shunong endpoint failed with HTTP 503 after 1 attempt(s).',
      ]);
    });

    it('a failure reply whose body breaks off reads as one without a body', async () => {
      host.routes.set(PATH, (req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(503, { 'content-length': '100' });
          res.write('{"error":');
          setImmediate(() => res.socket?.destroy());
        });
      });
      await assert.rejects(
        client({ retry: { maxAttempts: 1 } }).complete(REQUEST),
        (e: ServerError) =>
          e instanceof ServerError && e.message === 'The Shunong endpoint failed with HTTP 503 after 1 attempt(s).',
      );
    });

    it('the key never appears in what a body becomes', async () => {
      answer(json(418, { error: `bad key ${SECRET_KEY}` }));
      await assert.rejects(client().complete(REQUEST), (e: ProtocolError) => {
        assert.equal(e.message, 'The endpoint answered HTTP 418: bad key ***');
        return true;
      });
    });

    it('429 and 5xx are retried after the backoff, each request and each retry logged on the client’s clock', async () => {
      answer(json(429, {}, { 'retry-after': '2' }), json(500, {}), json(200, COMPLETION));
      const sched = fakeScheduler();
      const log: string[] = [];
      const r = await client({ scheduler: sched, random: () => 0, log: (l) => log.push(l) }).complete(REQUEST);
      assert.equal(r.id, 'cmpl-1');
      const policy = retryPolicy(undefined);
      const first = backoffDelay(policy, 1, 2000, () => 0);
      const second = backoffDelay(policy, 2, undefined, () => 0);
      assert.deepEqual(sched.slept, [first, second]);
      const url = `${host.origin}${PATH}`;
      assert.deepEqual(log, [
        `POST ${url} 429 0ms`,
        `note: HTTP 429; retry 2/4 in ${first}ms`,
        `POST ${url} 500 0ms`,
        `note: HTTP 500; retry 3/4 in ${second}ms`,
        `POST ${url} 200 0ms`,
      ]);
    });

    it('a stream’s request is logged as one', async () => {
      answer(events('data: [DONE]\n\n'));
      const log: string[] = [];
      await drain(client({ scheduler: fakeScheduler(), log: (l) => log.push(l) }).stream(REQUEST));
      assert.deepEqual(log, [`POST ${host.origin}${PATH} stream 200 0ms`]);
    });

    it('a Retry-After date is read on the client’s clock', async () => {
      const sched = fakeScheduler();
      const at = new Date(sched.now() + 5_000).toUTCString();
      answer(json(503, {}, { 'retry-after': at }), json(200, COMPLETION));
      assert.equal((await client({ scheduler: sched, random: () => 0 }).complete(REQUEST)).id, 'cmpl-1');
      assert.deepEqual(sched.slept, [5_000]);
    });

    it('the attempts are bounded: the last failure is reported with the attempts made and Retry-After', async () => {
      answer(json(429, {}, { 'retry-after': '1' }));
      await assert.rejects(
        client({ scheduler: fakeScheduler(), retry: { maxAttempts: 2 } }).complete(REQUEST),
        (e: RateLimitedError) => e instanceof RateLimitedError && e.attempts === 2 && e.retryAfterMs === 1000,
      );
      assert.equal(received.length, 2);
    });

    it('no retry starts that would end past the total budget: the failure is reported at once', async () => {
      answer(json(503, {}, { 'retry-after': '31' }));
      const sched = fakeScheduler();
      await assert.rejects(
        client({ scheduler: sched }).complete(REQUEST),
        (e: ServerError) => e instanceof ServerError && e.attempts === 1,
      );
      assert.deepEqual(sched.slept, []);
      assert.equal(received.length, 1);
    });

    it('a retry that ends exactly at the budget still starts', async () => {
      answer(json(503, {}, { 'retry-after': '1' }), json(200, COMPLETION));
      const sched = fakeScheduler();
      const c = client({ scheduler: sched, random: () => 0, retry: { maxTotalMs: 1000 } });
      assert.equal((await c.complete(REQUEST)).id, 'cmpl-1');
      assert.deepEqual(sched.slept, [1000]);
    });
  });

  describe('transport failures', () => {
    it('an endpoint that refuses the connection: a network failure naming the base and the system code', async () => {
      const c = client();
      await host.close();
      await assert.rejects(
        c.complete(REQUEST),
        (e: NetworkError) =>
          e instanceof NetworkError &&
          e.code === 'ECONNREFUSED' &&
          e.message === `Cannot reach ${host.origin}/api/v1 (ECONNREFUSED).`,
      );
      host = await loopback();
    });

    it('a fetch that fails without a system code: FETCH_FAILED; any other failure keeps its message, key masked', async () => {
      const base = `${host.origin}/api/v1`;
      await assert.rejects(
        client({ fetch: () => Promise.reject(new TypeError('fetch failed')) }).complete(REQUEST),
        (e: NetworkError) =>
          e instanceof NetworkError && e.code === 'FETCH_FAILED' && e.message === `Cannot reach ${base}.`,
      );
      await assert.rejects(
        client({
          fetch: () =>
            Promise.reject(Object.assign(new Error(`proxy said no to ${SECRET_KEY}`), { cause: { code: 'EPROXY' } })),
        }).complete(REQUEST),
        (e: NetworkError) => e instanceof NetworkError && e.code === 'EPROXY' && e.message === 'proxy said no to ***',
      );
      await assert.rejects(
        client({ fetch: () => Promise.reject(`down ${SECRET_KEY}` as unknown as Error) }).complete(REQUEST),
        (e: NetworkError) => e instanceof NetworkError && e.code === undefined && e.message === 'down ***',
      );
      await assert.rejects(
        client({ fetch: () => Promise.reject(undefined as unknown as Error) }).complete(REQUEST),
        (e: NetworkError) => e instanceof NetworkError && e.code === undefined && e.message === 'undefined',
      );
      await assert.rejects(
        client({ fetch: () => Promise.reject(new TypeError('fetch failed', { cause: { code: 7 } })) }).complete(
          REQUEST,
        ),
        (e: NetworkError) =>
          e instanceof NetworkError && e.code === 'FETCH_FAILED' && e.message === `Cannot reach ${base}.`,
      );
    });
  });

  describe('deadlines on the client’s clock', () => {
    it('a completion that does not come within the timeout: TimeoutError of that timeout (the client’s, or the call’s)', async () => {
      answer(() => undefined);
      const sched = new ManualScheduler();
      const c = client({ scheduler: sched, timeoutMs: 5000 });
      let settled = false;
      const p = assert.rejects(
        c.complete(REQUEST),
        (e: TimeoutError) => e instanceof TimeoutError && e.timeoutMs === 5000,
      );
      void p.finally(() => (settled = true));
      await until(() => received.length === 1);
      await sched.advance(4999);
      assert.equal(settled, false);
      await sched.advance(1);
      await p;
      const q = assert.rejects(
        c.complete(REQUEST, { timeoutMs: 70 }),
        (e: TimeoutError) => e instanceof TimeoutError && e.timeoutMs === 70,
      );
      await until(() => received.length === 2);
      await sched.advance(70);
      await q;
    });

    it('the default timeout is a minute', async () => {
      answer(() => undefined);
      const sched = new ManualScheduler();
      let settled = false;
      const p = assert.rejects(
        client({ scheduler: sched }).complete(REQUEST),
        (e: TimeoutError) => e instanceof TimeoutError && e.timeoutMs === 60_000,
      );
      void p.finally(() => (settled = true));
      await until(() => received.length === 1);
      await sched.advance(59_999);
      assert.equal(settled, false);
      await sched.advance(1);
      await p;
    });

    it('a stream’s timeout counts from its last chunk, not from the start; the whole answer may take longer', async () => {
      let write: (s: string) => void = () => undefined;
      let end: () => void = () => undefined;
      answer((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        write = (s) => res.write(s);
        end = () => res.end();
      });
      const sched = new ManualScheduler();
      const it = client({ scheduler: sched, timeoutMs: 1000 }).stream(REQUEST)[Symbol.asyncIterator]();
      const first = it.next();
      await until(() => received.length === 1);
      write(chunk({ choices: [delta({ content: '浅水' })] }));
      assert.deepEqual((await first).value, { type: 'delta', content: '浅水' });
      await sched.advance(600);
      const second = it.next();
      write(chunk({ choices: [delta({ content: '勤灌' })] }));
      assert.deepEqual((await second).value, { type: 'delta', content: '勤灌' });
      await sched.advance(600);
      const done = it.next();
      write('data: [DONE]\n\n');
      end();
      const last = await done;
      assert.equal(last.value?.type, 'done');
      assert.equal(sched.pending, 0, 'no deadline is left once the answer is done');
    });

    it('a stream’s timeout starts again when its reply begins', async () => {
      let reply: ServerResponse | undefined;
      const log: string[] = [];
      answer((res) => {
        reply = res;
      });
      const sched = new ManualScheduler();
      const c = client({ scheduler: sched, timeoutMs: 1000, log: (l) => log.push(l) });
      const it = c.stream(REQUEST)[Symbol.asyncIterator]();
      const first = it.next();
      await until(() => reply !== undefined);
      await sched.advance(600);
      reply?.writeHead(200, { 'content-type': 'text/event-stream' });
      reply?.flushHeaders();
      const write = (s: string): void => void reply?.write(s);
      await until(() => log.length === 1); // the reply has begun, at 600 ms
      await sched.advance(600);
      write(chunk({ choices: [delta({ content: '浅水' })] }));
      assert.deepEqual((await first).value, { type: 'delta', content: '浅水' });
      await it.return(undefined);
    });

    it('a stream silent for its timeout: TimeoutError', async () => {
      let write: (s: string) => void = () => undefined;
      answer((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        write = (s) => res.write(s);
      });
      const sched = new ManualScheduler();
      const it = client({ scheduler: sched, timeoutMs: 1000 }).stream(REQUEST)[Symbol.asyncIterator]();
      const first = it.next();
      await until(() => received.length === 1);
      write(chunk({ choices: [delta({ content: '浅水' })] }));
      await first;
      const second = assert.rejects(it.next(), (e: TimeoutError) => e instanceof TimeoutError && e.timeoutMs === 1000);
      await sched.advance(1000);
      await second;
    });
  });

  describe('a streamed reply', () => {
    it('the first chunk’s id, the deltas of the first choice only, every annotation, the last finish reason and usage', async () => {
      answer(
        events(
          chunk({ id: 'c1', choices: [delta({ role: 'assistant', content: '' })] }),
          chunk({ id: 'c2', choices: [delta({ content: '浅水' }), delta({ content: '另一个' }, 'stop', 1)] }),
          chunk({ choices: [delta({ annotations: [{ type: 'url_citation', n: 1 }] })] }),
          chunk({ choices: [delta({ content: '勤灌', annotations: [{ type: 'url_citation', n: 2 }] }, 'stop')] }),
          chunk({ choices: [delta({}, null)], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }),
          chunk({ choices: [], usage: null }),
          'data: [DONE]\n\n',
        ),
      );
      assert.deepEqual(await drain(client().stream(REQUEST)), [
        { type: 'delta', content: '浅水' },
        { type: 'delta', content: '勤灌' },
        {
          type: 'done',
          result: {
            id: 'c1',
            content: '浅水勤灌',
            annotations: [
              { type: 'url_citation', n: 1 },
              { type: 'url_citation', n: 2 },
            ],
            usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
            finishReason: 'stop',
          },
        },
      ]);
    });

    it('a reply of no chunk at all before [DONE] is an empty answer', async () => {
      answer(events('data:  [DONE] \n\n'));
      assert.deepEqual(await drain(client().stream(REQUEST)), [
        { type: 'done', result: { id: '', content: '', annotations: [], usage: undefined, finishReason: null } },
      ]);
    });

    it('a reply without a body: a protocol failure with its status', async () => {
      host.routes.set(PATH, (req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(204).end());
      });
      await assert.rejects(
        drain(client().stream(REQUEST)),
        (e: ProtocolError) =>
          e instanceof ProtocolError && e.status === 204 && e.message === 'The stream reply has no body.',
      );
    });

    it('a chunk that is not JSON, or not a chunk: ResultShapeError naming it', async () => {
      answer(events('data: {oops\n\n'), events(chunk({ choices: [delta({ content: 5 })] })));
      await assert.rejects(
        drain(client().stream(REQUEST)),
        (e: ResultShapeError) =>
          e instanceof ResultShapeError &&
          e.message === 'Unexpected result from chat.completions: field "(chunk)" is not JSON',
      );
      await assert.rejects(
        drain(client().stream(REQUEST)),
        (e: ResultShapeError) => e instanceof ResultShapeError && e.field === 'choices.0.delta.content',
      );
    });

    it('a reply that ends before [DONE]: NetworkError SSE_CUT saying so; one broken off mid-way: SSE_CUT with the cause', async () => {
      answer(events(chunk({ choices: [delta({ content: '浅水' })] })), (res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ choices: [delta({ content: '浅水' })] }));
        setImmediate(() => res.socket?.destroy());
      });
      await assert.rejects(
        drain(client().stream(REQUEST)),
        (e: NetworkError) =>
          e instanceof NetworkError &&
          e.code === 'SSE_CUT' &&
          e.message === 'The reply stream ended before data: [DONE].',
      );
      await assert.rejects(
        drain(client().stream(REQUEST)),
        (e: NetworkError) =>
          // the cause's system code named (undici's for a socket closed mid-body)
          e instanceof NetworkError &&
          e.code === 'SSE_CUT' &&
          /^The reply stream was cut \((UND_ERR_SOCKET|ECONNRESET)\)\.$/.test(e.message),
      );
    });

    it('a failure before the reply began is not a cut stream', async () => {
      const c = client();
      await host.close();
      await assert.rejects(
        drain(c.stream(REQUEST)),
        (e: NetworkError) => e instanceof NetworkError && e.code === 'ECONNREFUSED',
      );
      host = await loopback();
    });

    it('leaving the loop early aborts the HTTP request', async () => {
      let closed = false;
      answer((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ choices: [delta({ content: '浅水' })] }));
        res.on('close', () => {
          closed = true;
        });
      });
      for await (const ev of client().stream(REQUEST)) {
        assert.equal(ev.type, 'delta');
        break;
      }
      await until(() => closed);
    });
  });
});
