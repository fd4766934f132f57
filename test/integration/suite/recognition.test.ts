/**
 * "Recognize Crop Image…" inside a real VS Code, against the local endpoint's sample pictures:
 * each type, the panel drawing the boxes (its webview reports back), the Markdown summary
 * inserted into a bulletin with the saved pictures, the URL fallback, refusals and failures.
 * Works in a scratch folder of the sample workspace and removes it afterwards.
 *
 * The panels are watched from outside: `vscode.window.createWebviewPanel` is wrapped for the suite
 * (as the other suites stub window functions), so the tests see every message the extension sends
 * to the real webview and every message the webview sends back, and can press the webview's
 * buttons by sending what they send.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PNG } from 'pngjs';
import { api, localEndpoint, setSetting, stub } from './helpers';
import { RELOADS, loadWait } from '../../../src/recognition/panelHost';
import { SHRINK_PART_BYTES } from '../../../src/recognition/protocol';
import { assertUpright, photo } from '../../unit/recognition/verdicts';

interface CommandResult {
  key: string | undefined;
  status: 'done' | 'failed' | 'refused' | 'cancelled';
  summary?: { kind: 'count' | 'stage' | 'none'; total: number; low: number; stage?: string; modelId: string };
  message?: string;
  notes?: { kind: string; status?: number }[];
  shrunkBy?: string;
}

/** What the extension sends to a preview's webview (the fields read here). */
interface Posted {
  type: string;
  run?: number;
  message?: string;
  retryable?: boolean;
  error?: boolean;
  recognitionType?: string;
  view?: {
    run: number;
    recognitionType: string;
    headline: string;
    noConclusion: boolean;
    advice: string[];
    notes: string[];
    boxes: { low: boolean; confidence: number }[];
    warnings: string[];
    image?: { src: string; width: number; height: number; pixels?: number };
  };
  /** Of `shrink` and `shrinkPart`. */
  requestId?: number;
  delivery?: number;
  byteLength?: number;
  parts?: number;
  index?: number;
  bytes?: Uint8Array;
}

/** A preview panel seen from outside. */
interface Watched {
  panel: vscode.WebviewPanel;
  title: string;
  /** Every message sent to its webview, in order. */
  posted: Posted[];
  /** Every message its webview sent. */
  received: { type: string; run?: number; boxes?: number; ms?: number; requestId?: number; delivery?: number }[];
  disposed: boolean;
  /** How many times its page was given (`webview.html` set), over every panel it was shown in. */
  loads: number;
  /** How many times the preview was opened afresh in a new webview panel (the latest is `panel`). */
  renewals: number;
  /** The view column of each panel it was made afresh from, read as the new one opened. */
  renewedFrom: (vscode.ViewColumn | undefined)[];
  /** Fires on every message either way. */
  events: vscode.EventEmitter<void>;
  /** The messages `act` sends, heard by the webview's listeners. */
  injected: vscode.EventEmitter<unknown>;
  /** Sends a message as the webview does (a button). */
  act(m: object): void;
  /** Resolves with what `probe` finds, as soon as it finds it (checked on every message either way). */
  until<T>(probe: () => T | undefined, what: string): Promise<T>;
}

/**
 * How long `until` waits: as long as the host keeps giving a silent page its chances (the first
 * page and each of its reloads, each waited for twice as long as the one before: loadWait in
 * src/recognition/panelHost.ts, 10 + 20 + 40 + 80 s), so that a page slow to load on a busy machine
 * has the chances a user's has.
 */
const UNTIL_MS = Array.from({ length: RELOADS + 1 }, (_, reloads) => loadWait(reloads)).reduce((a, b) => a + b);

let watched: Watched[] = [];
/** The next panel's first page loads a script that does not exist (a resource the workbench dropped). */
let breakNextPage = false;

/** Counts the pages given to `webview`; with `broken`, the first one's script is one that does not exist. */
function watchPages(webview: vscode.Webview, w: Watched, broken: boolean): void {
  let owner: object | null = Object.getPrototypeOf(webview) as object | null;
  let html: PropertyDescriptor | undefined;
  while (owner && !(html = Object.getOwnPropertyDescriptor(owner, 'html')))
    owner = Object.getPrototypeOf(owner) as object | null;
  const { get, set } = html ?? {};
  assert.ok(get && set, 'webview.html is an accessor');
  Object.defineProperty(webview, 'html', {
    configurable: true,
    get(this: vscode.Webview) {
      return get.call(this) as string;
    },
    set(this: vscode.Webview, page: string) {
      w.loads++;
      set.call(this, broken && w.loads === 1 ? page.replace('/main.js', '/no-such-script.js') : page);
    },
  });
}

/**
 * Wraps createWebviewPanel: every panel opened from now on is watched. A panel opened with the very
 * options object of an open one is that preview made afresh (its page never said `ready`, and the
 * extension opens a new webview panel in its place with its panel's options), so it is watched as
 * the same preview: `renewals` counts them.
 */
function watchPanels(): () => void {
  const original = vscode.window.createWebviewPanel;
  const optionsOf = new WeakMap<Watched, unknown>();
  const wrapped = ((...args: Parameters<typeof original>) => {
    const panel = original.apply(vscode.window, args);
    const renewed = watched.find((w) => !w.disposed && optionsOf.get(w) === args[3]);
    const w: Watched = renewed ?? newWatched(panel);
    optionsOf.set(w, args[3]);
    if (renewed) {
      renewed.renewedFrom.push(renewed.panel.viewColumn);
      renewed.panel = panel;
      renewed.renewals++;
    } else watched.push(w);
    wire(panel, w, breakNextPage);
    breakNextPage = false;
    return panel;
  }) as typeof original;
  vscode.window.createWebviewPanel = wrapped;
  return () => (vscode.window.createWebviewPanel = original);
}

function newWatched(panel: vscode.WebviewPanel): Watched {
  const events = new vscode.EventEmitter<void>();
  const injected = new vscode.EventEmitter<unknown>();
  const w: Watched = {
    panel,
    title: panel.title,
    posted: [],
    received: [],
    disposed: false,
    loads: 0,
    renewals: 0,
    renewedFrom: [],
    events,
    injected,
    act: (m: object) => injected.fire(m),
    until: <T>(probe: () => T | undefined, what: string) =>
      new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          sub.dispose();
          reject(
            new Error(
              `${what}; pages given: ${w.loads}; panels: ${w.renewals + 1}; sent: ${w.posted.map((m) => m.type).join(', ')}`,
            ),
          );
        }, UNTIL_MS);
        const check = (): void => {
          const found = probe();
          if (found === undefined) return;
          clearTimeout(timer);
          sub.dispose();
          resolve(found);
        };
        const sub = events.event(check);
        check();
      }),
  };
  return w;
}

/** Records what `panel`'s webview is sent and sends, into `w`; `act` reaches its listeners. */
function wire(panel: vscode.WebviewPanel, w: Watched, broken: boolean): void {
  const { events, injected } = w;
  const webview = panel.webview;
  const post = webview.postMessage.bind(webview);
  webview.postMessage = (m: unknown) => {
    w.posted.push(m as Posted);
    events.fire();
    return post(m);
  };
  const receive = webview.onDidReceiveMessage;
  receive((m: unknown) => {
    w.received.push(m as Watched['received'][number]);
    events.fire();
  });
  (webview as { onDidReceiveMessage: typeof receive }).onDidReceiveMessage = ((
    listener: (m: unknown) => unknown,
    thisArg?: unknown,
  ) => vscode.Disposable.from(receive(listener, thisArg), injected.event(listener, thisArg))) as typeof receive;
  // The panel it was made afresh from closes after it opened: only the latest one's closing counts.
  panel.onDidDispose(() => {
    if (w.panel === panel) w.disposed = true;
  });
  watchPages(webview, w, broken);
}

/** The open panel whose title starts with `name` (the picture's file name or stem); the latest one. */
function panelOf(name: string): Watched {
  const w = watched.filter((p) => !p.disposed && p.title.startsWith(name)).at(-1);
  assert.ok(w, `a preview panel of ${name}; open: ${watched.map((p) => p.title).join(', ')}`);
  return w;
}

/** The panel's state: the last loading, result or error message sent to its webview. */
function stateOf(w: Watched): Posted | undefined {
  return w.posted.filter((m) => m.type === 'loading' || m.type === 'result' || m.type === 'error').at(-1);
}

/** Waits for the panel's latest state to be a result, and for the webview to report that result drawn. */
async function waitRendered(w: Watched): Promise<{ boxes: number; view: NonNullable<Posted['view']> }> {
  return w.until(() => {
    const view = stateOf(w)?.view;
    const drawn = view && w.received.find((m) => m.type === 'rendered' && m.run === view.run);
    return view && drawn ? { boxes: drawn.boxes ?? -1, view } : undefined;
  }, 'the webview did not report the result drawn');
}

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const SAMPLES = vscode.Uri.file(path.join(REPO, 'test', 'emulator', 'images'));
/** A scratch folder of our own: other runs may share the sample workspace at the same time. */
const SCRATCH = `.recognition-test-${process.pid}-${Date.now().toString(36)}`;

function folder(): vscode.Uri {
  const wf = vscode.workspace.workspaceFolders?.[0];
  assert.ok(wf, 'the sample workspace is open');
  return vscode.Uri.joinPath(wf.uri, SCRATCH);
}

async function copySample(name: string): Promise<vscode.Uri> {
  const to = vscode.Uri.joinPath(folder(), name);
  await vscode.workspace.fs.copy(vscode.Uri.joinPath(SAMPLES, name), to, { overwrite: true });
  return to;
}

async function recognizeCmd(source: vscode.Uri | string, recognitionType: string): Promise<CommandResult> {
  return (await vscode.commands.executeCommand('shunong.recognizeImage', source, { recognitionType })) as CommandResult;
}

suite('Crop recognition preview', function () {
  this.timeout(UNTIL_MS + 30_000);
  const local = localEndpoint();

  let unwatch: () => void = () => undefined;

  suiteSetup(async () => {
    await api();
    unwatch = watchPanels();
    await vscode.workspace.fs.createDirectory(folder());
    await setSetting('recognition.saveFolder', `${SCRATCH}/saved`);
  });

  teardown(async () => {
    for (const w of watched) w.panel.dispose();
    watched = [];
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    unwatch();
    await setSetting('recognition.saveFolder', undefined);
    await setSetting('recognition.defaultType', undefined);
    await vscode.workspace.fs.delete(folder(), { recursive: true, useTrash: false });
  });

  test('tea_count on a workspace picture: bare base64, boxes drawn in the panel, low-confidence counted apart', async () => {
    const uri = await copySample('tea_buds.png');
    const r = await recognizeCmd(uri, 'tea_count');
    assert.equal(r.status, 'done', r.message);
    assert.equal(r.summary?.kind, 'count');
    assert.equal(r.summary?.modelId, 'tea_count');
    assert.ok((r.summary?.total ?? 0) > 0, 'buds found');
    const p = panelOf('tea_buds.png');
    const drawn = await waitRendered(p);
    assert.equal(drawn.boxes, r.summary?.total, 'one box per detection');
    assert.equal(stateOf(p)?.type, 'result');
    const image = drawn.view.image;
    assert.ok(image, 'the picture is shown');
    // The file itself, as a webview resource (asWebviewUri), not a data URI.
    assert.doesNotMatch(image.src, /^data:/);
    assert.match(image.src, /tea_buds\.png/);
    // (The order of the states posted, "loading" twice then the result, is in test/unit/recognition/preview.test.ts.)
    assert.equal(watched.length, 1, 'one panel');
  });

  test('a page that never says ready is loaded again in a webview opened afresh in its place, and shows the result', async () => {
    breakNextPage = true;
    const uri = await copySample('tea_buds.png');
    const r = await recognizeCmd(uri, 'tea_count');
    assert.equal(r.status, 'done', r.message);
    const p = panelOf('tea_buds.png');
    const first = p.panel;
    const drawn = await waitRendered(p);
    assert.equal(drawn.boxes, r.summary?.total, 'one box per detection');
    assert.equal(p.loads, 2, 'the broken page, then one more');
    assert.equal(p.renewals, 1, 'the second page is given to a new webview panel');
    assert.notEqual(p.panel, first);
    assert.throws(() => first.viewColumn, /disposed/, 'the first one is closed');
    assert.deepEqual(p.renewedFrom, [p.panel.viewColumn], 'the new one opened where the first one was');
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label === p.panel.title);
    assert.equal(tabs.length, 1, 'the silent one is closed: one tab of the picture');
    assert.equal(watched.length, 1, 'one preview');
  });

  test('blurred buds come back under 0.5: counted apart, flagged low in the panel, with the advice to retake', async () => {
    const uri = await copySample('tea_buds_blurry.png');
    const r = await recognizeCmd(uri, 'tea_count');
    assert.equal(r.status, 'done', r.message);
    assert.equal(r.summary?.total, 10);
    assert.equal(r.summary?.low, 3);
    const drawn = await waitRendered(panelOf('tea_buds_blurry.png'));
    assert.equal(drawn.boxes, 10);
    const view = drawn.view;
    assert.equal(view?.boxes.filter((b) => b.low).length, 3);
    assert.ok(view?.boxes.every((b) => b.low === b.confidence < 0.5));
    assert.match(
      view?.warnings[0] ?? '',
      /3 of 10 detections have a confidence below 0\.5|10 个检测目标中有 3 个置信度低于 0\.5/,
    );
    assert.ok((view?.advice.length ?? 0) > 0, 'the shooting advice is shown');
  });

  test('the three types on the sample pictures: counts, stages, and "no conclusion" never shown as a stage', async () => {
    const wheat = await copySample('wheat_tillering.png');
    const w = await recognizeCmd(wheat, 'wheat_stage');
    assert.equal(w.status, 'done', w.message);
    assert.equal(w.summary?.kind, 'stage');
    assert.ok(w.summary?.stage && /期$/.test(w.summary.stage), `a wheat stage: ${w.summary?.stage}`);

    const tea = await copySample('tea_buds.jpg');
    const t = await recognizeCmd(tea, 'tea_stage');
    assert.equal(t.status, 'done', t.message);
    assert.equal(t.summary?.modelId, 'tea_stage');

    const sky = await copySample('sky_bricks.png');
    const n = await recognizeCmd(sky, 'wheat_stage');
    assert.equal(n.status, 'done', n.message);
    assert.equal(n.summary?.kind, 'none');
    const { view } = await waitRendered(panelOf('sky_bricks.png'));
    assert.equal(view.noConclusion, true);
    assert.match(view.headline, /No clear growth stage|未识别出明确的生育期/);
    assert.ok(view.advice.length > 0, 'the shooting advice is shown');
    assert.equal(watched.length, 3, 'one panel per picture');
  });

  test('a WebP picture is converted to JPEG by the bundled decoder, recognised like the PNG, and the panel says so', async () => {
    const uri = await copySample('tea_buds.webp');
    const r = await recognizeCmd(uri, 'tea_count');
    assert.equal(r.status, 'done', r.message);
    assert.deepEqual(
      r.notes?.map((n) => n.kind),
      ['converted'],
    );
    assert.equal(r.summary?.total, 7, 'the 7 buds of the sample');
    const { view } = await waitRendered(panelOf('tea_buds.webp'));
    assert.match(
      view.notes[0] ?? '',
      /WEBP image was converted to JPEG \(320 × 240|WEBP 图片上传前已转为平台文档所列的 JPEG 格式（320 × 240/,
    );
    // The picture shown is the JPEG sent (the boxes refer to its pixels), not the file.
    assert.match(view.image?.src ?? '', /\.jpe?g|image\/jpeg/);
  });

  test('re-run with another type reuses the panel of the picture', async () => {
    const uri = await copySample('tea_buds.png');
    await recognizeCmd(uri, 'tea_count');
    const p = panelOf('tea_buds.png');
    const first = await waitRendered(p);
    assert.equal(first.view.recognitionType, 'tea_count');
    // The webview's "Re-run" button with "Tea growth stage" chosen.
    p.act({ type: 'rerun', recognitionType: 'tea_stage' });
    const again = await p.until(() => {
      const s = stateOf(p);
      return s?.type === 'result' && s.view && s.view.run > first.view.run ? s.view : undefined;
    }, 'no result of the re-run');
    assert.equal(again.recognitionType, 'tea_stage');
    assert.equal(watched.length, 1, 'the same panel');
    assert.equal(p.disposed, false);
    assert.equal(stateOf(p)?.type, 'result');
  });

  test('"Insert Summary" writes the Markdown in the bulletin\'s language and saves the annotated and original pictures', async () => {
    const bulletin = vscode.Uri.joinPath(folder(), 'bulletin.md');
    const before = '# 茶园简报\n\n本周春茶萌发，以下为茶芽计数。\n\n';
    await vscode.workspace.fs.writeFile(bulletin, new TextEncoder().encode(before));
    const doc = await vscode.workspace.openTextDocument(bulletin);
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(4, 0, 4, 0);
    const uri = await copySample('tea_buds.png');
    const r = await recognizeCmd(uri, 'tea_count');
    assert.equal(r.status, 'done', r.message);
    const p = panelOf('tea_buds.png');
    await waitRendered(p);
    // The webview's "Insert Summary into Bulletin" button; the panel's status line says when it is done.
    p.act({ type: 'insert' });
    const status = await p.until(() => p.posted.find((m) => m.type === 'status'), 'no status after the insertion');
    assert.equal(status.error, false, status.message);
    assert.match(status.message ?? '', /bulletin\.md/);
    const text = doc.getText();
    assert.ok(text.startsWith(before), text);
    const total = r.summary?.total ?? -1;
    // A Chinese bulletin gets the Chinese summary, whatever the UI language.
    assert.ok(text.includes(`**作物图像识别（茶芽计数）**：识别到 ${total} 个茶芽；`), text);
    assert.match(text, /!\[作物识别标注图\]/);
    assert.doesNotMatch(text, /Crop image recognition|tea buds detected|recognised on/);
    assert.match(text, /茶叶数量检测/);
    assert.match(text, /\d{4}-\d{2}-\d{2}/);
    const link = /!\[[^\]]*\]\(<(saved\/tea_buds-tea_count-[\d-]+\.png)>\)/.exec(text);
    assert.ok(link, `a relative link to the annotated picture: ${text}`);
    const saved = vscode.Uri.joinPath(folder(), 'saved');
    const names = (await vscode.workspace.fs.readDirectory(saved)).map(([n]) => n);
    const annotated = names.find((n) => `saved/${n}` === link[1]);
    const original = names.find((n) => /^tea_buds-tea_count-[\d-]+-original\.png$/.test(n));
    assert.ok(annotated && original, `both pictures saved: ${names.join(', ')}`);
    const png = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(saved, annotated));
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'the annotated picture is a PNG');
    assert.deepEqual(
      await vscode.workspace.fs.readFile(vscode.Uri.joinPath(saved, original)),
      await vscode.workspace.fs.readFile(uri),
      'the original is an exact copy',
    );
    // one undoable edit
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), before);
  });

  test('a 6 MB photo travels to the webview in 1 MiB parts, is shown from the pixels the webview shrank, and saves annotated and upright', async () => {
    const p = await photo('jpeg', 6, 6);
    const uri = vscode.Uri.joinPath(folder(), 'field-6mb.jpg');
    await vscode.workspace.fs.writeFile(uri, p.bytes);
    const r = await recognizeCmd(uri, 'tea_count');
    assert.equal(r.status, 'done', r.message);
    assert.equal(r.shrunkBy, 'webview', 'the browser shrank it');
    const w = panelOf('field-6mb.jpg');
    // The request, then, for the delivery the webview said it has, its bytes: parts of at most
    // 1 MiB, in order, that add up to the file. (A request the webview has not taken yet is sent
    // again as a new delivery: on a loaded machine the one taken need not be the first.)
    const taken = w.received.find((m) => m.type === 'shrinking');
    assert.ok(taken, 'the webview said it has a request');
    const shrink = w.posted.find(
      (m) => m.type === 'shrink' && m.requestId === taken.requestId && m.delivery === taken.delivery,
    );
    assert.ok(shrink?.requestId !== undefined && shrink.delivery !== undefined, 'the delivery it took was sent');
    assert.equal(shrink.byteLength, p.bytes.length);
    assert.equal(shrink.parts, Math.ceil(p.bytes.length / SHRINK_PART_BYTES));
    const parts = w.posted.filter(
      (m) => m.type === 'shrinkPart' && m.requestId === shrink.requestId && m.delivery === shrink.delivery,
    );
    assert.deepEqual(
      parts.map((m) => m.index),
      Array.from({ length: shrink.parts }, (_, i) => i),
    );
    assert.ok(parts.every((m) => (m.bytes?.byteLength ?? 0) <= SHRINK_PART_BYTES));
    assert.deepEqual(Buffer.concat(parts.map((m) => m.bytes ?? new Uint8Array())), Buffer.from(p.bytes));
    // The result names the webview's own pixels (no second load of the shrunk copy), and is drawn
    // (these four quadrants hold no tea bud: no box).
    const { boxes, view } = await waitRendered(w);
    assert.equal(view.image?.pixels, shrink.requestId);
    assert.equal(boxes, view.boxes.length);
    // "Save Images" draws those pixels and the boxes: the picture sent, upright.
    w.act({ type: 'save' });
    const status = await w.until(() => w.posted.find((m) => m.type === 'status'), 'no status after saving');
    assert.equal(status.error, false, status.message);
    const saved = vscode.Uri.joinPath(folder(), 'saved');
    const name = (await vscode.workspace.fs.readDirectory(saved))
      .map(([n]) => n)
      .find((n) => /^field-6mb-tea_count-[\d-]+\.png$/.test(n));
    assert.ok(name, 'the annotated picture saved');
    const png = PNG.sync.read(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(saved, name))));
    assert.deepEqual([png.width, png.height], [view.image?.width, view.image?.height]);
    assertUpright(p, png, 'the annotated picture');
  });

  test('an English bulletin (lang: en) gets the English summary even where shunong.insertLanguage says zh-CN', async () => {
    await setSetting('insertLanguage', 'zh-CN');
    try {
      const bulletin = vscode.Uri.joinPath(folder(), 'bulletin-en.md');
      await vscode.workspace.fs.writeFile(bulletin, new TextEncoder().encode('---\nlang: en\n---\n\n'));
      const doc = await vscode.workspace.openTextDocument(bulletin);
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(4, 0, 4, 0);
      const r = await recognizeCmd(await copySample('tea_buds.png'), 'tea_count');
      assert.equal(r.status, 'done', r.message);
      const p = panelOf('tea_buds.png');
      await waitRendered(p);
      p.act({ type: 'insert' });
      const status = await p.until(() => p.posted.find((m) => m.type === 'status'), 'no status after the insertion');
      assert.equal(status.error, false, status.message);
      const text = doc.getText();
      assert.ok(
        text.includes(`**Crop image recognition (Tea bud count)**: ${r.summary?.total ?? -1} tea buds detected;`),
        text,
      );
      assert.match(text, /!\[Annotated crop photo\]/);
      assert.doesNotMatch(text, /作物图像识别|识别到|识别于/);
    } finally {
      await setSetting('insertLanguage', undefined);
    }
  });

  test('a URL the endpoint can download goes as imageUrl; a 302 falls back to our download, and the user is told', async () => {
    const info = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    try {
      const direct = await recognizeCmd(`${local.origin}/samples/tea_buds.jpg`, 'tea_count');
      assert.equal(direct.status, 'done', direct.message);
      assert.deepEqual(direct.notes, []);
      const redirected = await recognizeCmd(`${local.origin}/samples-redirect/tea_buds.jpg`, 'tea_count');
      assert.equal(redirected.status, 'done', redirected.message);
      assert.equal(redirected.notes?.[0]?.kind, 'fallback');
      assert.equal(redirected.notes?.[0]?.status, 302);
      assert.equal(redirected.summary?.total, direct.summary?.total, 'the same picture, the same count');
      assert.match(String(info.calls.at(-1)?.[0]), /downloaded it itself|自行下载/);
      // Two panels, the direct URL's and the redirected one's (the latest).
      assert.equal(watched.length, 2);
      const { view } = await waitRendered(panelOf('tea_buds'));
      // Downloaded pictures are shown from a copy in the extension's storage, not as a data URI.
      assert.match(view.image?.src ?? '', /recognition-preview/);
    } finally {
      info.restore();
    }
  });

  test('a URL nobody can download shows the reason and a retry in the panel', async () => {
    const url = `${local.origin}/samples/no-such-picture.png`;
    const r = await recognizeCmd(url, 'wheat_stage');
    assert.equal(r.status, 'failed');
    assert.match(r.message ?? '', /404/);
    const p = panelOf('no-such-picture');
    // Sent once the webview has said it is ready (it may still be loading when the command answers).
    const state = await p.until(() => stateOf(p), 'no state sent to the webview');
    assert.equal(state.type, 'error');
    assert.equal(state.retryable, true);
    assert.match(state.message ?? '', /404/);
  });

  test('a file that is not an image is refused before any request', async () => {
    const fake = vscode.Uri.joinPath(folder(), 'notes.png');
    await vscode.workspace.fs.writeFile(fake, new TextEncoder().encode('# these are notes, not a photo\n'));
    const err = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as typeof vscode.window.showErrorMessage,
    );
    try {
      const r = await recognizeCmd(fake, 'tea_count');
      assert.equal(r.status, 'refused');
      assert.match(String(err.calls[0]?.[0]), /not an image|不是图片/);
      assert.deepEqual(
        watched.map((w) => w.title),
        [],
        'no panel opened',
      );
    } finally {
      err.restore();
    }
  });

  test('the type comes from shunong.recognition.defaultType when set (no question asked)', async () => {
    await setSetting('recognition.defaultType', 'tea_stage');
    const pick = stub(vscode.window, 'showQuickPick', (async () => undefined) as typeof vscode.window.showQuickPick);
    try {
      const uri = await copySample('tea_buds.png');
      const r = (await vscode.commands.executeCommand('shunong.recognizeImage', uri)) as CommandResult;
      assert.equal(r.status, 'done', r.message);
      assert.equal(r.summary?.modelId, 'tea_stage');
      assert.equal(pick.calls.length, 0);
    } finally {
      pick.restore();
      await setSetting('recognition.defaultType', undefined);
    }
  });
});
