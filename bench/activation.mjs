// Activation bench, measured in the real VS Code (code-server 4.100.3 = VS Code 1.100) in one run:
//  - our extension's activation time against an empty extension's (same activation events),
//    median of several fresh extension hosts each, alternating (goal: ratio ≤ 1.5);
//  - for information, activation plus the features bundle our activation leaves to load in its
//    own task right after (`exports.loaded`), against the same empty activation (no goal);
//  - the size of dist/extension.js (goal ≤ 150 KB) and of the packaged .vsix.
//
// How a start is measured: each start is a new workbench window, i.e. a fresh extension host, with
// both extensions installed and a tiny measuring "test suite" (extensionTestsPath) that, after
// letting the built-in extensions' start-up settle, times
// `await vscode.extensions.getExtension(id).activate()` — loading the code plus running its
// activate() — for one of them (ours and the empty one alternate from start to start). Our
// extension is measured as users get it: the packaged .vsix, installed with
// `code-server --install-extension`, in Production mode. So that nothing activates it before the
// measurement, both extensions get the same activation event that never fires on its own
// (`onCommand:…`).
// No key is given, so activation does no network.
//
// Run: `npm run bench` (all benches) or `npm run bench -- activation`. Starts: SHUNONG_BENCH_STARTS=N
// (default 9), or `node bench/activation.mjs --starts N`.

import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  REPO,
  TARGETS,
  installCodeServer,
  installVsix,
  launchBrowser,
  log,
  packageVsix,
  runExtensionTests,
  runBench,
  startCodeServer,
} from '../test/harness/code-server.mjs';

const argv = process.argv.slice(2);
const STARTS =
  Number(process.env.SHUNONG_BENCH_STARTS ?? (argv.includes('--starts') ? argv[argv.indexOf('--starts') + 1] : 9)) || 9;
const SETTLE_MS = 3000;
const OURS = 'shunong-authors.shunong-vscode';
const EMPTY = 'shunong-bench.empty-extension';
// For information: an otherwise empty extension that only loads the VS Code API (require('vscode')),
// which every real extension does and which costs the host the building of that extension's API object.
const API_ONLY = 'shunong-bench.api-only-extension';
const NEVER = 'onCommand:shunong.bench.neverFires';
const LIMIT_MS = 10 * 60_000;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The measuring suite: a CommonJS module with run(), as extensionTestsPath expects. It activates
 * the given extensions one after the other, in the given order, timing each.
 */
function measuringSuite(ids) {
  return `exports.run = async function () {
  const vscode = require('vscode');
  // Let the start-up activations of built-in extensions finish first: they share this thread.
  await new Promise((r) => setTimeout(r, ${SETTLE_MS}));
  const out = {};
  for (const id of ${JSON.stringify(ids)}) {
    const ext = vscode.extensions.getExtension(id);
    if (!ext) throw new Error('extension ' + id + ' is not loaded');
    if (ext.isActive) throw new Error('extension ' + id + ' was already active: the measurement would be void');
    const t0 = performance.now();
    const exports = await ext.activate();
    out[id] = performance.now() - t0;
    // Ours loads its features bundle in its own task right after activation: time that too.
    if (exports && exports.loaded) {
      await exports.loaded;
      out[id + '#loaded'] = performance.now() - t0;
    }
  }
  console.log('SHUNONG_BENCH ' + JSON.stringify(out));
};
`;
}

/**
 * The preview start: in a fresh host, the first \`markdown.api.render\` makes the Markdown extension
 * activate ours and apply its \`extendMarkdownIt\`; which of our bundles are loaded then, and once
 * the features have loaded after activation (the platform bundle must be in neither).
 */
function previewSuite() {
  return `exports.run = async function () {
  const vscode = require('vscode');
  await new Promise((r) => setTimeout(r, ${SETTLE_MS}));
  const ext = vscode.extensions.getExtension(${JSON.stringify(OURS)});
  if (!ext || ext.isActive) throw new Error('ours must be installed and not yet active');
  const bundles = () => Object.keys(require.cache)
    .filter((f) => f.includes(${JSON.stringify(OURS)}) && /dist[\\\\/][a-z]+\\.js$/.test(f))
    .map((f) => f.replace(/^.*dist[\\\\/]/, '')).sort();
  const t0 = performance.now();
  const html = await vscode.commands.executeCommand('markdown.api.render', 'a[^1]\\n\\n[^1]: b.docx#0 — kb (K)\\n');
  const out = { active: ext.isActive, footnotes: /class="footnotes"/.test(html), firstRenderMs: performance.now() - t0, atRender: bundles() };
  await ext.exports.loaded;
  out.afterFeatures = bundles();
  console.log('SHUNONG_BENCH ' + JSON.stringify(out));
};
`;
}

/** Rewrites an extension's package.json so that it activates only when we ask. */
function neverAutoActivate(dir) {
  const file = join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  pkg.activationEvents = [NEVER];
  writeFileSync(file, JSON.stringify(pkg, null, 2));
  return pkg;
}

await runBench(LIMIT_MS, async ({ cleanup, work, vsix }) => {
  const sizes = { extension: statSync(join(REPO, 'dist', 'extension.js')).size, vsix: statSync(vsix).size };

  const install = installCodeServer(TARGETS.oldest);
  // Both extensions are installed from a .vsix into one extensions dir (Production mode, as
  // users get them); every fresh extension host loads both. Ours is our real .vsix; its
  // package.json is then given the never-firing activation event (before code-server first
  // scans the folder; the install uses a throwaway user-data-dir so no manifest is cached).
  const extensionsDir = join(work, 'ext');
  mkdirSync(extensionsDir, { recursive: true });
  installVsix(install, vsix, extensionsDir, work, join(work, 'ud-install'));
  const oursPkg = neverAutoActivate(
    join(
      extensionsDir,
      readdirSync(extensionsDir).find((d) => d.startsWith(`${OURS}-`)),
    ),
  );

  // Two baselines with the same engines and activation event: an activate() that does nothing,
  // and one that only loads the VS Code API.
  const installStub = (name, activate) => {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify(
        {
          name: `${name}-extension`,
          publisher: 'shunong-bench',
          version: '0.0.1',
          license: 'MIT',
          engines: oursPkg.engines,
          main: './extension.js',
          activationEvents: [NEVER],
        },
        null,
        2,
      ),
    );
    writeFileSync(join(dir, 'extension.js'), `${activate}\nexports.deactivate = function () {};\n`);
    writeFileSync(join(dir, 'LICENSE'), 'MIT\n');
    writeFileSync(join(dir, '.vscodeignore'), '*.vsix\n');
    installVsix(
      install,
      packageVsix(join(work, `${name}.vsix`), { cwd: dir, allowMissingRepository: true }),
      extensionsDir,
      work,
      join(work, 'ud-install'),
    );
  };
  installStub('empty', 'exports.activate = function () {};');
  installStub(
    'api-only',
    "const vscode = require('vscode');\nexports.activate = function () { return vscode.version; };",
  );

  // Every start is a fresh extension host with both extensions installed, of which the
  // measuring suite activates exactly one: activating one first leaves work behind (timers,
  // pending I/O) that would slow the other down. Ours and the empty one alternate.
  // The web workbench runs extensionTestsPath only with an extension under development: a
  // third, code-less extension plays that part and holds the measuring suites.
  const runnerDir = join(work, 'runner');
  mkdirSync(runnerDir, { recursive: true });
  writeFileSync(
    join(runnerDir, 'package.json'),
    JSON.stringify(
      { name: 'bench-runner', publisher: 'shunong-bench', version: '0.0.1', engines: oursPkg.engines },
      null,
      2,
    ),
  );
  const suites = {
    [OURS]: join(runnerDir, 'measure-ours.js'),
    [EMPTY]: join(runnerDir, 'measure-empty.js'),
    [API_ONLY]: join(runnerDir, 'measure-api-only.js'),
  };
  for (const [id, file] of Object.entries(suites)) writeFileSync(file, measuringSuite([id]));
  const previewFile = join(runnerDir, 'measure-preview.js');
  writeFileSync(previewFile, previewSuite());
  const folder = join(work, 'folder');
  mkdirSync(folder, { recursive: true });

  const server = await startCodeServer(cleanup, {
    install,
    work,
    extensionsDir,
    logName: 'code-server-bench',
    settings: { 'shunong.endpoint': 'http://127.0.0.1:9/mcp' }, // no key is given: nothing is sent
  });
  const browser = await launchBrowser(cleanup, { work });

  const times = { [OURS]: [], [EMPTY]: [], [API_ONLY]: [] };
  const loadedTimes = [];
  const start = async (id) => {
    let result = null;
    const errors = [];
    const r = await runExtensionTests(browser, server, {
      folder,
      extensionDevelopmentPath: runnerDir,
      extensionTestsPath: suites[id],
      timeoutMs: 120_000,
      label: 'bench',
      onLine: (line, type) => {
        const m = /SHUNONG_BENCH (.*)$/.exec(line);
        if (m) result = JSON.parse(m[1]);
        else if (type === 'error') errors.push(line);
      },
    });
    if (r.code !== 0 || !result)
      throw new Error(`measuring ${id} failed (exit ${r.code}): ${errors.slice(0, 5).join(' | ')}`);
    if (result[id + '#loaded'] !== undefined) loadedTimes.push(result[id + '#loaded']);
    return result[id];
  };
  log(`one warm-up start, then ${STARTS} fresh extension hosts for each extension, alternating`);
  await start(OURS);
  for (let i = 0; i < STARTS; i++) {
    const order = i % 2 === 0 ? [OURS, EMPTY, API_ONLY] : [API_ONLY, EMPTY, OURS];
    for (const id of order) times[id].push(await start(id));
  }

  // One more fresh host: the preview activates ours.
  let preview = null;
  await runExtensionTests(browser, server, {
    folder,
    extensionDevelopmentPath: runnerDir,
    extensionTestsPath: previewFile,
    timeoutMs: 120_000,
    label: 'bench-preview',
    onLine: (line) => {
      const m = /SHUNONG_BENCH (.*)$/.exec(line);
      if (m) preview = JSON.parse(m[1]);
    },
  });

  const ours = median(times[OURS]);
  const empty = median(times[EMPTY]);
  const ratio = ours / empty;
  const row = (name, value, goal, ok) =>
    console.log(`${name.padEnd(34)} ${value.padStart(12)}   ${goal.padEnd(10)} ${ok ? 'ok' : 'MISSED'}`);
  console.log(
    `\nVS Code ${install.target.vscode} (code-server ${install.target.codeServer}), ${STARTS} fresh extension hosts each, activation measured ${SETTLE_MS / 1000} s after start`,
  );
  console.log(`  ours  (ms): ${times[OURS].map((t) => t.toFixed(1)).join(', ')}`);
  console.log(`  empty (ms): ${times[EMPTY].map((t) => t.toFixed(1)).join(', ')}`);
  console.log(`  API only (ms): ${times[API_ONLY].map((t) => t.toFixed(1)).join(', ')}\n`);
  console.log(`${'measure'.padEnd(34)} ${'value'.padStart(12)}   ${'goal'.padEnd(10)}`);
  row('activation, ours (median)', `${ours.toFixed(1)} ms`, '', true);
  row('activation, empty ext. (median)', `${empty.toFixed(1)} ms`, '', true);
  row('activation ratio ours / empty', ratio.toFixed(2), '≤ 1.5', ratio <= 1.5);
  const apiOnly = median(times[API_ONLY]);
  row('  for information: API-only ext.', `${apiOnly.toFixed(1)} ms`, '(no goal)', true);
  row('  ours / API-only ext.', (ours / apiOnly).toFixed(2), '(no goal)', true);
  if (loadedTimes.length) {
    // The warm-up start is not counted.
    const loaded = median(loadedTimes.slice(-STARTS));
    console.log(
      `  features loaded after activation (ms): ${loadedTimes
        .slice(-STARTS)
        .map((t) => t.toFixed(1))
        .join(', ')}`,
    );
    row('activation + features loaded (median)', `${loaded.toFixed(1)} ms`, '', true);
    row('  that, over the empty activation', (loaded / empty).toFixed(2), '(no goal)', true);
  }
  if (preview) {
    console.log(
      `  preview start: activated by the preview ${preview.active}, footnotes rendered ${preview.footnotes}, first render ${preview.firstRenderMs.toFixed(1)} ms; bundles at render: ${preview.atRender.join(', ') || 'none'}; after the features loaded: ${preview.afterFeatures.join(', ')}`,
    );
    const clean = preview.active && preview.footnotes && !preview.atRender.includes('platform.js');
    row(
      'preview: platform bundle at render',
      preview.atRender.includes('platform.js') ? 'loaded' : 'not loaded',
      'not loaded',
      clean,
    );
  } else row('preview start', 'no result', '', false);
  row('dist/extension.js', kb(sizes.extension), '≤ 150 KB', sizes.extension <= 150 * 1024);
  row('.vsix', kb(sizes.vsix), '', true);
});
