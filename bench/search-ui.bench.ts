/**
 * Knowledge search bench in the real VS Code (code-server): time from Enter to results shown
 * against the bare tool call on the same local endpoint (goal: ratio ≤ 1.2). The work is
 * done by bench/search-ui.mjs (it shares the code-server harness and the e2e helpers, which are
 * plain JavaScript); this file only runs it, so `npm run bench` finds it like every other `*.bench.ts`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const r = spawnSync(process.execPath, [join(__dirname, 'search-ui.mjs'), ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
