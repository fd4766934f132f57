/**
 * Preview bench: rendering the 10,000-line bench bulletin (bench/bench-bulletin.ts) with VS Code's
 * engine (markdown-it 12 as VS Code 1.100 bundles it and 15; html on, linkify on with fuzzyLink off)
 * plus our plugin, against the same engine without it (goal ≤ 1.3×), and, for information, against
 * the engine with markdown-it-footnote alone. Interleaved runs after a warm-up, median of 15.
 * Run: `npm run bench -- preview`.
 */
import markdownIt from 'markdown-it';
import md12 from 'markdown-it-12';
import footnote from 'markdown-it-footnote';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { citationsPlugin } from '../src/citations';
import { vscodeEngine } from '../test/support/renderers';
import { bulletin } from './bench-bulletin';
import { SMOKE, sized } from './smoke.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const text = SMOKE ? bulletin(300, 40) : bulletin(10_000, 1_000);
const runs = sized(15, 1);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const [name, factory] of [
  ['markdown-it 12', md12],
  ['markdown-it 15', markdownIt],
] as const) {
  const engines: [string, ReturnType<typeof markdownIt>][] = [
    ['VS Code engine', vscodeEngine(factory)],
    ['+ markdown-it-footnote', vscodeEngine(factory).use(footnote)],
    ['+ our plugin', vscodeEngine(factory).use(citationsPlugin, { passageText: () => '春茶开采前后注意病虫害防治' })],
  ];
  const samples = engines.map(() => [] as number[]);
  for (let r = SMOKE ? 0 : -1; r < runs; r++) {
    engines.forEach(([, md], i) => {
      gc();
      const t0 = performance.now();
      md.render(text);
      if (r >= 0) samples[i]!.push(performance.now() - t0);
    });
  }
  const [bare, fn, ours] = samples.map(median) as [number, number, number];
  const ratio = ours / bare;
  process.stdout.write(
    `${name}: engine ${bare.toFixed(1)} ms, + markdown-it-footnote ${fn.toFixed(1)} ms (×${(fn / bare).toFixed(2)}), + our plugin ${ours.toFixed(1)} ms: ×${ratio.toFixed(2)} ${ratio <= 1.3 ? '(ok ≤ 1.3)' : '(OVER 1.3)'}, ×${(ours / fn).toFixed(2)} of footnotes alone\n`,
  );
}
process.exit(0);
