/**
 * `ShunongClient`: the one place the extension, the CLI and the tests talk to the platform.
 *
 * One MCP session per client (endpoint + key), created on first use and kept; re-initialized once,
 * single-flight, when the server forgets it; 429 / 5xx retried with backoff; every call bounded by a
 * timeout and cancellable; every result parsed by `parse.ts`.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  AuthError,
  CancelledError,
  InvalidArgumentsError,
  NetworkError,
  ProtocolError,
  ShunongError,
  TimeoutError,
  ToolReportedError,
  endpointError,
  redactSecret,
} from './errors';
import { endpointProblem } from './endpoint';
import { readKey } from './key';
import { classify, Retryable, SessionExpired } from './failures';
import { newRequestContext, type RequestContext } from './fetch';
import { parseToolResult, type RawToolResult } from './parse';
import { backoffDelay, retryPolicy, type RetryPolicy } from './retry';
import { SERVICE_NAME } from './resolve';
import { beijingDate } from '../time/beijing';
import { realScheduler } from '../time/scheduler';
import {
  CurrentTimeSchema,
  KnowledgeResultSchema,
  RecognitionResultSchema,
  WeatherForecastSchema,
  WeatherNowSchema,
  type CurrentTime,
  type KnowledgeResult,
  type RecognitionResult,
  type RecognitionType,
  type WeatherForecast,
  type WeatherNow,
} from './schemas';
import type { Session } from './session';
import { DISARMED, sdkTimeout, SessionPool } from './sessions';
import { ToolCatalog } from './tools';
import type {
  BatchCall,
  CallEnvelope,
  CallMetadata,
  CallOptions,
  KeyProvider,
  ProgressInfo,
  Scheduler,
  ShunongClientOptions,
  ToolInfo,
} from './types';

const DEFAULT_TIMEOUT_MS = 30_000;

/** Arguments of {@link ShunongClient.knowledgeSearch}. */
export interface KnowledgeSearchArgs {
  query: string;
  kbCode?: string;
  topK?: number;
  scoreThreshold?: number;
  useRerank?: boolean;
  mode?: 'hybrid' | 'vector';
}

/** Arguments of {@link ShunongClient.recognizeCrop}: an image URL or base64 (bare or data URI), and the model. */
export type RecognizeCropArgs =
  { imageUrl: string; recognitionType: RecognitionType } | { imageBase64: string; recognitionType: RecognitionType };

/** Arguments of {@link ShunongClient.currentTime}. */
export interface CurrentTimeArgs {
  format?: string;
  withSolarTerms?: boolean;
}

function parseArgs(args: Record<string, unknown> | string | undefined): Record<string, unknown> {
  if (args === undefined) return {};
  if (typeof args === 'string') {
    const t = args.trim();
    if (!t) return {};
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (e) {
      // JSON.parse throws nothing but a SyntaxError.
      throw new InvalidArgumentsError(`The arguments are not valid JSON: ${(e as SyntaxError).message}`);
    }
    if (!v || typeof v !== 'object' || Array.isArray(v))
      throw new InvalidArgumentsError('The arguments must be a JSON object.');
    return v as Record<string, unknown>;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new InvalidArgumentsError('The arguments must be an object.');
  return args;
}

/**
 * The Shunong platform client. Never imports `vscode`.
 *
 * @example
 * const client = new ShunongClient({ endpoint, getKey: () => process.env.SHUNONG_API_KEY });
 * const hits = await client.knowledgeSearch({ query: '茶树修剪技术要点' });
 */
export class ShunongClient {
  /** The endpoint this client talks to. */
  readonly endpoint: string;
  private readonly configError: ShunongError | undefined;
  private readonly getKey: KeyProvider;
  private readonly timeoutMs: number;
  private readonly policy: RetryPolicy;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  private readonly log: ((line: string) => void) | undefined;
  private readonly tools: ToolCatalog;
  private readonly pool: SessionPool;
  private lastKey: string | undefined;

  /** Builds a client; no request is made until the first call. */
  constructor(options: ShunongClientOptions) {
    this.endpoint = options.endpoint;
    this.getKey = options.getKey;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.policy = retryPolicy(options.retry);
    this.scheduler = options.scheduler ?? realScheduler;
    this.random = options.random ?? Math.random;
    this.log = options.log;
    const problem = endpointProblem(options.endpoint, options.allowInsecureHttp === true);
    this.configError = problem && endpointError(problem, options.endpoint);
    this.tools = new ToolCatalog(this.endpoint, options.toolStore, this.log, sdkTimeout(this.timeoutMs));
    this.pool = new SessionPool({
      endpoint: this.endpoint,
      url: problem ? undefined : new URL(options.endpoint.trim()),
      configError: this.configError,
      baseFetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      log: this.log,
      scheduler: this.scheduler,
      timeoutMs: this.timeoutMs,
      clientInfo: options.clientInfo ?? { name: 'shunong-vscode', version: '0.1.0' },
      tools: this.tools,
    });
  }

  // ---------------------------------------------------------------- public API

  /**
   * Opens the session (initialize + notifications/initialized, + tools/list unless a tool list is
   * cached) and returns the tools. Use it to validate a key: a rejected key throws {@link AuthError}.
   */
  async connect(signal?: AbortSignal): Promise<ToolInfo[]> {
    return this.run({ signal }, async (sig, key, budget, started) =>
      this.withRetry(sig, started, budget, async () => {
        await this.pool.acquire(key, sig);
        const cached = await this.tools.cached();
        if (cached) return cached;
        return this.attempt(key, sig, async (s, ctx) => this.tools.fetch(s, ctx));
      }),
    );
  }

  /** The tools (from memory, then the store, then the server); `refresh` always asks the server. */
  async listTools(options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<ToolInfo[]> {
    if (!options.refresh) {
      this.assertConfigured();
      const cached = await this.tools.cached();
      if (cached) return cached;
      return this.connect(options.signal);
    }
    return this.run({ signal: options.signal }, async (sig, key, budget, started) =>
      this.withRetry(sig, started, budget, async () =>
        this.attempt(key, sig, async (s, ctx) => this.tools.fetch(s, ctx)),
      ),
    );
  }

  /**
   * The generic call layer. `name` may be exact, service-prefixed (`shunong_knowledge_search`),
   * legacy dotted (`shunong.knowledge_search`), the server's method name (`knowledgeSearch`) or a
   * unique partial match (`knowledge`); `args` an object or a JSON string. Arguments the tool's
   * `inputSchema` does not declare are dropped (and logged).
   *
   * With `raiseOnError` (default true) failures throw typed {@link ShunongError}s; with false they
   * come back as an envelope with `success: false` and `message` = the reason.
   */
  async callTool(
    name: string,
    args?: Record<string, unknown> | string,
    options: CallOptions = {},
  ): Promise<CallEnvelope> {
    const started = this.scheduler.now();
    const traceId = randomUUID().replace(/-/g, '').slice(0, 16);
    let resolved: string | null = null;
    try {
      const input = parseArgs(args);
      const data = await this.invoke(name, input, undefined, options, (r) => {
        resolved = r;
      });
      const meta = this.meta(started, traceId, name, resolved);
      return {
        success: true,
        data,
        metadata: meta,
        message: `Tool '${resolved ?? name}' executed successfully in ${meta.executionTimeMs}ms`,
      };
    } catch (e) {
      if (options.raiseOnError !== false) throw e;
      const err = e instanceof ShunongError ? e : undefined;
      const message = redactSecret(
        err instanceof ToolReportedError ? err.reason : e instanceof Error ? e.message : String(e),
        this.lastKey,
      );
      return {
        success: false,
        data: { error: message, kind: err ? err.kind : 'internal', details: err ? err.details() : {} },
        metadata: this.meta(started, traceId, name, resolved),
        message,
      };
    }
  }

  /** Runs calls with at most `concurrency` (default 4) in flight; envelopes come back in call order, never thrown. */
  async callToolsBatch(calls: readonly BatchCall[], options: { concurrency?: number } = {}): Promise<CallEnvelope[]> {
    const limit = Math.max(1, Math.floor(options.concurrency ?? 4));
    const out: CallEnvelope[] = new Array<CallEnvelope>(calls.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      // Stryker disable next-line EqualityOperator: a step past the last finds no call and ends the loop
      while (next < calls.length) {
        const i = next++;
        const c = calls[i];
        if (!c) continue;
        out[i] = await this.callTool(c.name, c.args, { ...c.options, raiseOnError: false });
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, calls.length) }, worker));
    return out;
  }

  /**
   * knowledge_search. A miss (every candidate filtered, or empty `sources`) throws {@link KnowledgeMissError}
   * with the candidate counts, threshold and best score. Typed calls always throw (`raiseOnError` is ignored).
   */
  async knowledgeSearch(args: KnowledgeSearchArgs, o: CallOptions = {}): Promise<KnowledgeResult> {
    // An argument left undefined is not sent (the tool catalog's filter leaves it out).
    const input = {
      query: args.query,
      kbCode: args.kbCode,
      topK: args.topK,
      scoreThreshold: args.scoreThreshold,
      useRerank: args.useRerank,
      mode: args.mode,
    };
    return this.invoke('knowledge_search', input, KnowledgeResultSchema, o);
  }

  /** weather_search in real-time mode (`date: "now"`; `city` is the internal city code). */
  async weatherNow(location: string, o: CallOptions = {}): Promise<WeatherNow> {
    return this.invoke('weather_search', { location, date: 'now' }, WeatherNowSchema, o);
  }

  /** weather_search in forecast mode: 7 days starting today (`city` echoes `location`). */
  async weatherForecast(location: string, o: CallOptions = {}): Promise<WeatherForecast> {
    return this.invoke(
      'weather_search',
      { location, date: beijingDate(this.scheduler.now()) },
      WeatherForecastSchema,
      o,
    );
  }

  /**
   * Both weather_search modes for one place, side by side (a weather brief needs both). The first
   * failure is the one thrown, and it aborts the other call, so no request (or retry) of a failed
   * brief is still on its way when this settles.
   */
  async weather(location: string, o: CallOptions = {}): Promise<{ now: WeatherNow; forecast: WeatherForecast }> {
    const both = new AbortController();
    const user = o.signal;
    const onUserAbort = (): void => both.abort(); // each call reports a CancelledError of its own
    if (user?.aborted) {
      onUserAbort();
    } else {
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: an abort event fires once at most, and the listener is removed when the call settles
      user?.addEventListener('abort', onUserAbort, { once: true });
    }
    const call = { ...o, signal: both.signal };
    const abortOther = <T>(p: Promise<T>): Promise<T> =>
      p.catch((error: unknown) => {
        both.abort();
        throw error;
      });
    const runs = [
      abortOther(this.weatherNow(location, call)),
      abortOther(this.weatherForecast(location, call)),
    ] as const;
    try {
      const [now, forecast] = await Promise.all(runs);
      return { now, forecast };
    } catch (first) {
      await Promise.allSettled(runs);
      throw first;
    } finally {
      user?.removeEventListener('abort', onUserAbort);
    }
  }

  /** crop_growth_recognize with an explicit `recognitionType`. A failed image download throws {@link ImageDownloadError}. */
  async recognizeCrop(args: RecognizeCropArgs, o: CallOptions = {}): Promise<RecognitionResult> {
    const input: Record<string, unknown> =
      'imageUrl' in args
        ? { imageUrl: args.imageUrl, recognitionType: args.recognitionType }
        : { imageBase64: args.imageBase64, recognitionType: args.recognitionType };
    return this.invoke('crop_growth_recognize', input, RecognitionResultSchema, o);
  }

  /** get_current_time (China time, with the current and next solar terms). */
  async currentTime(args: CurrentTimeArgs = {}, o: CallOptions = {}): Promise<CurrentTime> {
    return this.invoke(
      'get_current_time',
      { format: args.format, withSolarTerms: args.withSolarTerms },
      CurrentTimeSchema,
      o,
    );
  }

  /** Subscribes to tool-list changes (listChanged, re-initialize, refresh); returns the unsubscribe function. */
  onDidChangeTools(listener: (tools: ToolInfo[]) => void): () => void {
    return this.tools.onDidChange(listener);
  }

  /** Closes every session. A later call opens a new one. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  // ---------------------------------------------------------------- internals

  private meta(started: number, traceId: string, toolName: string, resolved: string | null): CallMetadata {
    return {
      executionTimeMs: Math.max(0, Math.round(this.scheduler.now() - started)),
      traceId,
      toolName,
      resolvedToolName: resolved,
      serviceName: SERVICE_NAME,
    };
  }

  private assertConfigured(): void {
    if (this.configError) throw this.configError;
  }

  private async currentKey(): Promise<string> {
    const key = await readKey(this.getKey);
    this.lastKey = key;
    return key;
  }

  /** Checks the configuration and key, then runs `body` under the call's timeout and cancellation. */
  private async run<T>(
    options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined },
    body: (signal: AbortSignal, key: string, budgetMs: number, started: number) => Promise<T>,
  ): Promise<T> {
    this.assertConfigured();
    if (options.signal?.aborted) throw new CancelledError();
    const key = await this.currentKey();
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const started = this.scheduler.now();
    const ctl = new AbortController();
    const user = options.signal;
    const onUserAbort = (): void => ctl.abort(new CancelledError());
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: an abort event fires once at most, and the listener is removed when the call settles
    user?.addEventListener('abort', onUserAbort, { once: true });
    // Aborted while the key was read: the event has passed, so the listener would never hear it.
    if (user?.aborted) onUserAbort();
    const timer = new AbortController();
    this.scheduler.sleep(timeoutMs, timer.signal).then(
      () => ctl.abort(new TimeoutError(timeoutMs)),
      () => undefined,
    );
    try {
      return await body(ctl.signal, key, timeoutMs, started);
    } catch (e) {
      const reason: unknown = ctl.signal.reason; // undefined until the signal is aborted
      // Stryker disable next-line ConditionalExpression,BooleanLiteral: every path this signal ends (the session's opening, the list, the call, a backoff's wait) throws its reason already, and a tool's own failure or a rejected key comes from a reply read before it fired; this keeps that true for a path that would not
      if (reason instanceof ShunongError && !(e instanceof ToolReportedError) && !(e instanceof AuthError))
        throw reason;
      throw e;
    } finally {
      timer.abort(DISARMED);
      user?.removeEventListener('abort', onUserAbort);
    }
  }

  /** Retries {@link Retryable} failures with backoff, bounded in attempts and in total time. */
  private async withRetry<T>(signal: AbortSignal, started: number, budgetMs: number, op: () => Promise<T>): Promise<T> {
    let cutRetried = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await op();
      } catch (e) {
        if (!(e instanceof Retryable)) throw e;
        if (e.reason === 'cut') {
          // All four tools are documented as side-effect free: one immediate retry is safe.
          if (cutRetried) throw e.toPublic(attempt);
          cutRetried = true;
          this.log?.(`note: ${e.detail}; retrying once`);
          continue;
        }
        if (attempt >= this.policy.maxAttempts) throw e.toPublic(attempt);
        const delay = backoffDelay(this.policy, attempt, e.retryAfterMs, this.random);
        const elapsed = this.scheduler.now() - started;
        if (elapsed + delay > Math.min(this.policy.maxTotalMs, budgetMs)) throw e.toPublic(attempt);
        // only a cut has no status, and a cut was retried above
        this.log?.(`note: HTTP ${e.status!}; retry ${attempt + 1}/${this.policy.maxAttempts} in ${delay}ms`);
        await this.scheduler.sleep(delay, signal);
      }
    }
  }

  /**
   * Runs `fn` on the session for `key` with a fresh request context bound to the call's signal.
   * An expired session is re-initialized once (single flight, new transport and Client) and `fn` retried once.
   */
  private async attempt<T>(
    key: string,
    signal: AbortSignal,
    fn: (s: Session, ctx: RequestContext) => Promise<T>,
  ): Promise<T> {
    let session = await this.pool.acquire(key, signal);
    for (let round = 0; ; round++) {
      const s = session;
      const ctl = new AbortController();
      const onAbort = (): void => ctl.abort(signal.reason);
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: an abort event fires once at most, and the listener is removed when the call settles
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      const ctx = newRequestContext(ctl);
      let cut: string | undefined;
      ctx.onStreamCut = (why) => {
        // Our own abort (cancel / timeout) ends the stream too.
        // Stryker disable next-line ConditionalExpression,BlockStatement: the SDK rejects the call as the signal fires, a turn before the stream's end is checked, so such a cut is never read
        if (ctl.signal.aborted) return;
        cut = why;
        // Stryker disable next-line StringLiteral: this reason only ends the SDK's request; the caller's error is made from `cut` (a retry, then Retryable.toPublic)
        ctl.abort(new NetworkError(why, 'SSE_CUT'));
      };
      s.enter();
      try {
        return await fn(s, ctx);
      } catch (e) {
        const err = classify(e, ctx, ctl.signal, cut, key, this.pool);
        if (err instanceof SessionExpired) {
          if (round > 0)
            throw new ProtocolError('The session expired again right after it was re-initialized.', err.status);
          this.log?.(`note: session expired (HTTP ${err.status}); re-initializing`);
          session = await this.pool.recover(s, key, signal);
          continue;
        }
        throw err;
      } finally {
        // Stryker disable next-line StringLiteral: the signal is the call's own (run's controller), which nothing aborts once the call has settled
        signal.removeEventListener('abort', onAbort);
        s.leave();
      }
    }
  }

  /** Resolves the name, calls the tool with retries, parses the result. */
  private async invoke<T>(
    name: string,
    args: Record<string, unknown>,
    schema: z.ZodType<T> | undefined,
    options: CallOptions,
    onResolved?: (name: string) => void,
  ): Promise<T> {
    const onProgress = options.onProgress;
    return this.run(options, async (sig, key, budget, started) =>
      this.withRetry(sig, started, budget, async () =>
        this.attempt(key, sig, async (s, ctx) => {
          const tool = await this.tools.resolve(name, s, ctx);
          onResolved?.(tool.name);
          const input = this.tools.filterArgs(tool, args);
          const result = await s.bind(ctx, () =>
            s.client.callTool({ name: tool.name, arguments: input }, undefined, {
              // Stryker disable next-line ConditionalExpression: attempt gives every context a signal; the test only satisfies the type
              ...(ctx.signal ? { signal: ctx.signal } : {}),
              timeout: sdkTimeout(budget),
              ...(onProgress
                ? {
                    onprogress: (p: { progress: number; total?: number | undefined; message?: string | undefined }) => {
                      const info: ProgressInfo = { progress: p.progress };
                      if (p.total !== undefined) info.total = p.total;
                      if (p.message !== undefined) info.message = p.message;
                      onProgress(info);
                    },
                  }
                : {}),
            }),
          );
          return parseToolResult<T>(tool.name, result as RawToolResult, schema);
        }),
      ),
    );
  }
}
