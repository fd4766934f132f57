/**
 * The chat's recognition tool (`shunong_recognizeCrop` through `vscode.lm.invokeTool`) takes what
 * the Recognize command takes, against the local endpoint: a WebP (sent converted to JPEG), a phone
 * photo over the platform's 4 MB (sent shrunk under it, by jimp: there is no preview panel).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, enableAIFeatures, endpointRequests } from './helpers';
import { photo } from '../../unit/recognition/verdicts';

const none = new vscode.CancellationTokenSource().token;
/** The vendor's page: one image, at most 4 MB (its bare base64 is then at most this long). */
const LIMIT = 4 * 1024 * 1024;
const LIMIT_BASE64 = Math.ceil(LIMIT / 3) * 4;
const SAMPLES = vscode.Uri.file(path.resolve(__dirname, '..', '..', '..', '..', 'test', 'emulator', 'images'));
const SCRATCH = `.chat-recognition-${process.pid}-${Date.now().toString(36)}`;

async function invoke(input: object): Promise<string> {
  const result = await vscode.lm.invokeTool('shunong_recognizeCrop', { input, toolInvocationToken: undefined }, none);
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** The `imageBase64` the endpoint logged for the recognitions since request `from` (start… (length)). */
async function sentSince(from: number): Promise<{ start: string; length: number }[]> {
  return (await endpointRequests())
    .slice(from)
    .filter((r) => r.tool === 'crop_growth_recognize')
    .map((r) => {
      const logged = String(r.arguments?.['imageBase64'] ?? '');
      const m = /^(.*)… \((\d+) characters\)$/s.exec(logged);
      return m ? { start: m[1] ?? '', length: Number(m[2]) } : { start: logged, length: logged.length };
    });
}

function first(): vscode.WorkspaceFolder {
  const wf = vscode.workspace.workspaceFolders?.[0];
  assert.ok(wf, 'the sample workspace is open');
  return wf;
}

async function put(folder: vscode.Uri, name: string, bytes: Uint8Array): Promise<string> {
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, SCRATCH, name), bytes);
  return `${SCRATCH}/${name}`;
}

suite('chat: recognition tool takes what the command takes', function () {
  this.timeout(120_000);

  suiteSetup(async function () {
    if (typeof vscode.lm?.invokeTool !== 'function') this.skip(); // not in this VS Code
    await enableAIFeatures();
    await api();
  });

  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(first().uri, SCRATCH), { recursive: true, useTrash: false });
  });

  test('a WebP is recognised, sent to the platform as a JPEG', async () => {
    const webp = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(SAMPLES, 'tea_buds.webp'));
    const image = await put(first().uri, 'tea.webp', webp);
    const from = (await endpointRequests()).length;
    const text = await invoke({ image, recognitionType: 'tea_count' });
    assert.match(text, /^crop_growth_recognize with model tea_count \(/, text);
    assert.match(text, /sent converted to JPEG/);
    const sent = await sentSince(from);
    assert.equal(sent.length, 1);
    assert.ok(sent[0]?.start.startsWith('/9j/'), `a JPEG was sent (${sent[0]?.start.slice(0, 8)})`);
  });

  test('a phone photo over 4 MB is recognised, sent shrunk under the limit', async () => {
    const p = await photo('jpeg', 6, 6);
    assert.ok(p.bytes.length > LIMIT, `the photo is ${p.bytes.length} bytes`);
    const image = await put(first().uri, 'phone.jpg', p.bytes);
    const from = (await endpointRequests()).length;
    const text = await invoke({ image, recognitionType: 'tea_count' });
    assert.match(text, /^crop_growth_recognize with model tea_count \(/, text);
    assert.match(text, /over the platform's 4 MB limit and was sent shrunk/);
    const sent = await sentSince(from);
    assert.equal(sent.length, 1);
    assert.ok(sent[0]?.start.startsWith('/9j/'), 'a JPEG was sent');
    assert.ok((sent[0]?.length ?? Infinity) <= LIMIT_BASE64, `sent ${sent[0]?.length} base64 characters`);
    assert.ok((sent[0]?.length ?? 0) < Buffer.from(p.bytes).toString('base64').length, 'not the original');
  });
});
