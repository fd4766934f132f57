/**
 * The chat bench, run inside VS Code 1.139 by bench/chat.bench.ts (through the integration harness,
 * `--suite out/test/integration/chatbench/index.js`). With 300 ms of endpoint latency (the local
 * endpoint's `latencyMs`, which every client pays, ours and VS Code's alike), alternated, median of
 * BENCH_ROUNDS (default 5) rounds each:
 *  - a knowledge_search through `vscode.lm.invokeTool('shunong_searchKnowledge')` against the same
 *    call through our client directly (`connection.run`) (goal ≤ 1.1×);
 *  - a warm call through VS Code's own MCP client (the "Shunong" server we provide) against the
 *    direct client (goal ≤ 1.2×).
 * Prints one `BENCH …` line per figure, and the harness's statistics line (one "test": the run).
 */
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ExtensionExports } from '../../../src/extension';
import { sized } from '../../../bench/smoke.mjs';
import { MCP_SERVER_ID, startMcpUntilListed } from '../mcpStart';

// smoke mode (SHUNONG_BENCH_SMOKE=1, passed through the harness to the extension host): 1 round
const ROUNDS = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? sized(5, 1)));
const ARGS = { query: '茶树修剪技术要点', kbCode: 'TEA_MANAGER_001', topK: 3 };
const none = new vscode.CancellationTokenSource().token;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function admin(change: Record<string, unknown>): Promise<void> {
  const origin = new URL(process.env['SHUNONG_ENDPOINT']!).origin;
  const res = await fetch(`${origin}/__admin`, { method: 'POST', body: JSON.stringify(change) });
  if (res.status !== 200) throw new Error(`admin answered ${res.status}`);
}

async function measure(): Promise<void> {
  const api = await vscode.extensions.getExtension<ExtensionExports>('shunong-authors.shunong-vscode')!.activate();
  await api.loaded;
  const chat = vscode.workspace.getConfiguration('chat');
  if (chat.inspect('disableAIFeatures')?.defaultValue !== undefined) {
    await chat.update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
  }
  const direct = (): Promise<unknown> => api.connection.run((c) => c.knowledgeSearch(ARGS));
  const tool = async (): Promise<unknown> =>
    vscode.lm.invokeTool('shunong_searchKnowledge', { input: ARGS, toolInvocationToken: undefined }, none);
  // asked again until the tools are listed: the key's change event reaches VS Code asynchronously
  const [mcpName] = await startMcpUntilListed(/knowledge_search/);
  if (!mcpName) throw new Error("VS Code's MCP client listed no knowledge_search tool");
  const viaMcp = async (): Promise<unknown> =>
    vscode.lm.invokeTool(mcpName!, { input: ARGS, toolInvocationToken: undefined }, none);
  await admin({ latencyMs: 300 });
  try {
    // warm every path once (sessions initialised, tool lists known)
    await direct();
    await tool();
    await viaMcp();
    const d: number[] = [];
    const t: number[] = [];
    const m: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      d.push(await time(direct));
      t.push(await time(tool));
      m.push(await time(viaMcp));
    }
    const [md, mt, mm] = [median(d), median(t), median(m)];
    console.log(`BENCH direct client knowledge_search: median ${md.toFixed(0)} ms (${ROUNDS} rounds, 300 ms latency)`);
    console.log(
      `BENCH vscode.lm.invokeTool(shunong_searchKnowledge): median ${mt.toFixed(0)} ms = ${(mt / md).toFixed(2)}× direct (goal ≤ 1.1×)`,
    );
    console.log(
      `BENCH VS Code's MCP client (warm): median ${mm.toFixed(0)} ms = ${(mm / md).toFixed(2)}× direct (goal ≤ 1.2×)`,
    );
  } finally {
    await admin({ latencyMs: 0 });
    await vscode.commands.executeCommand('workbench.mcp.stopServer', MCP_SERVER_ID);
  }
}

/** The harness's entry. */
export async function run(): Promise<void> {
  let failures = 0;
  try {
    await measure();
  } catch (err) {
    failures = 1;
    console.log(`BENCH failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const stats = { passes: 1 - failures, failures, pending: 0, tests: 1, duration: 0 };
  console.log(`SHUNONG_MOCHA_STATS ${JSON.stringify(stats)}`);
  const out = process.env['SHUNONG_TEST_RESULTS'];
  if (out) fs.writeFileSync(out, JSON.stringify(stats));
  if (failures) throw new Error('the chat bench failed');
}
