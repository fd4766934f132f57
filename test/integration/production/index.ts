/**
 * The Production suite's entry: the same run() as the main suite, over the compiled `*.test.js`
 * next to this file (out/test/integration/production/). `node test/harness/run-integration.mjs
 * --production` runs it with the packaged .vsix installed (Production mode, as users get it) and
 * not yet active; the suite itself is held by a code-less development extension.
 */
export { run } from '../suite/index';
