/**
 * URLs the platform cannot download (302, 404, a host that accepts and never answers): the flow
 * downloads the picture itself (no credentials, capped, image type checked) and retries once as
 * base64 — against the local endpoint and a loopback image server. Only 127.0.0.1 is contacted.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShunongClient } from '../../../src/shunong/index';
import { startEmulator, type Emulator } from '../../emulator/server';
import { DownloadError, downloadImage } from '../../../src/recognition/download';
import { recognize, type FlowDeps } from '../../../src/recognition/flow';
import { ImageRefusedError, MAX_UPLOAD_BYTES, toBareBase64 } from '../../../src/recognition/image';
import { loadShrinker } from '../../../src/recognition/resize';
import { cat, jpg, pngPixels, webp, withOrientation } from './fixtures';
import { loopback } from '../../support/loopback';

const TEA = new Uint8Array(readFileSync(join(__dirname, '..', '..', 'emulator', 'images', 'tea_buds.png')));

/** A loopback image host: /tea.png, /redirect (302), /missing (404), /slow (accepts, never answers). */
async function imageHost(): Promise<Awaited<ReturnType<typeof loopback>>> {
  const host = await loopback();
  host.routes.set('/tea.png', (_req, res) =>
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': TEA.length }).end(TEA),
  );
  host.routes.set('/redirect', (_req, res) => res.writeHead(302, { location: '/tea.png' }).end());
  host.routes.set('/missing', (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'));
  host.routes.set('/slow', () => undefined);
  return host;
}

describe('recognition: URL fallback against the local endpoint', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let host: Awaited<ReturnType<typeof imageHost>>;
  let client: ShunongClient;
  const calls: string[] = [];
  let deps: FlowDeps;

  before(async () => {
    emu = await startEmulator({ downloadTimeoutMs: 400 });
    host = await imageHost();
    client = new ShunongClient({ endpoint: emu.url, getKey: () => 'sk_local_demo', timeoutMs: 20_000 });
    deps = {
      call: (args, signal) => {
        calls.push('imageUrl' in args ? `url:${args.imageUrl}` : `base64:${args.imageBase64.length}`);
        return client.recognizeCrop(args, signal ? { signal } : {});
      },
      download: (url, signal) => downloadImage(url, { timeoutMs: 600, ...(signal ? { signal } : {}) }),
      shrinker: loadShrinker,
    };
  });
  after(async () => {
    await client.close();
    await host.close();
    await emu.close();
  });
  beforeEach(() => (calls.length = 0));

  it('a URL the platform can fetch is sent as imageUrl, once, and previewed from the same bytes', async () => {
    const out = await recognize({ kind: 'url', url: `${host.origin}/tea.png` }, 'tea_count', deps);
    assert.deepEqual(calls, [`url:${host.origin}/tea.png`]);
    assert.equal(out.sentAs, 'url');
    assert.equal(out.notes.length, 0);
    assert.equal(out.result.data.model_id, 'tea_count');
    assert.ok(out.result.data.count > 0);
    assert.deepEqual(out.preview?.bytes, TEA);
  });

  it('302: the platform refuses the redirect; the extension follows it and retries once as base64', async () => {
    const out = await recognize({ kind: 'url', url: `${host.origin}/redirect` }, 'tea_count', deps);
    assert.deepEqual(calls, [`url:${host.origin}/redirect`, `base64:${toBareBase64(TEA).length}`]);
    assert.equal(out.sentAs, 'base64');
    assert.equal(out.notes[0]?.kind, 'fallback');
    assert.equal(out.notes[0]?.kind === 'fallback' ? out.notes[0].status : undefined, 302);
    assert.ok(out.result.data.count > 0);
    // our own download sends no credentials
    for (const { headers: h } of host.seen) {
      assert.equal(h.authorization, undefined);
      assert.equal(h.cookie, undefined);
    }
  });

  it('404: the fallback download fails too, with the HTTP status; no second platform call', async () => {
    await assert.rejects(
      recognize({ kind: 'url', url: `${host.origin}/missing` }, 'wheat_stage', deps),
      (e: unknown) => e instanceof DownloadError && e.reason === 'http' && e.status === 404,
    );
    assert.deepEqual(calls, [`url:${host.origin}/missing`]);
  });

  it('timeout: a host that accepts and never answers times out on the platform and then here', async () => {
    await assert.rejects(
      recognize({ kind: 'url', url: `${host.origin}/slow` }, 'tea_stage', deps),
      (e: unknown) => e instanceof DownloadError && e.reason === 'timeout',
    );
    assert.deepEqual(calls, [`url:${host.origin}/slow`]);
  });

  it('a local picture goes as bare base64; a non-image is refused before any request', async () => {
    const out = await recognize({ kind: 'bytes', bytes: TEA, name: 'tea_buds.png' }, 'tea_count', deps);
    assert.deepEqual(calls, [`base64:${toBareBase64(TEA).length}`]);
    assert.equal(out.sentAs, 'base64');
    calls.length = 0;
    await assert.rejects(
      recognize(
        { kind: 'bytes', bytes: new TextEncoder().encode('# not a picture'), name: 'a.png' },
        'tea_count',
        deps,
      ),
      (e: unknown) => e instanceof ImageRefusedError && e.reason === 'not-image',
    );
    assert.deepEqual(calls, []);
  });
  it('a WebP picture goes as JPEG (the local endpoint decodes JPEG and PNG only) and is recognised like the PNG it came from', async () => {
    const tea = pngPixels(TEA);
    const asWebp = await webp(tea.width, tea.height, tea.pixel, { lossless: true });
    // Sent as it is, the endpoint refuses it: the reason the extension converts.
    const raw = await client
      .callTool('crop_growth_recognize', { imageBase64: toBareBase64(asWebp), recognitionType: 'tea_count' })
      .then(
        () => 'accepted',
        (e: Error) => e.message,
      );
    assert.match(raw, /不支持的图片格式/);
    const png = await recognize({ kind: 'bytes', bytes: TEA, name: 'tea_buds.png' }, 'tea_count', deps);
    calls.length = 0;
    const out = await recognize({ kind: 'bytes', bytes: asWebp, name: 'tea_buds.webp' }, 'tea_count', deps);
    assert.equal(calls.length, 1);
    assert.equal(out.preview?.format, 'jpeg');
    assert.deepEqual(out.preview?.size, { width: tea.width, height: tea.height });
    assert.deepEqual(out.original, { bytes: asWebp, format: 'webp' });
    assert.deepEqual(
      out.notes.map((n) => n.kind),
      ['converted'],
    );
    const count = (r: typeof out): number => r.result.data.detections.length;
    assert.ok(Math.abs(count(out) - count(png)) <= 1, `buds: ${count(out)} from the WebP, ${count(png)} from the PNG`);
  });

  it('each change made to a picture is told once: turned upright, shrunk, or both', async () => {
    // the shrinker is a stand-in here (what it does is resize.test's); the notes are the flow's
    const small = jpg(30, 20);
    const noted = async (bytes: Uint8Array): Promise<string[]> => {
      const out = await recognize({ kind: 'bytes', bytes, name: 'p.jpg' }, 'tea_count', {
        ...deps,
        shrinker: () => async () => ({ bytes: small, format: 'jpeg', width: 30, height: 20 }),
      });
      return out.notes.map((n) => (n.kind === 'oriented' ? `oriented ${n.orientation}` : n.kind));
    };
    const over = (b: Uint8Array): Uint8Array => cat(b, new Uint8Array(MAX_UPLOAD_BYTES)); // bytes after the image's end
    assert.deepEqual(await noted(withOrientation(jpg(40, 20), 6)), ['oriented 6']);
    assert.deepEqual(await noted(over(withOrientation(jpg(40, 20), 8))), ['shrunk', 'oriented 8']);
    assert.deepEqual(await noted(over(jpg(40, 20))), ['shrunk']);
    assert.deepEqual(await noted(withOrientation(jpg(40, 20), 1)), []);
  });

  it('recognised from its URL, the preview is fetched from the URL, else from the platform’s copy, else left out', async () => {
    const url = `${host.origin}/tea.png`;
    const failing =
      (...bad: ((u: string) => boolean)[]): FlowDeps['download'] =>
      (u, signal) =>
        bad.some((b) => b(u)) ? Promise.reject(new DownloadError('network', u)) : deps.download(u, signal);
    const fromCopy = await recognize({ kind: 'url', url }, 'tea_count', {
      ...deps,
      download: failing((u) => u === url),
    });
    assert.deepEqual(fromCopy.preview?.bytes, TEA, 'the platform’s original_image copy');
    assert.deepEqual(fromCopy.original?.bytes, TEA);
    const none = await recognize({ kind: 'url', url }, 'tea_count', { ...deps, download: failing(() => true) });
    assert.equal(none.preview, undefined);
    assert.equal(none.result.data.model_id, 'tea_count', 'the result stands without a preview');
    // cancelled while fetching the preview: the cancellation, not a result without a picture
    const ac = new AbortController();
    await assert.rejects(
      recognize(
        { kind: 'url', url },
        'tea_count',
        {
          ...deps,
          download: (u) => {
            ac.abort(new Error('stopped by the user'));
            return Promise.reject(new DownloadError('cancelled', u));
          },
        },
        ac.signal,
      ),
      /stopped by the user/,
    );
  });

  it('tells which picture is sent before the call (the source bytes as given, or a re-encoded copy), so the preview can load it meanwhile', async () => {
    const seen: string[] = [];
    const withPreview: FlowDeps = {
      ...deps,
      call: (args, signal) => {
        seen.push('call');
        return deps.call(args, signal);
      },
      onPreview: (p, asGiven) => seen.push(`preview:${p.size?.width}x${p.size?.height}:${asGiven}:${p.bytes === TEA}`),
    };
    const out = await recognize({ kind: 'bytes', bytes: TEA, name: 'tea_buds.png' }, 'tea_count', withPreview);
    assert.equal(seen[0], `preview:${out.preview?.size?.width}x${out.preview?.size?.height}:true:true`);
    assert.equal(seen[1], 'call');
    // A photo turned upright (EXIF orientation 6) is shown as its re-encoded copy: the bytes the boxes refer to.
    seen.length = 0;
    const turned = withOrientation(jpg(40, 20), 6);
    const upright = await recognize({ kind: 'bytes', bytes: turned, name: 'turned.jpg' }, 'tea_count', {
      ...withPreview,
      shrinker: () => async () => ({ bytes: TEA, format: 'png', width: 1, height: 1 }),
    });
    assert.match(seen[0] ?? '', /^preview:\d+x\d+:false:true$/);
    assert.equal(seen[1], 'call');
    assert.equal(upright.preview?.bytes, TEA);
  });
});
