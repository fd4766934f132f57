/**
 * Reading a platform failure's kind without loading the platform. The extension's features bundle
 * must not pull in the client (or a second copy of the error classes, which would break
 * `instanceof`), so it recognises a failure by its `kind`: this file imports only types.
 */
import type { AnyShunongError, ShunongErrorKind } from './errors';

/** Every kind, once (the compiler checks the list against {@link ShunongErrorKind}). */
const KINDS: Readonly<Record<ShunongErrorKind, true>> = {
  auth: true,
  insecure: true,
  config: true,
  'rate-limited': true,
  server: true,
  timeout: true,
  cancelled: true,
  network: true,
  protocol: true,
  'knowledge-miss': true,
  'image-download': true,
  'input-validation': true,
  'tool-failure': true,
  'result-shape': true,
  'unknown-tool': true,
  'ambiguous-tool': true,
  'invalid-arguments': true,
};

/** The kind of a platform failure (an Error whose `kind` is a {@link ShunongErrorKind}); undefined for anything else. */
export function platformErrorKind(err: unknown): ShunongErrorKind | undefined {
  if (!(err instanceof Error)) return undefined;
  const kind = (err as { kind?: unknown }).kind;
  return typeof kind === 'string' && Object.prototype.hasOwnProperty.call(KINDS, kind)
    ? (kind as ShunongErrorKind)
    : undefined;
}

/**
 * Narrows `err` to a platform failure of one of `kinds` (of any kind when none is given), typed as
 * the matching error class(es), e.g. `isPlatformError(e, 'knowledge-miss')` → `KnowledgeMissError`.
 */
export function isPlatformError<K extends ShunongErrorKind>(
  err: unknown,
  ...kinds: K[]
): err is Extract<AnyShunongError, { kind: K }> {
  const kind = platformErrorKind(err);
  return kind !== undefined && (kinds.length === 0 || (kinds as ShunongErrorKind[]).includes(kind));
}
