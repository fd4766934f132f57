/**
 * Recognition bench, two ratios measured side by side in one run:
 *
 * 1. A 4 MB photo (JPEG just under the platform's limit) from "command" to boxes drawn, against the
 *    bare tool call with the same image on the same local endpoint. "Command" here is everything the
 *    extension does outside VS Code's own UI, in its order: reading the file and checking it, the
 *    "loading" message, the call through the shared client (with the picture posted to the preview
 *    as soon as it is known, so the webview loads and decodes it while the platform works), the
 *    result message, and the preview webview's script drawing the boxes (media/recognition/main.js, built
 *    by `npm run build` from src/webview/recognition, + style.css in headless Chromium) up to its "rendered" message. Goal ≤ 1.5.
 *    Over the limit: a 6 MB photo (goal ≤ 1.5) and a generated 24-megapixel one (goal
 *    ≤ 2), each shrunk by today's path (jimp + WebAssembly in the host) and by the webview's
 *    (src/webview/recognition/shrink.ts), against the bare call of the picture that path sends;
 *    the shrunk copy is written to a storage folder and shown from there, as the extension does.
 *    With SHUNONG_BENCH_TRACE=1 the bench prints where the command's time goes (host-side clock
 *    marks, and the webview's decode and encode of each attempt, timed by ./traceShrinks.js).
 * 2. Drawing 1,000 boxes against drawing the image alone, in the same webview page, each time a
 *    first load of the picture (a new URL). Goal ≤ 2×.
 *
 * How the webview is hosted (./webview-host.mjs, a separate process, as VS Code serves webview
 * resources from the workbench and not from the extension host): the page is served with the
 * panel's CSP from one loopback origin, and main.js, style.css and the pictures from another, the
 * way `webview.asWebviewUri` URLs are answered by VS Code's resource loader (file bytes, CORS
 * headers, a different origin from the document). A loopback file server was chosen over
 * Playwright's `page.route`, which hands every body to the browser base64-encoded over the
 * DevTools protocol: a cost VS Code does not have. Messages go through `page.evaluate`
 * (DevTools protocol), standing in for `webview.postMessage`; the bytes of a photo to shrink go to
 * the page, once it has said `shrinking`, by a `fetch` from the resource origin, posted to the
 * webview in `shrinkPart`s of 1 MiB as they arrive (the host's parts), and its JPEG comes back by
 * a PUT to it (binary both ways, as VS Code posts a `Uint8Array`; base64 through the DevTools protocol would
 * cost 0.2–0.4 s that VS Code does not spend).
 *
 * The local endpoint runs in a process of its own. Medians of several runs (bare and full
 * alternated, after a warm-up round). Only 127.0.0.1 is
 * contacted.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Page } from 'playwright-core';
import { ShunongClient } from '../src/shunong/index';
import { recognize, type PreviewImage } from '../src/recognition/flow';
import { downloadImage } from '../src/recognition/download';
import { extensionOf, imageSize, sniffImageFormat, toBareBase64 } from '../src/recognition/image';
import { loadShrinker } from '../src/recognition/resize';
import type { Shrinker } from '../src/recognition/image';
import { webviewFirst, type ShrunkBy } from '../src/recognition/webviewShrink';
import { SHRINK_PART_BYTES, type ShrinkRequest } from '../src/recognition/protocol';
import type { BoxView, HostMessage, ImageView, ResultView, WebviewStrings } from '../src/recognition/protocol';
import type { Recognition } from '../src/recognition/types';
import { jpg } from '../test/unit/recognition/fixtures';
import { SMOKE, sized } from './smoke.mjs';

const MEDIA = join(__dirname, '..', 'media', 'recognition');

/** A photo-like JPEG (smooth gradients with leafy noise) of about `targetBytes`, or of `fixedWidth` × ¾ of it. */
function photo(targetBytes: number, fixedWidth?: number): Uint8Array {
  let s = 12345;
  const rnd = (): number => ((s = (s * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
  const make = (w: number, h: number): Uint8Array =>
    jpg(w, h, (x, y) => [40 + ((x * 3 + rnd()) % 60), 110 + ((y + rnd()) % 120), 30 + (rnd() % 50)], 92);
  if (fixedWidth) return make(fixedWidth, Math.round(fixedWidth * 0.75));
  let w = 1600;
  let bytes = make(w, Math.round(w * 0.75));
  for (let i = 0; i < 4 && Math.abs(bytes.length - targetBytes) > targetBytes * 0.04; i++) {
    w = Math.round(w * Math.sqrt(targetBytes / bytes.length));
    bytes = make(w, Math.round(w * 0.75));
  }
  return bytes;
}

/** The webview's side of one shrink, read from its trace marks. */
interface ShrinkTrace {
  fetched: number;
  returned: number;
  marks: (readonly [string, number])[];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const strings: WebviewStrings = Object.fromEntries(
  [
    'recognitionType',
    'rerun',
    'retry',
    'insert',
    'save',
    'zoomFit',
    'zoomActual',
    'zoomIn',
    'zoomOut',
    'zoomToolbar',
    'zoomLevel',
    'loading',
    'summary',
    'detections',
    'noDetections',
    'colIndex',
    'colClass',
    'colConfidence',
    'colBox',
    'lowConfidenceMark',
    'imageUnavailable',
    'imageAlt',
    'adviceTitle',
    'renderFailed',
  ].map((k) => [k, k]),
) as unknown as WebviewStrings;

interface Host {
  page: Page;
  /** The resource URL of a file of the served folder. */
  url(name: string): string;
  close(): Promise<void>;
}

async function openPage(files: string): Promise<Host> {
  if (!existsSync(join(MEDIA, 'main.js')))
    throw new Error('media/recognition/main.js is built from src/webview/recognition: run `npm run build` first');
  const child = spawn(process.execPath, [join(__dirname, 'webview-host.mjs'), MEDIA, files], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`webview host exited (${code})`)));
  });
  const origins = JSON.parse(first) as { page: string; resources: string };
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  // bypassCSP: the stand-in of the host → webview transfer of a photo to shrink is a fetch() from
  // the page, which the panel's CSP (default-src 'none') would refuse.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await page.addInitScript({ path: join(__dirname, 'traceShrinks.js') });
  await page.goto(origins.page);
  await post(page, { type: 'init', strings, types: [] });
  return {
    page,
    url: (name) => `${origins.resources}/files/${encodeURIComponent(name)}`,
    close: async () => {
      await browser.close();
      child.stdin?.end();
      child.kill();
    },
  };
}

/** Posts a host message to the webview (not waiting for anything but its delivery). */
async function post(page: Page, m: HostMessage): Promise<void> {
  await page.evaluate((msg: HostMessage) => window.postMessage(msg, '*'), m);
}

/** Waits for the webview's "rendered" message of `run`. */
async function rendered(page: Page, run: number): Promise<void> {
  await page.waitForFunction(
    (r: number) =>
      (window as unknown as { __out: { type: string; run?: number }[] }).__out.some(
        (m) => m.type === 'rendered' && m.run === r,
      ),
    run,
    { polling: 2 },
  );
}

/** Posts a result and answers the ms until the webview reports it drawn (the page's clock). */
async function draw(page: Page, view: ResultView): Promise<number> {
  return page.evaluate(async (v: ResultView) => {
    const w = window as unknown as { __out: { type: string; run?: number }[] };
    const t0 = performance.now();
    window.postMessage({ type: 'result', view: v }, '*');
    for (;;) {
      if (w.__out.some((m) => m.type === 'rendered' && m.run === v.run)) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, 2));
    }
  }, view);
}

function view(
  run: number,
  image: ImageView | undefined,
  result: Recognition | undefined,
  boxes?: BoxView[],
): ResultView {
  return {
    run,
    title: 'bench',
    recognitionType: 'tea_count',
    image,
    boxes:
      boxes ??
      (result?.data.detections ?? []).map((d) => ({
        x1: d.bbox[0] ?? 0,
        y1: d.bbox[1] ?? 0,
        x2: d.bbox[2] ?? 0,
        y2: d.bbox[3] ?? 0,
        className: d.class_name,
        confidence: d.confidence,
        low: d.confidence < 0.5,
      })),
    headline: 'h',
    noConclusion: false,
    summary: [],
    warnings: [],
    notes: [],
    advice: [],
    figureLabel: 'f',
  };
}

/**
 * The local endpoint in a process of its own (`npm run emulator`), as the platform is not in the
 * extension host: jimp's shrinking in this process (today's path) must not slow its calls through
 * a shared heap. (Run in this process, the bare calls of the 6 MB photo's picture took 1.0–1.3 s
 * after today's path, against 0.8–0.9 s without it.)
 */
async function emulatorProcess(): Promise<{ url: string; close(): void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '..', 'test', 'emulator', 'main.ts'), '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line.startsWith('SHUNONG_ENDPOINT=')) resolve(line.slice('SHUNONG_ENDPOINT='.length));
    });
    child.once('exit', (code) => reject(new Error(`the local endpoint exited (${code})`)));
  });
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`the local endpoint is at ${url}, not 127.0.0.1`);
  return { url, close: () => void child.kill() };
}

async function main(): Promise<void> {
  const emu = await emulatorProcess();
  const client = new ShunongClient({ endpoint: emu.url, getKey: () => 'sk_local_demo', timeoutMs: 120_000 });
  // The workspace folder of the photos, and the storage folder of the preview copies: both served.
  const files = mkdtempSync(join(tmpdir(), 'shunong-recognition-bench-'));
  const host = await openPage(files);
  const { page } = host;
  let run = 1;
  let copies = 0;
  try {
    await client.listTools();
    // Today's shrinker (jimp + WebAssembly in the host) and the webview's (the browser's pipeline,
    // in this page's main.js: the bytes go to it by a fetch from the resource origin and come back
    // by a PUT to it, both binary, standing in for webview.postMessage of a Uint8Array).
    let shrinkedBy: ShrunkBy | undefined;
    let requests = 0;
    let lastShrinkTrace: ShrinkTrace | undefined;
    // The webview's last answer (PreviewHost.pixelsOf): a preview of these bytes names its pixels.
    let lastShrunk: { requestId: number; bytes: Uint8Array } | undefined;
    const port = async (req: ShrinkRequest): Promise<{ bytes: Uint8Array; width: number; height: number }> => {
      const name = `to-shrink-${requests++}.bin`;
      writeFileSync(join(files, name), req.bytes);
      const got = await page.evaluate(
        async (a: {
          url: string;
          back: string;
          partBytes: number;
          byteLength: number;
          requestId: number;
          mime: string;
          orientation: number;
          width: number;
          height: number;
          maxBytes: number;
        }) => {
          const w = window as unknown as {
            __out: {
              type: string;
              requestId?: number;
              bytes?: Uint8Array;
              width?: number;
              height?: number;
              error?: string;
            }[];
          };
          // The request, then, once the webview has said `shrinking` (the host waits for that
          // too), its bytes in parts of `partBytes`, each posted as soon as it has arrived (as the
          // host posts them and VS Code delivers each message once it has crossed).
          const { url: _url, back: _back, partBytes, byteLength, ...rest } = a;
          const parts = Math.ceil(byteLength / partBytes);
          window.postMessage({ type: 'shrink', ...rest, delivery: 1, byteLength, parts }, '*');
          while (!w.__out.some((o) => o.type === 'shrinking' && o.requestId === a.requestId))
            await new Promise((r) => setTimeout(r, 1));
          const t0 = performance.now();
          const body = (await fetch(a.url, { cache: 'no-store' })).body;
          if (!body) throw new Error('no body');
          const reader = body.getReader();
          let part = new Uint8Array(Math.min(partBytes, byteLength));
          let filled = 0;
          let index = 0;
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            for (let at = 0; at < value.byteLength;) {
              const n = Math.min(part.byteLength - filled, value.byteLength - at);
              part.set(value.subarray(at, at + n), filled);
              filled += n;
              at += n;
              if (filled === part.byteLength) {
                window.postMessage(
                  { type: 'shrinkPart', requestId: a.requestId, delivery: 1, index: index++, bytes: part },
                  '*',
                );
                part = new Uint8Array(Math.max(0, Math.min(partBytes, byteLength - index * partBytes)));
                filled = 0;
              }
            }
          }
          const fetched = performance.now() - t0;
          for (;;) {
            const m = w.__out.find((o) => o.type === 'shrunk' && o.requestId === a.requestId);
            if (m) {
              if (!m.bytes) throw new Error(m.error);
              // Back as binary (a PUT to the loopback file server), as VS Code posts a Uint8Array.
              const put = performance.now();
              await fetch(a.back, { method: 'PUT', body: new Blob([m.bytes as Uint8Array<ArrayBuffer>]) });
              const returned = performance.now() - put;
              // The webview's trace marks of this request: decode + resize, encode, per attempt.
              const marks = performance
                .getEntriesByType('mark')
                .filter((e) => e.name.startsWith(`shunong-shrink:${a.requestId}:`))
                .map((e) => [e.name.split(':').slice(2).join(':'), e.startTime] as const);
              return { width: m.width ?? 0, height: m.height ?? 0, fetched, returned, marks };
            }
            await new Promise((r) => setTimeout(r, 2));
          }
        },
        {
          url: host.url(name),
          back: host.url(`${name}.jpg`),
          partBytes: SHRINK_PART_BYTES,
          byteLength: req.bytes.byteLength,
          requestId: requests,
          mime: req.mime,
          orientation: req.orientation,
          width: req.width,
          height: req.height,
          maxBytes: req.maxBytes,
        },
      );
      lastShrinkTrace = { fetched: got.fetched, returned: got.returned, marks: got.marks };
      const answer = new Uint8Array(readFileSync(join(files, `${name}.jpg`)));
      lastShrunk = { requestId: requests, bytes: answer };
      return { bytes: answer, width: got.width, height: got.height };
    };
    // The webview's path first: jimp's garbage in this process (standing in for the extension
    // host) slowed what came after it (reading the 6 MB photo took 35–67 ms instead of 5).
    const paths: [string, () => Shrinker][] = [
      [
        "webview: the browser's own decoder, resizer and encoder",
        () =>
          webviewFirst(port, loadShrinker, {
            onShrunk: (b) => (shrinkedBy = b),
            onFallback: (r) => console.error(`fallback: ${r}`),
          }),
      ],
      ['today: jimp + WebAssembly in the host', loadShrinker],
    ];
    // Smoke mode: a small photo under the limit and one just over it (both shrinking paths still run).
    const photos: readonly (readonly [string, () => Uint8Array, number])[] = SMOKE
      ? [
          ['1 MB photo', () => photo(1024 * 1024), 1.5],
          ['4.6 MB photo', () => photo(4.6 * 1024 * 1024), 1.5],
        ]
      : [
          ['4 MB photo', () => photo(3.9 * 1024 * 1024), 1.5],
          ['6 MB photo', () => photo(6 * 1024 * 1024), 1.5],
          ['24-megapixel photo', () => photo(0, 5657), 2],
        ];
    for (const [label, make, goal] of photos) {
      const bytes = make();
      const file = join(files, `photo-${run}.jpg`);
      writeFileSync(file, bytes);
      const size = imageSize(bytes);
      const over = bytes.length > 4 * 1024 * 1024;
      for (const [pathName, shrinker] of over ? paths : paths.slice(1)) {
        const bare: number[] = [];
        const full: number[] = [];
        // One warm-up round (not counted), then 5 rounds (3 for today's slow path); smoke mode: 1 round.
        const rounds = SMOKE ? 1 : pathName.startsWith('today') && over ? 3 : 5;
        let sentBytes = 0;
        // Where the command's time goes (ms per phase, one entry per counted round).
        const phases = new Map<string, number[]>();
        const phase = (name: string, ms: number): void => void phases.set(name, [...(phases.get(name) ?? []), ms]);
        for (let i = SMOKE ? 0 : -1; i < rounds; i++) {
          // The bare call of the picture this path sends (over 4 MB the platform refuses the original).
          const sent = over ? (await shrinker()(bytes, 'jpeg', 4 * 1024 * 1024)).bytes : bytes;
          sentBytes = sent.length;
          let t = performance.now();
          await client.recognizeCrop({ imageBase64: toBareBase64(sent), recognitionType: 'tea_count' });
          bare.push(performance.now() - t);

          t = performance.now();
          const trace: Record<string, number> = {};
          const at = (name: string): void => void (trace[name] = performance.now() - t);
          // The command: stat, read once, check (as RecognizeCommand.start), then the run.
          await stat(file);
          const read = new Uint8Array(await readFile(file));
          if (!sniffImageFormat(read)) throw new Error('not an image');
          at('read');
          lastShrinkTrace = undefined;
          const r = run++;
          await post(page, { type: 'loading', run: r, title: 'bench', recognitionType: 'tea_count', message: 'm' });
          let picture: Promise<ImageView | undefined> | undefined;
          const showPicture = async (p: PreviewImage, asGiven: boolean): Promise<ImageView | undefined> => {
            if (!p.size) return undefined;
            let name = file.slice(files.length + 1);
            if (!asGiven) {
              // A copy in the storage folder (the shrunk picture exists as no file).
              name = `copy-${copies++}.${extensionOf(p.format)}`;
              writeFileSync(join(files, name), p.bytes);
              at('copy written');
            }
            const pixels = lastShrunk?.bytes === p.bytes ? lastShrunk.requestId : undefined;
            return {
              src: host.url(name),
              width: p.size.width,
              height: p.size.height,
              ...(pixels === undefined ? {} : { pixels }),
            };
          };
          shrinkedBy = undefined;
          const out = await recognize({ kind: 'bytes', bytes: read, name: 'photo.jpg' }, 'tea_count', {
            call: async (a, signal) => {
              at('call start');
              const got = await client.recognizeCrop(a, signal ? { signal } : {});
              at('call end');
              return got;
            },
            download: (u) => downloadImage(u),
            shrinker: () => {
              const s = shrinker();
              return async (...args) => {
                at('shrink start');
                const got = await s(...args);
                at('shrink end');
                return got;
              };
            },
            onPreview: (p, asGiven) => {
              picture = showPicture(p, asGiven);
              void picture.then((image) =>
                image
                  ? post(page, {
                      type: 'loading',
                      run: r,
                      title: 'bench',
                      recognitionType: 'tea_count',
                      message: 'm',
                      image,
                    })
                  : undefined,
              );
            },
          });
          const image = picture ? await picture : undefined;
          at('result posted');
          await post(page, { type: 'result', view: view(r, image, out.result) });
          await rendered(page, r);
          full.push(performance.now() - t);
          // The webview shows the pixels it shrank (a canvas), not the copy loaded again (an <img>).
          const shown = await page.evaluate(() => document.getElementById('image')?.tagName);
          const ownPixels = shrinkedBy === 'webview';
          if (shown !== (ownPixels ? 'CANVAS' : 'IMG'))
            throw new Error(
              `the ${label}, shrunk by ${shrinkedBy ?? 'nobody'}, is shown by a ${shown ?? 'missing'} element`,
            );
          at('rendered');
          if (i >= 0) {
            const span = (a: string, b: string): void => {
              if (trace[a] !== undefined && trace[b] !== undefined)
                phase(`${a} → ${b}`, (trace[b] ?? 0) - (trace[a] ?? 0));
            };
            phase('read + check', trace['read'] ?? 0);
            span('read', 'shrink start');
            span('shrink start', 'shrink end');
            span('shrink end', 'call start');
            span('call start', 'call end');
            span('shrink end', 'copy written');
            span('call end', 'result posted');
            span('result posted', 'rendered');
            const tr = lastShrinkTrace as ShrinkTrace | undefined;
            if (tr) {
              const mk = new Map(tr.marks);
              phase('  webview: bytes in (fetch, each part posted as it arrives)', tr.fetched);
              let prev = mk.get('start') ?? 0;
              for (let k = 0; mk.has(`encoded:${k}`); k++) {
                phase(`  webview: decode+resize #${k}`, (mk.get(`decoded:${k}`) ?? 0) - prev);
                phase(`  webview: encode #${k}`, (mk.get(`encoded:${k}`) ?? 0) - (mk.get(`decoded:${k}`) ?? 0));
                prev = mk.get(`encoded:${k}`) ?? 0;
              }
              phase('  webview: to bytes + post', (mk.get('posted') ?? prev) - prev);
              phase('  webview: bytes back (PUT)', tr.returned);
            }
          }
          if (pathName.startsWith('webview') && over && shrinkedBy !== 'webview')
            throw new Error(`the webview did not shrink the ${label} (${shrinkedBy})`);
          if (i < 0) {
            bare.pop();
            full.pop();
          }
        }
        const b = median(bare);
        const f = median(full);
        console.log(
          `${label} (${(bytes.length / 1048576).toFixed(2)} MB, ${size?.width} × ${size?.height})${over ? `, ${pathName}, sent ${(sentBytes / 1048576).toFixed(2)} MB` : ''}: bare tool call ${b.toFixed(0)} ms, command → boxes drawn ${f.toFixed(0)} ms, ratio ${(f / b).toFixed(2)} (goal ≤ ${goal}: ${f / b <= goal ? 'met' : 'NOT met'})`,
        );
        if (process.env['SHUNONG_BENCH_TRACE'])
          for (const [name, xs] of phases) console.log(`    ${name}: ${median(xs).toFixed(0)} ms`);
      }
    }

    // 1,000 boxes against the image alone, same page, same picture (a first load each time).
    const pic = photo(sized(1.5, 0.3) * 1024 * 1024);
    const { width, height } = imageSize(pic) ?? { width: 1, height: 1 };
    const many: BoxView[] = Array.from({ length: 1000 }, (_, i) => {
      const x = (i * 97) % (width - 40);
      const y = (i * 61) % (height - 40);
      const c = ((i * 37) % 100) / 100;
      return { x1: x, y1: y, x2: x + 30, y2: y + 30, className: 'tea', confidence: c, low: c < 0.5 };
    });
    const alone: number[] = [];
    const boxed: number[] = [];
    const fresh = (): ImageView => {
      const name = `pic-${run}.jpg`;
      writeFileSync(join(files, name), pic);
      return { src: host.url(name), width, height };
    };
    for (let i = 0; i < sized(7, 1); i++) {
      alone.push(await draw(page, view(run++, fresh(), undefined, [])));
      boxed.push(await draw(page, view(run++, fresh(), undefined, many)));
    }
    const a = median(alone);
    const m = median(boxed);
    console.log(
      `drawing ${width}×${height}: image alone ${a.toFixed(0)} ms, with 1,000 boxes ${m.toFixed(0)} ms, ratio ${(m / a).toFixed(2)} (goal ≤ 2: ${m / a <= 2 ? 'met' : 'NOT met'})`,
    );
    if (process.env['SHUNONG_BENCH_SHOTS'])
      await page.screenshot({ path: join(process.env['SHUNONG_BENCH_SHOTS'], 'recognition-1000-boxes.png') });
  } finally {
    await host.close();
    await client.close();
    emu.close();
    rmSync(files, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
