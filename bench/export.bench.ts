/**
 * Export bench: the 10,000-line bench bulletin (bench/bench-bulletin.ts: 1,000 citations, author
 * footnotes, tables, code) exported to Word and to a WeChat article, against one parse of it with
 * the same Markdown stack (markdown-it, footnotes, our plugin) — goals ≤ 3× (Word) and ≤ 2× (WeChat);
 * and to Word in the official layout (GB/T 9704: its masthead, closing block and fonts from the
 * front matter's fields) against the standard layout of the same bulletin — goal ≤ 1.1×.
 * Interleaved runs after a warm-up, median of 9. And to PDF in both layouts, from the Markdown,
 * against the same browser launched the same way (the same command line, a fresh profile) printing
 * the finished page with nothing of ours in between — goal ≤ 1.5×; median of 5 (in smoke mode,
 * one run of the standard layout), skipped without a browser. Run: `npm run bench -- export`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { printArgs } from '../src/pdf/index';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  exportBulletin,
  findBrowserHere,
  printToPdf,
  type Browser,
  type ExportFormat,
  type ExportLayout,
} from '../src/publish/index';
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

/** PDF from the Markdown, through our export; the page printed is kept for the bare print. */
async function pdf(browser: Browser, layout: ExportLayout, pages: Map<ExportLayout, string>): Promise<void> {
  const r = await exportBulletin({
    text,
    format: 'pdf',
    layout,
    lang: 'zh',
    now: new Date(0),
    readImage: async () => undefined,
    print: (page) => {
      pages.set(layout, page);
      return printToPdf(page, { browser, timeoutMs: 600_000 });
    },
  });
  if (!r.ok) throw new Error(`PDF export failed: ${JSON.stringify(r)}`);
}

/** The browser printing a finished page, launched as the export launches it, nothing of ours around it. */
async function bare(browser: Browser, page: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'shunong-bench-pdf-'));
  try {
    writeFileSync(join(dir, 'page.html'), page);
    const args = printArgs({
      profile: join(dir, 'profile'),
      page: pathToFileURL(join(dir, 'page.html')).href,
      output: join(dir, 'page.pdf'),
      root: process.getuid?.() === 0,
    });
    const t0 = performance.now();
    await new Promise((resolve, reject) =>
      spawn(browser.path, args, { stdio: 'ignore' }).on('exit', resolve).on('error', reject),
    );
    bareMs.push(performance.now() - t0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const bareMs: number[] = [];

/** The PDF lines: each layout through our export against the bare print of its page. */
async function pdfLines(): Promise<string> {
  const browser = findBrowserHere().found;
  if (!browser) return 'PDF: skipped, no Edge, Chrome or Chromium on this machine\n';
  const pages = new Map<ExportLayout, string>();
  // smoke mode: one layout, to keep CI short (the path is the same)
  const layouts: ExportLayout[] = SMOKE ? ['standard'] : ['standard', 'official'];
  const ours = new Map<ExportLayout, number[]>(layouts.map((l) => [l, []]));
  const base = new Map<ExportLayout, number[]>(layouts.map((l) => [l, []]));
  const pdfRuns = sized(5, 1);
  for (let r = SMOKE ? 0 : -1; r < pdfRuns; r++)
    for (const layout of layouts) {
      const t0 = performance.now();
      await pdf(browser, layout, pages);
      const took = performance.now() - t0;
      await bare(browser, pages.get(layout)!);
      if (r >= 0) {
        ours.get(layout)!.push(took);
        base.get(layout)!.push(bareMs.at(-1)!);
      }
    }
  return layouts
    .map((l) => {
      const [o, b] = [median(ours.get(l)!), median(base.get(l)!)];
      return `PDF, ${l} layout ${o.toFixed(0)} ms against the browser printing its page alone ${b.toFixed(0)} ms: ×${(o / b).toFixed(2)} ${o / b <= 1.5 ? '(ok ≤ 1.5)' : '(OVER 1.5)'}\n`;
    })
    .join('');
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
      `${line('Word, official layout', official, 1.1, word)} of the standard layout\n` +
      (await pdfLines()),
  );
  process.exit(0);
})().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
