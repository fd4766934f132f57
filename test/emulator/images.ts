/**
 * Image hosting on the emulator itself: the expiring `original_image` copies kept by
 * crop_growth_recognize (`/__images/<name>?Expires=<unix>&Signature=…`, 403 once expired by the
 * emulator clock, 404 when unknown) and the test routes over the sample pictures:
 * `/samples/<file>` (the picture), `/samples-redirect/<file>` (302 to it), `/samples-slow/<file>`
 * (never answers: a download timeout), `/samples-html/<file>` (200 but text/html).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { basename, join } from 'node:path';
import { beijingParts, pad, type EmulatorClock } from './clock';
import { sendText } from './http';

/** Where the generated sample pictures live. */
export const SAMPLES_DIR = join(__dirname, 'images');
/** Path prefixes served from SAMPLES_DIR. */
export const SAMPLE_ROUTES = ['/samples/', '/samples-redirect/', '/samples-slow/', '/samples-html/'];

/** Content type by file extension. */
export function imageContentType(name: string): string {
  if (/\.png$/i.test(name)) return 'image/png';
  if (/\.jpe?g$/i.test(name)) return 'image/jpeg';
  return 'application/octet-stream';
}

interface Stored {
  bytes: Buffer;
  contentType: string;
  expiresMs: number;
}

/** Expiring copies of recognized images. */
export class ImageStore {
  private readonly items = new Map<string, Stored>();
  private counter = 0;
  private readonly secret = randomBytes(16);

  constructor(
    private readonly clock: EmulatorClock,
    private readonly ttlMs: number,
  ) {}

  /** Keeps a copy and answers its public URL under `origin`. */
  put(origin: string, bytes: Buffer, contentType: string): string {
    const now = this.clock.nowMs();
    for (const [k, v] of this.items) if (v.expiresMs < now) this.items.delete(k);
    const p = beijingParts(now);
    const ext = contentType === 'image/png' ? 'png' : 'jpg';
    const name = `detections_${p.year}${pad(p.month)}${pad(p.day)}_${pad(p.hour)}${pad(p.minute)}${pad(p.second)}_${pad(++this.counter, 6)}.${ext}`;
    const expiresMs = now + this.ttlMs;
    this.items.set(name, { bytes, contentType, expiresMs });
    const expires = Math.floor(expiresMs / 1000);
    const signature = createHash('sha256')
      .update(this.secret)
      .update(`${name}:${expires}`)
      .digest('base64url')
      .slice(0, 27);
    return `${origin}/__images/${name}?Expires=${expires}&Signature=${signature}`;
  }

  /** Serves `/__images/<name>`: 404 unknown, 403 expired. */
  serve(url: URL, res: ServerResponse): void {
    const name = decodeURIComponent(url.pathname.slice('/__images/'.length));
    const item = this.items.get(name);
    if (!item) return sendText(res, 404, 'NoSuchKey');
    if (this.clock.nowMs() > item.expiresMs) return sendText(res, 403, 'AccessDenied: Request has expired');
    res.writeHead(200, { 'content-type': item.contentType, 'content-length': item.bytes.length });
    res.end(item.bytes);
  }
}

/** Serves the sample routes. */
export async function serveSample(url: URL, res: ServerResponse): Promise<void> {
  const route = SAMPLE_ROUTES.find((p) => url.pathname.startsWith(p)) ?? '/samples/';
  const file = basename(decodeURIComponent(url.pathname.slice(route.length)));
  if (route === '/samples-redirect/') {
    res.writeHead(302, { location: `/samples/${encodeURIComponent(file)}`, 'content-length': 0 });
    res.end();
    return;
  }
  if (route === '/samples-slow/') return; // never answers; the socket is destroyed on close()
  let bytes: Buffer;
  try {
    bytes = await readFile(join(SAMPLES_DIR, file));
  } catch {
    return sendText(res, 404, 'Not Found');
  }
  if (route === '/samples-html/')
    return sendText(res, 200, '<html><body>not an image</body></html>', { 'content-type': 'text/html; charset=utf-8' });
  res.writeHead(200, { 'content-type': imageContentType(file), 'content-length': bytes.length });
  res.end(bytes);
}
