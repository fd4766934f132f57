// Mutation testing of the pure folders (`npm run test:mutation [-- <folder>]`, see
// scripts/mutation.mjs, which narrows `mutate` and the tests to one folder or one file of it). Not part of CI: on
// two cores a folder takes minutes to hours. Results are kept per folder under reports/mutation/,
// so a second run re-tests only the mutants of code or tests that changed.
// `recognition` (a folder) or `recognition/summary.ts` (one file of it)
const target = process.env.STRYKER_TARGET;
// One store of results per folder: a file's run reads and updates its folder's, where Stryker keeps
// the results of the folder's other files as they were, so the folder's next run re-tests only what
// changed since any run.
const name = target?.split('/')[0] ?? 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: target
    ? [target.includes('/') ? `src/${target}` : `src/${target}/**/*.ts`]
    : ['src/{citations,knowledge,text,bulletin,chat,publish,recognition,shunong,time,settings,safety}/**/*.ts'],
  incrementalFile: `reports/mutation/${name}.json`,
  jsonReporter: { fileName: `reports/mutation/${name}.report.json` },
  testRunner: 'mocha',
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  testRunnerNodeArgs: ['--import', 'tsx'],
  // Every unit test, or (from scripts/mutation.mjs) the test files whose imports reach the folder: with
  // per-test coverage a mutant runs only the tests that reach it, and a static one every test given.
  // (Not the tests of the built extension, the manifest or the docs: they read dist/, not src/; nor
  // the l10n test, which reads src/ as written, where Stryker's sandbox holds it instrumented.)
  mochaOptions: {
    config: '.mocharc.json',
    spec: process.env.STRYKER_SPEC ? JSON.parse(process.env.STRYKER_SPEC) : ['test/unit/**/*.test.ts'],
    ignore: ['test/unit/extension/**', 'test/unit/docs/**', 'test/unit/repository/**'],
  },
  incremental: true,
  concurrency: 2,
  timeoutMS: 20000,
  reporters: ['clear-text', 'progress', 'json'],
  ignorePatterns: [
    '.vscode-test',
    'test-output',
    'dist',
    'out',
    'reports',
    '*.vsix',
    'docs',
    'media/recognition',
    'media/wechat',
  ],
  cleanTempDir: 'always',
};
