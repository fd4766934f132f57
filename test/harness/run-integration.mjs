#!/usr/bin/env node
// `npm run test:integration` (VS Code 1.100 via code-server 4.100.3, on the machine's Node 20) and
// `npm run test:latest` (`--latest`: VS Code 1.139 via code-server 4.139.1, on Node 24 from npm).
//
// Runs the mocha suite out/test/integration/suite/index.js (compiled by `npm run build`) inside the
// real VS Code extension host:
//   1. installs the pinned code-server under .vscode-test/ unless it is already there;
//   2. starts the local Shunong endpoint (test/emulator) on 127.0.0.1;
//   3. installs test/fixtures/footnote-plugin-extension (another extension's markdown-it-footnote,
//      a stand-in for Markdown Footnotes; not in --restricted) and test/fixtures/scripted-model-extension
//      (a language model that invents citations; not in --restricted) into the run's extensions dir;
//      starts code-server on 127.0.0.1 with SHUNONG_API_KEY / SHUNONG_ENDPOINT /
//      SHUNONG_TEST_ENDPOINT_ORIGIN in the extension host's environment and `shunong.endpoint`
//      in the user settings;
//   4. opens the workbench in headless Chromium with a private copy of the sample workspace and the payload
//      extensionDevelopmentPath + extensionTestsPath; prints the mocha output as it arrives;
//   5. exits with the suite's code and prints `N passed, N failed` last.
//
// Options: --latest, --grep <regexp> (only matching tests), --timeout <seconds> (default 300,
// for the whole run after the install), --suite <compiled index.js> (another suite entry),
// --locale zh-cn (the workbench in Chinese: the test language pack installed, `--locale zh-cn`;
// default en). SHUNONG_KEEP_TMP=1 keeps the temp dir for debugging.
//
// --restricted (`npm run test:restricted`): the Restricted Mode suite (test/integration/restricted/)
// in a folder the workbench does not trust: workspace trust on (no --disable-workspace-trust,
// security.workspace.trust.enabled true, no startup prompt), the folder a copy of the sample
// workspace in the private temp dir (never trusted), whose .vscode/settings.json sets the two
// restricted settings (bulletin.template, pointing at a template in the folder, and
// recognition.saveFolder) and one that is not restricted (citations.referencesHeading).
//
// --production: the Production suite (test/integration/production/) against the packaged .vsix,
// installed with `code-server --install-extension` (Production mode, as users get it: the features
// load in the task after activation, and no key comes from the environment), not yet active when
// the suite starts. The suite is held by a code-less development extension written into the temp
// dir (the web workbench runs extensionTestsPath only with one), as bench/activation.mjs does.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  Cleanup,
  REPO,
  SAMPLE_WORKSPACE,
  copySampleWorkspace,
  installCodeServer,
  installDisplayLanguage,
  installFootnotePlugin,
  installScriptedModel,
  launchBrowser,
  localesFromArgs,
  log,
  makeTempDir,
  installVsix,
  packageVsix,
  runExtensionTests,
  startCodeServer,
  targetFromArgs,
} from './code-server.mjs';
import { startEndpoint } from './endpoint.mjs';

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const target = targetFromArgs(argv);
const timeoutSec = Number(opt('--timeout') ?? 300);
const grep = opt('--grep');
const locales = localesFromArgs(argv);
if (locales.length !== 1)
  throw new Error('run-integration.mjs runs in one display language at a time (--locale en | zh-cn)');
const locale = locales[0];

const restricted = argv.includes('--restricted');
const production = argv.includes('--production');
const kind = restricted ? 'restricted' : production ? 'production' : 'suite';
const SUITE = opt('--suite') ? resolve(opt('--suite')) : join(REPO, 'out', 'test', 'integration', kind, 'index.js');

/** The untrusted folder of the Restricted Mode suite: a copy of the sample workspace with workspace settings. */
function untrustedFolder(work) {
  const dir = join(work, 'untrusted');
  copySampleWorkspace(dir);
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'templates', 'bulletin.md'), '# TEMPLATE OF THE WORKSPACE {{title}}\n');
  const settings = {
    'shunong.bulletin.template': 'templates/bulletin.md',
    'shunong.recognition.saveFolder': 'restricted/saves',
    'shunong.export.docxTemplate': 'templates/house.docx',
    'shunong.citations.referencesHeading': '参考文献（工作区）',
  };
  writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
  return dir;
}

/**
 * --production: installs the packaged .vsix into `extensionsDir` and writes the code-less
 * development extension that holds the suite; returns its folder.
 */
function installForProduction(install, work, extensionsDir) {
  const vsix = packageVsix(join(work, 'shunong-vscode.vsix'));
  log(installVsix(install, vsix, extensionsDir, work).split('\n').pop());
  const runner = join(work, 'production-runner');
  mkdirSync(runner, { recursive: true });
  const { engines } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  writeFileSync(
    join(runner, 'package.json'),
    JSON.stringify({ name: 'production-runner', publisher: 'shunong-tests', version: '0.0.1', engines }, null, 2),
  );
  return runner;
}

async function main() {
  for (const [file, hint] of [
    [SUITE, 'npm run build'],
    [join(REPO, 'dist', 'extension.js'), 'npm run build'],
    [SAMPLE_WORKSPACE, 'the sample workspace is missing'],
  ]) {
    if (!existsSync(file)) throw new Error(`${file} is missing (${hint})`);
  }
  const cleanup = new Cleanup();
  let exitCode = 1;
  let stats = null;
  const started = Date.now();
  try {
    const install = installCodeServer(target);
    const runStart = Date.now();
    // The whole run after the install is time-limited; the suite itself gets what is left.
    const deadline = runStart + timeoutSec * 1000;
    const watchdog = setTimeout(
      () => {
        log(`FAILED: the integration run exceeded ${timeoutSec} s; stopping`);
        console.log('0 passed, 1 failed');
        void cleanup.run().finally(() => process.exit(1));
      },
      timeoutSec * 1000 + 15_000,
    );
    watchdog.unref();

    const work = makeTempDir(cleanup);
    const endpoint = await startEndpoint(cleanup, { logName: `endpoint-${target.codeServer}` });
    const resultsFile = join(work, 'results.json');
    // A private copy, so that runs side by side (CI runs VS Code 1.100 and 1.139 at once) never see
    // each other's scratch files, and a run leaves nothing in the repository.
    const folder = restricted ? untrustedFolder(work) : copySampleWorkspace(join(work, 'workspace'));
    installDisplayLanguage(install, locale, { work, extensionsDir: join(work, 'ext') });
    // Another extension's markdown-it-footnote next to ours (suite/preview.test.ts: footnotes render once).
    if (!restricted) installFootnotePlugin(install, { work, extensionsDir: join(work, 'ext') });
    // A language model that invents citations (suite/chatParticipant.test.ts), where the provider API exists.
    if (!restricted) installScriptedModel(install, { work, extensionsDir: join(work, 'ext') });
    const developmentPath = production ? installForProduction(install, work, join(work, 'ext')) : REPO;
    const server = await startCodeServer(cleanup, {
      install,
      work,
      workspaceTrust: restricted,
      locale,
      logName: `code-server-${target.codeServer}-${restricted || production ? kind : 'integration'}${locale === 'en' ? '' : `-${locale}`}`,
      env: {
        SHUNONG_API_KEY: endpoint.apiKey, // read by the extension in Development/Test mode only
        SHUNONG_ENDPOINT: endpoint.url,
        SHUNONG_TEST_ENDPOINT_ORIGIN: endpoint.origin,
        SHUNONG_TEST_RESULTS: resultsFile,
        SHUNONG_TEST_LOCALE: locale,
        ...(grep ? { SHUNONG_TEST_GREP: grep } : {}),
      },
      settings: {
        'shunong.endpoint': endpoint.url,
        ...(restricted
          ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }
          : {}),
      },
    });
    log(`code-server ${target.codeServer} (VS Code ${target.vscode}, --locale ${locale}) at ${server.origin}`);
    const browser = await launchBrowser(cleanup, { work });

    let statsLine = null;
    const r = await runExtensionTests(browser, server, {
      folder,
      extensionDevelopmentPath: developmentPath,
      extensionTestsPath: SUITE,
      smokeTestDriver: target.smokeTestDriver,
      timeoutMs: Math.max(30_000, deadline - Date.now()),
      label: `${restricted || production ? kind : 'integration'}-${target.codeServer}`,
      onLine: (line) => {
        const m = /^SHUNONG_MOCHA_STATS (.*)$/.exec(line.trim());
        if (m) statsLine = m[1];
        else console.log(line);
      },
    });
    stats = readStats(resultsFile, statsLine);
    exitCode = r.code;
    if (!stats) {
      log('the suite ended without reporting mocha statistics (did run() throw before mocha ran?)');
      exitCode ||= 1;
    } else if (stats.failures > 0 && exitCode === 0) {
      exitCode = 1;
    } else if (stats.tests === 0) {
      log(`no test ran${grep ? ` (--grep ${grep} matched nothing)` : ''}`);
      exitCode = 1;
    }
    log(
      `VS Code ${target.vscode}: suite exited with ${r.code} after ${(r.ms / 1000).toFixed(1)} s (run ${((Date.now() - runStart) / 1000).toFixed(1)} s, total ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  } catch (e) {
    log(`FAILED: ${e?.message ?? e}`);
    exitCode = 1;
  } finally {
    await cleanup.run();
  }
  const passed = stats?.passes ?? 0;
  const failed = stats ? stats.failures : 1; // no statistics: the run itself failed
  console.log(`${passed} passed, ${failed} failed${stats?.pending ? `, ${stats.pending} skipped` : ''}`);
  process.exit(exitCode);
}

/** Mocha statistics from the results file the suite writes, else from its SHUNONG_MOCHA_STATS line. */
function readStats(file, line) {
  for (const text of [existsSync(file) ? readFileSync(file, 'utf8') : null, line]) {
    if (!text) continue;
    try {
      return JSON.parse(text);
    } catch {
      /* try the next */
    }
  }
  return null;
}

await main();
