/**
 * Chat bench (`npm run bench -- chat`; build first): runs test/integration/chatbench inside VS Code
 * 1.139 through the integration harness and prints its `BENCH` lines — `vscode.lm.invokeTool` and
 * VS Code's own MCP client against our client directly, 300 ms of endpoint latency, side by side.
 * Smoke mode (SHUNONG_BENCH_SMOKE=1, inherited by the harness and the extension host, read there
 * through bench/smoke.mjs): 1 round. The harness's `N passed, N failed` line is printed prefixed, so
 * that the CI summary counts this bench once, by the runner's closing line.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const repo = join(__dirname, '..');
const r = spawnSync(
  process.execPath,
  [
    join(repo, 'test', 'harness', 'run-integration.mjs'),
    '--latest',
    '--suite',
    join(repo, 'out', 'test', 'integration', 'chatbench', 'index.js'),
  ],
  { cwd: repo, encoding: 'utf8' },
);
const lines = `${r.stdout}`.split('\n').filter((l) => l.includes('BENCH') || /passed, \d+ failed/.test(l));
for (const l of lines) console.log(l.includes('BENCH') ? l.replace(/^.*?BENCH /, '') : `chat suite: ${l.trim()}`);
if (r.status !== 0) process.stderr.write(`${r.stderr ?? ''}`.slice(-4000));
process.exit(r.status ?? 1);
