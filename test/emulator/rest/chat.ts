/**
 * `POST /api/v1/chat/completions` on the local endpoint: OpenAI-compatible chat completions with the
 * platform's own tool types (`agriwis_knowledge_search`, `agriwis_weather_search`), non-streaming
 * (`chat.completion`) and streaming (`chat.completion.chunk` events over SSE, `data: [DONE]` last;
 * annotations and usage ride on the final chunk). Same keys and 401 bodies as `/mcp`; the admin
 * controls `rateLimit`, token bucket, `fail5xx`, `latencyMs` and `cutSse` apply here too, and
 * `latencyMs` also paces every stream chunk (to stage a slow stream).
 *
 * Generation time is simulated honestly: the answer is "generated" at `tokensPerSec` tokens per
 * second (default 400), so a non-streamed reply arrives when the whole answer would have been
 * written and a stream delivers its words as they would be written.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import type { AdminControls, TokenBucket } from '../admin';
import type { EmulatorClock } from '../clock';
import { checkBearer, delay, readBody, sendJson } from '../http';
import type { RetrievalEngine } from '../retrieval';
import { compose, type Composition, type PlatformTool } from './composer';
import { countTokens, tokenPieces } from './tokens';

/** The route. */
export const CHAT_PATH = '/api/v1/chat/completions';
/** Default simulated generation speed. */
export const DEFAULT_TOKENS_PER_SEC = 400;
/** Tokens per streamed content chunk. */
export const TOKENS_PER_CHUNK = 4;

const knowledgeTool = z.strictObject({
  type: z.literal('agriwis_knowledge_search'),
  query: z.string().trim().min(1),
  kb_code: z.string().trim().min(1).optional(),
  top_k: z.number().int().min(1).max(20).optional(),
  min_score: z.number().min(0).max(1).optional(),
  use_rerank: z.boolean().optional(),
});
const weatherTool = z.strictObject({
  type: z.literal('agriwis_weather_search'),
  location: z.string().trim().min(1),
  date: z.enum(['now', 'forecast']).optional(),
  unit: z.enum(['celsius', 'fahrenheit']).optional(),
});
/** Custom functions may be declared; the composer never calls them. */
const functionTool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1) }),
});
const tool = z.discriminatedUnion('type', [knowledgeTool, weatherTool, functionTool]);
const content = z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]);

/** The request body (unknown OpenAI fields such as `temperature` are accepted and ignored). */
export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(['system', 'user', 'assistant', 'tool', 'developer']),
        content: content.nullable().optional(),
      }),
    )
    .min(1),
  tools: z.array(tool).optional(),
  tool_choice: z.union([z.enum(['auto', 'none', 'required']), z.looseObject({ type: z.string() })]).optional(),
  stream: z.boolean().optional(),
});

/** What the route needs from the server. */
export interface ChatDeps {
  keys: Set<string>;
  controls: AdminControls;
  bucket: TokenBucket | null;
  engine: RetrievalEngine;
  clock: EmulatorClock;
  tokensPerSec: number;
}

function openAiError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
): void {
  sendJson(res, status, { error: { message, type, param, code } });
}

function textOf(c: z.infer<typeof content> | null | undefined): string {
  if (c == null) return '';
  if (typeof c === 'string') return c;
  return c.map((p) => p.text ?? '').join('');
}

/** Handles one request to {@link CHAT_PATH}. */
export async function handleChatCompletions(
  req: IncomingMessage,
  res: ServerResponse,
  deps: ChatDeps,
  rec: { tool?: string },
): Promise<void> {
  if (!checkBearer(req, res, deps.keys)) return;
  if (req.method !== 'POST') return openAiError(res, 405, 'Method not allowed: use POST.', 'invalid_request_error');
  const forced = deps.controls.takeRateLimit();
  if (forced !== null) return sendJson(res, 429, { error: 'too many requests' }, { 'retry-after': String(forced) });
  const wait = deps.bucket?.take() ?? null;
  if (wait !== null) return sendJson(res, 429, { error: 'too many requests' }, { 'retry-after': String(wait) });
  const failStatus = deps.controls.takeFail5xx();
  if (failStatus !== null) return sendJson(res, failStatus, { error: STATUS_CODES[failStatus] ?? 'server error' });
  if (deps.controls.latencyMs > 0) await delay(deps.controls.latencyMs);
  if (!String(req.headers['content-type'] ?? '').includes('application/json')) {
    return openAiError(res, 415, 'Content-Type must be application/json.', 'invalid_request_error');
  }
  let body: unknown;
  try {
    body = JSON.parse((await readBody(req)).toString('utf8'));
  } catch {
    return openAiError(res, 400, 'The request body is not valid JSON.', 'invalid_request_error');
  }
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue
      ? issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('')
      : null;
    return openAiError(
      res,
      400,
      `Invalid request: ${issue ? `${param}: ${issue.message}` : 'bad body'}`,
      'invalid_request_error',
      param,
      'invalid_value',
    );
  }
  const request = parsed.data;
  const platformTools = (request.tools ?? []).filter(
    (t): t is z.infer<typeof knowledgeTool> | z.infer<typeof weatherTool> => t.type !== 'function',
  ) as PlatformTool[];
  rec.tool = platformTools.map((t) => t.type).join(',') || 'chat';
  const choice = typeof request.tool_choice === 'string' ? request.tool_choice : 'auto';
  const messages = request.messages.map((m) => ({ role: m.role, content: textOf(m.content) }));
  const result: Composition = compose({ engine: deps.engine, clock: deps.clock }, messages, platformTools, choice);
  if (!result.ok) return openAiError(res, 400, result.message, 'invalid_request_error', result.param, result.code);
  const id = `chatcmpl-${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  const created = Math.floor(deps.clock.nowMs() / 1000);
  const msPerToken = 1000 / Math.max(1, deps.tokensPerSec);
  let closed = false;
  res.on('close', () => {
    closed = true;
  });

  if (request.stream !== true) {
    await delay(Math.round(result.usage.completion_tokens * msPerToken));
    if (closed) return;
    return sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model: request.model,
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: { role: 'assistant', content: result.content, annotations: result.annotations, tool_calls: null },
        },
      ],
      usage: result.usage,
    });
  }

  const cut = deps.controls.takeCutSse();
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (data: unknown): void => {
    res.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null,
    extra: Record<string, unknown> = {},
  ): unknown => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: request.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });
  send(chunk({ role: 'assistant', content: '' }, null));
  const pieces = tokenPieces(result.content, TOKENS_PER_CHUNK);
  for (const [i, piece] of pieces.entries()) {
    await delay(Math.max(Math.round(countTokens(piece) * msPerToken), deps.controls.latencyMs));
    if (closed) return;
    if (cut && i >= Math.floor(pieces.length / 2)) {
      res.destroy();
      return;
    }
    send(chunk({ content: piece }, null));
  }
  if (closed) return;
  send(chunk({ annotations: result.annotations }, 'stop', { usage: result.usage }));
  res.end('data: [DONE]\n\n');
}
