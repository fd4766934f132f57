/**
 * The integration suite's entry, in the standard @vscode/test-electron shape: the extension host
 * loads this module (the payload's / CLI's `extensionTestsPath`) and awaits `run()`.
 *
 * esbuild compiles this file and every `*.test.ts` next to it (any depth) into
 * out/test/integration/suite/; `run()` adds every compiled `*.test.js` it finds there, so a new
 * test file needs no edit here or in the harness. Mocha runs with the `tdd` UI (`suite` / `test`).
 *
 * Environment (all optional):
 *  - SHUNONG_TEST_GREP: only run tests whose full title matches this regular expression;
 *  - SHUNONG_TEST_RESULTS: write the run's statistics as JSON to this file.
 * The statistics are also printed as one `SHUNONG_MOCHA_STATS {...}` line, which the harness reads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

/** Every compiled test file under `dir`, sorted, so the order is stable. */
function findTestFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => path.join(dir, f))
    .sort();
}

export async function run(): Promise<void> {
  const grep = process.env['SHUNONG_TEST_GREP'];
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    reporter: 'spec',
    timeout: 20_000,
    ...(grep ? { grep: new RegExp(grep) } : {}),
  });
  const files = findTestFiles(__dirname);
  if (files.length === 0) throw new Error(`no *.test.js under ${__dirname}: run \`npm run build\` first`);
  for (const f of files) mocha.addFile(f);

  await new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const { passes = 0, failures: failed = 0, pending = 0, tests = 0, duration = 0 } = runner.stats ?? {};
        const stats = { passes, failures: failed, pending, tests, duration };
        console.log(`SHUNONG_MOCHA_STATS ${JSON.stringify(stats)}`);
        const out = process.env['SHUNONG_TEST_RESULTS'];
        if (out) fs.writeFileSync(out, JSON.stringify(stats));
        if (failures > 0) reject(new Error(`${failures} test(s) failed.`));
        else resolve();
      });
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
