#!/usr/bin/env node
// `npm run test:mutation [-- <folder>…]`: StrykerJS over the pure folders, one folder at a time
// (default: all of them), each folder's mutants tested by its own unit tests and kept in its own
// incremental file (reports/mutation/<folder>.json), so a rerun re-tests only what changed. The
// score of each folder is printed at the end; the summary in docs/benchmarks.md is written by hand
// from it, with the date and the commit. A file of a folder (`-- src/recognition/summary.ts`) is
// mutated alone, the quick loop while writing the tests that kill its mutants: its results go into
// its folder's incremental file, which keeps the other files' as they were, and the score printed
// is the file's. `-- --reach` lists the test files each target would be given, and mutates nothing.
//
// Each folder's run is given only the unit test files whose imports reach the folder (followed by
// esbuild through every static and literal dynamic import, and through paths written as string
// literals, which a `createRequire` or a `path.join(__dirname, …)` loads): a test that never loads a module cannot
// detect its mutants, so the score is the same, and a static mutant (one evaluated when its module
// loads, which Stryker tests with every test it is given) costs a fraction of the whole suite. The
// folder's own tests come first: Stryker stops a mutant's run at its first failing test, so a static
// mutant they kill never waits for another folder's slow tests (measured on 2026-12-07: 43 of the
// 64 s of the tests reaching `src/shunong` are the recognition shrinker's, which sorted first).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { build } from 'esbuild';

export const FOLDERS = [
  'citations',
  'knowledge',
  'text',
  'bulletin',
  'chat',
  'publish',
  'recognition',
  'shunong',
  'time',
  'settings',
  'safety',
];

// Each target is a folder (`recognition`) or one of its files (`recognition/summary.ts`).
const asked = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map((a) => a.replace(/^src\//, '').replace(/\/$/, ''));
for (const a of asked) {
  const [folder, file] = a.split('/', 2);
  if (!FOLDERS.includes(folder) || (file !== undefined && !existsSync(join('src', a)))) {
    console.error(`test:mutation: ${a} is not one of ${FOLDERS.join(', ')} nor a file in one of them`);
    process.exit(2);
  }
}
const targets = asked.length ? asked : FOLDERS;
const scores = [];
const reaching = await testsReaching();
for (const target of targets) {
  const report = join('reports', 'mutation', `${target.split('/')[0]}.report.json`);
  const spec = ownFirst(reaching(target), target.split('/')[0]);
  console.log(`test:mutation: src/${target}: ${spec.length} test files reach it`);
  if (spec.length === 0) {
    console.log(`test:mutation: src/${target}: no unit test loads it, so none can kill its mutants: skipped`);
    continue;
  }
  if (process.argv.includes('--reach')) {
    console.log(spec.map((f) => `  ${f}`).join('\n'));
    continue;
  }
  const r = spawnSync(
    'npx',
    [
      'stryker',
      'run',
      'stryker.config.mjs',
      ...process.argv.slice(2).filter((a) => a.startsWith('--') && a !== '--reach'),
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, STRYKER_TARGET: target, STRYKER_SPEC: JSON.stringify(spec) },
    },
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
  if (existsSync(report)) scores.push([target, score(JSON.parse(readFileSync(report, 'utf8')), target)]);
}
for (const [target, s] of scores)
  console.log(
    `src/${target}: ${s.score.toFixed(1)} % (${s.killed} killed, ${s.survived} survived, ${s.noCoverage} not covered, ${s.timeout} timed out)`,
  );

/** The test files of `test/unit/<folder>/` first, then the others, each part in the order given. */
function ownFirst(files, folder) {
  const own = (f) => f.startsWith(`test/unit/${folder}/`);
  return [...files.filter(own), ...files.filter((f) => !own(f))];
}

/**
 * The unit test files (those Stryker is given: not the built extension's, the manifest's or the
 * docs') that load a module of a folder or a file, directly or through other modules:
 * `reaching(target)`. A module is loaded by an import esbuild follows, or by a path written as a
 * string literal in a file that loads it (`createRequire(__filename)('../../src/recognition/codecs')`
 * in a test, `path.join(__dirname, 'imaging.ts')` in `src/`), which esbuild cannot follow.
 */
async function testsReaching() {
  const tests = readdirSync('test/unit', { recursive: true })
    .map((f) => `test/unit/${f.replaceAll('\\', '/')}`)
    .filter((f) => f.endsWith('.test.ts') && !/^test\/unit\/(extension|docs|repository)\//.test(f));
  const sources = readdirSync('src', { recursive: true })
    .map((f) => `src/${f.replaceAll('\\', '/')}`)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const { metafile } = await build({
    entryPoints: [...tests, ...sources],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    // every module a test's imports load at run time, used or not
    treeShaking: false,
    outdir: 'reports/mutation/reach',
    logLevel: 'silent',
  });
  const loads = new Map(
    Object.values(metafile.outputs)
      .filter((o) => o.entryPoint)
      .map((o) => [o.entryPoint, Object.keys(o.inputs)]),
  );
  const closure = (entry) => {
    const seen = new Set(loads.get(entry));
    for (const file of seen)
      for (const named of pathsNamedIn(file)) for (const f of loads.get(named) ?? [named]) seen.add(f);
    return [...seen];
  };
  const inputs = tests.map((t) => [t, closure(t)]);
  return (target) =>
    inputs
      .filter(([, ins]) =>
        ins.some((i) => (target.includes('/') ? i === `src/${target}` : i.startsWith(`src/${target}/`))),
      )
      .map(([e]) => e)
      .sort();
}

/**
 * The `src/` modules a file names by path in a string literal: relative (`'../src/x'`, `'./x.ts'`)
 * or a bare sibling file name (`'x.ts'`, `'x.js'` for its built form), resolved from the file's folder.
 */
function pathsNamedIn(file) {
  if (!file.endsWith('.ts') || !existsSync(file)) return [];
  // neither a comment nor a type-only import loads anything
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/^import type .*$/gm, '');
  const named = [];
  for (const [, literal] of text.matchAll(/['"`]((?:\.{1,2}\/)[\w./-]+|[\w-]+\.(?:ts|js))['"`]/g)) {
    const base = posix.join(posix.dirname(file), literal.replace(/\.js$/, '.ts'));
    const hit = [base, `${base}.ts`, `${base}/index.ts`].find(
      (f) => f.startsWith('src/') && f.endsWith('.ts') && existsSync(f),
    );
    if (hit) named.push(hit);
  }
  return named;
}

/**
 * The mutation score of a target's files in a mutation-testing-report-schema JSON report (which
 * holds its whole folder's): detected / valid mutants.
 */
function score(report, target) {
  const n = { killed: 0, survived: 0, noCoverage: 0, timeout: 0 };
  const ofTarget = ([name]) => (target.includes('/') ? name === `src/${target}` : name.startsWith(`src/${target}/`));
  for (const [, file] of Object.entries(report.files).filter(ofTarget))
    for (const m of file.mutants) {
      if (m.status === 'Killed') n.killed++;
      else if (m.status === 'Survived') n.survived++;
      else if (m.status === 'NoCoverage') n.noCoverage++;
      else if (m.status === 'Timeout') n.timeout++;
    }
  const valid = n.killed + n.survived + n.noCoverage + n.timeout;
  return { ...n, score: valid ? ((n.killed + n.timeout) * 100) / valid : 100 };
}
