#!/usr/bin/env node
// Runs the SAME integration suite as `npm run test:integration`, but in desktop VS Code through
// @vscode/test-electron — for a developer machine with internet access (it downloads VS Code into
// .vscode-test/ on first use). It cannot run on our offline CI machines; there, code-server is
// used instead (run-integration.mjs).
//
//   npm run build && node test/harness/run-with-test-electron.mjs              # VS Code 1.100.3
//   npm run build && node test/harness/run-with-test-electron.mjs --latest     # current stable
//   node test/harness/run-with-test-electron.mjs --version 1.117.0 --grep Activation
//
// On Linux without a display, wrap it in a virtual one: `xvfb-run -a node test/harness/...`.
// The local Shunong endpoint is started the same way as for code-server, and the extension host
// gets the same environment (SHUNONG_API_KEY, SHUNONG_ENDPOINT, SHUNONG_TEST_ENDPOINT_ORIGIN).

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { Cleanup, REPO, copySampleWorkspace, defaultSettings, log, makeTempDir } from './code-server.mjs';
import { startEndpoint } from './endpoint.mjs';

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
// Oldest supported by default (= engines.vscode), like `npm test` does with code-server 4.100.3.
const version = opt('--version') ?? (argv.includes('--latest') ? 'stable' : '1.100.3');
const grep = opt('--grep');

const SUITE = join(REPO, 'out', 'test', 'integration', 'suite', 'index.js');

async function main() {
  if (!existsSync(SUITE)) throw new Error(`${SUITE} is missing: run \`npm run build\` first`);
  const cleanup = new Cleanup();
  let code = 1;
  let stats = null;
  let resultsFile = null;
  try {
    const work = makeTempDir(cleanup);
    const endpoint = await startEndpoint(cleanup, { logName: 'endpoint-electron' });
    // A fresh user-data-dir with the same quiet settings; application-scoped `shunong.endpoint`
    // must be a user setting.
    const userDataDir = join(work, 'ud');
    mkdirSync(join(userDataDir, 'User'), { recursive: true });
    writeFileSync(
      join(userDataDir, 'User', 'settings.json'),
      JSON.stringify(defaultSettings({ 'shunong.endpoint': endpoint.url }), null, 2),
    );
    resultsFile = join(work, 'results.json');
    // The run's own copy of the sample workspace, as run-integration.mjs opens (the Activation suite checks it).
    const workspace = copySampleWorkspace(join(work, 'workspace'));

    code = await runTests({
      version,
      extensionDevelopmentPath: REPO,
      extensionTestsPath: SUITE,
      launchArgs: [
        workspace,
        '--user-data-dir',
        userDataDir,
        '--extensions-dir',
        join(work, 'ext'),
        '--disable-extensions', // other extensions; the one under development stays enabled
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
      extensionTestsEnv: {
        SHUNONG_API_KEY: endpoint.apiKey,
        SHUNONG_ENDPOINT: endpoint.url,
        SHUNONG_TEST_ENDPOINT_ORIGIN: endpoint.origin,
        SHUNONG_TEST_RESULTS: resultsFile,
        ...(grep ? { SHUNONG_TEST_GREP: grep } : {}),
      },
    });
  } catch (e) {
    // runTests rejects when the suite fails or VS Code cannot be downloaded / started.
    log(`FAILED: ${e?.message ?? e}`);
    code = 1;
  } finally {
    if (resultsFile && existsSync(resultsFile)) stats = JSON.parse(readFileSync(resultsFile, 'utf8'));
    await cleanup.run();
  }
  console.log(
    `${stats?.passes ?? 0} passed, ${stats ? stats.failures : 1} failed${stats?.pending ? `, ${stats.pending} skipped` : ''}`,
  );
  process.exit(code === 0 && stats && stats.failures === 0 ? 0 : 1);
}

await main();
