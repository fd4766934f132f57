/**
 * Export bench: the 10,000-line bench bulletin (bench/bench-bulletin.ts: 1,000 citations, author
 * footnotes, tables, code) exported to Word and to a WeChat article, against one parse of it with
 * the same Markdown stack (markdown-it, footnotes, our plugin) — goals ≤ 3× (Word) and ≤ 2× (WeChat);
 * and to Word in the official layout (GB/T 9704: its masthead, closing block and fonts from the
 * front matter's fields) against the standard layout of the same bulletin — goal ≤ 1.1×.
 * Interleaved runs after a warm-up, median of 9. Run: `npm run bench -- export`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { exportBulletin, type ExportFormat, type ExportLayout } from '../src/publish/index';
import { parseForPublish } from '../src/publish/read';
import { bulletin } from './bench-bulletin';
import { SMOKE, sized } from './smoke.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** The bench bulletin with the official layout's front matter fields (each export names its layout). */
const text = (SMOKE ? bulletin(300, 40) : bulletin(10_000, 1_000)).replace(
  /^---\n/,
  '---\nmasthead: 茶园情报\nissue: 2026年第3期\nissuer: 某某县茶叶站\ndate: 2026-03-20\nto: 各乡镇农业综合服务中心\n' +
    'attachments: 茶园病虫害监测表\ncc: 县农业农村局\nprinted_by: 某某县茶叶站\nprinted_on: 2026-03-21\n',
);
const runs = sized(9, 1);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(format: ExportFormat, layout: ExportLayout = 'standard'): Promise<number> {
  const r = await exportBulletin({
    text,
    format,
    layout,
    lang: 'zh',
    now: new Date(0),
    readImage: async () => undefined,
  });
  if (!r.ok) throw new Error(`export refused: ${r.reason}`);
  return r.notes;
}

(async () => {
  const cases: [string, () => Promise<unknown> | unknown][] = [
    ['one parse', () => parseForPublish(text)],
    ['Word', () => run('docx')],
    ['WeChat', () => run('wechat')],
    ['Word, official layout', () => run('docx', 'official')],
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
  const [parse, word, wechat, official] = samples.map(median) as [number, number, number, number];
  const line = (name: string, ms: number, goal: number, base = parse): string =>
    `${name} ${ms.toFixed(0)} ms: ×${(ms / base).toFixed(2)} ${ms / base <= goal ? `(ok ≤ ${goal})` : `(OVER ${goal})`}`;
  process.stdout.write(
    `one parse ${parse.toFixed(0)} ms; ${line('Word', word, 3)}, ${await run('docx')} footnotes; ${line('WeChat', wechat, 2)}\n` +
      `${line('Word, official layout', official, 1.1, word)} of the standard layout\n`,
  );
  process.exit(0);
})().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
