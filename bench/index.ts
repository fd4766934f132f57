/**
 * `npm run bench`: runs every `bench/*.bench.ts` in its own process, one after the other,
 * and prints what each reports. Each bench prints its own figures (ratios against a baseline
 * measured side by side in the same run). Pass names to run a subset: `npm run bench -- client`.
 *
 * `--smoke` (`npm run bench:smoke [names…]`): each bench runs one round at its smallest size
 * (SHUNONG_BENCH_SMOKE=1 in its environment, read through bench/smoke.mjs) and only has to run to
 * its end; this runner then names the benches that failed and ends with one `N passed, N failed`
 * line counting benches, which the CI summary (test/harness/ci-summary.mjs) adds up.
 *
 * `--except a,b` leaves those benches out (names matched as the positional ones are): CI runs the
 * smoke mode in two lanes, one naming the benches it runs and the other leaving the same ones out.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const dir = __dirname;
const { values, positionals: wanted } = parseArgs({
  options: { smoke: { type: 'boolean', default: false }, except: { type: 'string', default: '' } },
  allowPositionals: true,
});
const smoke = values.smoke === true;
const env = smoke ? { ...process.env, SHUNONG_BENCH_SMOKE: '1' } : process.env;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .filter((f) => !values.except.split(',').some((w) => w !== '' && f.includes(w)))
  .sort();
if (files.length === 0) {
  process.stderr.write(`no bench matches ${wanted.join(', ')}\n`);
  process.exit(1);
}
const failed: string[] = [];
const times: string[] = [];
for (const f of files) {
  const name = f.replace(/\.bench\.ts$/, '');
  process.stdout.write(`\n## ${name}${smoke ? ' (smoke)' : ''}\n`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, f)], { stdio: 'inherit', env });
  const s = ((Date.now() - t0) / 1000).toFixed(1);
  times.push(`${name} ${s} s`);
  if (r.status !== 0) {
    failed.push(name);
    process.stdout.write(`bench ${name} FAILED (${r.signal ?? `exit ${r.status}`}) after ${s} s\n`);
  }
}
process.stdout.write(`\nbench times: ${times.join(', ')}\n`);
if (failed.length) process.stdout.write(`benches that failed: ${failed.join(', ')}\n`);
if (smoke) process.stdout.write(`${files.length - failed.length} passed, ${failed.length} failed\n`);
process.exit(failed.length ? 1 : 0);
