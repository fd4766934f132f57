/**
 * Downloading an image ourselves (the fallback when the platform cannot fetch a URL): no
 * credentials or cookies, http(s) only, redirects followed, a size cap, an image content type and
 * image magic bytes required, a timeout that also covers a server that accepts and never answers.
 */
import { realScheduler, type Scheduler } from '../time/scheduler';
import { sniffImageFormat, MAX_INPUT_BYTES, type ImageFormat } from './image';

/** Why a download failed. */
export type DownloadFailure = 'bad-url' | 'http' | 'not-image' | 'too-large' | 'timeout' | 'network' | 'cancelled';

/** A failed download, with the HTTP status when there was one. */
export class DownloadError extends Error {
  readonly kind = 'download' as const;
  constructor(
    readonly reason: DownloadFailure,
    readonly url: string,
    readonly status?: number,
    detail?: string,
  ) {
    super(
      `Download of ${url} failed (${reason}${status !== undefined ? ` ${status}` : ''})${detail ? `: ${detail}` : ''}`,
    );
    this.name = 'DownloadError';
  }
}

/** Options of {@link downloadImage}. */
export interface DownloadOptions {
  /** Size cap in bytes (default 64 MB). */
  maxBytes?: number;
  /** Whole-download timeout in ms (default 20000). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** The timers of the timeout (default the real ones). */
  scheduler?: Scheduler;
}

/** A downloaded image. */
export interface DownloadedImage {
  bytes: Uint8Array;
  format: ImageFormat;
  contentType: string;
  /** The URL after redirects. */
  finalUrl: string;
}

/** Downloads an image from `url` (see the module comment for the checks). */
export async function downloadImage(url: string, options: DownloadOptions = {}): Promise<DownloadedImage> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DownloadError('bad-url', url);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new DownloadError('bad-url', url);
  if (parsed.username || parsed.password)
    throw new DownloadError('bad-url', url, undefined, 'credentials in the URL are not sent');
  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  const timeoutMs = options.timeoutMs ?? 20000;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timer = new AbortController();
  const timeout = (options.scheduler ?? realScheduler).setTimer(timeoutMs, () => timer.abort());
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
  const why = (): DownloadFailure =>
    options.signal?.aborted ? 'cancelled' : timer.signal.aborted ? 'timeout' : 'network';
  try {
    let res: Response;
    try {
      res = await doFetch(parsed.href, {
        redirect: 'follow',
        credentials: 'omit',
        signal,
        headers: { accept: 'image/*' },
      });
    } catch (err) {
      throw new DownloadError(
        why(),
        url,
        undefined,
        why() === 'network' && err instanceof Error
          ? String((err.cause as Error | undefined)?.message ?? err.message)
          : undefined,
      );
    }
    if (!res.ok) {
      void res.body?.cancel().catch(() => undefined);
      throw new DownloadError('http', url, res.status);
    }
    const contentType = (res.headers.get('content-type') ?? '').replace(/;.*$/s, '').trim().toLowerCase();
    if (!contentType.startsWith('image/')) {
      void res.body?.cancel().catch(() => undefined);
      throw new DownloadError('not-image', url, res.status, contentType || 'no content type');
    }
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      void res.body?.cancel().catch(() => undefined);
      throw new DownloadError('too-large', url, res.status);
    }
    const bytes = await readCapped(res, maxBytes, url, why);
    const format = sniffImageFormat(bytes);
    if (!format) throw new DownloadError('not-image', url, res.status, 'the bytes are not an image');
    return { bytes, format, contentType, finalUrl: res.url || parsed.href };
  } finally {
    timeout.dispose();
  }
}

async function readCapped(
  res: Response,
  maxBytes: number,
  url: string,
  why: () => DownloadFailure,
): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new DownloadError('too-large', url, res.status);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof DownloadError) throw err;
    throw new DownloadError(why(), url, res.status);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
