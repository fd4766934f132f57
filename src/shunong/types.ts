/** Public types of the Shunong platform client. */
import type { Scheduler, Timer } from '../time/scheduler';
import type { ShunongErrorKind } from './errors';

/** The clock and timers the client uses for backoff waits and timeouts (injectable for tests). */
export type { Scheduler, Timer };

/** Supplies the API key at request time; `undefined` or `''` means "no key configured". */
export interface KeyProvider {
  (): Promise<string | undefined> | string | undefined;
}

/** A tool as advertised by the endpoint's `tools/list`. */
export interface ToolInfo {
  name: string;
  description?: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[] };
}

/** Persists the tool list per endpoint (e.g. in the extension's global state) across restarts. */
export interface ToolListStore {
  load(endpoint: string): Promise<ToolInfo[] | undefined> | ToolInfo[] | undefined;
  save(endpoint: string, tools: ToolInfo[]): Promise<void> | void;
}

/** Retry policy for 429, 5xx and a cut reply stream. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4). */
  maxAttempts?: number;
  /** No retry starts if it would end more than this long after the call began (default 30000). */
  maxTotalMs?: number;
  /** First backoff delay (default 500); doubles per attempt. */
  baseMs?: number;
  /** Cap of the computed backoff delay (default 8000); a longer Retry-After is still honoured. */
  maxDelayMs?: number;
}

/** Options of {@link ShunongClient}. */
export interface ShunongClientOptions {
  /** The MCP endpoint, e.g. `https://ai.agriwis.com/mcp`. */
  endpoint: string;
  getKey: KeyProvider;
  /** The fetch to wrap (default `globalThis.fetch`, which VS Code patches for proxies). */
  fetch?: typeof fetch;
  toolStore?: ToolListStore;
  /** Per call, all attempts and waits included (default 30000). */
  timeoutMs?: number;
  /** Allow sending the key over http:// to a non-loopback host (default false). */
  allowInsecureHttp?: boolean;
  retry?: RetryOptions;
  scheduler?: Scheduler;
  /** Source of jitter in [0, 1) (default Math.random). */
  random?: () => number;
  /** One line per HTTP request (method, url, rpc method, status, ms, headers with `Authorization: ***`), plus notes. */
  log?: (line: string) => void;
  clientInfo?: { name: string; version: string };
}

/** Progress reported by the server for a call. */
export interface ProgressInfo {
  progress: number;
  total?: number;
  message?: string;
}

/** Options of one call. */
export interface CallOptions {
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Cancels the call: the HTTP request is aborted and the server is told (`notifications/cancelled`). */
  signal?: AbortSignal;
  onProgress?: (p: ProgressInfo) => void;
  /** Throw typed errors (default true); false returns an envelope with `success: false` instead. */
  raiseOnError?: boolean;
}

/** Metadata of every call envelope. */
export interface CallMetadata {
  executionTimeMs: number;
  traceId: string;
  /** The name as the caller gave it. */
  toolName: string;
  /** The tool actually called, or null when the name did not resolve. */
  resolvedToolName: string | null;
  serviceName: 'shunong';
}

/** The failure payload of an envelope. */
export interface CallFailureData {
  error: string;
  kind: ShunongErrorKind | 'internal';
  details: Record<string, unknown>;
}

/** A successful call: `data` is the parsed, validated payload. */
export interface CallSuccess<T = unknown> {
  success: true;
  data: T;
  metadata: CallMetadata;
  message: string;
}

/** A failed call (only returned with `raiseOnError: false`): `message` is the reason. */
export interface CallFailure {
  success: false;
  data: CallFailureData;
  metadata: CallMetadata;
  message: string;
}

/** The result envelope of the generic call layer. */
export type CallEnvelope<T = unknown> = CallSuccess<T> | CallFailure;

/** One entry of a batch. */
export interface BatchCall {
  name: string;
  args?: Record<string, unknown> | string;
  options?: Omit<CallOptions, 'raiseOnError'>;
}
