#!/usr/bin/env node
// `npm run test:e2e`: end-to-end tests on the real workbench, as a user would meet the extension.
//   1. packages the extension with @vscode/vsce into test-output/e2e/shunong-vscode.vsix;
//   2. installs code-server (pinned, under .vscode-test/) and, for each display language, the .vsix
//      with `code-server --extensions-dir E --install-extension` into a fresh private dir (for
//      zh-cn also the test language pack of test/fixtures/zh-cn-language-pack/, so that
//      `--locale zh-cn` is accepted);
//   3. starts the local Shunong endpoint and, per display language, code-server on 127.0.0.1 with
//      `--locale` (no key in the environment: an installed extension runs in Production mode and
//      gets its key from the user);
//   4. runs every test/e2e/*.spec.mjs in each display language, each file in a fresh workbench
//      window in headless Chromium, on a copy of the sample workspace made for the run (so runs side
//      by side, and the unit tests that check the sample workspace unchanged, never meet);
//      screenshots go to test-output/e2e/<locale>/;
//   5. prints `N passed, N failed` and exits non-zero on any failure.
//
// Usage: node test/harness/run-e2e.mjs [--latest] [--locale en|zh-cn|all] [name-filter…]
// (after `npm run build`; without --locale: every display language, en first).
// A spec file exports `title`, `tests: [{ name, timeoutMs?, locales?, run(ctx) }]` and optionally
// `cleanup()` and `skipReason({ vscode })` (a reason not to run it on this VS Code version, said
// before any window opens); see test/e2e/set-api-key.spec.mjs. A test that throws `SkipTest`
// (test/e2e/workbench.mjs) is counted skipped with its reason, and so is the rest of its file. Tests of one file share a window and run in
// order; after a failure the rest of that file is skipped; `cleanup()` runs after them either way.
// `ctx.l10n` (test/e2e/l10n.mjs) holds the extension's strings in the window's display language.
// A test with `locales` runs only in those display languages (counted skipped in the others): for
// a check whose subject does not depend on the display language (a file's content, the workspace
// state after a reload), so it is run once, while every screen of ours is still looked at in each
// language by the tests around it.

import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  Cleanup,
  copySampleWorkspace,
  OUTPUT_DIR,
  REPO,
  installCodeServer,
  LOCALES,
  installDisplayLanguage,
  installScriptedModel,
  installVsix,
  launchBrowser,
  localesFromArgs,
  log,
  makeTempDir,
  openWorkbench,
  packageVsix,
  redact,
  startCodeServer,
  targetFromArgs,
  TARGETS,
  withoutLocaleArgs,
  workbenchUrl,
} from './code-server.mjs';
import { startEndpoint } from './endpoint.mjs';
import { SkipTest, workbench } from '../e2e/workbench.mjs';
import { strings } from '../e2e/l10n.mjs';

const argv = process.argv.slice(2);
const target = targetFromArgs(argv);
const locales = localesFromArgs(argv, LOCALES);
const filters = withoutLocaleArgs(argv).filter((a) => !a.startsWith('--'));
const E2E_DIR = join(REPO, 'test', 'e2e');
const SHOTS = join(OUTPUT_DIR, 'e2e');
const DEFAULT_TEST_TIMEOUT = 60_000;
const RUN_LIMIT_MS = 10 * 60_000; // per display language, after the code-server install

async function main() {
  const cleanup = new Cleanup();
  const results = { passed: 0, failed: 0, skipped: 0 };
  const started = Date.now();
  try {
    if (!existsSync(join(REPO, 'dist', 'extension.js')))
      throw new Error('dist/extension.js is missing: run `npm run build`');
    for (const locale of locales) rmSync(join(SHOTS, locale), { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });

    const specs = readdirSync(E2E_DIR)
      .filter((f) => f.endsWith('.spec.mjs'))
      .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
      .sort();
    if (specs.length === 0) throw new Error(`no test/e2e/*.spec.mjs matches ${filters.join(' ')}`);

    const t0 = Date.now();
    // One display language a run: its own file, so that runs of each language can go side by side.
    const vsix = packageVsix(join(SHOTS, `shunong-vscode${locales.length === 1 ? `-${locales[0]}` : ''}.vsix`));
    log(
      `packaged ${basename(vsix)} (${(statSync(vsix).size / 1024).toFixed(1)} KB) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const install = installCodeServer(target);
    const limit = RUN_LIMIT_MS * locales.length;
    const watchdog = setTimeout(() => {
      log(`FAILED: the e2e run exceeded ${limit / 1000} s; stopping`);
      console.log(`${results.passed} passed, ${results.failed + 1} failed`);
      void cleanup.run().finally(() => process.exit(1));
    }, limit);
    watchdog.unref();

    const endpoint = await startEndpoint(cleanup, {
      logName: `endpoint-e2e-${target.codeServer}${locales.length === 1 ? `-${locales[0]}` : ''}`,
    });
    // The scratch folders of the specs (test/e2e/workbench.mjs) go into this copy too.
    const workspace = copySampleWorkspace(join(makeTempDir(cleanup), 'workspace'));
    process.env.SHUNONG_E2E_WORKSPACE = workspace;
    const browser = await launchBrowser(cleanup, { work: makeTempDir(cleanup) });
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    for (const locale of locales) {
      const ts = Date.now();
      const server = await startWorkbenchServer(cleanup, { install, vsix, endpoint, locale });
      const env = { browser, server, endpoint, manifest, locale, workspace, shots: join(SHOTS, locale) };
      for (const file of specs) await runSpecFile(file, env, results);
      log(`e2e in ${locale} done in ${((Date.now() - ts) / 1000).toFixed(1)} s`);
    }
    log(`e2e done in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${SHOTS}`);
  } catch (e) {
    results.failed++;
    log(`FAILED: ${redact(e?.message ?? e)}`);
  } finally {
    await cleanup.run();
  }
  console.log(
    `\n${results.passed} passed, ${results.failed} failed${results.skipped ? `, ${results.skipped} skipped` : ''}`,
  );
  process.exit(results.failed > 0 ? 1 : 0);
}

/**
 * A code-server of its own for one display language: a fresh private dir, the .vsix (and the
 * language pack for a locale other than en) installed into its extensions dir, `--locale`.
 */
async function startWorkbenchServer(cleanup, { install, vsix, endpoint, locale }) {
  const work = makeTempDir(cleanup);
  const extensionsDir = join(work, 'ext');
  mkdirSync(extensionsDir, { recursive: true });
  log(redact(installVsix(install, vsix, extensionsDir, work).split('\n').pop()));
  installDisplayLanguage(install, locale, { work, extensionsDir });
  // The scripted language model for the chat spec, where VS Code has the provider API (1.139).
  if (target === TARGETS.latest) installScriptedModel(install, { work, extensionsDir });
  const server = await startCodeServer(cleanup, {
    install,
    work,
    extensionsDir,
    locale,
    logName: `code-server-${target.codeServer}-e2e-${locale}`,
    settings: { 'shunong.endpoint': endpoint.url },
  });
  log(`code-server ${target.codeServer} (VS Code ${target.vscode}, --locale ${locale}) at ${server.origin}`);
  return server;
}

/** Runs the tests of one spec file in order in a fresh workbench window, then its cleanup(). */
async function runSpecFile(file, { browser, server, endpoint, manifest, locale, workspace, shots }, results) {
  const spec = await import(pathToFileURL(join(E2E_DIR, file)).href);
  const specName = basename(file, '.spec.mjs');
  console.log(`\n  ${spec.title ?? specName} [${locale}]`);
  // A spec that cannot run on this VS Code says why before any window opens.
  const skipAll = spec.skipReason?.({ vscode: target.vscode });
  if (skipAll) {
    for (const t of spec.tests ?? []) {
      results.skipped++;
      console.log(`    - ${t.name} (skipped: ${skipAll})`);
    }
    return;
  }
  mkdirSync(shots, { recursive: true });
  const { context, page } = await openWorkbench(browser, workbenchUrl(server, { folder: workspace }), {
    locale,
  });
  const screenshot = async (name) => {
    await page.screenshot({ path: screenshot.path(name) });
  };
  screenshot.path = (name) => join(shots, `${specName}-${name}.png`);
  const l10n = strings(locale);
  const ctx = {
    page,
    wb: workbench(page, l10n),
    l10n,
    endpoint,
    server,
    manifest,
    screenshot,
    log,
    workspace,
  };
  let broken = false;
  let skipped = '';
  for (const [i, t] of (spec.tests ?? []).entries()) {
    if (broken || skipped) {
      results.skipped++;
      console.log(`    - ${t.name} (skipped${skipped ? `: ${skipped}` : ' after an earlier failure'})`);
      continue;
    }
    if (t.locales && !t.locales.includes(locale)) {
      results.skipped++;
      console.log(
        `    - ${t.name} (skipped: the display language changes nothing here; run in ${t.locales.join(', ')})`,
      );
      continue;
    }
    const ts = Date.now();
    const limit = t.timeoutMs ?? DEFAULT_TEST_TIMEOUT;
    let timer;
    try {
      await Promise.race([
        Promise.resolve().then(() => t.run(ctx)),
        new Promise(
          (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${limit / 1000} s`)), limit)),
        ),
      ]);
      results.passed++;
      console.log(`    ✔ ${t.name} (${Date.now() - ts} ms)`);
    } catch (e) {
      if (e instanceof SkipTest) {
        // The test found that this workbench cannot run it (or the rest of the file): said, not failed.
        results.skipped++;
        skipped = e.message;
        console.log(`    - ${t.name} (skipped: ${e.message})`);
        continue;
      }
      results.failed++;
      broken = true;
      const shot = screenshot.path(`failure-${i + 1}`);
      await page.screenshot({ path: shot }).catch(() => undefined);
      console.log(
        `    ✘ ${t.name} (${Date.now() - ts} ms)\n      ${redact(e?.message ?? e)
          .split('\n')
          .join('\n      ')}\n      screenshot: ${shot}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
  await context.close().catch(() => undefined);
  try {
    await spec.cleanup?.();
  } catch (e) {
    log(`cleanup of ${file} failed: ${redact(e?.message ?? e)}`);
  }
}

await main();
