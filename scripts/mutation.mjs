#!/usr/bin/env node
// `npm run test:mutation [-- <folder>…]`: StrykerJS over the pure folders, one folder at a time
// (default: all of them), each folder's mutants tested by its own unit tests and kept in its own
// incremental file (reports/mutation/<folder>.json), so a rerun re-tests only what changed. The
// score of each folder is printed at the end; the summary in docs/benchmarks.md is written by hand
// from it, with the date and the commit.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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

const asked = process.argv.slice(2).map((a) => a.replace(/^src\//, '').replace(/\/$/, ''));
for (const a of asked)
  if (!FOLDERS.includes(a)) {
    console.error(`test:mutation: ${a} is not one of ${FOLDERS.join(', ')}`);
    process.exit(2);
  }
const folders = asked.length ? asked : FOLDERS;
const scores = [];
for (const folder of folders) {
  const report = join('reports', 'mutation', `${folder}.report.json`);
  const r = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], {
    stdio: 'inherit',
    env: { ...process.env, STRYKER_FOLDER: folder },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  if (existsSync(report)) scores.push([folder, score(JSON.parse(readFileSync(report, 'utf8')))]);
}
for (const [folder, s] of scores)
  console.log(
    `src/${folder}: ${s.score.toFixed(1)} % (${s.killed} killed, ${s.survived} survived, ${s.noCoverage} not covered, ${s.timeout} timed out)`,
  );

/** The mutation score of a mutation-testing-report-schema JSON report: detected / valid mutants. */
function score(report) {
  const n = { killed: 0, survived: 0, noCoverage: 0, timeout: 0 };
  for (const file of Object.values(report.files))
    for (const m of file.mutants) {
      if (m.status === 'Killed') n.killed++;
      else if (m.status === 'Survived') n.survived++;
      else if (m.status === 'NoCoverage') n.noCoverage++;
      else if (m.status === 'Timeout') n.timeout++;
    }
  const valid = n.killed + n.survived + n.noCoverage + n.timeout;
  return { ...n, score: valid ? ((n.killed + n.timeout) * 100) / valid : 100 };
}
