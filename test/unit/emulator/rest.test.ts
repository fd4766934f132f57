/** The local `/api/v1/chat/completions`: shapes, streaming, auth, errors and the extractive composer's property. */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Emulator } from '../../emulator/server';
import { NOTICES, splitSentences, titleOf } from '../../emulator/rest/composer';
import { countTokens, tokenPieces } from '../../emulator/rest/tokens';
import { sharedEngine, start } from './helpers';

const KEY = 'sk_local_demo';

interface Completion {
  object: string;
  model: string;
  choices: {
    index: number;
    finish_reason: string;
    message: { role: string; content: string; annotations: Record<string, unknown>[]; tool_calls: null };
  }[];
  usage: Record<string, unknown> & { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

function chat(
  emu: Emulator,
  body: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${KEY}` },
): Promise<Response> {
  return fetch(`${emu.origin}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

function request(question: string, tools: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'auto', messages: [{ role: 'user', content: question }], tools, tool_choice: 'auto', ...extra };
}

const RICE = {
  type: 'agriwis_knowledge_search',
  query: '水稻分蘖期水分管理',
  top_k: 5,
  min_score: 0.5,
  use_rerank: true,
};

/** The passage a knowledge_citation names, found in the engine by the decisions table's rules. */
function passagesOf(c: Record<string, unknown>): string[] {
  const engine = sharedEngine();
  const prefix = String(c.summary).replace(/……$/, '');
  return engine.passages
    .filter((p) => engine.kbs[p.kb]?.code === c.kb_id && titleOf(p.docName) === c.title && p.content.startsWith(prefix))
    .map((p) => p.content);
}

describe('emulator: REST chat completions', function () {
  this.timeout(60_000);
  let emu: Emulator;
  before(async () => {
    emu = await start({ restTokensPerSec: 1_000_000 });
  });
  after(() => emu.close());
  afterEach(() => emu.admin({ rateLimit: null, latencyMs: 0, fail5xx: null, cutSse: null, now: null }));

  it('answers a non-streamed completion shaped like the page, citing real passages', async () => {
    const r = await chat(emu, request('水稻分蘖期应该如何管理水层？', [RICE]));
    assert.equal(r.status, 200);
    const c = (await r.json()) as Completion;
    assert.equal(c.object, 'chat.completion');
    assert.equal(c.model, 'auto');
    const choice = c.choices[0]!;
    assert.equal(choice.finish_reason, 'stop');
    assert.equal(choice.message.role, 'assistant');
    assert.equal(choice.message.tool_calls, null);
    assert.ok(choice.message.content.includes('分蘖'));
    assert.ok(choice.message.annotations.length > 0);
    for (const a of choice.message.annotations) {
      assert.equal(a.type, 'knowledge_citation');
      assert.deepEqual(Object.keys(a).sort(), ['category', 'kb_id', 'score', 'summary', 'title', 'type']);
      assert.equal(a.kb_id, 'RICE_001');
      assert.ok(
        typeof a.score === 'number' && a.score >= 0.5 && a.score <= 1,
        'score is a 0–1 similarity not below min_score',
      );
      assert.equal(passagesOf(a).length, 1, `the citation ${String(a.title)} names exactly one passage`);
    }
    const u = c.usage;
    assert.equal(u.total_tokens, u.prompt_tokens + u.completion_tokens);
    assert.equal(u.completion_tokens, countTokens(choice.message.content));
    const k = u.agriwis_knowledge_search_usage as { tool_usage: number; chunk_usage: number };
    assert.equal(k.tool_usage, 1);
    assert.ok(k.chunk_usage >= choice.message.annotations.length && k.chunk_usage <= 5);
    assert.equal(u.agriwis_weather_search_usage, undefined);
  });

  it('is reproducible: the same request gives the same answer', async () => {
    const a = (await (await chat(emu, request('水稻分蘖期应该如何管理水层？', [RICE]))).json()) as Completion;
    const b = (await (await chat(emu, request('水稻分蘖期应该如何管理水层？', [RICE]))).json()) as Completion;
    assert.equal(a.choices[0]!.message.content, b.choices[0]!.message.content);
    assert.deepEqual(a.choices[0]!.message.annotations, b.choices[0]!.message.annotations);
  });

  it('streams OpenAI chunks over SSE; annotations and usage arrive with the final chunk, then [DONE]', async () => {
    const body = request('水稻分蘖期应该如何管理水层？', [
      RICE,
      { type: 'agriwis_weather_search', location: '成都', date: 'now' },
    ]);
    const whole = (await (await chat(emu, body)).json()) as Completion;
    const r = await chat(emu, { ...body, stream: true });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = (await r.text()).split('\n\n').filter((e) => e.length > 0);
    assert.equal(events.at(-1), 'data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => {
      assert.ok(e.startsWith('data: '));
      return JSON.parse(e.slice(6)) as {
        object: string;
        choices: {
          delta: { content?: string; role?: string; annotations?: unknown[] };
          finish_reason: string | null;
        }[];
        usage?: unknown;
      };
    });
    assert.ok(chunks.length > 3);
    for (const c of chunks) assert.equal(c.object, 'chat.completion.chunk');
    assert.equal(chunks[0]!.choices[0]!.delta.role, 'assistant');
    const last = chunks.at(-1)!;
    assert.equal(last.choices[0]!.finish_reason, 'stop');
    assert.deepEqual(last.choices[0]!.delta.annotations, whole.choices[0]!.message.annotations);
    assert.deepEqual(last.usage, whole.usage);
    for (const c of chunks.slice(0, -1)) assert.equal(c.usage, undefined);
    assert.equal(chunks.map((c) => c.choices[0]!.delta.content ?? '').join(''), whole.choices[0]!.message.content);
  });

  it('adds a weather_citation whose summary is written in the answer', async () => {
    const c = (await (
      await chat(
        emu,
        request('武汉明天天气怎么样？', [
          { type: 'agriwis_weather_search', location: '武汉', date: 'forecast', unit: 'fahrenheit' },
        ]),
      )
    ).json()) as Completion;
    const m = c.choices[0]!.message;
    assert.equal(m.annotations.length, 1);
    const w = m.annotations[0]!;
    assert.deepEqual(Object.keys(w).sort(), ['date', 'location', 'provider', 'summary', 'type', 'updated_at']);
    assert.equal(w.type, 'weather_citation');
    assert.equal(w.location, '武汉');
    assert.match(String(w.date), /^\d{4}-\d{2}-\d{2}$/);
    assert.match(String(w.updated_at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
    assert.match(String(w.summary), /°F/);
    assert.ok(m.content.includes(String(w.summary)));
    assert.deepEqual(c.usage.agriwis_weather_search_usage, { tool_usage: 1 });
  });

  it('says plainly when nothing relevant was found, and cites nothing', async () => {
    const q = '量子计算机芯片光刻工艺';
    const c = (await (
      await chat(emu, request(q, [{ type: 'agriwis_knowledge_search', query: q, min_score: 0.9 }]))
    ).json()) as Completion;
    assert.equal(c.choices[0]!.message.content, NOTICES.noHit(q));
    assert.deepEqual(c.choices[0]!.message.annotations, []);
    assert.deepEqual(c.usage.agriwis_knowledge_search_usage, { tool_usage: 1, chunk_usage: 0 });
  });

  it('property: every sentence of the answer appears in a passage it cites', async () => {
    const crops = ['水稻', '小麦', '玉米', '大豆', '茶树', '油菜'];
    const topics = ['分蘖期', '水分管理', '病虫害防治', '施肥', '修剪', '播种', '除草', '收获', '育秧', '套作'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...crops),
        fc.subarray(topics, { minLength: 1, maxLength: 2 }),
        fc.integer({ min: 1, max: 8 }),
        fc.double({ min: 0, max: 0.95, noNaN: true }),
        fc.boolean(),
        async (crop, words, topK, minScore, rerank) => {
          const q = `${crop}${words.join('')}`;
          const r = await chat(
            emu,
            request(`${q}怎么做？`, [
              { type: 'agriwis_knowledge_search', query: q, top_k: topK, min_score: minScore, use_rerank: rerank },
            ]),
          );
          assert.equal(r.status, 200);
          const m = ((await r.json()) as Completion).choices[0]!.message;
          const cited = m.annotations.flatMap(passagesOf);
          assert.equal(cited.length, m.annotations.length, 'each citation names one passage');
          for (const s of splitSentences(m.content)) {
            if (m.annotations.length === 0) assert.equal(m.content, NOTICES.noHit(q));
            else
              assert.ok(
                cited.some((p) => p.includes(s)),
                `sentence not in a cited passage: ${s}`,
              );
          }
          for (const a of m.annotations) assert.ok((a.score as number) >= minScore - 1e-4);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("answers the MCP side's 401 bodies for a missing or unknown key", async () => {
    const missing = await chat(emu, request('x', []), {});
    assert.equal(missing.status, 401);
    assert.deepEqual(await missing.json(), { error: 'missing api key, header: Authorization: Bearer<api key>' });
    const invalid = await chat(emu, request('x', []), { authorization: 'Bearer sk_nope' });
    assert.equal(invalid.status, 401);
    assert.deepEqual(await invalid.json(), { error: 'invalid api key' });
  });

  it('rejects invalid tool parameters and unknown knowledge bases with 400 and an OpenAI error body', async () => {
    const big = await chat(emu, request('x', [{ ...RICE, top_k: 21 }]));
    assert.equal(big.status, 400);
    const e = (await big.json()) as { error: { message: string; type: string; param: string } };
    assert.equal(e.error.type, 'invalid_request_error');
    assert.equal(e.error.param, 'tools[0].top_k');
    const kb = await chat(emu, request('x', [{ ...RICE, kb_code: 'NOPE_001' }]));
    assert.equal(kb.status, 400);
    assert.match(((await kb.json()) as { error: { message: string } }).error.message, /知识库不存在或未开通: NOPE_001/);
    const date = await chat(
      emu,
      request('x', [{ type: 'agriwis_weather_search', location: '成都', date: '2026-01-01' }]),
    );
    assert.equal(date.status, 400);
  });

  it('honours the admin rate limit with Retry-After, after auth', async () => {
    await emu.admin({ rateLimit: { next: 1, retryAfterSec: 2 } });
    const r = await chat(emu, request('x', [RICE]));
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '2');
    await r.text();
    assert.equal((await chat(emu, request('x', [RICE]))).status, 200);
  });

  it('counts tokens by the documented rule and streams whole tokens', () => {
    assert.equal(countTokens('水稻 abc 12，x'), 6);
    assert.equal(countTokens(''), 0);
    const text = '水稻分蘖期 keep 3 cm 浅水层。\n\n第二段。';
    const pieces = tokenPieces(text, 4);
    assert.equal(pieces.join(''), text);
    for (const p of pieces) assert.ok(countTokens(p) <= 4);
  });
});
