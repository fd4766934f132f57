/**
 * Safety bench: the pesticide safety lint over the 10,000-line bench bulletin, one line in ten
 * naming a pesticide (banned, scope-banned, restricted, allowed, forbidden), against one parse of
 * the same text with the citation layer's markdown-it; and the incremental lint of a keystroke in
 * the middle of the bulletin on a linter that has read it. Goal: the full lint ≤ 1.2× a parse.
 *
 * Then the two shapes of pasted text that were found slow, each against a parse of the same
 * text, alternated: a text pasted with single line breaks, which Markdown reads as ONE paragraph,
 * of 1,000, 3,000 and 6,000 sentences each naming pesticides (goal at 6,000: ≤ 1.2× a parse; the
 * lint's growth from 1,000 to 6,000 is printed: ~6× if linear, ~36× if quadratic); and one line of
 * 150,000 and of 600,000 characters of pesticide names separated by 、 (goal: linear, the growth
 * printed: ~4× if linear, ~16× if quadratic; a parse of it beside). A case repeats until
 * its runs are done or it has taken CASE_BUDGET_MS (at least one run). Smoke mode: 200 sentences
 * and a line of 20,000 characters, once.
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
  `safety lint                ${full.toFixed(1)} ms  ×${ratio.toFixed(2)} of a parse ${verdict(ratio)}\n`,
);
process.stdout.write(
  `a keystroke (incremental)  ${keystroke.toFixed(1)} ms  ×${(keystroke / full).toFixed(2)} of a full lint\n`,
);

/** Sentences of a pasted advisory, each naming pesticides (recommended, banned, on crops), no list marker. */
const SENTENCES = [
  (i: number) => `水稻稻飞虱可用吡虫啉或噻虫嗪防治，每亩用25%噻虫嗪水分散粒剂${2 + (i % 5)}克兑水30公斤喷雾。`,
  (i: number) => `蔬菜上严禁使用甲胺磷、对硫磷、氧乐果，茶树上不得使用三氯杀螨醇（第${i}条）。`,
  (i: number) => `韭菜韭蛆可用辛硫磷灌根，也有农户用甲拌磷拌种，${i}户已被查处。`,
  (i: number) => `柑橘红蜘蛛用哒螨灵或阿维菌素喷雾，克百威颗粒剂每亩${1 + (i % 3)}公斤撒施。`,
  (i: number) => `玉米螟用氯虫苯甲酰胺，氟虫腈仅可用于玉米拌种，去年第${i}号通报有人在大豆上喷氟虫腈。`,
  (i: number) => `小麦赤霉病用戊唑醇、多菌灵，苹果园禁用毒死蜱、乐果与百草枯（${i}）。`,
];
/** Names for the one long line: banned, scope-banned, restricted and allowed ones. */
const NAMES = '甲胺磷 对硫磷 氧乐果 克百威 毒死蜱 吡虫啉 辛硫磷 乐果 三氯杀螨醇 百草枯 氟虫腈 灭线磷'.split(' ');
/** A case stops repeating once it has taken this long (a quadratic lint of the line takes minutes a run). */
const CASE_BUDGET_MS = 60_000;

/** One paragraph: `n` sentences, each on its own line (single line breaks). */
function pastedParagraph(n: number): string {
  return Array.from({ length: n }, (_, i) => SENTENCES[i % SENTENCES.length]!(i + 1)).join('\n') + '\n';
}

/** One line of `chars` characters (about) of names separated by 、. */
function lineOfNames(chars: number): string {
  const names: string[] = [];
  for (let length = 0, i = 0; length < chars; i++) {
    const name = NAMES[i % NAMES.length]!;
    names.push(name);
    length += name.length + 1;
  }
  return `${names.join('、')}\n`;
}

interface Measured {
  parse: number;
  lint: number;
  runs: number;
  findings: number;
}

/** A parse and a lint of `doc`, alternated, `wanted` runs (median; fewer past the budget). */
function measure(doc: string, wanted: number): Measured {
  const parses: number[] = [];
  const lints: number[] = [];
  let findings = 0;
  const started = performance.now();
  for (let r = SMOKE ? 0 : -1; r < wanted; r++) {
    gc();
    let t0 = performance.now();
    parseBlocks(normalizeForParser(doc));
    const parsed = performance.now() - t0;
    gc();
    t0 = performance.now();
    findings = lintSafety(doc, rules, { today }).length;
    const linted = performance.now() - t0;
    if (r >= 0) {
      parses.push(parsed);
      lints.push(linted);
    }
    if (performance.now() - started > CASE_BUDGET_MS && lints.length > 0) break;
  }
  return { parse: median(parses), lint: median(lints), runs: lints.length, findings };
}

function verdict(ratio: number): string {
  return ratio <= 1.2 ? '(ok ≤ 1.2)' : '(OVER 1.2)';
}

/** One line of figures; the goal's verdict on it when `judged`. */
function report(label: string, doc: string, m: Measured, judged: boolean): void {
  const ratio = m.lint / m.parse;
  process.stdout.write(
    `${label} (${doc.length.toLocaleString('en')} chars, ${m.findings.toLocaleString('en')} finding${m.findings === 1 ? '' : 's'}, ` +
      `${m.runs} run${m.runs === 1 ? '' : 's'}): parse ${m.parse.toFixed(1)} ms, lint ${m.lint.toFixed(1)} ms` +
      `  ×${ratio.toFixed(2)} of a parse${judged ? ` ${verdict(ratio)}` : ''}\n`,
  );
}

const sizes = sized([1_000, 3_000, 6_000], [200]);
const caseRuns = sized(5, 1);
process.stdout.write(`pasted with single line breaks (one paragraph, a sentence a line):\n`);
const paragraphs = sizes.map((n, i) => {
  const doc = pastedParagraph(n);
  const m = measure(doc, caseRuns);
  report(`  ${n.toLocaleString('en')} sentences`, doc, m, i === sizes.length - 1);
  return m;
});
const [first, largest] = [paragraphs[0]!, paragraphs[paragraphs.length - 1]!];
const paragraphRatio = largest.lint / largest.parse;
if (paragraphs.length > 1) {
  process.stdout.write(
    `  growth ${sizes[0]!.toLocaleString('en')} → ${sizes[sizes.length - 1]!.toLocaleString('en')} sentences: ` +
      `lint ×${(largest.lint / first.lint).toFixed(1)} (linear ~6, quadratic ~36), parse ×${(largest.parse / first.parse).toFixed(1)}\n`,
  );
}
process.stdout.write(`one line of names separated by 、:\n`);
const lineSizes = sized([150_000, 600_000], [20_000]);
const lines = lineSizes.map((chars) => {
  const line = lineOfNames(chars);
  const m = measure(line, caseRuns);
  report(`  ${chars.toLocaleString('en')} characters`, line, m, false);
  return m;
});
if (lines.length > 1) {
  const [short, long] = [lines[0]!, lines[lines.length - 1]!];
  process.stdout.write(
    `  growth ×${lineSizes[lineSizes.length - 1]! / lineSizes[0]!} in length: lint ×${(long.lint / short.lint).toFixed(1)} ` +
      `(linear ~4, quadratic ~16), parse ×${(long.parse / short.parse).toFixed(1)}\n`,
  );
}

// A bench reports; it does not fail on a goal (wall clock is noise on a loaded machine).
const met = (r: number) => (r <= 1.2 ? 'met' : 'NOT met in this run');
process.stdout.write(`goal (lint ≤ 1.2× a parse): ${met(ratio)}\n`);
process.stdout.write(`goal, one pasted paragraph (≤ 1.2× a parse): ${met(paragraphRatio)}\n`);
process.exit(0);
