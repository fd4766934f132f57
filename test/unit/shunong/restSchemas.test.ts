/**
 * The shapes a REST chat reply is checked against (shunong/rest/schemas.ts), rule by rule: the two
 * citation types the platform documents, any other annotation kept as it comes, the usage figures,
 * and what a completion and a streamed chunk must carry.
 */
import { strict as assert } from 'node:assert';
import {
  annotationSchema,
  chatChunkSchema,
  chatCompletionSchema,
  isKnowledgeCitation,
  isWeatherCitation,
  usageSchema,
} from '../../../src/shunong/rest/schemas';

const knowledge = {
  type: 'knowledge_citation',
  kb_id: 'RICE_001',
  title: '水稻栽培',
  summary: '分蘖期浅水勤灌……',
  category: '栽培',
  score: 0.8,
};
const weather = {
  type: 'weather_citation',
  provider: 'qweather',
  location: '成都',
  date: '2026-12-04',
  summary: '小雨 6~12℃',
  updated_at: '2026-12-04T08:00:00+08:00',
};
const usage = { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 };
const completion = {
  id: 'cmpl-1',
  object: 'chat.completion',
  model: 'agriwis',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '浅水勤灌。' } }],
};
const chunk = {
  id: 'c1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: { content: '浅水' } }],
};

/** A copy of an annotation without one of its fields. */
function without(a: { type: string }, field: string): { type: string; [k: string]: unknown } {
  const copy: { type: string; [k: string]: unknown } = { ...a };
  delete copy[field];
  return copy;
}

/** The dotted path of the first issue, or undefined when the value passes. */
function refusal(
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } },
  v: unknown,
): string | undefined {
  const r = schema.safeParse(v);
  return r.success ? undefined : (r.error?.issues[0]?.path ?? []).map(String).join('.');
}

describe('shunong/rest/schemas: the shapes of a chat reply', () => {
  it('a knowledge citation: a knowledge entry with its id, title and summary; category and score optional', () => {
    assert.equal(isKnowledgeCitation(knowledge), true);
    const { category: _c, score: _s, ...bare } = knowledge;
    assert.equal(isKnowledgeCitation(bare), true);
    for (const field of ['kb_id', 'title', 'summary'])
      assert.equal(isKnowledgeCitation(without(knowledge, field)), false, `without ${field}`);
    assert.equal(isKnowledgeCitation({ ...knowledge, score: '0.8' }), false);
    assert.equal(isKnowledgeCitation({ ...knowledge, category: 1 }), false);
    assert.equal(isKnowledgeCitation(weather), false);
    assert.equal(isKnowledgeCitation({ ...weather, type: 'knowledge_citation' }), false);
  });

  it('a weather citation: provider, location, date, summary and update time, all required', () => {
    assert.equal(isWeatherCitation(weather), true);
    for (const field of ['provider', 'location', 'date', 'summary', 'updated_at'])
      assert.equal(isWeatherCitation(without(weather, field)), false, `without ${field}`);
    assert.equal(isWeatherCitation(knowledge), false);
    assert.equal(isWeatherCitation({ ...knowledge, type: 'weather_citation' }), false);
  });

  it('any annotation is kept as it comes, with every field; one without a type is refused', () => {
    for (const a of [knowledge, weather, { type: 'url_citation', url: 'https://example.com', extra: [1] }])
      assert.deepEqual(annotationSchema.parse({ ...a, vendor_field: true }), { ...a, vendor_field: true });
    assert.equal(annotationSchema.safeParse({ url: 'https://example.com' }).success, false);
    assert.equal(annotationSchema.safeParse({ type: 5 }).success, false);
  });

  it('usage: whole token counts from 0; the tool usage blocks optional, their counts whole from 0 too', () => {
    assert.deepEqual(usageSchema.parse({ ...usage, prompt_tokens: 0 }), { ...usage, prompt_tokens: 0 });
    for (const field of ['prompt_tokens', 'completion_tokens', 'total_tokens']) {
      assert.equal(refusal(usageSchema, { ...usage, [field]: -1 }), field);
      assert.equal(refusal(usageSchema, { ...usage, [field]: 1.5 }), field);
      const { [field as keyof typeof usage]: _gone, ...missing } = usage;
      assert.equal(refusal(usageSchema, missing), field);
    }
    const tools = {
      ...usage,
      agriwis_knowledge_search_usage: { tool_usage: 1, chunk_usage: 0 },
      agriwis_weather_search_usage: { tool_usage: 0 },
    };
    assert.deepEqual(usageSchema.parse(tools), tools);
    assert.deepEqual(usageSchema.parse({ ...usage, agriwis_knowledge_search_usage: { tool_usage: 2 } }), {
      ...usage,
      agriwis_knowledge_search_usage: { tool_usage: 2 },
    });
    for (const [block, value, path] of [
      ['agriwis_knowledge_search_usage', { tool_usage: -1 }, 'tool_usage'],
      ['agriwis_knowledge_search_usage', { tool_usage: 0.5 }, 'tool_usage'],
      ['agriwis_knowledge_search_usage', {}, 'tool_usage'],
      ['agriwis_knowledge_search_usage', { tool_usage: 1, chunk_usage: -1 }, 'chunk_usage'],
      ['agriwis_knowledge_search_usage', { tool_usage: 1, chunk_usage: 0.5 }, 'chunk_usage'],
      ['agriwis_weather_search_usage', { tool_usage: -1 }, 'tool_usage'],
      ['agriwis_weather_search_usage', { tool_usage: 0.5 }, 'tool_usage'],
      ['agriwis_weather_search_usage', {}, 'tool_usage'],
    ] as const)
      assert.equal(refusal(usageSchema, { ...usage, [block]: value }), `${block}.${path}`);
  });

  it('a completion: id, model and at least one choice of the assistant; content and finish reason may be null', () => {
    assert.deepEqual(chatCompletionSchema.parse(completion), completion);
    const nulls = {
      ...completion,
      choices: [
        {
          index: 0,
          finish_reason: null,
          message: { role: 'assistant', content: null, annotations: null, tool_calls: null },
        },
      ],
    };
    assert.deepEqual(chatCompletionSchema.parse(nulls), nulls);
    const full = {
      ...completion,
      usage,
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: { role: 'assistant', content: '', annotations: [weather], tool_calls: [{ id: 't' }] },
        },
      ],
    };
    assert.deepEqual(chatCompletionSchema.parse(full), full);
    const choice = completion.choices[0]!;
    for (const [value, path] of [
      [{ ...completion, id: 1 }, 'id'],
      [{ ...completion, object: 'chat.completion.chunk' }, 'object'],
      [{ ...completion, model: null }, 'model'],
      [{ ...completion, choices: [] }, 'choices'],
      [{ ...completion, choices: [{ ...choice, index: 0.5 }] }, 'choices.0.index'],
      [{ ...completion, choices: [{ ...choice, finish_reason: undefined }] }, 'choices.0.finish_reason'],
      [{ ...completion, choices: [{ ...choice, message: { role: 'user', content: 'x' } }] }, 'choices.0.message.role'],
      [{ ...completion, choices: [{ ...choice, message: { role: 'assistant' } }] }, 'choices.0.message.content'],
      [
        { ...completion, choices: [{ ...choice, message: { ...choice.message, annotations: [{ url: 'x' }] } }] },
        'choices.0.message.annotations.0',
      ],
      [
        { ...completion, choices: [{ ...choice, message: { ...choice.message, tool_calls: {} } }] },
        'choices.0.message.tool_calls',
      ],
      [{ ...completion, usage: { ...usage, total_tokens: -1 } }, 'usage.total_tokens'],
    ] as const)
      assert.equal(refusal(chatCompletionSchema, value), path, path);
  });

  it('a chunk: id and choices, each with its index and delta; role, content, annotations, finish reason and usage may be left out or null', () => {
    assert.deepEqual(chatChunkSchema.parse(chunk), chunk);
    assert.deepEqual(chatChunkSchema.parse({ ...chunk, choices: [] }), { ...chunk, choices: [] });
    const nulls = {
      ...chunk,
      usage: null,
      choices: [{ index: 0, delta: { content: null, annotations: null }, finish_reason: null }],
    };
    assert.deepEqual(chatChunkSchema.parse(nulls), nulls);
    const full = {
      ...chunk,
      usage,
      choices: [
        { index: 1, delta: { role: 'assistant', content: '', annotations: [knowledge] }, finish_reason: 'stop' },
      ],
    };
    assert.deepEqual(chatChunkSchema.parse(full), full);
    const choice = chunk.choices[0]!;
    for (const [value, path] of [
      [{ ...chunk, id: null }, 'id'],
      [{ ...chunk, object: 'chat.completion' }, 'object'],
      [{ ...chunk, choices: undefined }, 'choices'],
      [{ ...chunk, choices: [{ delta: {} }] }, 'choices.0.index'],
      [{ ...chunk, choices: [{ index: 1.5, delta: {} }] }, 'choices.0.index'],
      [{ ...chunk, choices: [{ index: 0 }] }, 'choices.0.delta'],
      [{ ...chunk, choices: [{ ...choice, delta: { role: null } }] }, 'choices.0.delta.role'],
      [{ ...chunk, choices: [{ ...choice, delta: { content: 5 } }] }, 'choices.0.delta.content'],
      [{ ...chunk, choices: [{ ...choice, delta: { annotations: [{}] } }] }, 'choices.0.delta.annotations.0'],
      [{ ...chunk, choices: [{ ...choice, finish_reason: 1 }] }, 'choices.0.finish_reason'],
      [{ ...chunk, usage: { ...usage, prompt_tokens: 0.5 } }, 'usage.prompt_tokens'],
    ] as const)
      assert.equal(refusal(chatChunkSchema, value), path, path);
  });
});
