/**
 * The language model tools through VS Code's own `vscode.lm.invokeTool`, against the local endpoint:
 * a hit (citation keys, knowledge base, the RRF score read as a rank), a miss (the platform's
 * explanation and the no-citation rule), bad input (nothing sent), no key; the confirmation text.
 * The search tool runs the search the commands run: for the same words and settings it sends the
 * same knowledge_search calls and answers the same passages in the same order.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { keyOf } from '../../../src/knowledge/history';
import {
  acceptItem,
  api,
  captureQuickPick,
  closeAllEditors,
  closeQuickInput,
  displayed,
  enableAIFeatures,
  endpointRequests,
  knowledgeSearches,
  localEndpoint,
  openBulletin,
  RESULTS,
  setSetting,
  stepTitled,
} from './helpers';

const none = new vscode.CancellationTokenSource().token;

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, none);
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

suite('chat: language model tools', function () {
  suiteSetup(async function () {
    if (typeof vscode.lm?.invokeTool !== 'function') this.skip(); // not in this VS Code
    await enableAIFeatures();
    await api();
  });

  test('the four tools are registered and declared, with prompt references', async function () {
    // Observed on 1.100.3: invokeTool reaches our tools, but vscode.lm.tools lists none of them (cause not
    // investigated); the listing is checked on the newer builds only.
    if (vscode.version.startsWith('1.100.')) this.skip();
    const shunong = vscode.lm.tools.filter((t) => t.name.startsWith('shunong_')).map((t) => t.name);
    assert.deepEqual(shunong.sort(), [
      'shunong_currentTime',
      'shunong_recognizeCrop',
      'shunong_searchKnowledge',
      'shunong_weather',
    ]);
    const pkg = vscode.extensions.getExtension('shunong-authors.shunong-vscode')!.packageJSON as {
      contributes: { languageModelTools: { name: string; toolReferenceName: string; modelDescription: string }[] };
    };
    const search = pkg.contributes.languageModelTools.find((t) => t.name === 'shunong_searchKnowledge')!;
    assert.equal(search.toolReferenceName, 'shunongKnowledge');
    assert.match(search.modelDescription, /not comparable/);
    assert.match(search.modelDescription, /no citation may be written/);
    const weather = pkg.contributes.languageModelTools.find((t) => t.name === 'shunong_weather')!;
    assert.match(weather.modelDescription, /a 9-digit code is more precise than a name/);
  });

  test('search, a hit: each passage with its citation key, knowledge base and its RRF score as a rank', async () => {
    const before = (await endpointRequests()).length;
    const text = await invoke('shunong_searchKnowledge', {
      query: '茶树修剪技术要点',
      kbCode: 'TEA_MANAGER_001',
      topK: 3,
    });
    assert.match(text, /^knowledge_search: [1-3] passage\(s\) for "茶树修剪技术要点" \(mode hybrid, score_type rrf/);
    assert.match(text, /\[1\] citation key: [^\n]+#\d+\n/);
    assert.match(text, /knowledge base: [^\n]+ \(TEA_MANAGER_001\)/);
    assert.match(text, /score: 0\.\d+ — Rank 1 of \d · likely found by/);
    assert.match(text, /they only order the results; they are not similarities/);
    const call = (await endpointRequests()).slice(before).find((r) => r.tool === 'knowledge_search');
    assert.deepEqual(call?.arguments, {
      query: '茶树修剪技术要点',
      kbCode: 'TEA_MANAGER_001',
      topK: 3,
      scoreThreshold: 0.7,
      useRerank: false,
    });
  });

  /** The citation keys of a tool answer, in its order, with the knowledge base each names. */
  const keysOf = (text: string): string[][] =>
    [...text.matchAll(/citation key: ([^\n]+)\nknowledge base: [^\n]* \(([^)]*)\)/g)].map((m) => [m[1]!, m[2]!]);

  test("the same search as Search Knowledge for Selection: the author's settings and the crop's knowledge base", async () => {
    const settings: [string, unknown][] = [
      ['knowledge.topK', 2],
      ['knowledge.scoreThreshold', 0.5],
      ['knowledge.useRerank', true],
      // The query step's search-as-you-type sends a request of its own once its quiet time passes —
      // on a slow host before this test's Enter — and that is not the search compared here.
      ['knowledge.searchAsYouType', false],
    ];
    for (const [name, value] of settings) await setSetting(name, value);
    try {
      const editor = await openBulletin('夏季要做好茶树修剪技术要点的宣传。\n');
      const doc = editor.document;
      const from = doc.getText().indexOf('茶树修剪技术要点');
      editor.selection = new vscode.Selection(doc.positionAt(from), doc.positionAt(from + '茶树修剪技术要点'.length));
      const beforeCommand = (await endpointRequests()).length;
      const cap = captureQuickPick();
      const run = Promise.resolve(
        vscode.commands.executeCommand<{
          record?: { passages: { passage: { docName: string; chunkIndex: number; kbCode: string } }[] };
        }>('shunong.searchSelection'),
      );
      let qp = await stepTitled(cap.get, /the query|查询语句/);
      await acceptItem(
        qp,
        qp.items.find((i) => i.role === 'search'),
      );
      qp = await stepTitled(cap.get, RESULTS);
      qp.hide();
      const shown = (await run).record?.passages.map((s) => [keyOf(s.passage), s.passage.kbCode]) ?? [];
      const commandCalls = knowledgeSearches((await endpointRequests()).slice(beforeCommand)).map((r) => r.arguments);

      const beforeTool = (await endpointRequests()).length;
      const text = await invoke('shunong_searchKnowledge', { query: '茶树修剪技术要点' });
      const toolCalls = knowledgeSearches((await endpointRequests()).slice(beforeTool)).map((r) => r.arguments);

      assert.deepEqual(commandCalls, [
        { query: '茶树修剪技术要点', kbCode: 'TEA_MANAGER_001', topK: 2, scoreThreshold: 0.5, useRerank: true },
      ]);
      assert.deepEqual(toolCalls, commandCalls, 'the tool sends what the command sent');
      assert.equal(shown.length, 2);
      assert.deepEqual(keysOf(text), shown, 'the same passages, in the same order');
    } finally {
      for (const [name] of settings) await setSetting(name, undefined);
      await closeQuickInput();
      await closeAllEditors();
    }
  });

  test('every knowledge base: searched one by one and fused by rank, as the command does; each passage names one base', async () => {
    const { knowledge } = await api();
    const forget = (): Thenable<void> => knowledge.store.update((s) => ({ ...s, bases: [], basesListed: false }));
    const sorted = (calls: (Record<string, unknown> | undefined)[]): string[] =>
      calls.map((c) => JSON.stringify(c)).sort();
    const query = '病虫害防治';

    await forget();
    const beforeCommand = (await endpointRequests()).length;
    const cap = captureQuickPick();
    const run = Promise.resolve(
      vscode.commands.executeCommand<{
        record?: { passages: { passage: { docName: string; chunkIndex: number; kbCode: string } }[] };
      }>('shunong.searchKnowledge', { query, topK: 5, scoreThreshold: 0.7, useRerank: false }),
    );
    const qp = await stepTitled(cap.get, RESULTS);
    qp.hide();
    const shown = (await run).record?.passages.map((s) => [keyOf(s.passage), s.passage.kbCode]) ?? [];
    const commandCalls = knowledgeSearches((await endpointRequests()).slice(beforeCommand)).map((r) => r.arguments);

    await forget();
    const beforeTool = (await endpointRequests()).length;
    const text = await invoke('shunong_searchKnowledge', { query });
    const toolCalls = knowledgeSearches((await endpointRequests()).slice(beforeTool)).map((r) => r.arguments);

    assert.ok(commandCalls.length > 2, 'a listing call, then one call per knowledge base');
    assert.deepEqual(sorted(toolCalls), sorted(commandCalls), 'the tool sends what the command sent');
    assert.ok(shown.length > 0);
    assert.deepEqual(keysOf(text), shown, 'the same passages, in the same fused order');
    assert.ok(
      keysOf(text).every(([, code]) => code !== '' && !code!.includes(',')),
      'each passage names one knowledge base',
    );
    assert.match(text, /knowledge bases searched one by one and their lists fused by rank/);
    assert.equal(knowledge.store.state.basesListed, true, 'the bases seen are remembered for the next search');
    await closeQuickInput();
  });

  test('search, a miss: the platform explanation and the rule that nothing may be cited', async () => {
    const text = await invoke('shunong_searchKnowledge', {
      query: '火星登陆舱推进剂燃烧效率',
      kbCode: 'TEA_MANAGER_001',
      scoreThreshold: 0.7,
    });
    assert.match(text, /^knowledge_search: NO passage matched \(a miss\)\. No citation may be written/);
    assert.match(text, /The platform said: [^\n]*未命中/);
    assert.match(text, /score_threshold=0\.7|threshold 0\.7/);
    assert.doesNotMatch(text, /citation key:/);
  });

  test('bad input: told to the model, nothing sent to the platform', async () => {
    const before = (await endpointRequests()).length;
    assert.match(await invoke('shunong_searchKnowledge', { query: '  ' }), /^Invalid input .*`query` must be/);
    assert.match(
      await invoke('shunong_searchKnowledge', { query: '小麦', topK: 99 }),
      /`topK` must be an integer from 1 to 20/,
    );
    assert.match(
      await invoke('shunong_recognizeCrop', { image: 'photos/tea-buds.jpg' }),
      /`recognitionType` must be one of/,
    );
    assert.match(
      await invoke('shunong_recognizeCrop', { image: '../outside.jpg', recognitionType: 'tea_count' }),
      /must stay inside the workspace folder|could not be read/,
    );
    assert.match(await invoke('shunong_weather', {}), /`location` must be a city name or a 9-digit city code/);
    assert.equal((await endpointRequests()).length, before, 'no request reached the endpoint');
  });

  test('weather (now and forecast), current time, recognition of a workspace photo', async () => {
    assert.match(
      await invoke('shunong_weather', { location: '成都' }),
      /^weather_search \(now\) for "成都" \(city code \d{9}\):\nweather: /,
    );
    assert.match(
      await invoke('shunong_weather', { location: '成都', date: '2026-11-20' }),
      /^weather_search \(7-day forecast\) for "成都":\n\d{4}-\d\d-\d\d /,
    );
    assert.match(await invoke('shunong_currentTime', {}), /^get_current_time: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(/);
    assert.match(await invoke('shunong_currentTime', {}), /Current solar term: \S+ \(since \d{4}-\d\d-\d\d\); next: /);
    const tea = await invoke('shunong_recognizeCrop', { image: 'photos/tea-buds.jpg', recognitionType: 'tea_count' });
    assert.match(tea, /^crop_growth_recognize with model tea_count \(/);
    assert.match(tea, /detections: \d+/);
  });

  test('no key: the tool says how to set one, and nothing reaches the endpoint', async () => {
    const { connection } = await api();
    const local = localEndpoint();
    await connection.clearKey();
    try {
      const before = (await endpointRequests()).length;
      const text = await invoke('shunong_currentTime', {});
      assert.equal(
        text,
        // the frame is for the model; the sentence inside is the one the author would read
        `The Shunong platform call failed: ${displayed('No API key is set for {0}. Run "Shunong: Set API Key".', local.url)}`,
      );
      assert.equal((await endpointRequests()).length, before);
    } finally {
      await connection.storeKey(local.key, local.url);
    }
  });

  test('the confirmation names the endpoint and the arguments (prepareInvocation)', async () => {
    const { chat } = await api();
    const prepared = await chat.prepare('shunong_searchKnowledge', { query: '小麦 拔节期 追肥', topK: 3 });
    const local = localEndpoint();
    assert.equal(prepared.invocationMessage, displayed('Asking the Shunong platform at {0}…', local.url));
    assert.equal(prepared.confirmationMessages?.title, displayed('Search the Shunong knowledge base'));
    const message = prepared.confirmationMessages!.message;
    const md = typeof message === 'string' ? message : message.value;
    assert.ok(
      md
        .replace(/\\/g, '')
        .replace(/&nbsp;/g, ' ')
        .includes(displayed('Send this request to the Shunong platform at {0}?', local.url)),
      md,
    );
    // what will be sent: the model's arguments over the author's settings, the crop's knowledge base
    assert.ok(
      md.includes(
        '```text\nquery: 小麦 拔节期 追肥\nkbCode: WHEAT_001\ntopK: 3\nscoreThreshold: 0.7\nuseRerank: false\n```',
      ),
      md,
    );
  });
});
