/**
 * Every bench has a smoke mode, and CI runs it: a bench nobody runs rots. Smoke mode is one switch,
 * SHUNONG_BENCH_SMOKE=1 (set by `npm run bench:smoke`), read in one place, bench/smoke.mjs; each
 * `bench/*.bench.ts` reads it from there, or runs a script that does (the plain-JavaScript benches
 * in the real workbench, the chat bench's suite inside VS Code) and passes its environment on.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const BENCH = join(ROOT, 'bench');
const read = (...parts: string[]): string => readFileSync(join(ROOT, ...parts), 'utf8');

/** Whether `text` imports the shared module (`./smoke.mjs` from bench/, or a path ending in bench/smoke.mjs). */
const importsSmoke = (text: string): boolean => /from '(\.\/|(\.\.\/)+bench\/)smoke\.mjs'/.test(text);

/** The scripts a bench runner starts: `join(…, 'x.mjs')` beside it, or the chat bench's suite. */
function runs(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/join\(__dirname, '([\w-]+\.mjs)'\)/g)) out.push(join('bench', m[1]!));
  if (/'chatbench'/.test(text)) out.push(join('test', 'integration', 'chatbench', 'index.ts'));
  return out;
}

describe('Every bench has a smoke mode, and CI runs it', () => {
  const benches = readdirSync(BENCH).filter((f) => f.endsWith('.bench.ts'));

  it('there are benches to check', () => {
    assert.ok(benches.length >= 10, benches.join(', '));
  });

  for (const f of benches)
    it(`${f} reads smoke mode through bench/smoke.mjs (itself or in the script it runs)`, () => {
      const text = read('bench', f);
      if (importsSmoke(text)) return;
      const scripts = runs(text);
      assert.ok(scripts.length > 0, `${f} neither imports ./smoke.mjs nor runs a script that does`);
      for (const script of scripts) assert.ok(importsSmoke(read(script)), `${script} (run by ${f}) imports smoke.mjs`);
      // the environment (SHUNONG_BENCH_SMOKE) reaches the script: inherited, or passed on whole
      assert.ok(!/\benv:/.test(text) || /env: \{ \.\.\.process\.env/.test(text), `${f} passes its environment on`);
    });

  it('bench/smoke.mjs is the one reader of SHUNONG_BENCH_SMOKE, and bench/index.ts the one writer', () => {
    const mentions = readdirSync(BENCH).filter((f) => read('bench', f).includes('SHUNONG_BENCH_SMOKE'));
    assert.ok(read('bench', 'smoke.mjs').includes("process.env.SHUNONG_BENCH_SMOKE === '1'"));
    assert.ok(read('bench', 'index.ts').includes("SHUNONG_BENCH_SMOKE: '1'"));
    for (const f of mentions)
      assert.ok(
        ['smoke.mjs', 'smoke.d.mts', 'index.ts'].includes(f) ||
          !/process\.env\.?\[?'?SHUNONG_BENCH_SMOKE/.test(read('bench', f)),
        `${f} reads SHUNONG_BENCH_SMOKE itself`,
      );
  });

  it('package.json has the bench:smoke script', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    assert.equal(pkg.scripts['bench:smoke'], 'tsx bench/index.ts --smoke');
  });

  it('.ci/run runs every bench in smoke mode, in lanes whose logs are added to the summed log before the summary', () => {
    const ci = read('.ci', 'run');
    assert.match(ci, /^set -euo pipefail$/m);
    // `lane NAME "cmd" \⏎ "cmd" … &`: the lanes that hold a smoke run
    const lanes = [...ci.matchAll(/^lane ([\w.-]+)((?: [^\n]*\\\n)*[^\n]*) &$/gm)];
    const smoke = lanes.filter((m) => m[2]!.includes('"npm run bench:smoke'));
    assert.ok(smoke.length > 0, `a lane runs "npm run bench:smoke" (lanes: ${lanes.map((m) => m[1]).join(', ')})`);
    // One lane runs them all, or lanes each name theirs (`BENCH_<LANE>="a b"`) and one runs the rest:
    // `--except $WORKBENCH_BENCHES`, the names of every other lane, so that each bench runs once.
    const runs = smoke.map((m) => /"npm run bench:smoke(?: -- ([^"]*))?"/.exec(m[2]!)![1] ?? '');
    if (runs.length === 1) assert.equal(runs[0], '');
    else {
      const lists = new Map([...ci.matchAll(/^(BENCH_\w+)="([\w -]+)"$/gm)].map((m) => [m[1]!, m[2]!.split(' ')]));
      assert.ok(lists.size > 0, 'the benches of a lane are named once, in BENCH_<LANE>');
      assert.deepEqual(
        runs.sort(),
        ['--except $WORKBENCH_BENCHES', ...[...lists.keys()].map((k) => `$${k}`)].sort(),
        'each list runs in one lane, and the rest in one more',
      );
      const except = /^WORKBENCH_BENCHES="([^"]+)"$/m.exec(ci)?.[1];
      assert.equal(except, [...lists.keys()].map((k) => `\${${k}// /,}`).join(','), 'the rest leaves out every list');
      const names = [...lists.values()].flat();
      assert.equal(new Set(names).size, names.length, 'no bench is named twice');
      for (const name of names)
        assert.ok(
          benches.some((f) => f.includes(name)),
          `${name} names a bench`,
        );
    }
    for (const [, name] of smoke) {
      const landed = ci.search(new RegExp(`^landed ${name!.replace(/\./g, '\\.')} "\\$\\w+"$`, 'm'));
      assert.ok(landed > 0, `the lane ${name} is waited for`);
      assert.ok(landed < ci.indexOf('stamp "done"'), 'before the summary');
    }
    assert.match(
      ci,
      /^\s+cat "test-output\/lane-\$1\.log" \| tee -a "\$log"$/m,
      "a landed lane's log goes into the summed log",
    );
  });

  it('the smoke runner ends with the `N passed, N failed` line the CI summary sums', () => {
    assert.match(read('bench', 'index.ts'), /\$\{[^}]+\} passed, \$\{failed\.length\} failed\\n/);
  });
});
