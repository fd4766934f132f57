/**
 * The safety lint on realistic advisories (test/fixtures/safety-corpus/, written by the project in
 * the shapes real ones take: lists under prohibitions, explainers, history, misuse reported, station
 * forecasts with doses, traditional script, every crop word authors write). The goal: at least
 * 9 in 10 errors and warnings are real recommendations of a pesticide banned there, and at least 9
 * in 10 of those are flagged; on these texts, 95 % for both. Prints both figures. The validation
 * set (test/fixtures/safety-validation/) was written after the lint by someone who had not read it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintSafety, shippedRules } from '../../../src/safety/index';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');

interface Expected {
  line: number;
  substance: string;
  severity: 'error' | 'warning';
  why: string;
}

interface Flag {
  file: string;
  line: number;
  substance: string;
  severity: string;
  mention: string;
}

/** Every error and warning of every file, and what was expected of it. */
function measure(dir: string): {
  flags: Flag[];
  matched: Flag[];
  missed: (Expected & { file: string })[];
  expected: number;
} {
  const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, Expected[]>;
  const files = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md');
  assert.deepEqual(files.sort(), Object.keys(expected).sort(), 'every text has its expected findings');
  const flags: Flag[] = [];
  const matched: Flag[] = [];
  const missed: (Expected & { file: string })[] = [];
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    const found = lintSafety(text, shippedRules(), { today: '2026-12-02' })
      .filter((f) => f.severity !== 'information')
      .map((f) => ({ file, line: f.line + 1, substance: f.rule.substance, severity: f.severity, mention: f.mention }));
    const open = [...expected[file]!];
    for (const f of found) {
      flags.push(f);
      const i = open.findIndex((e) => e.line === f.line && e.substance === f.substance && e.severity === f.severity);
      if (i === -1) continue;
      matched.push(f);
      open.splice(i, 1);
    }
    missed.push(...open.map((e) => ({ ...e, file })));
  }
  return { flags, matched, missed, expected: Object.values(expected).flat().length };
}

describe('safety lint on realistic advisories', () => {
  for (const [folder, what] of [
    ['safety-corpus', 'the corpus'],
    ['safety-validation', 'the validation set (written after the lint)'],
  ] as const)
    it(`${what}: flags real recommendations of banned pesticides (recall) and little else (precision), both at 95 % or more`, () => {
      const { flags, matched, missed, expected } = measure(join(FIXTURES, folder));
      const precision = matched.length / flags.length;
      const recall = matched.length / expected;
      const wrong = flags.filter((f) => !matched.includes(f));
      console.log(
        `      ${folder}: ${flags.length} flags, ${matched.length} right; ${expected} expected` +
          ` — precision ${(precision * 100).toFixed(1)} %, recall ${(recall * 100).toFixed(1)} %`,
      );
      const list = (xs: { file: string; line: number; substance: string; severity: string }[]): string =>
        xs.map((x) => `${x.file}:${x.line} ${x.severity} ${x.substance}`).join('\n');
      assert.ok(precision >= 0.95, `precision ${precision}; wrong flags:\n${list(wrong)}`);
      assert.ok(recall >= 0.95, `recall ${recall}; missed:\n${list(missed)}`);
    });
});
