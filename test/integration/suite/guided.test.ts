/**
 * The guided search listens, inside a real VS Code against the local endpoint: a typed stage is
 * used (and reaches the endpoint), Back keeps what was chosen, stages without a crop are grouped
 * with Skip first; the miss offers that keep the threshold come first; a passage under the usual
 * threshold is labelled and asks before it is inserted; a missing key offers "Set API Key".
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FlowItem } from '../../../src/features/search/items';
import {
  acceptItem as accept,
  api,
  captureQuickPick,
  closeAllEditors,
  closeQuickInput,
  endpointRequests,
  itemId,
  knowledgeSearches,
  localEndpoint,
  openBulletin,
  passagesOf,
  RESULTS,
  setSetting,
  stepTitled,
  stub,
  until,
} from './helpers';

/** Types `text` into the step as the author would, and waits until the workbench reports `expected` active. */
async function typeInto(
  qp: vscode.QuickPick<FlowItem>,
  text: string,
  expected: (i: FlowItem | undefined) => boolean,
): Promise<void> {
  qp.value = text;
  await until(() => expected(qp.activeItems[0]), `the active item after typing "${text}"`);
}

/** Presses Enter on whatever the workbench has active. */
async function enter(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

const PREVIEW = '/passage-preview.txt';
const previewText = (): string =>
  vscode.workspace.textDocuments
    .find((d) => d.uri.scheme === 'shunong-knowledge' && d.uri.path === PREVIEW)
    ?.getText() ?? '';

suite('Guided search that listens', () => {
  teardown(async () => {
    await closeQuickInput();
    await closeAllEditors();
  });

  test('typing 分蘖期 at the stage step composes 水稻 分蘖期 …, a typed task is used, Back keeps the stage, and the endpoint gets it', async () => {
    await openBulletin('# 水稻\n\n');
    const before = (await endpointRequests()).length;
    const cap = captureQuickPick();
    const run = Promise.resolve(vscode.commands.executeCommand<{ status: string }>('shunong.searchKnowledge'));

    let qp = await stepTitled(cap.get, /crop|作物/);
    await accept(
      qp,
      qp.items.find((i) => itemId(i) === 'rice'),
    );

    qp = await stepTitled(cap.get, /growth stage|生育期/);
    await typeInto(qp, '分蘖期', (i) => i !== undefined && itemId(i) === 'tillering');
    assert.ok(
      qp.items.some((i) => i.role === 'typed' && i.value === '分蘖期'),
      'the typed text is a choice of its own',
    );
    await enter();

    qp = await stepTitled(cap.get, /farm task|农事环节/);
    await typeInto(qp, '晒田', (i) => i?.role === 'typed');
    assert.equal(qp.items[0]?.role, 'typed', 'Use "晒田" comes first when nothing matches');
    assert.match(qp.items[0]?.label ?? '', /Use "晒田"|使用“晒田”/);

    // Back: the stage step shows its answer again, active.
    await vscode.commands.executeCommand('workbench.action.quickInputBack');
    qp = await stepTitled(cap.get, /growth stage|生育期/);
    await until(() => qp.activeItems[0] !== undefined && itemId(qp.activeItems[0]) === 'tillering', 'the stage chosen');
    await enter();

    qp = await stepTitled(cap.get, /farm task|农事环节/);
    await typeInto(qp, '晒田', (i) => i?.role === 'typed');
    await enter();

    qp = await stepTitled(cap.get, /own words|补充关键词/);
    await until(() => qp.activeItems[0]?.role === 'skip', 'Skip active with nothing typed');
    await enter();

    qp = await stepTitled(cap.get, /the query|查询语句/);
    assert.equal(qp.value, '水稻 分蘖期 晒田', 'the typed stage and task are in the composed query');
    await accept(
      qp,
      qp.items.find((i) => i.role === 'search'),
    );
    qp = await stepTitled(cap.get, new RegExp(`${RESULTS.source}|No passage matched|未命中`));
    const sent = knowledgeSearches((await endpointRequests()).slice(before));
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.arguments?.['query'], '水稻 分蘖期 晒田', 'the request carries the composed query');
    assert.equal(sent[0]?.arguments?.['kbCode'], 'RICE_001', 'the crop picked its knowledge base');
    qp.hide();
    assert.equal((await run).status, 'closed');
  });

  test('without a crop, the stages are grouped by crop with Skip first and active', async () => {
    const cap = captureQuickPick();
    const run = Promise.resolve(vscode.commands.executeCommand<{ status: string }>('shunong.searchKnowledge'));
    let qp = await stepTitled(cap.get, /crop|作物/);
    await accept(
      qp,
      qp.items.find((i) => i.role === 'skip'),
    );
    qp = await stepTitled(cap.get, /growth stage|生育期/);
    assert.equal(qp.items[0]?.role, 'skip');
    await until(() => qp.activeItems[0]?.role === 'skip', 'Skip active');
    const headings = qp.items.filter((i) => i.kind === vscode.QuickPickItemKind.Separator).map((i) => i.label);
    assert.ok(headings.includes('Rice') || headings.includes('水稻'), `crop headings: ${headings.join(', ')}`);
    assert.ok(headings.length >= 4, 'one heading per crop');
    qp.hide();
    assert.equal((await run).status, 'closed');
  });

  test('a miss highlights refining; the lowered-threshold retry is labelled below the usual threshold and asks before inserting', async () => {
    const editor = await openBulletin('火星：\n');
    const cap = captureQuickPick();
    const run = Promise.resolve(
      vscode.commands.executeCommand<{ status: string }>('shunong.searchKnowledge', {
        query: '火星登陆舱推进剂燃烧效率',
        kbCode: 'TEA_MANAGER_001',
        topK: 5,
        scoreThreshold: 0.7,
      }),
    );
    let qp = await stepTitled(cap.get, /No passage matched|未命中/);
    assert.deepEqual(qp.items.filter((i) => i.role === 'offer').map(itemId), [
      'refine',
      'all-knowledge-bases',
      'lower-threshold',
    ]);
    await until(() => qp.activeItems[0] !== undefined && itemId(qp.activeItems[0]) === 'refine', 'refine highlighted');

    // The noisy retry asks on the quick input (a modal would close the search), Back highlighted.
    await accept(
      qp,
      qp.items.find((i) => itemId(i) === 'lower-threshold'),
    );
    qp = await stepTitled(cap.get, /noise|噪声|unrelated|无关/);
    await until(() => qp.activeItems[0]?.role === 'skip', '"Back" highlighted');
    await accept(
      qp,
      qp.items.find((i) => i.role === 'done'),
    );
    qp = await stepTitled(cap.get, RESULTS);
    const below = /below the usual relevance threshold 0\.7|低于通常的相关性阈值 0\.7/;
    const shown = passagesOf(qp);
    assert.ok(shown.length > 0);
    assert.ok(
      shown.every((i) => below.test(i.detail ?? '')),
      'every passage is labelled in the list',
    );
    assert.ok(!shown.some((i) => /▰|▱/.test(i.detail ?? '')), 'no strength bars');
    await until(() => below.test(previewText()), 'the label in the preview');

    // Enter on the passage asks first, on the quick input, with "Back to the results" highlighted.
    await accept(qp, shown[0]);
    qp = await stepTitled(cap.get, /below the usual relevance threshold|低于通常的相关性阈值/);
    await until(() => qp.activeItems[0]?.role === 'skip', '"Back to the results" highlighted');
    await enter();
    qp = await stepTitled(cap.get, RESULTS);
    assert.equal(editor.document.getText(), '火星：\n', 'one more Enter did not cite it');

    await accept(qp, passagesOf(qp)[0]);
    qp = await stepTitled(cap.get, /below the usual relevance threshold|低于通常的相关性阈值/);
    await accept(
      qp,
      qp.items.find((i) => i.role === 'done'),
    );
    assert.equal((await run).status, 'inserted');
    assert.match(editor.document.getText(), /\[\^1\]: .+#\d+ — /, 'inserted once confirmed');
  });

  test('a search with no key stored for the endpoint offers "Set API Key"; after setting it the search works', async () => {
    const local = localEndpoint();
    const { connection } = await api();
    const other = local.url.replace('127.0.0.1', 'localhost');
    await setSetting('endpoint', other);
    await connection.clearKey(other);
    let box: vscode.InputBox | undefined;
    const input = stub(vscode.window, 'createInputBox', (() => {
      input.restore();
      box = vscode.window.createInputBox();
      return box;
    }) as typeof vscode.window.createInputBox);
    const shownError = stub(
      vscode.window,
      'showErrorMessage',
      (async (_m: string, button: string) => button) as unknown as typeof vscode.window.showErrorMessage,
    );
    try {
      const result = await vscode.commands.executeCommand<{ status: string }>('shunong.searchKnowledge', {
        query: '茶树修剪技术要点',
        kbCode: 'TEA_MANAGER_001',
      });
      assert.equal(result.status, 'error');
      assert.match(String(shownError.calls[0]?.[0]), /No API key is set for|尚未为 .* 设置 API 密钥/);
      assert.match(String(shownError.calls[0]?.[1]), /Set API Key|设置 API 密钥/, 'the button');
      await until(() => box !== undefined, 'the Set API Key input box');
      const b = box as vscode.InputBox;
      b.value = local.key;
      await enter();
      await until(async () => (await connection.getKey(other)) === local.key, 'the key stored for the endpoint');
      // The author retries at once: the reset that follows the stored key keeps the client the retry made.
      const sub = captureQuickPick();
      const again = Promise.resolve(
        vscode.commands.executeCommand<{ status: string }>('shunong.searchKnowledge', {
          query: '茶树修剪技术要点',
          kbCode: 'TEA_MANAGER_001',
        }),
      );
      const qp = await stepTitled(sub.get, RESULTS);
      assert.ok(passagesOf(qp).length > 0, 'the retry works');
      qp.hide();
      await again;
    } finally {
      input.restore();
      shownError.restore();
      await connection.clearKey(other);
      await setSetting('endpoint', local.url);
    }
  });
});
