/**
 * The REST chat completions client (`POST {base}/chat/completions`), fetch + zod, no vscode.
 * Same key handling and typed failures as the MCP client: the key is read per call from a
 * {@link KeyProvider} and sent only as `Authorization: Bearer …` (never over plain http to a
 * non-loopback host unless allowed), a missing key fails before any request, 401 → {@link AuthError},
 * 429 / 5xx → backoff honouring Retry-After (the MCP side's {@link backoffDelay} and policy) then
 * {@link RateLimitedError} / {@link ServerError}, timeout → {@link TimeoutError}, the caller's
 * AbortSignal → {@link CancelledError}; messages are redacted of the key.
 */
import {
  AuthError,
  CancelledError,
  endpointError,
  NetworkError,
  ProtocolError,
  RateLimitedError,
  redactSecret,
  ResultShapeError,
  ServerError,
  ShunongError,
  TimeoutError,
} from '../errors';
import { endpointProblem, isLoopbackHost } from '../endpoint';
import { parseRetryAfter } from '../fetch';
import { readKey } from '../key';
import { backoffDelay, retryPolicy, type RetryPolicy } from '../retry';
import { realScheduler } from '../../time/scheduler';
import type { KeyProvider, RetryOptions, Scheduler } from '../types';
import { restBaseUrl, type ChatRequest } from './request';
import { chatChunkSchema, chatCompletionSchema, type Annotation, type ChatUsage } from './schemas';
import { sseData } from './sse';

/** Options of {@link ShunongRestClient}. */
export interface RestClientOptions {
  /** The MCP endpoint the REST base derives from (`…/mcp` → `…/api/v1`). */
  endpoint: string;
  /** Overrides the derived base URL. */
  baseUrl?: string | undefined;
  getKey: KeyProvider;
  /** Default `globalThis.fetch` (VS Code patches it for proxies). */
  fetch?: typeof fetch | undefined;
  /** Non-streamed: the whole call; streamed: until the reply starts and then between two chunks. Default 60000. */
  timeoutMs?: number | undefined;
  allowInsecureHttp?: boolean | undefined;
  retry?: RetryOptions | undefined;
  scheduler?: Scheduler | undefined;
  random?: (() => number) | undefined;
  /** One line per HTTP request (method, URL, status, ms); never the key. */
  log?: ((line: string) => void) | undefined;
}

/** Options of one call. */
export interface RestCallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/** An answer, streamed or not. */
export interface ChatResult {
  id: string;
  content: string;
  annotations: Annotation[];
  usage: ChatUsage | undefined;
  finishReason: string | null;
}

/** What a stream yields: content deltas, then one `done` with the whole answer. */
export type ChatStreamEvent = { type: 'delta'; content: string } | { type: 'done'; result: ChatResult };

export const DEFAULT_REST_TIMEOUT_MS = 60_000;

const CHAT = 'chat.completions';

/** A pending timer on the scheduler that aborts a controller with a {@link TimeoutError}. */
class Deadline {
  private timer: AbortController | undefined;
  constructor(
    private readonly scheduler: Scheduler,
    private readonly ctl: AbortController,
    private readonly ms: number,
  ) {}
  arm(): void {
    this.disarm();
    const t = new AbortController();
    this.timer = t;
    this.scheduler.sleep(this.ms, t.signal).then(
      () => this.ctl.abort(new TimeoutError(this.ms)),
      () => undefined,
    );
  }
  disarm(): void {
    this.timer?.abort();
    this.timer = undefined;
  }
}

/** The REST client. One per endpoint + key source; stateless between calls. */
export class ShunongRestClient {
  /** e.g. `https://ai.agriwis.com/api/v1`. */
  readonly baseUrl: string;
  private readonly configError: ShunongError | undefined;
  private readonly baseFetch: typeof fetch;
  private readonly policy: RetryPolicy;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  private readonly timeoutMs: number;

  /** Builds a client; no request is made until the first call. */
  constructor(private readonly options: RestClientOptions) {
    this.baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.policy = retryPolicy(options.retry);
    this.scheduler = options.scheduler ?? realScheduler;
    this.random = options.random ?? Math.random;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REST_TIMEOUT_MS;
    let base = '';
    try {
      base = (options.baseUrl ?? restBaseUrl(options.endpoint)).replace(/\/+$/, '');
    } catch {
      // not a URL: reported as invalid below
    }
    const problem = endpointProblem(base, options.allowInsecureHttp === true);
    this.baseUrl = base;
    this.configError = problem && endpointError(problem, options.endpoint);
  }

  /** True when the base URL is a loopback host (the local endpoint: its usage figures are estimates). */
  get isLocal(): boolean {
    try {
      return isLoopbackHost(new URL(this.baseUrl).hostname);
    } catch {
      return false;
    }
  }

  /** A non-streamed completion, validated. */
  async complete(request: ChatRequest, o: RestCallOptions = {}): Promise<ChatResult> {
    const { ctl, key, deadline, cleanup } = await this.begin(o);
    try {
      deadline.arm();
      const res = await this.post({ ...request, stream: false }, key, ctl);
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new ResultShapeError(CHAT, '(body)', 'is not JSON');
      }
      const parsed = chatCompletionSchema.safeParse(json);
      if (!parsed.success) throw shapeError(parsed.error.issues[0]!);
      const choice = parsed.data.choices[0]!;
      return {
        id: parsed.data.id,
        content: choice.message.content ?? '',
        annotations: choice.message.annotations ?? [],
        usage: parsed.data.usage,
        finishReason: choice.finish_reason,
      };
    } catch (e) {
      throw this.fail(e, ctl, key);
    } finally {
      cleanup();
    }
  }

  /**
   * A streamed completion: yields content deltas as they arrive, then `done` with the whole answer
   * (content reassembled, annotations and usage from the final chunk). Breaking out of the loop,
   * the caller's signal or the idle timeout abort the HTTP request. A stream that ends before
   * `data: [DONE]` fails with {@link NetworkError} `SSE_CUT` (not retried: words were already shown).
   */
  async *stream(request: ChatRequest, o: RestCallOptions = {}): AsyncGenerator<ChatStreamEvent, void, undefined> {
    const { ctl, key, deadline, cleanup } = await this.begin(o);
    let replying = false;
    try {
      deadline.arm();
      const res = await this.post({ ...request, stream: true }, key, ctl);
      replying = true;
      if (!res.body) throw new ProtocolError('The stream reply has no body.', res.status);
      let id = '';
      let content = '';
      const annotations: Annotation[] = [];
      let usage: ChatUsage | undefined;
      let finishReason: string | null = null;
      let done = false;
      deadline.arm();
      for await (const data of sseData(res.body)) {
        deadline.arm();
        if (data.trim() === '[DONE]') {
          done = true;
          break;
        }
        let json: unknown;
        try {
          json = JSON.parse(data);
        } catch {
          throw new ResultShapeError(CHAT, '(chunk)', 'is not JSON');
        }
        const chunk = chatChunkSchema.safeParse(json);
        if (!chunk.success) throw shapeError(chunk.error.issues[0]!);
        id ||= chunk.data.id;
        if (chunk.data.usage) usage = chunk.data.usage;
        for (const c of chunk.data.choices) {
          if (c.index !== 0) continue;
          if (c.delta.annotations) annotations.push(...c.delta.annotations);
          if (c.finish_reason) finishReason = c.finish_reason;
          const piece = c.delta.content;
          if (piece) {
            content += piece;
            yield { type: 'delta', content: piece };
          }
        }
      }
      if (!done) throw new NetworkError('The reply stream ended before data: [DONE].', 'SSE_CUT');
      deadline.disarm();
      yield { type: 'done', result: { id, content, annotations, usage, finishReason } };
    } catch (e) {
      const err = this.fail(e, ctl, key);
      if (replying && err instanceof NetworkError && err.code !== 'SSE_CUT')
        throw new NetworkError(`The reply stream was cut (${err.code ?? 'network'}).`, 'SSE_CUT');
      throw err;
    } finally {
      cleanup();
    }
  }

  /** Checks configuration and key, joins the caller's signal, sets the deadline. */
  private async begin(
    o: RestCallOptions,
  ): Promise<{ ctl: AbortController; key: string; deadline: Deadline; cleanup: () => void }> {
    if (this.configError) throw this.configError;
    if (o.signal?.aborted) throw new CancelledError();
    const key = await readKey(this.options.getKey);
    const ctl = new AbortController();
    const onAbort = (): void => ctl.abort(new CancelledError());
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: an abort event fires once at most, and the listener is removed when the call settles
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const deadline = new Deadline(this.scheduler, ctl, o.timeoutMs ?? this.timeoutMs);
    return {
      ctl,
      key,
      deadline,
      cleanup: () => {
        deadline.disarm();
        o.signal?.removeEventListener('abort', onAbort);
        // Stryker disable next-line ConditionalExpression,StringLiteral: aborting an aborted controller does nothing, and this reason ends a request whose reader has left: it reaches no one
        if (!ctl.signal.aborted) ctl.abort(new CancelledError('The reply was no longer read.'));
      },
    };
  }

  /** POSTs with retries of 429 and 5xx (backoff, Retry-After honoured, bounded by the policy); returns a 2xx. */
  private async post(body: ChatRequest, key: string, ctl: AbortController): Promise<Response> {
    const url = `${this.baseUrl}/chat/completions`;
    const started = this.scheduler.now();
    for (let attempt = 1; ; attempt++) {
      const t0 = this.scheduler.now();
      const res = await this.baseFetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: body.stream ? 'text/event-stream' : 'application/json',
        },
        body: JSON.stringify(body),
        signal: ctl.signal,
      });
      this.options.log?.(`POST ${url} ${body.stream ? 'stream ' : ''}${res.status} ${this.scheduler.now() - t0}ms`);
      if (res.ok) return res;
      const text = redactSecret(await res.text().catch(() => ''), key);
      if (res.status === 401) throw new AuthError(/missing/i.test(text) ? 'missing-key' : 'invalid-key');
      if (res.status === 429 || res.status >= 500) {
        const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), this.scheduler.now());
        const give = (): ShunongError =>
          res.status === 429
            ? new RateLimitedError(retryAfterMs, attempt)
            : new ServerError(res.status, attempt, errorMessage(text));
        if (attempt >= this.policy.maxAttempts) throw give();
        const wait = backoffDelay(this.policy, attempt, retryAfterMs, this.random);
        if (this.scheduler.now() - started + wait > this.policy.maxTotalMs) throw give();
        this.options.log?.(`note: HTTP ${res.status}; retry ${attempt + 1}/${this.policy.maxAttempts} in ${wait}ms`);
        await this.scheduler.sleep(wait, ctl.signal);
        continue;
      }
      throw new ProtocolError(`The endpoint answered HTTP ${res.status}: ${errorMessage(text)}`, res.status);
    }
  }

  /** Maps anything thrown to a typed failure; an abort becomes its reason (cancel or timeout). */
  private fail(e: unknown, ctl: AbortController, key: string): ShunongError {
    if (e instanceof ShunongError) return e;
    // What an abort breaks (the fetch, the body) is not ours: its reason is. Undefined until aborted.
    const reason: unknown = ctl.signal.reason;
    if (reason instanceof ShunongError) return reason;
    const code = (e as { cause?: { code?: unknown } })?.cause?.code;
    const c = typeof code === 'string' ? code : undefined;
    if (e instanceof TypeError)
      return new NetworkError(`Cannot reach ${this.baseUrl}${c ? ` (${c})` : ''}.`, c ?? 'FETCH_FAILED');
    return new NetworkError(redactSecret(e instanceof Error ? e.message : String(e), key), c);
  }
}

function errorMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: unknown };
    if (typeof j.error === 'string') return j.error;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: an error that is no object has no string message either, and null's would throw into the catch below, with the same answer
    if (j.error && typeof j.error === 'object' && typeof (j.error as { message?: unknown }).message === 'string')
      return (j.error as { message: string }).message;
  } catch {
    // not JSON
  }
  return text.slice(0, 300);
}

/** The first issue of a failed parse (zod reports at least one). */
function shapeError(issue: { path: PropertyKey[]; message: string }): ResultShapeError {
  return new ResultShapeError(CHAT, issue.path.map(String).join('.'), issue.message);
}
