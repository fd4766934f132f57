#!/usr/bin/env node
// `npm run demo`: builds the extension, starts the local Shunong endpoint, and opens the sample
// workspace (a draft bulletin in Markdown, test/fixtures/workspace/) in VS Code with the extension
// loaded in development mode, pointed at the local endpoint and given its key through the
// environment (SHUNONG_API_KEY, honoured in Development/Test mode only).
//
//  - Desktop VS Code when `code` is on PATH: a separate instance (own user-data-dir, so your
//    own settings and keys are untouched) with --extensionDevelopmentPath; the demo ends when
//    that window is closed.
//  - Otherwise code-server (VS Code 1.100) on 127.0.0.1; the URL to open is printed.
//
// Ctrl-C stops everything the demo started. Options:
//   --web          use code-server even when `code` is on PATH
//   --port N       code-server's port (default: a free one)
//   --screenshot   (code-server only) open the URL in headless Chromium, open the draft bulletin,
//                  save test-output/demo.png, and exit — a smoke check of the demo itself.
//   --no-build     skip `npm run build` (used by the test of the desktop path)

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Cleanup,
  OUTPUT_DIR,
  REPO,
  TARGETS,
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
const WORKSPACE = join(REPO, 'test', 'fixtures', 'workspace');
const BULLETIN = join(WORKSPACE, 'bulletins', '2026-11-茶园冬季管理.md');

const cleanup = new Cleanup();

function build() {
  log('building (npm run build)');
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
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
  const url = workbenchUrl(server, { folder: WORKSPACE, extensionDevelopmentPath: REPO });
  if (argv.includes('--screenshot')) return screenshot(url, work);
  console.log(`\nShunong demo (VS Code ${install.target.vscode} in code-server, extension in development mode)`);
  console.log(`  endpoint: ${endpoint.url}`);
  console.log(`  open:     ${url}\n`);
  console.log('Press Ctrl-C to stop.');
  await new Promise(() => {}); // until Ctrl-C (the Cleanup's signal handler exits)
}

/** Opens the demo in headless Chromium, opens the draft bulletin, and saves a screenshot. */
async function screenshot(url, work) {
  const browser = await launchBrowser(cleanup, { work });
  const { page } = await openWorkbench(browser, url, { viewport: { width: 1400, height: 860 } });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget .quick-input-box input').fill('茶园冬季管理');
  await page.locator('.quick-input-widget .monaco-list-row').first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  // Markdown opens → onLanguage:markdown activates the extension; wait for its status bar entry.
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
