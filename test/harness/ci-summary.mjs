#!/usr/bin/env node
// Sums the test counts of one CI log into a single closing `N passed, N failed` line.
// - our harnesses (integration, latest, e2e) each print a plain `N passed, N failed[, N skipped]`;
// - the unit tests are plain mocha: its `N passing` / `N failing` / `N pending` lines, read only
//   inside the `> … test:unit` section of npm's output (the integration suite's mocha output also
//   has `N passing` lines, already counted by the harness line).
import { readFileSync } from 'node:fs';

const lines = readFileSync(process.argv[2], 'utf8').split('\n');
let passed = 0;
let failed = 0;
let skipped = 0;
let section = '';
for (const line of lines) {
  // npm prints "> name@version script", then "> command": only the first names the section.
  const header = /^> \S+@\S+ (\S+)$/.exec(line.trim());
  if (header) section = header[1];
  const plain = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/.exec(line.trim());
  if (plain) {
    passed += Number(plain[1]);
    failed += Number(plain[2]);
    skipped += Number(plain[3] ?? 0);
    continue;
  }
  if (section === 'test:unit') {
    const m = /^\s+(\d+) (passing|failing|pending)\b/.exec(line);
    if (m?.[2] === 'passing') passed += Number(m[1]);
    if (m?.[2] === 'failing') failed += Number(m[1]);
    if (m?.[2] === 'pending') skipped += Number(m[1]);
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
