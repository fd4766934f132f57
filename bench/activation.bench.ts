/**
 * Activation bench in the real VS Code (code-server): our activation and the host's thread until
 * an open bulletin's Problems are published, against an anchor extension's over a like span, and
 * the sizes of dist/extension.js and of the .vsix. The work is done by
 * bench/activation.mjs (it shares the code-server harness, which is plain JavaScript); this file
 * only runs it, so `npm run bench` finds it like every other `*.bench.ts`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const r = spawnSync(process.execPath, [join(__dirname, 'activation.mjs'), ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
