/**
 * Real PDFs of both layouts, printed by the browser on this machine and read back by poppler, an
 * independent reader: the page size and count (pdfinfo), the fonts embedded (pdffonts), the text,
 * the notes and the page numbers where each layout puts them (pdftotext, with word boxes), the
 * outline, and the pages rendered to pictures (pdftoppm), kept in test-output/pdf/ to look at.
 * Skipped, saying why, on a machine without a browser or poppler-utils. `shunong export --to pdf`
 * too.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { main } from '../../../src/cli/main';
import { exportBulletin, findBrowserHere, printToPdf, type Browser } from '../../../src/publish/index';
import { readSamplePhoto, ROOT, SAMPLE } from './helpers';
import { OFFICIAL } from './pdfPage.test';

const search = findBrowserHere();
const browser = search.found;
const poppler = ((): boolean => {
  try {
    execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const why = !browser
  ? ' (skipped: no Edge, Chrome or Chromium on this machine)'
  : !poppler
    ? ' (skipped: poppler-utils is not installed)'
    : '';

const OUT = join(ROOT, 'test-output', 'pdf');
const MM = 72 / 25.4;

/** The print folders in the temporary folder, and the processes running with a profile in one. */
function leftovers(): { folders: string[]; processes: string[] } {
  const folders = readdirSync(tmpdir()).filter((f) => f.startsWith('shunong-pdf-'));
  const processes = run('ps', '-eo', 'args')
    .split('\n')
    .filter((l) => /--user-data-dir=\S*shunong-pdf-/.test(l));
  return { folders, processes };
}

/** The official bulletin with enough text for three pages. */
const LONG_OFFICIAL = OFFICIAL.replace(
  '### 药剂拌种\n',
  `### 药剂拌种\n\n${'用药剂拌种防治地下害虫和苗期病害，拌种要均匀，晾干后播种。'.repeat(40)}\n`,
);

/** A bulletin whose body (masthead, title, text, signature) ends on page 1, then its closing block. */
const CLOSING_SHORT = `---
title: 关于做好秋播小麦病虫害防控的通知
layout: official
masthead: 病虫情报
issuer: 某某县植保植检站
date: 2026-10-02
cc: 县农业农村局，县气象局
printed_by: 某某县植保植检站
printed_on: 2026-10-08
---

# 关于做好秋播小麦病虫害防控的通知

当前秋播小麦陆续出苗。
`;

/** The same, with some 25 lines more: the body ends half-way down page 2. */
const CLOSING_TWO_PAGES = CLOSING_SHORT.replace(
  '当前秋播小麦陆续出苗。',
  '用药剂拌种防治地下害虫和苗期病害，拌种要均匀，晾干后播种。'.repeat(25),
);

async function pdfOf(text: string, name: string, b: Browser, extra: object = {}): Promise<string> {
  const r = await exportBulletin({
    text,
    format: 'pdf',
    lang: 'zh',
    now: new Date(),
    readImage: readSamplePhoto,
    print: (page) => printToPdf(page, { browser: b, timeoutMs: 60_000 }),
    ...extra,
  });
  assert.ok(r.ok, JSON.stringify(r));
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, r.bytes);
  return file;
}

const run = (cmd: string, ...args: string[]): string => execFileSync(cmd, args, { encoding: 'utf8' });

/** pdfinfo's fields. */
function info(file: string): Record<string, string> {
  return Object.fromEntries(
    run('pdfinfo', file)
      .split('\n')
      .map((l) => /^([^:]+):\s*(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => [m[1]!, m[2]!]),
  );
}

/** Every font pdffonts lists, with whether it is embedded. */
function fonts(file: string): { name: string; embedded: boolean }[] {
  return run('pdffonts', file)
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((l) => ({
      name: l.split(/\s+/)[0]!,
      embedded: /\s(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.exec(l)?.[1] === 'yes',
    }));
}

/** The words of a page with their boxes, in points from the top left. */
function words(file: string, page: number): { text: string; xMin: number; xMax: number; yMax: number }[] {
  const html = run('pdftotext', '-bbox', '-f', String(page), '-l', String(page), file, '-');
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map(
    (m) => ({ xMin: Number(m[1]), xMax: Number(m[2]), yMax: Number(m[3]), text: m[4]! }),
  );
}

/** The page number's words: those below the text block, which ends `bottom` mm above the page's edge. */
function pageNumber(
  file: string,
  page: number,
  bottom: number,
): { text: string; xMin: number; xMax: number; yMax: number } {
  const ws = words(file, page).filter((w) => w.yMax > 841.92 - bottom * MM);
  assert.ok(ws.length > 0, `a number at the bottom of page ${page}`);
  return {
    text: ws.map((w) => w.text).join(' '),
    xMin: Math.min(...ws.map((w) => w.xMin)),
    xMax: Math.max(...ws.map((w) => w.xMax)),
    yMax: Math.max(...ws.map((w) => w.yMax)),
  };
}

/** The titles of the PDF's outline items and its document title (UTF-16 hex strings, as Chromium writes them). */
function outlineTitles(file: string): string[] {
  const bytes = readFileSync(file).toString('latin1');
  return [...bytes.matchAll(/\/Title\s*<FEFF([0-9A-Fa-f]*)>/gi)].map((m) =>
    Buffer.from(m[1]!, 'hex').swap16().toString('utf16le'),
  );
}

/** A page rendered to a picture, saved beside the PDF. */
function picture(file: string, page: number, name: string): PNG {
  const prefix = join(OUT, name);
  run('pdftoppm', '-png', '-r', '50', '-f', String(page), '-l', String(page), '-singlefile', file, prefix);
  return PNG.sync.read(readFileSync(`${prefix}.png`));
}

describe(`PDF, printed by the browser and read back by poppler${why}`, function () {
  this.timeout(120_000);
  before(function () {
    if (why) this.skip();
  });

  it('standard layout: A4, the title in the metadata, every font embedded, the text and notes, a centred page number', async () => {
    const file = await pdfOf(SAMPLE, 'standard', browser!);
    const i = info(file);
    assert.equal(i['Page size'], '594.96 x 841.92 pts (A4)');
    assert.equal(i['Title'], '茶园冬季管理技术要点');
    assert.ok(Number(i['Pages']) >= 1);
    const fs = fonts(file);
    assert.ok(fs.length > 0);
    assert.deepEqual(
      fs.filter((f) => !f.embedded),
      [],
      'every font embedded',
    );
    const text = run('pdftotext', file, '-');
    assert.match(text, /茶园冬季管理技术要点/);
    assert.match(text, /立冬以后，茶树陆续进入休眠期/);
    assert.match(text, /1 茶树农事操作\.docx#1 — 茶树管理/);
    assert.match(text, /2 作者注：产量数据来自县茶叶站 2025 年统计。/);
    assert.match(text, /文末注释/);
    assert.ok(readFileSync(file).includes('/Outlines'), 'the headings as an outline');
    const n = pageNumber(file, 1, 22);
    assert.equal(n.text, '1');
    assert.ok(Math.abs((n.xMin + n.xMax) / 2 - 297.5) < 3, `centred: ${n.xMin}–${n.xMax}`);
    const png = picture(file, 1, 'standard-1');
    assert.ok(Math.abs(png.width - (594.96 * 50) / 72) < 1, `${png.width} px wide at 50 dpi`);
  });

  it('official layout: A4, its fonts embedded, the numbered headings as the outline, the masthead in red, — n — right on odd pages and left on even ones, 7 mm below the text block', async () => {
    const file = await pdfOf(LONG_OFFICIAL, 'official', browser!);
    const i = info(file);
    assert.equal(i['Page size'], '594.96 x 841.92 pts (A4)');
    assert.equal(i['Title'], '关于做好秋播小麦病虫害防控的通知');
    const pages = Number(i['Pages']);
    assert.ok(pages >= 3, `${pages} pages`);
    assert.deepEqual(
      fonts(file).filter((f) => !f.embedded),
      [],
    );
    const text = run('pdftotext', file, '-');
    for (const part of [
      '病虫情报',
      '2026年第12期',
      '各乡镇农业综合服务中心：',
      '一、发生趋势',
      '（一）主要病虫',
      '附件：1.小麦病虫害监测表',
      '2026年10月8日印发',
    ])
      assert.ok(text.includes(part), part);
    assert.match(text, /1 小麦病虫害测报\.pdf#2 — 植保/);
    assert.match(text, /［网络图片，未获取：https:\/\/example\.com\/field\.png］/);
    const outline = outlineTitles(file);
    for (const heading of [
      '关于做好秋播小麦病虫害防控的通知',
      '一、发生趋势',
      '（一）主要病虫',
      '1.地下害虫',
      '三、防控措施',
    ])
      assert.ok(outline.includes(heading), `the outline has ${heading}: ${outline.join(' | ')}`);
    const right = 594.96 - 26 * MM - 14; // one 14 pt character in from the text block's right edge
    const left = 28 * MM + 14;
    // the last page holds only the closing block, without a number (below)
    for (let p = 1; p < pages; p++) {
      const n = pageNumber(file, p, 35);
      assert.match(n.text, new RegExp(`^—\\s*${p}\\s*—$`), `page ${p}: ${n.text}`);
      if (p % 2) assert.ok(Math.abs(n.xMax - right) < 4, `page ${p} on the right: ends at ${n.xMax}, not ${right}`);
      else assert.ok(Math.abs(n.xMin - left) < 4, `page ${p} on the left: starts at ${n.xMin}, not ${left}`);
      const below = n.yMax - (841.92 - 35 * MM);
      assert.ok(below > 4 * MM && below < 9 * MM, `page ${p}: ${below / MM} mm below the text block`);
    }
    // 22 lines of 28 characters: a full line of the body holds 28 characters (or 27 where punctuation moved)
    const lines = run('pdftotext', '-f', '2', '-l', '2', file, '-').split('\n');
    // (a paragraph's last line is shorter)
    const full = lines.filter((l) => /^[\u4e00-\u9fff，。、]{20,}$/.test(l));
    assert.ok(full.length >= 15, `${full.length} full lines on page 2`);
    assert.ok(
      full.every((l) => l.length >= 26 && l.length <= 29),
      full.map((l) => l.length).join(' '),
    );
    const png = picture(file, 1, 'official-1');
    picture(file, 2, 'official-2');
    let red = 0;
    for (let y = 0; y < png.height / 3; y++)
      for (let x = 0; x < png.width; x++) {
        const k = (y * png.width + x) * 4;
        if (png.data[k]! > 200 && png.data[k + 1]! < 80 && png.data[k + 2]! < 80) red++;
      }
    assert.ok(red > 200, `the red masthead and rule: ${red} red pixels`);
  });

  describe('the closing block on a page of its own, at the bottom of the text block, without a number', () => {
    // the reference: "the last rule on the bottom of the text block of the last page"; "A blank page
    // and the page that holds only the closing block carry no number"
    const bottom = 841.92 - 35 * MM;

    /** Where each page's text is, the page the body ends on, and the closing page's words and rules. */
    function closing(file: string): { pages: number; bodyEnds: number; texts: string[] } {
      const pages = Number(info(file)['Pages']);
      const texts = Array.from({ length: pages }, (_, p) =>
        run('pdftotext', '-f', String(p + 1), '-l', String(p + 1), file, '-'),
      );
      // the signature's date ends the body (the masthead has it too, on page 1)
      const bodyEnds = texts.map((t) => t.includes('2026年10月2日')).lastIndexOf(true) + 1;
      return { pages, bodyEnds, texts };
    }

    /** The closing page: 抄送 and 印发 alone on it, nothing below the text block, its last rule on the text block's bottom. */
    function assertClosingPage(file: string, page: number, name: string): void {
      const ws = words(file, page);
      assert.deepEqual(
        ws.filter((w) => w.yMax > bottom + 2).map((w) => w.text),
        [],
        `no number on page ${page}`,
      );
      const text = ws.map((w) => w.text).join('');
      assert.equal(
        text,
        '抄送：县农业农村局，县气象局。某某县植保植检站2026年10月8日印发',
        `page ${page} holds only it`,
      );
      const printed = ws.find((w) => w.text.endsWith('印发'))!;
      assert.ok(
        printed.yMax > bottom - 14 && printed.yMax < bottom,
        `the 印发 line ends at ${printed.yMax}, above ${bottom}`,
      );
      // the rules: rows dark across most of the text block's width, at 144 dpi
      const prefix = join(OUT, name);
      run('pdftoppm', '-png', '-r', '144', '-f', String(page), '-l', String(page), '-singlefile', file, prefix);
      const png = PNG.sync.read(readFileSync(`${prefix}.png`));
      const rows: number[] = [];
      for (let y = 0; y < png.height; y++) {
        let dark = 0;
        for (let x = 0; x < png.width; x++) if (png.data[(y * png.width + x) * 4]! < 128) dark++;
        if (dark > png.width / 2) rows.push(y);
      }
      const last = (Math.max(...rows) + 1) / 2; // in points
      assert.ok(Math.abs(last - bottom) < 2, `the last rule ends at ${last} pt, the text block at ${bottom}`);
      assert.ok(rows.length >= 3 && last > printed.yMax, 'rules above, between and below');
    }

    it('a body that ends on page 1: the closing block on page 2', async () => {
      const file = await pdfOf(CLOSING_SHORT, 'closing-short', browser!);
      const { pages, bodyEnds } = closing(file);
      assert.equal(bodyEnds, 1);
      assert.equal(pages, 2);
      assert.match(pageNumber(file, 1, 35).text, /^—\s*1\s*—$/);
      assertClosingPage(file, 2, 'closing-short-2');
    });

    it('a body that ends on page 2: the closing block on page 3, the next page, as Chromium cannot leave a page blank (break-before: left is taken as page)', async () => {
      const file = await pdfOf(CLOSING_TWO_PAGES, 'closing-two', browser!);
      const { pages, bodyEnds } = closing(file);
      assert.equal(bodyEnds, 2);
      // the standard's even page would be page 4 after a blank page 3: pinned here as what Chromium does
      assert.equal(pages, 3);
      assert.match(pageNumber(file, 1, 35).text, /^—\s*1\s*—$/);
      assert.match(pageNumber(file, 2, 35).text, /^—\s*2\s*—$/);
      assertClosingPage(file, 3, 'closing-two-3');
    });
  });

  it('a long table: no row split across pages, its head repeated on each page', async () => {
    const rows = Array.from({ length: 90 }, (_, k) => `| R${k + 1}A ${'防治病虫'.repeat(16)} R${k + 1}Z | ${k + 1} |`);
    const text = `# 长表\n\n| 措施说明 | 序号 |\n| --- | --- |\n${rows.join('\n')}\n`;
    const file = await pdfOf(text, 'table', browser!);
    const pages = Number(info(file)['Pages']);
    assert.ok(pages >= 3, `${pages} pages`);
    const texts = Array.from({ length: pages }, (_, p) =>
      run('pdftotext', '-f', String(p + 1), '-l', String(p + 1), file, '-'),
    );
    const pageOf = (mark: string): number => texts.findIndex((t) => new RegExp(`${mark}\\b`).test(t));
    for (let n = 1; n <= 90; n++) {
      assert.ok(pageOf(`R${n}A`) >= 0, `row ${n} printed`);
      assert.equal(pageOf(`R${n}A`), pageOf(`R${n}Z`), `row ${n} on one page`);
    }
    for (const t of texts) assert.match(t, /措施说明/, 'the head on every page');
  });

  it('shunong export --to pdf: beside the bulletin; a --browser that is not there fails with what to do; a browser stopped at --timeout leaves nothing behind', async () => {
    const before = leftovers();
    const dir = mkdtempSync(join(tmpdir(), 'shunong-cli-'));
    try {
      writeFileSync(join(dir, '情报.md'), OFFICIAL);
      const out: string[] = [];
      const err: string[] = [];
      const io = { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) };
      const file = join(dir, '情报.md');
      assert.equal(await main(['export', file, '--to', 'pdf', '--browser', browser!.path], io, {}), 0, err.join(''));
      assert.deepEqual(out, [`${join(dir, '情报.pdf')}\n`]);
      assert.match(err.join(''), /picture on the web, left out/);
      assert.equal(info(join(dir, '情报.pdf'))['Title'], '关于做好秋播小麦病虫害防控的通知');
      err.length = 0;
      const missing = join(dir, 'no-browser');
      assert.equal(await main(['export', file, '--to', 'pdf', '-o', 'x.pdf', '--browser', missing], io, {}), 1);
      assert.match(
        err.join(''),
        new RegExp(`no browser at ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(--browser\\)`),
      );
      err.length = 0;
      assert.equal(await main(['export', file, '--to', 'pdf', '-o', join(dir, 'y.pdf'), '--timeout', '1'], io, {}), 1);
      assert.match(err.join(''), /the browser could not print the PDF: it did not finish within 0 s and was stopped/);
      const left = leftovers();
      assert.deepEqual(
        left.folders.filter((f) => !before.folders.includes(f)),
        [],
        'every temporary folder removed',
      );
      assert.deepEqual(left.processes, [], 'no browser process left running');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
