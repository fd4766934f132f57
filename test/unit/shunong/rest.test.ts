/** The REST chat completions client against the local endpoint over real loopback HTTP. */
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AuthError,
  CancelledError,
  InsecureEndpointError,
  InvalidArgumentsError,
  NetworkError,
  RateLimitedError,
  ServerError,
  ShunongRestClient,
  TimeoutError,
  chatRequest,
  isKnowledgeCitation,
  isWeatherCitation,
  knowledgeTool,
  matchCitation,
  restBaseUrl,
  sentencesOf,
  sseData,
  summaryPrefix,
  weatherTool,
  type ChatResult,
} from '../../../src/shunong';
import { SECRET_KEY, fakeScheduler, until, useEndpoint } from './helpers';

const QUESTION = '水稻分蘖期应该如何管理水层？';
const REQUEST = chatRequest(QUESTION, {
  knowledge: { query: '水稻分蘖期水分管理', topK: 5, minScore: 0.5, useRerank: true },
  weather: { location: '成都', date: 'forecast' },
});

function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
}

async function collect(it: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('REST client: request building', () => {
  it('builds the knowledge tool with snake_case fields, only those given, within the documented ranges', () => {
    assert.deepEqual(knowledgeTool({ query: ' 水稻分蘖期水分管理 ' }), {
      type: 'agriwis_knowledge_search',
      query: '水稻分蘖期水分管理',
    });
    assert.deepEqual(knowledgeTool({ query: 'q', kbCode: 'RICE_001', topK: 20, minScore: 0, useRerank: true }), {
      type: 'agriwis_knowledge_search',
      query: 'q',
      kb_code: 'RICE_001',
      top_k: 20,
      min_score: 0,
      use_rerank: true,
    });
    assert.throws(() => knowledgeTool({ query: 'q', topK: 21 }), InvalidArgumentsError);
    assert.throws(() => knowledgeTool({ query: 'q', topK: 2.5 }), InvalidArgumentsError);
    assert.throws(() => knowledgeTool({ query: 'q', minScore: 1.1 }), InvalidArgumentsError);
    assert.throws(() => knowledgeTool({ query: '  ' }), InvalidArgumentsError);
  });

  it('builds the weather tool and the whole request (model auto, tool_choice auto)', () => {
    assert.deepEqual(weatherTool({ location: '武汉', date: 'forecast', unit: 'celsius' }), {
      type: 'agriwis_weather_search',
      location: '武汉',
      date: 'forecast',
      unit: 'celsius',
    });
    assert.deepEqual(chatRequest('武汉明天天气怎么样？', { weather: { location: '武汉' } }, true), {
      model: 'auto',
      messages: [{ role: 'user', content: '武汉明天天气怎么样？' }],
      tool_choice: 'auto',
      tools: [{ type: 'agriwis_weather_search', location: '武汉' }],
      stream: true,
    });
  });

  it('the knowledge tool: each documented bound is inside, just past it is refused with a message naming it', () => {
    for (const topK of [1, 20]) assert.equal(knowledgeTool({ query: 'q', topK }).top_k, topK);
    for (const minScore of [0, 1]) assert.equal(knowledgeTool({ query: 'q', minScore }).min_score, minScore);
    const refused = (o: Partial<Parameters<typeof knowledgeTool>[0]>, message: string) =>
      assert.throws(
        () => knowledgeTool({ query: 'q', ...o }),
        (e: Error) => e instanceof InvalidArgumentsError && e.message === message,
        JSON.stringify(o),
      );
    refused({ topK: 0 }, 'top_k must be an integer from 1 to 20 (got 0).');
    refused({ topK: 21 }, 'top_k must be an integer from 1 to 20 (got 21).');
    refused({ topK: 2.5 }, 'top_k must be an integer from 1 to 20 (got 2.5).');
    refused({ minScore: -0.01 }, 'min_score must be between 0 and 1 (got -0.01).');
    refused({ minScore: 1.01 }, 'min_score must be between 0 and 1 (got 1.01).');
    refused({ minScore: Number.NaN }, 'min_score must be between 0 and 1 (got NaN).');
    refused({ query: ' ' }, 'agriwis_knowledge_search needs a non-empty query.');
  });

  it('the knowledge tool: a knowledge base code is trimmed, a blank one is left out; an explicit false rerank is sent', () => {
    assert.deepEqual(knowledgeTool({ query: 'q', kbCode: ' RICE_001 ', useRerank: false }), {
      type: 'agriwis_knowledge_search',
      query: 'q',
      kb_code: 'RICE_001',
      use_rerank: false,
    });
    assert.equal('kb_code' in knowledgeTool({ query: 'q', kbCode: '  ' }), false);
  });

  it('the weather tool: the location trimmed and required; date and unit only when given', () => {
    assert.deepEqual(weatherTool({ location: ' 武汉 ' }), { type: 'agriwis_weather_search', location: '武汉' });
    assert.throws(
      () => weatherTool({ location: '  ' }),
      (e: Error) => e instanceof InvalidArgumentsError && e.message === 'agriwis_weather_search needs a location.',
    );
  });

  it('the whole request: the question trimmed and required, the knowledge tool before the weather tool, no tools or stream unless asked', () => {
    assert.deepEqual(chatRequest(' 水稻 ', {}), {
      model: 'auto',
      messages: [{ role: 'user', content: '水稻' }],
      tool_choice: 'auto',
    });
    assert.deepEqual(
      chatRequest('q', { weather: { location: '武汉' }, knowledge: { query: '水稻' } }).tools?.map((t) => t.type),
      ['agriwis_knowledge_search', 'agriwis_weather_search'],
    );
    assert.throws(
      () => chatRequest(' \n', {}),
      (e: Error) => e instanceof InvalidArgumentsError && e.message === 'The question is empty.',
    );
  });

  it('derives the REST base from the MCP endpoint', () => {
    assert.equal(
      restBaseUrl('https://example.com/MCP//'),
      'https://example.com/api/v1',
      'any case, any trailing slashes',
    );
    assert.equal(
      restBaseUrl('https://example.com/mcpx'),
      'https://example.com/mcpx/api/v1',
      'only a whole /mcp segment',
    );
    assert.equal(restBaseUrl('https://example.com/base/'), 'https://example.com/base/api/v1');
    assert.equal(restBaseUrl('https://ai.agriwis.com/mcp'), 'https://ai.agriwis.com/api/v1');
    assert.equal(restBaseUrl('http://127.0.0.1:7331/mcp/'), 'http://127.0.0.1:7331/api/v1');
    assert.equal(restBaseUrl('https://example.com/shunong/mcp?x=1'), 'https://example.com/shunong/api/v1');
  });
});

describe('REST client: SSE line reader', () => {
  it('reads data lines across chunk boundaries, CRLF / CR / LF, multi-line data, comments', async () => {
    const got = await collect(
      sseData(
        streamOf([
          'data: {"a"',
          ':1}\r',
          '\n\r\n: comment\n',
          'event: x\ndata: one\ndata: two\n\ndata:[DONE]\r\r',
          'data: tail-without-blank-line',
        ]),
      ),
    );
    assert.deepEqual(got, ['{"a":1}', 'one\ntwo', '[DONE]']);
  });

  it('decodes UTF-8 split inside a character', async () => {
    const bytes = new TextEncoder().encode('data: 水稻\n\n');
    const parts = [bytes.slice(0, 7), bytes.slice(7)];
    const got = await collect(
      sseData(
        new ReadableStream({
          start(c) {
            for (const p of parts) c.enqueue(p);
            c.close();
          },
        }),
      ),
    );
    assert.deepEqual(got, ['水稻']);
  });

  it('a bare CR that ends the body still ends the last event', async () => {
    const got = await collect(sseData(streamOf(['data: one\r\r', 'data: [DONE]\r', '\r'])));
    assert.deepEqual(got, ['one', '[DONE]']);
    assert.deepEqual(await collect(sseData(streamOf(['data: [DONE]\r\r']))), ['[DONE]']);
  });

  it('gives the body back when done or left early: its reader is released, so the caller can cancel it', async () => {
    const whole = streamOf(['data: one\n\n']);
    await collect(sseData(whole));
    assert.equal(whole.locked, false);
    const early = streamOf(['data: one\n\n', 'data: two\n\n']);
    for await (const d of sseData(early)) {
      assert.equal(d, 'one');
      break;
    }
    assert.equal(early.locked, false);
    await early.cancel();
  });
});

describe('REST client: a streamed reply split at awkward places, over loopback HTTP', () => {
  /** A chunk of the reply's stream, as the platform sends one (CRLF line ends). */
  const event = (delta: Record<string, unknown>, finish: string | null): string =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\r\n\r\n`;
  const reply = new TextEncoder().encode(
    event({ role: 'assistant', content: '' }, null) +
      event({ content: '水稻分蘖' }, null) +
      ': keep-alive\r\n' +
      event({ content: '期浅水勤灌' }, null) +
      event({}, 'stop') +
      'data: [DONE]\r\n\r\n',
  );
  /** Byte offsets to cut the reply at: mid-line, inside a 3-byte character, between CR and LF. */
  function cuts(): number[] {
    const bytes = Buffer.from(reply);
    const inJson = bytes.indexOf('"object"');
    const inChar = bytes.indexOf(Buffer.from('分')) + 1;
    const inCrlf = bytes.indexOf('\r\n', bytes.indexOf('分')) + 1;
    const inBlank = bytes.indexOf('\r\n\r\n', bytes.indexOf('勤')) + 3;
    const inDone = bytes.indexOf('[DONE]') + 2;
    return [inJson, inChar, inCrlf, inBlank, inDone];
  }

  it('reassembles the deltas whatever the chunks, each cut arriving as its own read', async () => {
    const at = cuts();
    const pieces = [0, ...at].map((start, i) => reply.slice(start, at[i] ?? reply.length));
    let reads = 0;
    const readChunks: Uint8Array[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        void (async () => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (const [i, p] of pieces.entries()) {
            res.write(p);
            // Wait until the client has read this piece, so no two pieces arrive as one read.
            await until(() => reads > i);
          }
          res.end();
        })();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    // Observes the bytes the client reads (the real HTTP body, passed on unchanged).
    const countingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const res = await fetch(input, init);
      const counted = res.body!.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, c) {
            readChunks.push(chunk);
            reads++;
            c.enqueue(chunk);
          },
        }),
      );
      return new Response(counted, { status: res.status, headers: res.headers });
    };
    try {
      const port = (server.address() as AddressInfo).port;
      const c = new ShunongRestClient({
        endpoint: `http://127.0.0.1:${port}/mcp`,
        getKey: () => SECRET_KEY,
        fetch: countingFetch as typeof fetch,
      });
      const deltas: string[] = [];
      let done: ChatResult | undefined;
      for await (const ev of c.stream(REQUEST)) {
        if (ev.type === 'delta') deltas.push(ev.content);
        else done = ev.result;
      }
      assert.deepEqual(
        readChunks.map((b) => Buffer.from(b).toString('latin1')),
        pieces.map((b) => Buffer.from(b).toString('latin1')),
      );
      assert.deepEqual(deltas, ['水稻分蘖', '期浅水勤灌']);
      assert.equal(done?.content, '水稻分蘖期浅水勤灌');
      assert.equal(done?.finishReason, 'stop');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('REST client: against the local endpoint', function () {
  this.timeout(60_000);
  const ep = useEndpoint({ per: 'block', keys: [SECRET_KEY], restTokensPerSec: 1_000_000 });
  afterEach(() => ep.emu.admin({ rateLimit: null, latencyMs: 0, fail5xx: null, cutSse: null }));
  const client = ep.rest;

  it('non-streamed: parses content, annotations and usage', async () => {
    const c = client();
    assert.equal(c.baseUrl, `${ep.emu.origin}/api/v1`);
    assert.equal(c.isLocal, true);
    const r = await c.complete(REQUEST);
    assert.ok(r.content.length > 20);
    assert.equal(r.finishReason, 'stop');
    assert.ok(r.annotations.filter(isKnowledgeCitation).length > 0);
    assert.equal(r.annotations.filter(isWeatherCitation).length, 1);
    assert.equal(r.usage?.agriwis_knowledge_search_usage?.tool_usage, 1);
    assert.equal(r.usage?.agriwis_weather_search_usage?.tool_usage, 1);
  });

  it('streamed: deltas reassemble the same answer; annotations and usage come with done', async () => {
    const whole = await client().complete(REQUEST);
    const deltas: string[] = [];
    let done: ChatResult | undefined;
    for await (const ev of client().stream(REQUEST)) {
      if (ev.type === 'delta') deltas.push(ev.content);
      else done = ev.result;
    }
    assert.ok(deltas.length > 3);
    assert.ok(done);
    assert.equal(deltas.join(''), whole.content);
    assert.equal(done.content, whole.content);
    assert.deepEqual(done.annotations, whole.annotations);
    assert.deepEqual(done.usage, whole.usage);
  });

  it('converts knowledge citations to real passages through the MCP knowledge_search of their summary', async () => {
    const r = await client().complete(REQUEST);
    const mcp = ep.client();
    try {
      const cites = r.annotations.filter(isKnowledgeCitation);
      for (const k of cites) {
        const hits = await mcp.knowledgeSearch({
          query: summaryPrefix(k.summary),
          kbCode: k.kb_id,
          topK: 10,
          scoreThreshold: 0,
        });
        const s = matchCitation(k, hits.sources);
        assert.ok(s, `resolved ${k.title}`);
        assert.ok(s.content.startsWith(summaryPrefix(k.summary)));
        assert.equal(s.doc_name.replace(/\.[a-z]+$/, ''), k.title);
      }
      // every sentence of the answer lies in one of the resolved passages or in the weather summary
      const passages = await Promise.all(
        cites.map(
          async (k) =>
            matchCitation(
              k,
              (
                await mcp.knowledgeSearch({
                  query: summaryPrefix(k.summary),
                  kbCode: k.kb_id,
                  topK: 10,
                  scoreThreshold: 0,
                })
              ).sources,
            )!.content,
        ),
      );
      const weather = r.annotations.filter(isWeatherCitation).map((w) => w.summary);
      for (const s of sentencesOf(r.content))
        assert.ok(passages.some((p) => p.includes(s)) || weather.some((w) => s.includes(w)), s);
    } finally {
      await mcp.close();
    }
    assert.equal(
      matchCitation({ title: 'x', summary: '不存在的摘要……' }, [
        { doc_name: 'x.docx', chunk_index: 0, content: '别的内容' },
      ]),
      undefined,
    );
  });

  it('a missing key fails before any request; a rejected key is AuthError invalid-key; neither carries the key', async () => {
    const before = ep.emu.requests.length;
    await assert.rejects(
      client({ getKey: () => '  ' }).complete(REQUEST),
      (e: AuthError) => e instanceof AuthError && e.reason === 'missing-key',
    );
    assert.equal(ep.emu.requests.length, before);
    const wrong = `${SECRET_KEY}_WRONG`;
    await assert.rejects(client({ getKey: () => wrong }).complete(REQUEST), (e: AuthError) => {
      assert.ok(e instanceof AuthError);
      assert.equal(e.reason, 'invalid-key');
      assert.ok(!e.message.includes(wrong) && !JSON.stringify(e.details()).includes(wrong));
      return true;
    });
    const lines: string[] = [];
    await client({ log: (l) => lines.push(l) }).complete(REQUEST);
    assert.ok(lines.length > 0 && lines.every((l) => !l.includes(SECRET_KEY)));
  });

  it('refuses plain http to a non-loopback host', async () => {
    await assert.rejects(
      new ShunongRestClient({ endpoint: 'http://example.com/mcp', getKey: () => SECRET_KEY }).complete(REQUEST),
      InsecureEndpointError,
    );
  });

  it('429: backs off at least Retry-After (injected scheduler), then succeeds; gives up after the policy', async () => {
    await ep.emu.admin({ rateLimit: { next: 2, retryAfterSec: 3 } });
    const sched = fakeScheduler();
    const r = await client({ scheduler: sched, random: () => 0 }).complete(REQUEST);
    assert.ok(r.content.length > 0);
    assert.equal(sched.slept.length, 2);
    for (const ms of sched.slept) assert.ok(ms >= 3000, `waited ${ms} ms`);
    await ep.emu.admin({ rateLimit: { next: 5, retryAfterSec: 1 } });
    await assert.rejects(
      client({ scheduler: fakeScheduler(), retry: { maxAttempts: 3 } }).complete(REQUEST),
      (e: RateLimitedError) => e instanceof RateLimitedError && e.attempts === 3 && e.retryAfterMs === 1000,
    );
  });

  it('5xx: retried, then ServerError', async () => {
    await ep.emu.admin({ fail5xx: { next: 1, status: 503 } });
    assert.ok((await client({ scheduler: fakeScheduler() }).complete(REQUEST)).content);
    await ep.emu.admin({ fail5xx: { next: 4, status: 502 } });
    await assert.rejects(
      client({ scheduler: fakeScheduler() }).complete(REQUEST),
      (e: ServerError) => e instanceof ServerError && e.status === 502,
    );
  });

  it('times out (TimeoutError) and is cancelled mid-stream by the caller (CancelledError)', async () => {
    await ep.emu.admin({ latencyMs: 800 });
    await assert.rejects(client({ timeoutMs: 150 }).complete(REQUEST), TimeoutError);
    await ep.emu.admin({ latencyMs: 40 });
    const ctl = new AbortController();
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const ev of client().stream(REQUEST, { signal: ctl.signal })) {
          if (ev.type === 'delta') seen.push(ev.content);
          if (seen.length === 2) ctl.abort();
        }
      })(),
      CancelledError,
    );
    assert.equal(seen.length, 2);
  });

  it('a stream cut before [DONE] is a NetworkError SSE_CUT', async () => {
    await ep.emu.admin({ cutSse: { next: 1 } });
    await assert.rejects(
      (async () => {
        for await (const _ of client().stream(REQUEST)) void _;
      })(),
      (e: NetworkError) => e instanceof NetworkError && e.code === 'SSE_CUT',
    );
  });
});
