#!/usr/bin/env node
// `npm run demo`: builds the extension, starts the local Shunong endpoint, and opens a copy of the
// sample workspace (test/fixtures/workspace/: a draft bulletin in Markdown, a citation example and
// a few crop photos) in VS Code with the draft bulletin open, the extension loaded in development
// mode, pointed at the local endpoint and given its key through the environment (SHUNONG_API_KEY,
// honoured in Development/Test mode only).
//
// The demo works in a scratch copy, test-output/demo-workspace/ (ignored by git), made from the
// sample workspace when it does not exist yet: what the author writes and the recognition pictures
// saved there survive the demo and the next run, and nothing tracked changes. `--fresh` starts
// over from the sample workspace.
//
//  - Desktop VS Code when `code` is on PATH: a separate instance (own user-data-dir, so your
//    own settings and keys are untouched) with --extensionDevelopmentPath; the demo ends when
//    that window is closed.
//  - Otherwise code-server (VS Code 1.100) on 127.0.0.1; the URL to open is printed.
//
// Ctrl-C stops everything the demo started. Options:
//   --fresh        replace the scratch copy with a new copy of the sample workspace
//   --workspace D  keep the scratch copy in folder D instead (made from the sample workspace if missing)
//   --web          use code-server even when `code` is on PATH
//   --port N       code-server's port (default: a free one)
//   --screenshot   (code-server only) open the URL in headless Chromium, wait for the draft bulletin
//                  to be open, save test-output/demo.png, and exit — a smoke check of the demo itself.
//   --no-build     skip `npm run build` (used by the test of the desktop path)

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  Cleanup,
  OUTPUT_DIR,
  REPO,
  SAMPLE_WORKSPACE,
  TARGETS,
  copySampleWorkspace,
  defaultSettings,
  installCodeServer,
  launchBrowser,
  log,
  makeTempDir,
  openWorkbench,
  sleep,
  startCodeServer,
  workbenchUrl,
} from './code-server.mjs';
import { startEndpoint } from './endpoint.mjs';

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
/** The draft bulletin, relative to the workspace. */
const BULLETIN_IN_WORKSPACE = join('bulletins', '2026-11-茶园冬季管理.md');
/** The scratch copy the demo opens. */
const WORKSPACE = resolve(opt('--workspace') ?? join(OUTPUT_DIR, 'demo-workspace'));
const BULLETIN = join(WORKSPACE, BULLETIN_IN_WORKSPACE);

const cleanup = new Cleanup();

function build() {
  log('building (npm run build)');
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
}

/** Makes the scratch copy from the sample workspace (again with --fresh); answers whether it was made now. */
function prepareWorkspace() {
  const inRepo = relative(REPO, WORKSPACE);
  if (!inRepo.startsWith('..') && !isAbsolute(inRepo) && !WORKSPACE.startsWith(OUTPUT_DIR + sep))
    throw new Error(
      `--workspace ${WORKSPACE}: inside the repository only under ${OUTPUT_DIR} (tracked files must not change)`,
    );
  const fresh = argv.includes('--fresh');
  if (fresh) rmSync(WORKSPACE, { recursive: true, force: true });
  if (existsSync(WORKSPACE)) return false;
  copySampleWorkspace(WORKSPACE);
  return true;
}

function hasDesktopCode() {
  return spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).stdout.trim() !== '';
}

async function desktop(endpoint, work) {
  const userDataDir = join(work, 'ud');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(defaultSettings({ 'shunong.endpoint': endpoint.url }), null, 2),
  );
  const args = [
    '--new-window',
    '--wait',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    join(work, 'ext'),
    `--extensionDevelopmentPath=${REPO}`,
    '--disable-workspace-trust',
    WORKSPACE,
    BULLETIN,
  ];
  log('opening desktop VS Code (close its window or press Ctrl-C to end the demo)');
  const child = spawn('code', args, {
    stdio: 'inherit',
    detached: true,
    env: { ...process.env, SHUNONG_API_KEY: endpoint.apiKey, SHUNONG_ENDPOINT: endpoint.url },
  });
  cleanup.addProcess(child, 'VS Code');
  await new Promise((r) => child.on('exit', r));
}

async function web(endpoint, work) {
  const install = installCodeServer(TARGETS.oldest);
  const port = opt('--port') ? Number(opt('--port')) : undefined;
  const server = await startCodeServer(cleanup, {
    install,
    work,
    port,
    logName: 'code-server-demo',
    env: { SHUNONG_API_KEY: endpoint.apiKey, SHUNONG_ENDPOINT: endpoint.url },
    settings: { 'shunong.endpoint': endpoint.url, 'workbench.colorTheme': 'Default Light Modern' },
  });
  // The web workbench opens the payload's `openFile` (as `code <folder> <file>` does on the desktop).
  const bulletin = `vscode-remote://127.0.0.1:${server.port}${encodeURI(BULLETIN)}`;
  const url = workbenchUrl(server, {
    folder: WORKSPACE,
    extensionDevelopmentPath: REPO,
    extra: [['openFile', bulletin]],
  });
  if (argv.includes('--screenshot')) return screenshot(url, work);
  console.log(`\nShunong demo (VS Code ${install.target.vscode} in code-server, extension in development mode)`);
  console.log(`  endpoint:  ${endpoint.url}`);
  console.log(`  workspace: ${WORKSPACE}`);
  console.log(`  open:      ${url}\n`);
  console.log('Press Ctrl-C to stop.');
  await new Promise(() => {}); // until Ctrl-C (the Cleanup's signal handler exits)
}

/** Opens the demo in headless Chromium, waits for the draft bulletin to be open, and saves a screenshot. */
async function screenshot(url, work) {
  const browser = await launchBrowser(cleanup, { work });
  const { page } = await openWorkbench(browser, url, { viewport: { width: 1400, height: 860 } });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
  // The URL opens the bulletin by itself: its tab is there without any key pressed.
  await page.locator('.tabs-container .tab', { hasText: '茶园冬季管理' }).first().waitFor({ timeout: 30_000 });
  // Markdown is open → onLanguage:markdown activates the extension; wait for its status bar entry.
  await page.locator('.part.statusbar [aria-label*="Shunong"]').first().waitFor({ timeout: 60_000 });
  await page
    .locator('.part.statusbar [aria-label*="Shunong: connected"]')
    .first()
    .waitFor({ timeout: 30_000 })
    .catch(() => log('the status bar never said connected'));
  await sleep(1500);
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const file = join(OUTPUT_DIR, 'demo.png');
  await page.screenshot({ path: file });
  log(`saved ${file}`);
}

try {
  const made = prepareWorkspace();
  log(
    `workspace: ${WORKSPACE} (${made ? 'a new copy of' : 'your copy from an earlier run of'} ${relative(REPO, SAMPLE_WORKSPACE)}; ` +
      'nothing tracked changes; --fresh starts over)',
  );
  if (!argv.includes('--no-build')) build();
  const work = makeTempDir(cleanup);
  const endpoint = await startEndpoint(cleanup, { logName: 'endpoint-demo' });
  if (hasDesktopCode() && !argv.includes('--web') && !argv.includes('--screenshot')) await desktop(endpoint, work);
  else await web(endpoint, work);
  await cleanup.run();
  process.exit(0);
} catch (e) {
  log(`FAILED: ${e?.message ?? e}`);
  await cleanup.run();
  process.exit(1);
}
