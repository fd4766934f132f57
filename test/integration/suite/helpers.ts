/** Shared helpers of the integration suite (runs inside the real VS Code extension host). */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionExports, ShunongApi } from '../../../src/extension';
import type { FlowItem, PassageItem } from '../../../src/features/search/items';

export const EXTENSION_ID = 'shunong-authors.shunong-vscode';

/** The display language the harness started the workbench in (`run-integration.mjs --locale`). */
export const DISPLAY_LANGUAGE = process.env['SHUNONG_TEST_LOCALE'] ?? 'en';

/** A JSON catalogue shipped with the extension (`package.nls.zh-cn.json`, `l10n/bundle.l10n.zh-cn.json`). */
export function catalogue(...file: string[]): Record<string, string> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not loaded`);
  return JSON.parse(fs.readFileSync(path.join(ext.extensionPath, ...file), 'utf8')) as Record<string, string>;
}

/**
 * `vscode.l10n.t(message, ...args)` as the display language's catalogue answers it: the expected
 * text of a string of ours, read from the shipped bundle (no second copy of any translation).
 */
export function displayed(message: string, ...args: string[]): string {
  const zh = DISPLAY_LANGUAGE === 'zh-cn' ? catalogue('l10n', 'bundle.l10n.zh-cn.json')[message] : undefined;
  assert.ok(DISPLAY_LANGUAGE !== 'zh-cn' || zh, `the zh-CN bundle translates ${message}`);
  return (zh ?? message).replace(/\{(\d+)\}/g, (_, n: string) => args[Number(n)]!);
}

/** The local endpoint the harness started (its URL and key come through the environment). */
export function localEndpoint(): { url: string; origin: string; key: string } {
  const url = process.env.SHUNONG_ENDPOINT;
  const key = process.env.SHUNONG_API_KEY;
  assert.ok(url && key, 'the harness must pass SHUNONG_ENDPOINT and SHUNONG_API_KEY');
  return { url, origin: new URL(url).origin, key };
}

/**
 * Activates the extension as VS Code does for a user, waits until its features have loaded and
 * started (the key from the environment stored, the connection's idle state known), and returns
 * its API.
 */
export async function api(): Promise<ShunongApi> {
  const ext = vscode.extensions.getExtension<ExtensionExports>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
  const exports = await ext.activate();
  await exports.loaded;
  return exports;
}

/** Changes the local endpoint's behaviour through its admin control. */
export async function admin(change: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${localEndpoint().origin}/__admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(change),
  });
  assert.equal(res.status, 200, 'admin control answers');
  return res.json();
}

/** Updates a `shunong.*` setting globally (application-scoped settings live there). */
export async function setSetting(name: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('shunong').update(name, value, vscode.ConfigurationTarget.Global);
}

/** Waits until `predicate` holds, polling the extension host's event loop (bounded). */
export async function until(predicate: () => boolean | Promise<boolean>, what: string, limit = 200): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await predicate()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for: ${what}`);
}

/** One request as the local endpoint recorded it on arrival; `status` stays 0 until a reply is sent. */
export interface EndpointRequest {
  readonly path: string;
  readonly rpcMethod?: string;
  readonly tool?: string;
  /** The `tools/call` arguments as sent. */
  readonly arguments?: Record<string, unknown>;
  readonly status: number;
}

/** Every request the local endpoint has received so far (its `GET /__admin/requests`), in order. */
export async function endpointRequests(): Promise<EndpointRequest[]> {
  const res = await fetch(`${localEndpoint().origin}/__admin/requests`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { requests: EndpointRequest[] }).requests;
}

/** The knowledge_search tool calls among `log`. */
export const knowledgeSearches = (log: readonly EndpointRequest[]): EndpointRequest[] =>
  log.filter((r) => r.rpcMethod === 'tools/call' && r.tool === 'knowledge_search');

/**
 * Makes `item` the active item of `qp`, waits until the workbench reports it active (its
 * `onDidChangeActive`, which comes back from the renderer), then accepts it as Enter would.
 */
export async function acceptItem<T extends vscode.QuickPickItem>(
  qp: vscode.QuickPick<T>,
  item: T | undefined,
): Promise<void> {
  assert.ok(item, 'the item to accept is offered');
  if (qp.activeItems[0] !== item) {
    let active = false;
    const listener = qp.onDidChangeActive((items) => {
      active = items[0] === item;
    });
    try {
      qp.activeItems = [item];
      await until(() => active, `"${item.label}" active in the workbench`);
    } finally {
      listener.dispose();
    }
  }
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

type Fn = (...args: never[]) => unknown;

/** Replaces a method of a VS Code API namespace for one test; returns the restore function and the calls. */
export function stub<T extends object, K extends keyof T>(
  target: T,
  key: K,
  impl: T[K] & Fn,
): { calls: unknown[][]; restore(): void } {
  const original = target[key];
  const calls: unknown[][] = [];
  const wrapped = ((...args: never[]) => {
    calls.push(args);
    return impl(...args);
  }) as T[K];
  (target as Record<K, T[K]>)[key] = wrapped;
  return { calls, restore: () => ((target as Record<K, T[K]>)[key] = original) };
}

/**
 * Runs `run` with every `vscode.window.showWarningMessage` answered `answer` (undefined: dismissed),
 * and returns what it returned and the warnings it showed (their arguments).
 */
export async function answeringWarnings<R>(
  answer: string | undefined,
  run: () => Thenable<R>,
): Promise<{ result: R; warnings: unknown[][] }> {
  const warned = stub(
    vscode.window,
    'showWarningMessage',
    (async () => answer) as unknown as typeof vscode.window.showWarningMessage,
  );
  try {
    return { result: await run(), warnings: warned.calls };
  } finally {
    warned.restore();
  }
}

/** Closes every editor without saving (untitled test documents would otherwise ask to be saved). */
export async function closeAllEditors(): Promise<void> {
  for (
    let i = 0;
    i < 50 && vscode.window.visibleTextEditors.length + vscode.window.tabGroups.all.flatMap((g) => g.tabs).length > 0;
    i++
  ) {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    if (!vscode.window.activeTextEditor) await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
}

// Each test file is bundled on its own, so a counter alone would repeat across files.
let scratchCount = 0;
const scratchRun = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Opens `content` as a Markdown file of its own (a fresh file under the OS temp folder) in an editor.
 * Untitled documents are not used: VS Code reuses `Untitled-N` names, and the extension host can
 * hand back a closed test's document for a new one with the same name.
 */
export async function openMarkdown(content: string): Promise<vscode.TextEditor> {
  const dir = path.join(os.tmpdir(), `shunong-it-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bulletin-${scratchRun}-${++scratchCount}.md`);
  fs.writeFileSync(file, content);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  return vscode.window.showTextDocument(doc);
}

/** Captures the real QuickPick the next command creates (the search flow's one quick input). */
export function captureQuickPick(): { get(): vscode.QuickPick<FlowItem> | undefined } {
  let qp: vscode.QuickPick<FlowItem> | undefined;
  const s = stub(vscode.window, 'createQuickPick', (() => {
    s.restore();
    qp = vscode.window.createQuickPick<FlowItem>();
    return qp;
  }) as typeof vscode.window.createQuickPick);
  return { get: () => qp };
}

/** The passages a step shows (the result items), in their order. */
export function passagesOf(qp: vscode.QuickPick<FlowItem>): PassageItem[] {
  return qp.items.filter((i): i is PassageItem => i.role === 'passage');
}

/** The id of what an item stands for: a vocabulary entry's or a no-hit offer's. */
export function itemId(i: FlowItem): string | undefined {
  return i.role === 'entry' ? i.entry.id : i.role === 'offer' ? i.offer.id : undefined;
}

/** Closes the quick input on screen (as Escape does). */
export async function closeQuickInput(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
}

/** Asserts that the passages shown are, in order, what the server ranks for the same search in the tea knowledge base. */
export async function assertServerOrder(shown: readonly PassageItem[], query: string): Promise<void> {
  const { connection } = await api();
  const direct = await connection.run((c) =>
    c.knowledgeSearch({ query, kbCode: 'TEA_MANAGER_001', topK: 5, scoreThreshold: 0.7, useRerank: false }),
  );
  assert.deepEqual(
    shown.map((i) => `${i.stored.passage.docName}#${i.stored.passage.chunkIndex}`),
    direct.sources.map((s) => `${s.doc_name}#${s.chunk_index}`),
    "the order shown is the server's ranking",
  );
}

/** The title of a results step: `"query": 1 passage · …`, `"query": 3 passages · …`, or `“query”：3 个片段 · …`. */
export const RESULTS = /": (?:1 passage|\d+ passages) ·|个片段 ·/;

/** Waits for a step of the search quick input whose title matches, not busy, with items. */
export async function stepTitled(
  get: () => vscode.QuickPick<FlowItem> | undefined,
  title: RegExp,
): Promise<vscode.QuickPick<FlowItem>> {
  await until(() => {
    const qp = get();
    return !!qp && !qp.busy && title.test(qp.title ?? '') && qp.items.length > 0;
  }, `quick pick step ${title}`);
  return get() as vscode.QuickPick<FlowItem>;
}

/** Opens `content` as a Markdown bulletin with the cursor at its end. */
export async function openBulletin(content: string): Promise<vscode.TextEditor> {
  const editor = await openMarkdown(content);
  const end = editor.document.positionAt(content.length);
  editor.selection = new vscode.Selection(end, end);
  return editor;
}

/**
 * Turns VS Code's AI features back on for the chat suites (the harness's user settings turn them
 * off); 1.100 has no such setting.
 */
export async function enableAIFeatures(): Promise<void> {
  const chat = vscode.workspace.getConfiguration('chat');
  if (chat.inspect('disableAIFeatures')?.defaultValue === undefined) return; // not a registered setting here
  await chat.update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
}
