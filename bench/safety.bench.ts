/**
 * Safety bench: the pesticide safety lint over the 10,000-line bench bulletin, one line in ten
 * naming a pesticide (banned, scope-banned, restricted, allowed, forbidden), against one parse of
 * the same text with the citation layer's markdown-it; and the incremental lint of a keystroke in
 * the middle of the bulletin on a linter that has read it. Goal: the full lint ≤ 1.2× a parse.
 * Run: `npx tsx bench/safety.bench.ts`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { normalizeForParser, parseBlocks } from '../src/citations/parser';
import { lintSafety, SafetyLinter, shippedRules } from '../src/safety/index';
import { bulletin } from './bench-bulletin';
import { SMOKE, sized } from './smoke.mjs';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MENTIONS = [
  '可用克百威颗粒剂',
  '严禁使用氧乐果',
  '可用毒死蜱',
  '可用吡虫啉',
  '以辛硫磷替代甲拌磷',
  '可用乐果',
  '快乐果园',
];
let k = 0;
const text = (SMOKE ? bulletin(300, 40) : bulletin(10_000, 1_000)).replace(/注意 \*病虫害\* 防治/g, (m) =>
  ++k % 10 === 0 ? `${m}，${MENTIONS[(k / 10) % MENTIONS.length]}` : m,
);
const rules = shippedRules();
const today = '2026-12-02';
const middle = text.indexOf('病虫害', Math.floor(text.length / 2));
const typed = text.slice(0, middle) + '虫' + text.slice(middle);
const linter = new SafetyLinter(rules);
const runs = sized(15, 1);
const ops: [string, () => unknown][] = [
  ['parse (markdown-it)', () => parseBlocks(normalizeForParser(text))],
  ['safety lint', () => lintSafety(text, rules, { today })],
  [
    'a keystroke (incremental)',
    () => {
      linter.lint(text, { today });
      const t0 = performance.now();
      linter.lint(typed, { today });
      return performance.now() - t0;
    },
  ],
];
const samples = ops.map(() => [] as number[]);
for (let r = SMOKE ? 0 : -1; r < runs; r++) {
  ops.forEach(([, fn], i) => {
    gc();
    const t0 = performance.now();
    const out = fn();
    const ms = typeof out === 'number' ? out : performance.now() - t0;
    if (r >= 0) samples[i]!.push(ms);
  });
}
const [parse, full, keystroke] = samples.map(median) as [number, number, number];
const findings = lintSafety(text, rules, { today }).length;
process.stdout.write(
  `bulletin: ${text.split('\n').length} lines, ${text.length} chars, ${findings} findings, ${runs} runs (median)\n`,
);
process.stdout.write(`parse (markdown-it)        ${parse.toFixed(1)} ms\n`);
const ratio = full / parse;
process.stdout.write(
  `safety lint                ${full.toFixed(1)} ms  ×${ratio.toFixed(2)} of a parse ${ratio <= 1.2 ? '(ok ≤ 1.2)' : '(OVER 1.2)'}\n`,
);
process.stdout.write(
  `a keystroke (incremental)  ${keystroke.toFixed(1)} ms  ×${(keystroke / full).toFixed(2)} of a full lint\n`,
);
// A bench reports; it does not fail on a goal (wall clock is noise on a loaded machine).
process.stdout.write(`goal (lint ≤ 1.2× a parse): ${ratio <= 1.2 ? 'met' : 'NOT met in this run'}\n`);
process.exit(0);
