/**
 * Export bench: the 10,000-line bench bulletin (bench/bench-bulletin.ts: 1,000 citations, author
 * footnotes, tables, code) exported to Word and to a WeChat article, against one parse of it with
 * the same Markdown stack (markdown-it, footnotes, our plugin) — goals ≤ 3× (Word) and ≤ 2× (WeChat).
 * Interleaved runs after a warm-up, median of 9. Run: `npm run bench -- export`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { exportBulletin, type ExportFormat } from '../src/publish/index';
import { parseForPublish } from '../src/publish/read';
import { bulletin } from './bench-bulletin';
import { SMOKE, sized } from './smoke.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const text = SMOKE ? bulletin(300, 40) : bulletin(10_000, 1_000);
const runs = sized(9, 1);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(format: ExportFormat): Promise<number> {
  const r = await exportBulletin({ text, format, lang: 'zh', now: new Date(0), readImage: async () => undefined });
  if (!r.ok) throw new Error(`export refused: ${r.reason}`);
  return r.notes;
}

(async () => {
  const cases: [string, () => Promise<unknown> | unknown][] = [
    ['one parse', () => parseForPublish(text)],
    ['Word', () => run('docx')],
    ['WeChat', () => run('wechat')],
  ];
  const samples = cases.map(() => [] as number[]);
  for (let r = SMOKE ? 0 : -1; r < runs; r++) {
    for (const [i, [, f]] of cases.entries()) {
      gc();
      const t0 = performance.now();
      await f();
      if (r >= 0) samples[i]!.push(performance.now() - t0);
    }
  }
  const [parse, word, wechat] = samples.map(median) as [number, number, number];
  const line = (name: string, ms: number, goal: number): string =>
    `${name} ${ms.toFixed(0)} ms: ×${(ms / parse).toFixed(2)} ${ms / parse <= goal ? `(ok ≤ ${goal})` : `(OVER ${goal})`}`;
  process.stdout.write(
    `one parse ${parse.toFixed(0)} ms; ${line('Word', word, 3)}, ${await run('docx')} footnotes; ${line('WeChat', wechat, 2)}\n`,
  );
  process.exit(0);
})().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
