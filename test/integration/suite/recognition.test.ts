/**
 * "Recognize Crop Image…" inside a real VS Code, against the local endpoint's sample pictures:
 * each type, the panel drawing the boxes (its webview reports back), the Markdown summary
 * inserted into a bulletin with the saved pictures, the URL fallback, refusals and failures.
 * Works in a scratch folder of the sample workspace and removes it afterwards.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, localEndpoint, setSetting, stub } from './helpers';

interface CommandResult {
  key: string | undefined;
  status: 'done' | 'failed' | 'refused' | 'cancelled';
  summary?: { kind: 'count' | 'stage' | 'none'; total: number; low: number; stage?: string; modelId: string };
  message?: string;
  notes?: { kind: string; status?: number }[];
}

interface PanelInfo {
  key: string;
  type: string;
  posted: string[];
  state?: {
    type: string;
    view?: {
      headline: string;
      noConclusion: boolean;
      advice: string[];
      notes: string[];
      boxes: { low: boolean; confidence: number }[];
      warnings: string[];
      image?: { src: string; width: number };
    };
    message?: string;
    retryable?: boolean;
  };
  rendered?: { boxes: number; ms: number };
  saved?: { annotated?: string; original?: string };
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

async function panels(key?: string): Promise<PanelInfo[]> {
  return (await vscode.commands.executeCommand('shunong.recognition._test', 'state', key)) as PanelInfo[];
}

async function waitRendered(key: string): Promise<{ boxes: number; ms: number }> {
  const r = (await vscode.commands.executeCommand('shunong.recognition._test', 'waitRendered', key)) as
    { boxes: number; ms: number } | undefined;
  assert.ok(r, 'the webview reported the result drawn');
  return r;
}

suite('Crop recognition preview', function () {
  this.timeout(60_000);
  const local = localEndpoint();

  suiteSetup(async () => {
    await api();
    await vscode.workspace.fs.createDirectory(folder());
    await setSetting('recognition.saveFolder', `${SCRATCH}/saved`);
  });

  teardown(async () => {
    await vscode.commands.executeCommand('shunong.recognition._test', 'close');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
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
    const drawn = await waitRendered(uri.toString());
    assert.equal(drawn.boxes, r.summary?.total, 'one box per detection');
    const [p] = await panels(uri.toString());
    assert.equal(p?.state?.type, 'result');
    assert.ok(p?.state?.view?.image, 'the picture is shown');
    // The file itself, as a webview resource (asWebviewUri), not a data URI.
    assert.doesNotMatch(p.state.view.image.src, /^data:/);
    assert.match(p.state.view.image.src, /tea_buds\.png/);
    // "loading" twice: then again with the picture, shown while the platform works.
    assert.deepEqual(p?.posted.filter((t) => t !== 'init').slice(-3), ['loading', 'loading', 'result']);
  });

  test('blurred buds come back under 0.5: counted apart, flagged low in the panel, with the advice to retake', async () => {
    const uri = await copySample('tea_buds_blurry.png');
    const r = await recognizeCmd(uri, 'tea_count');
    assert.equal(r.status, 'done', r.message);
    assert.equal(r.summary?.total, 10);
    assert.equal(r.summary?.low, 3);
    const drawn = await waitRendered(uri.toString());
    assert.equal(drawn.boxes, 10);
    const [p] = await panels(uri.toString());
    const view = p?.state?.view;
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
    await waitRendered(sky.toString());
    const [p] = await panels(sky.toString());
    assert.equal(p?.state?.view?.noConclusion, true);
    assert.match(p?.state?.view?.headline ?? '', /No clear growth stage|未识别出明确的生育期/);
    assert.ok((p?.state?.view?.advice.length ?? 0) > 0, 'the shooting advice is shown');
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
    await waitRendered(uri.toString());
    const [p] = await panels(uri.toString());
    assert.match(
      p?.state?.view?.notes[0] ?? '',
      /WEBP image was converted to JPEG \(320 × 240|WEBP 图片上传前已转为平台文档所列的 JPEG 格式（320 × 240/,
    );
    // The picture shown is the JPEG sent (the boxes refer to its pixels), not the file.
    assert.match(p?.state?.view?.image?.src ?? '', /\.jpe?g|image\/jpeg/);
  });

  test('re-run with another type reuses the panel of the picture', async () => {
    const uri = await copySample('tea_buds.png');
    await recognizeCmd(uri, 'tea_count');
    await vscode.commands.executeCommand('shunong.recognition._test', 'message', uri.toString(), {
      type: 'rerun',
      recognitionType: 'tea_stage',
    });
    const all = await panels(uri.toString());
    assert.equal(all.length, 1);
    assert.equal(all[0]?.type, 'tea_stage');
    assert.equal(all[0]?.state?.type, 'result');
  });

  test('"Insert Summary" writes the Markdown and saves the annotated and original pictures', async () => {
    const bulletin = vscode.Uri.joinPath(folder(), 'bulletin.md');
    await vscode.workspace.fs.writeFile(bulletin, new TextEncoder().encode('# 简报\n\n'));
    const doc = await vscode.workspace.openTextDocument(bulletin);
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(2, 0, 2, 0);
    const uri = await copySample('tea_buds.png');
    const r = await recognizeCmd(uri, 'tea_count');
    assert.equal(r.status, 'done', r.message);
    await waitRendered(uri.toString());
    await vscode.commands.executeCommand('shunong.recognition._test', 'message', uri.toString(), { type: 'insert' });
    const text = doc.getText();
    assert.ok(text.startsWith('# 简报\n\n'), text);
    const total = r.summary?.total ?? -1;
    assert.match(text, new RegExp(`\\*\\*(Crop image recognition \\(Tea bud count\\)|作物图像识别（茶芽计数）)\\*\\*`));
    assert.match(text, new RegExp(`(${total} tea buds detected|识别到 ${total} 个茶芽)`));
    assert.match(text, /茶叶数量检测/);
    assert.match(text, /\d{4}-\d{2}-\d{2}/);
    const link = /!\[[^\]]*\]\(<(saved\/tea_buds-tea_count-[\d-]+\.png)>\)/.exec(text);
    assert.ok(link, `a relative link to the annotated picture: ${text}`);
    const [p] = await panels(uri.toString());
    assert.ok(p?.saved?.annotated && p.saved.original, 'both pictures saved');
    const png = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder(), link[1] as string));
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'the annotated picture is a PNG');
    const original = await vscode.workspace.fs.readFile(vscode.Uri.parse(p.saved.original));
    assert.deepEqual(original, await vscode.workspace.fs.readFile(uri), 'the original is an exact copy');
    // one undoable edit
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), '# 简报\n\n');
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
      await waitRendered(`${local.origin}/samples-redirect/tea_buds.jpg`);
      // Downloaded pictures are shown from a copy in the extension's storage, not as a data URI.
      const [p] = await panels(`${local.origin}/samples-redirect/tea_buds.jpg`);
      assert.match(p?.state?.view?.image?.src ?? '', /recognition-preview/);
    } finally {
      info.restore();
    }
  });

  test('a URL nobody can download shows the reason and a retry in the panel', async () => {
    const url = `${local.origin}/samples/no-such-picture.png`;
    const r = await recognizeCmd(url, 'wheat_stage');
    assert.equal(r.status, 'failed');
    assert.match(r.message ?? '', /404/);
    const [p] = await panels(url);
    assert.equal(p?.state?.type, 'error');
    assert.equal(p?.state?.retryable, true);
    assert.match(p?.state?.message ?? '', /404/);
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
      assert.deepEqual(await panels(fake.toString()), [], 'no panel opened');
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
