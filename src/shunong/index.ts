/**
 * The Shunong platform client: `dist/platform.js`, loaded lazily by the extension, and used by the
 * CLI and the tests. Never imports `vscode`.
 */
export { ShunongClient } from './client';
export { DEFAULT_ENDPOINT, isLoopbackHost } from './endpoint';
export type { KnowledgeSearchArgs, RecognizeCropArgs, CurrentTimeArgs } from './client';
export * from './errors';
export * from './schemas';
export type * from './types';
export { parseToolResult, type RawToolResult } from './parse';
export { resolveToolName, methodNameOf, type Resolution, type ResolvedBy } from './resolve';
export { realScheduler } from '../time/scheduler';
export { backoffDelay, retryPolicy, type RetryPolicy } from './retry';
export { parseRetryAfter } from './fetch';
export * from './rest/index';
