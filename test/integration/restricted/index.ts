/**
 * The Restricted Mode suite's entry: the same run() as the main suite, over the compiled
 * `*.test.js` next to this file (out/test/integration/restricted/). `node
 * test/harness/run-integration.mjs --restricted` runs it in a folder the workbench does not trust.
 */
export { run } from '../suite/index';
