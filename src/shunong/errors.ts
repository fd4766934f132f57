/**
 * Typed failures of the Shunong platform client.
 *
 * The one home of the error classes: the build makes this file a bundle of its own
 * (`dist/errors.js`) that every other bundle requires, so a failure thrown by the client is an
 * `instanceof` its class wherever it is caught.
 *
 * Every failure the client reports is a {@link ShunongError} with a string `kind`
 * discriminant. No error ever carries the API key: messages built from server text are
 * passed through {@link redactSecret} by the client before they are thrown.
 */

export { redactSecret } from './redact';

/** Every `kind` a {@link ShunongError} can have. */
export type ShunongErrorKind =
  | 'auth'
  | 'insecure'
  | 'config'
  | 'rate-limited'
  | 'server'
  | 'timeout'
  | 'cancelled'
  | 'network'
  | 'protocol'
  | 'knowledge-miss'
  | 'image-download'
  | 'input-validation'
  | 'tool-failure'
  | 'result-shape'
  | 'unknown-tool'
  | 'ambiguous-tool'
  | 'invalid-arguments';

import type { EndpointProblem } from './endpoint';

/** Base class of every failure reported by the client. */
export abstract class ShunongError extends Error {
  abstract readonly kind: ShunongErrorKind;
  /** True when the failure came from the tool itself (`isError: true`), not from the transport. */
  get isToolFailure(): boolean {
    return false;
  }
  /** The fields worth showing or serialising besides the message (used by the call envelope). */
  details(): Record<string, unknown> {
    return {};
  }
}

/** 401 from the endpoint, or no key configured at all (then no request is made). */
export class AuthError extends ShunongError {
  readonly kind = 'auth' as const;
  readonly status = 401 as const;
  constructor(
    readonly reason: 'missing-key' | 'invalid-key',
    message?: string,
  ) {
    super(
      message ??
        (reason === 'missing-key'
          ? 'No Shunong API key is configured (the endpoint answered "missing api key").'
          : 'The Shunong API key was rejected by the endpoint (invalid or revoked key).'),
    );
    this.name = 'AuthError';
  }
  override details(): Record<string, unknown> {
    return { reason: this.reason, status: this.status };
  }
}

/** Refusal to send the key over plain http:// to a host that is not loopback. */
export class InsecureEndpointError extends ShunongError {
  readonly kind = 'insecure' as const;
  constructor(
    readonly endpoint: string,
    message?: string,
  ) {
    super(
      message ??
        `Refusing to send the API key over plain HTTP to ${endpoint}: use https://, a loopback address, or allow insecure HTTP explicitly.`,
    );
    this.name = 'InsecureEndpointError';
  }
  override details(): Record<string, unknown> {
    return { endpoint: this.endpoint };
  }
}

/** The client's configuration cannot work (e.g. the endpoint is not a URL). */
export class ConfigurationError extends ShunongError {
  readonly kind = 'config' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/** 429 after the retries allowed by the retry policy were used up. */
export class RateLimitedError extends ShunongError {
  readonly kind = 'rate-limited' as const;
  readonly status = 429 as const;
  constructor(
    readonly retryAfterMs: number | undefined,
    readonly attempts: number,
  ) {
    super(
      `The Shunong endpoint is rate limiting requests (HTTP 429) after ${attempts} attempt(s)` +
        (retryAfterMs !== undefined ? `; it asks to retry after ${Math.ceil(retryAfterMs / 1000)} s.` : '.'),
    );
    this.name = 'RateLimitedError';
  }
  override details(): Record<string, unknown> {
    return { status: this.status, retryAfterMs: this.retryAfterMs, attempts: this.attempts };
  }
}

/** 5xx from the endpoint, after the retries allowed by the retry policy were used up. */
export class ServerError extends ShunongError {
  readonly kind = 'server' as const;
  constructor(
    readonly status: number,
    readonly attempts: number,
    readonly body?: string,
  ) {
    super(`The Shunong endpoint failed with HTTP ${status} after ${attempts} attempt(s)${body ? `: ${body}` : '.'}`);
    this.name = 'ServerError';
  }
  override details(): Record<string, unknown> {
    return { status: this.status, attempts: this.attempts };
  }
}

/** The call did not finish within its timeout. */
export class TimeoutError extends ShunongError {
  readonly kind = 'timeout' as const;
  constructor(readonly timeoutMs: number) {
    super(`The Shunong request timed out after ${timeoutMs} ms.`);
    this.name = 'TimeoutError';
  }
  override details(): Record<string, unknown> {
    return { timeoutMs: this.timeoutMs };
  }
}

/** The caller cancelled the call (its AbortSignal fired). */
export class CancelledError extends ShunongError {
  readonly kind = 'cancelled' as const;
  constructor(message = 'The Shunong request was cancelled.') {
    super(message);
    this.name = 'CancelledError';
  }
}

/** The endpoint could not be reached, or the connection broke mid-reply. */
export class NetworkError extends ShunongError {
  readonly kind = 'network' as const;
  constructor(
    message: string,
    /** A system error code such as `ECONNREFUSED`, or `SSE_CUT` for a reply stream cut short. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
  override details(): Record<string, unknown> {
    return this.code !== undefined ? { code: this.code } : {};
  }
}

/** The endpoint answered something the protocol does not allow (or an unexpected HTTP status / JSON-RPC error). */
export class ProtocolError extends ShunongError {
  readonly kind = 'protocol' as const;
  constructor(
    message: string,
    readonly status?: number,
    readonly rpcCode?: number,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
  override details(): Record<string, unknown> {
    const d: Record<string, unknown> = {};
    if (this.status !== undefined) d['status'] = this.status;
    if (this.rpcCode !== undefined) d['rpcCode'] = this.rpcCode;
    return d;
  }
}

/** Base of failures the tool itself reported with `isError: true`. */
export abstract class ToolReportedError extends ShunongError {
  override get isToolFailure(): boolean {
    return true;
  }
  /** The reason text as the tool gave it (without the `Error invoking method:` line). */
  abstract readonly reason: string;
}

/** knowledge_search found nothing: every candidate was filtered out, or `sources` came back empty. */
export class KnowledgeMissError extends ToolReportedError {
  readonly kind = 'knowledge-miss' as const;
  constructor(
    readonly reason: string,
    readonly vectorCandidates: number | undefined,
    readonly fulltextCandidates: number | undefined,
    readonly threshold: number | undefined,
    readonly filtered: number | undefined,
    readonly bestScore: number | undefined,
  ) {
    super(`No knowledge passage matched: ${reason}`);
    this.name = 'KnowledgeMissError';
  }
  override details(): Record<string, unknown> {
    return {
      vectorCandidates: this.vectorCandidates,
      fulltextCandidates: this.fulltextCandidates,
      threshold: this.threshold,
      filtered: this.filtered,
      bestScore: this.bestScore,
    };
  }
}

/** crop_growth_recognize could not download the image (HTTP status and URL, or a timeout). */
export class ImageDownloadError extends ToolReportedError {
  readonly kind = 'image-download' as const;
  constructor(
    readonly reason: string,
    readonly status: number | undefined,
    readonly url: string | undefined,
    readonly timedOut: boolean,
  ) {
    super(`The platform could not download the image: ${reason}`);
    this.name = 'ImageDownloadError';
  }
  override details(): Record<string, unknown> {
    return { status: this.status, url: this.url, timedOut: this.timedOut };
  }
}

/** The tool rejected its arguments (`Tool (<tool>) input validation failed: …`). */
export class InputValidationError extends ToolReportedError {
  readonly kind = 'input-validation' as const;
  readonly reason: string;
  constructor(
    readonly tool: string,
    readonly detail: string,
  ) {
    super(`Tool ${tool} rejected its input: ${detail}`);
    this.reason = detail;
    this.name = 'InputValidationError';
  }
  override details(): Record<string, unknown> {
    return { tool: this.tool, detail: this.detail };
  }
}

/** Any other `Error invoking method: <method>\n<reason>` failure. */
export class ToolFailureError extends ToolReportedError {
  readonly kind = 'tool-failure' as const;
  constructor(
    readonly method: string,
    readonly reason: string,
  ) {
    super(method ? `${method} failed: ${reason}` : `The tool failed: ${reason}`);
    this.name = 'ToolFailureError';
  }
  override details(): Record<string, unknown> {
    return { method: this.method };
  }
}

/** A successful tool result did not have the shape documented for that tool. */
export class ResultShapeError extends ShunongError {
  readonly kind = 'result-shape' as const;
  constructor(
    readonly tool: string,
    /** Dotted path of the offending field, e.g. `sources.0.score` (`content[0].text` when the text is not JSON). */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`Unexpected result from ${tool}: field "${field}" ${problem}`);
    this.name = 'ResultShapeError';
  }
  override details(): Record<string, unknown> {
    return { tool: this.tool, field: this.field };
  }
}

/** A tool name that matches no tool; carries scored suggestions. */
export class UnknownToolError extends ShunongError {
  readonly kind = 'unknown-tool' as const;
  constructor(
    readonly requested: string,
    readonly suggestions: { name: string; score: number }[],
    readonly available: string[],
  ) {
    super(
      `No tool named "${requested}".` +
        (suggestions.length
          ? ` Did you mean ${suggestions.map((s) => `${s.name} (${s.score.toFixed(2)})`).join(', ')}?`
          : ` Available tools: ${available.join(', ') || '(none)'}.`),
    );
    this.name = 'UnknownToolError';
  }
  override details(): Record<string, unknown> {
    return { requested: this.requested, suggestions: this.suggestions };
  }
}

/** A tool name that matches several tools; never resolved silently. */
export class AmbiguousToolError extends ShunongError {
  readonly kind = 'ambiguous-tool' as const;
  constructor(
    readonly requested: string,
    readonly candidates: string[],
  ) {
    super(`The tool name "${requested}" is ambiguous: it matches ${candidates.join(', ')}.`);
    this.name = 'AmbiguousToolError';
  }
  override details(): Record<string, unknown> {
    return { requested: this.requested, candidates: this.candidates };
  }
}

/** Arguments that cannot be sent (a JSON string that is not a JSON object, or a wrong local argument). */
export class InvalidArgumentsError extends ShunongError {
  readonly kind = 'invalid-arguments' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidArgumentsError';
  }
}

/** Every concrete failure class, as a union discriminated by `kind`. */
export type AnyShunongError =
  | AuthError
  | InsecureEndpointError
  | ConfigurationError
  | RateLimitedError
  | ServerError
  | TimeoutError
  | CancelledError
  | NetworkError
  | ProtocolError
  | KnowledgeMissError
  | ImageDownloadError
  | InputValidationError
  | ToolFailureError
  | ResultShapeError
  | UnknownToolError
  | AmbiguousToolError
  | InvalidArgumentsError;

/** The typed failure for an endpoint the key may not be sent to (see `endpointProblem`). */
export function endpointError(problem: EndpointProblem, endpoint: string): ShunongError {
  if (problem === 'insecure-http') return new InsecureEndpointError(endpoint);
  return new ConfigurationError(
    problem === 'invalid-url'
      ? `The endpoint is not a valid URL: ${endpoint}`
      : `The endpoint must be an http(s) URL: ${endpoint}`,
  );
}

/** The kind of a platform failure; undefined for anything else. */
export function platformErrorKind(err: unknown): ShunongErrorKind | undefined {
  return err instanceof ShunongError ? err.kind : undefined;
}

/**
 * Narrows `err` to a platform failure of one of `kinds` (of any kind when none is given), typed as
 * the matching error class(es), e.g. `isPlatformError(e, 'knowledge-miss')` → `KnowledgeMissError`.
 */
export function isPlatformError<K extends ShunongErrorKind>(
  err: unknown,
  ...kinds: K[]
): err is Extract<AnyShunongError, { kind: K }> {
  return err instanceof ShunongError && (kinds.length === 0 || (kinds as ShunongErrorKind[]).includes(err.kind));
}

const INVOKE_PREFIX = /^Error invoking method:\s*([^\n]*)\n?([\s\S]*)$/;
const INPUT_VALIDATION = /^Tool \(([^)]*)\) input validation failed:\s*([\s\S]*)$/;

function num(re: RegExp, text: string, group = 1): number | undefined {
  const m = re.exec(text);
  if (!m) return undefined;
  const v = Number(m[group]);
  return Number.isFinite(v) ? v : undefined;
}

/**
 * Turns the plain text of an `isError: true` tool result into a typed failure.
 *
 * Recognises the vendor's documented texts: the knowledge miss (candidate counts, threshold,
 * filtered count, best score), the image download failure (HTTP status and URL, or a timeout),
 * the input validation failure, and any other `Error invoking method: <method>\n<reason>`.
 * Text of any other form becomes a {@link ToolFailureError} with an empty method.
 */
export function parseToolFailure(text: string): ToolReportedError {
  const trimmed = text.trim();
  const m = INVOKE_PREFIX.exec(trimmed);
  const method = m ? m[1]!.trim() : '';
  const reason = (m ? m[2]! : trimmed).trim() || (m ? `${method} failed` : trimmed);
  // alone or behind the invoke line; its detail starts after the blanks the pattern reads, and ends on none
  const iv = INPUT_VALIDATION.exec(reason);
  if (iv) return new InputValidationError(iv[1]!, iv[2]!);
  if (/知识库未命中|未命中相关片段/.test(reason)) {
    return new KnowledgeMissError(
      reason,
      num(/向量\s*(\d+)\s*条/, reason),
      num(/全文\s*(\d+)\s*条/, reason),
      num(/score_threshold\s*=\s*([0-9.]+)/, reason),
      num(/过滤掉(?:全部)?\s*(\d+)\s*条/, reason),
      num(/最高分\s*([0-9.]+)/, reason),
    );
  }
  if (/图片下载失败|timed out/i.test(reason) && (/图片/.test(reason) || /cropGrowthRecognize/i.test(method))) {
    const status = num(/HTTP\s+(\d{3})\b/, reason);
    const url = /(https?:\/\/\S+)/.exec(reason)?.[1];
    return new ImageDownloadError(reason, status, url, /timed?\s*out|超时/i.test(reason));
  }
  return new ToolFailureError(method, reason);
}
