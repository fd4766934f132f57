/**
 * `npm run bench`: runs every `bench/*.bench.ts` in its own process, one after the other,
 * and prints what each reports. Each bench prints its own figures (ratios against a baseline
 * measured side by side in the same run). Pass names to run a subset: `npm run bench -- client`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = __dirname;
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n## ${f.replace(/\.bench\.ts$/, '')}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
