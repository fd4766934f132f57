/**
 * Search-as-you-type in the free-text search ("Search Knowledge for Selection"), inside a real VS
 * Code against the local endpoint. The test builds the search session with the extension's store,
 * passage documents and connection, and a debouncer on a ManualScheduler, so "time" between
 * keystrokes is moved by the test, never waited for; requests are counted at the endpoint itself
 * (GET /__admin/requests).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { freeTextOptions } from '../../../src/features/search/index';
import type { FlowItem } from '../../../src/features/search/items';
import { SearchSession } from '../../../src/features/search/session';
import { Failures } from '../../../src/features/shared/failures';
import * as knowledgeLib from '../../../src/knowledge/index';
import { createLatestOnly } from '../../../src/knowledge/latestOnly';
import { ManualScheduler } from '../../support/manual-scheduler';
import {
  acceptItem as accept,
  admin,
  api,
  assertServerOrder,
  closeAllEditors,
  endpointRequests,
  knowledgeSearches,
  openMarkdown,
  itemId,
  passagesOf as passages,
  RESULTS,
  setSetting,
  stub,
  until,
} from './helpers';

const DEBOUNCE = 300;
const KEY_GAP = 120; // between keystrokes: under the debounce
const TEXT = '夏季茶树修剪技术要点'; // ten characters

/** The session on screen and the counters of its debouncer (undefined until the first keystroke makes it). */
let session: SearchSession | undefined;
/** What the search-as-you-type saw, counted from outside it: calls made, requests sent, requests aborted. */
interface TypingCounts {
  calls: number;
  sent: number;
  aborted: number;
}
let typingStats: () => TypingCounts | undefined = () => undefined;

/** The log of this suite's own sessions (the features' is the extension's). */
let channel: vscode.LogOutputChannel | undefined;
function output(): vscode.LogOutputChannel {
  return (channel ??= vscode.window.createOutputChannel('Shunong (typing suite)', { log: true }));
}

/**
 * Opens the free-text search on an empty bulletin, as "Search Knowledge for Selection" does, its
 * debouncer on `clock`, and waits for its query step.
 */
async function openQueryStep(clock: ManualScheduler): Promise<{
  qp: vscode.QuickPick<FlowItem>;
  run: Promise<{ status: string; record?: { options: { query: string } } }>;
  editor: vscode.TextEditor;
}> {
  const editor = await openMarkdown('\n');
  const { connection, knowledge } = await api();
  typingStats = () => undefined;
  const s = new SearchSession(
    {
      connection,
      failures: new Failures(output(), connection),
      store: knowledge.store,
      docs: knowledge.docs,
      safety: knowledge.safety,
      knowledge: () => knowledgeLib,
      debounce: <I, R>(request: (input: I, signal: AbortSignal) => Promise<R>) => {
        const counts: TypingCounts = { calls: 0, sent: 0, aborted: 0 };
        const live = createLatestOnly(
          (input: I, signal: AbortSignal) => {
            counts.sent++;
            signal.addEventListener('abort', () => counts.aborted++);
            return request(input, signal);
          },
          { delayMs: DEBOUNCE, scheduler: clock },
        );
        typingStats = () => counts;
        return Object.assign(
          (input: I) => {
            counts.calls++;
            return live(input);
          },
          {
            now: (input: I) => {
              counts.calls++;
              return live.now(input);
            },
            cancel: () => live.cancel(),
          },
        );
      },
    },
    editor,
  );
  session = s;
  const run = s.searchFreeText(freeTextOptions(editor, knowledgeLib)).finally(() => s.dispose());
  const qp = s.input.qp;
  await until(
    () => /the query|查询语句/.test(qp.title ?? '') && qp.items.some((i) => i.role === 'search'),
    'the query step',
  );
  return { qp, run, editor };
}

/**
 * Types `text` one character at a time into the quick pick (each value seen by the session before
 * the next), moving the virtual clock by `gap(i)` after keystroke i.
 */
async function type(
  qp: vscode.QuickPick<FlowItem>,
  clock: ManualScheduler,
  text: string,
  gap: (i: number) => number,
  from = 0,
): Promise<void> {
  const chars = [...text];
  for (let i = from; i < chars.length; i++) {
    const seen = typingStats()?.calls ?? 0;
    qp.value = chars.slice(0, i + 1).join('');
    // A one-character query is not searched (no call), but it creates the debouncer.
    await until(
      () => (i === 0 ? typingStats() !== undefined : (typingStats()?.calls ?? 0) > seen),
      `keystroke ${i + 1} seen`,
    );
    await clock.advance(gap(i));
  }
}

suite('Search as you type', () => {
  let clock: ManualScheduler;

  setup(async () => {
    clock = new ManualScheduler();
    await setSetting('knowledge.defaultKbCode', 'TEA_MANAGER_001');
  });

  teardown(async () => {
    session?.input.qp.hide();
    session = undefined;
    await admin({ latencyMs: 0 });
    await setSetting('knowledge.defaultKbCode', undefined);
    await closeAllEditors();
  });

  test("ten keystrokes send one request; the last query's passages in the server's order; Enter on one inserts it", async () => {
    const { knowledge } = await api();
    const before = (await endpointRequests()).length;
    const { qp, run, editor } = await openQueryStep(clock);
    assert.equal((qp as unknown as { sortByLabel?: boolean }).sortByLabel, false, 'no re-sorting by label');

    await type(qp, clock, TEXT, () => KEY_GAP);
    assert.equal(
      knowledgeSearches((await endpointRequests()).slice(before)).length,
      0,
      'nothing sent while typing fast',
    );
    await clock.advance(DEBOUNCE);
    await until(() => passages(qp).length > 0 && !qp.busy, 'the passages of the typed query');

    const sent = knowledgeSearches((await endpointRequests()).slice(before));
    assert.ok(sent.length <= 2, `at most two requests for ten keystrokes (got ${sent.length})`);
    assert.equal(sent.length, 1);
    assert.equal(typingStats()?.sent, 1);

    const shown = passages(qp);
    assert.ok(
      shown.every((i) => i.alwaysShow === true),
      "VS Code's filter by the typed text hides no passage",
    );
    assert.equal(qp.items[0]?.role, 'search', 'Enter on the typed text runs the full search');
    assert.ok(
      shown.every((i) => i.stored?.passage.query === TEXT),
      "the passages are the last query's",
    );
    await assertServerOrder(shown, TEXT);

    const first = shown[0];
    assert.ok(first?.stored);
    await accept(qp, first);
    const result = await run;
    assert.equal(result.status, 'inserted');
    assert.ok(
      editor.document.getText().includes(first.stored.passage.content.split('\n')[0] ?? '?'),
      'the snippet is in the bulletin',
    );
    assert.equal(knowledge.store.state.history[0]?.options.query, TEXT, 'the search used is in the history');
  });

  test('a pause sends a request; the next keystroke aborts it at the endpoint; two requests in all; Enter runs the full search', async () => {
    const before = (await endpointRequests()).length;
    const { qp, run } = await openQueryStep(clock);
    await admin({ latencyMs: 5000 });

    await type(qp, clock, TEXT.slice(0, 5), () => KEY_GAP);
    await clock.advance(DEBOUNCE); // the pause: the request for the first five characters goes out
    await until(
      async () => qp.busy && knowledgeSearches((await endpointRequests()).slice(before)).length === 1,
      'the first request in flight (busy)',
    );

    await type(qp, clock, TEXT, () => KEY_GAP, 5); // the sixth keystroke supersedes it
    await admin({ latencyMs: 0 });
    await clock.advance(DEBOUNCE);
    await until(() => passages(qp).length > 0 && !qp.busy, 'the passages of the whole query');
    assert.ok(
      passages(qp).every((i) => i.stored?.passage.query === TEXT),
      'the superseded answer is never shown',
    );

    await until(
      async () => (await endpointRequests()).slice(before).some((r) => r.rpcMethod === 'notifications/cancelled'),
      'the endpoint told of the abort',
    );
    const sent = knowledgeSearches((await endpointRequests()).slice(before));
    assert.equal(sent.length, 2, 'two requests for ten keystrokes with one pause');
    assert.equal(sent[0]?.status, 0, 'the superseded request was closed before any reply');
    assert.equal(sent[1]?.status, 200);
    assert.equal(typingStats()?.aborted, 1);

    // Enter on the typed text: the full search, as before.
    await accept(
      qp,
      qp.items.find((i) => i.role === 'search'),
    );
    await until(() => RESULTS.test(qp.title ?? '') && !qp.busy && passages(qp).length > 0, "the full search's results");
    assert.equal(knowledgeSearches((await endpointRequests()).slice(before)).length, 3, 'Enter sent the full search');
    qp.hide();
    const result = await run;
    assert.equal(result.status, 'closed');
    assert.equal(result.record?.options.query, TEXT);
  });

  test('while typing, a miss and a failure are quiet items, never notifications; Enter still shows the miss and its offers', async () => {
    const notes: unknown[][] = [];
    const stubs = (['showErrorMessage', 'showWarningMessage', 'showInformationMessage'] as const).map((k) =>
      stub(vscode.window, k, ((...args: unknown[]) => {
        notes.push(args);
        return Promise.resolve(undefined);
      }) as never),
    );
    try {
      const { qp, run } = await openQueryStep(clock);
      await type(qp, clock, '火星登陆舱推进剂', () => KEY_GAP);
      await clock.advance(DEBOUNCE);
      await until(
        () => qp.items.some((i) => i.role === 'info' && /No passage|暂无片段/.test(i.label)) && !qp.busy,
        'the quiet miss',
      );
      assert.equal(passages(qp).length, 0);

      await setSetting('knowledge.defaultKbCode', 'NO_SUCH_KB');
      qp.hide();
      await run;
      const again = await openQueryStep(clock);
      await type(again.qp, clock, '茶树修剪', () => KEY_GAP);
      await clock.advance(DEBOUNCE);
      await until(
        () => again.qp.items.some((i) => i.role === 'info' && /\$\(warning\)/.test(i.label)) && !again.qp.busy,
        'the failure as an item',
      );
      assert.equal(notes.length, 0, `no notification while typing: ${JSON.stringify(notes)}`);
      again.qp.hide();
      await again.run;

      await setSetting('knowledge.defaultKbCode', 'TEA_MANAGER_001');
      const third = await openQueryStep(clock);
      await type(third.qp, clock, '火星登陆舱推进剂', () => KEY_GAP);
      await accept(
        third.qp,
        third.qp.items.find((i) => i.role === 'search'),
      );
      await until(
        () => /No passage matched|未命中/.test(third.qp.title ?? '') && third.qp.items.some((i) => i.role === 'offer'),
        'the full miss with its offers',
      );
      // TEA_MANAGER_001's 24 vector candidates, all under the default 0.7 (best 0.5018): what the miss shows.
      const shown = third.qp.items.map((i) => i.label).join('\n');
      assert.match(shown, /24 vector \/ 0 full-text|向量 24 条 \/ 全文 0 条/);
      assert.match(shown, /0\.7.*24.*0\.5018/);
      assert.deepEqual(third.qp.items.filter((i) => i.role === 'offer').map(itemId), [
        'refine',
        'all-knowledge-bases',
        'lower-threshold',
      ]);
      third.qp.hide();
      assert.equal((await third.run).status, 'closed');
    } finally {
      for (const s of stubs) s.restore();
    }
  });
});
