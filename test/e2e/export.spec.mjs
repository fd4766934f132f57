// e2e: a person with a bulletin of cited snippets runs "Shunong: Export Bulletin…" from the palette,
// picks Word, and gets a .docx beside it — which LibreOffice (as readers' machines would) turns into
// a PDF whose pages carry every citation as a footnote; then picks WeChat article, gets the copy
// panel, clicks Copy, and the article at a phone's width (375 px) in Chromium is what readers see.
//
// No key is needed: exporting is offline. The bulletin is a scratch file of the sample workspace.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeRegExp } from './l10n.mjs';
import { scratchFolder } from './workbench.mjs';

const SCRATCH = scratchFolder('export');
const FILE = '茶园冬季管理.md';
// As "Insert Cited Snippet" writes them: the passage as a quote ending with its citation.
const BULLETIN = `---
title: 茶园冬季管理技术要点
date: 2026-11-20
---

# 茶园冬季管理技术要点

立冬以后，茶树陆续进入休眠期，请各合作社抓住当前有利时机做好冬季管理。

## 一、修剪

> 成龄茶园以轻修剪为主，剪去树冠面上 3～5 厘米的突出枝；遇强寒潮前不宜修剪。 [^1]

## 二、施肥

> 11 月中下旬至 12 月上旬结合深耕每亩施入腐熟有机肥 1000～1500 公斤。 [^2]

| 措施 | 时间 | 用量 |
| --- | :-: | --: |
| 施基肥 | 11 月中下旬 | 1500 公斤[^2] |
| 封园 | 12 月上旬 | 石硫合剂 |

![茶芽识别结果](images/tea-buds.jpg)

据县茶叶站调查[^3]，详见 [农业农村部](https://www.moa.gov.cn/)。

## 参考资料

[^1]: 茶树修剪技术要点.docx#1 — 茶树管理 (TEA_MANAGER_001)
[^2]: 茶园施肥技术.pdf#0 — 茶树管理 (TEA_MANAGER_001)
[^3]: 2026 年 11 月各乡镇农技站调查汇总。
`;
const FOOTNOTES = [
  '茶树修剪技术要点.docx#1 — 茶树管理',
  '茶园施肥技术.pdf#0 — 茶树管理',
  '茶园施肥技术.pdf#0 — 茶树管理',
  '2026 年 11 月各乡镇农技站调查汇总。',
];

/** Run after the file's tests, passed or not. */
export const cleanup = SCRATCH.remove;

export const title = 'Export a bulletin to Word and WeChat';

async function exportAs(wb, page, l10n, label) {
  await wb.runCommand(l10n.command('shunong.exportBulletin'));
  await wb.choose(undefined, label, l10n.t('Export Bulletin'));
}

export const tests = [
  {
    name: 'the export command is on the palette, the editor title and the explorer context menu',
    run({ manifest, workspace }) {
      const menus = manifest.contributes.menus;
      for (const where of ['editor/title', 'explorer/context'])
        assert.ok(
          menus[where].some((m) => m.command === 'shunong.exportBulletin'),
          where,
        );
      SCRATCH.create();
      mkdirSync(join(SCRATCH.path, 'images'), { recursive: true });
      copyFileSync(join(workspace, 'photos', 'tea-buds.jpg'), join(SCRATCH.path, 'images', 'tea-buds.jpg'));
      writeFileSync(join(SCRATCH.path, FILE), BULLETIN);
    },
  },
  {
    name: 'Export Bulletin… → Word → the .docx beside the bulletin, said in a toast',
    timeoutMs: 90_000,
    async run({ page, wb, l10n, screenshot }) {
      await wb.ready();
      await wb.openFile(FILE);
      await exportAs(wb, page, l10n, l10n.t('Word document (.docx)'));
      const docx = join(SCRATCH.path, '茶园冬季管理.docx');
      const toast = page.locator('.notifications-toasts .notification-toast', {
        hasText: l10n.t('Exported {0}.', '茶园冬季管理.docx'),
      });
      await toast.waitFor({ state: 'visible', timeout: 60_000 });
      await screenshot('01-exported');
      await wb.assertNoEnglish('the export toast', await wb.ours());
      assert.ok(existsSync(docx), 'the Word file is beside the bulletin');
    },
  },
  {
    // The file does not depend on the display language (its words follow the bulletin's language).
    name: 'the .docx, laid out by LibreOffice as a PDF, shows every citation as a footnote',
    timeoutMs: 150_000,
    locales: ['en'],
    async run({ screenshot }) {
      const docx = join(SCRATCH.path, '茶园冬季管理.docx');
      const out = mkdtempSync(join(tmpdir(), 'shunong-e2e-docx-'));
      execFileSync(
        'soffice',
        [
          '--headless',
          `-env:UserInstallation=${pathToFileURL(join(out, 'profile'))}`,
          '--convert-to',
          'pdf',
          '--outdir',
          out,
          docx,
        ],
        {
          stdio: 'ignore',
          timeout: 120_000,
        },
      );
      const pdf = join(out, '茶园冬季管理.pdf');
      assert.ok(existsSync(pdf), 'LibreOffice made a PDF');
      const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
      for (const [i, note] of FOOTNOTES.entries())
        assert.match(text, new RegExp(`^\\s*${i + 1}\\s*${escapeRegExp(note)}`, 'm'), `footnote ${i + 1}`);
      assert.ok(!text.includes('[^'), 'no raw footnote syntax in the document');
      assert.match(text, /茶园冬季管理技术要点/);
      const png = screenshot.path('02-word-page').replace(/\.png$/, '');
      execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', pdf, png]);
      assert.ok(existsSync(`${png}.png`));
    },
  },
  {
    name: 'Export Bulletin… → WeChat article → the copy panel copies it; at 375 px it reads as a phone shows it',
    timeoutMs: 120_000,
    async run({ page, wb, l10n, screenshot }) {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await exportAs(wb, page, l10n, l10n.t('WeChat article'));
      const file = join(SCRATCH.path, '茶园冬季管理.wechat.html');
      const frame = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      const copy = frame.locator('#copy');
      await copy.waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal((await copy.innerText()).trim(), l10n.t('Copy for WeChat'));
      await frame.locator('#article sup').first().waitFor({ state: 'visible', timeout: 20_000 });
      await copy.click();
      await frame.locator('#status', { hasText: l10n.t('Copied') }).waitFor({ state: 'visible', timeout: 20_000 });
      await page
        .locator('.notifications-toasts .notification-toast', {
          hasText: l10n.t('Copied. Paste it into the WeChat official-account editor.'),
        })
        .waitFor({ state: 'visible', timeout: 20_000 });
      await screenshot('03-copy-panel');
      await wb.assertNoEnglish('the copy panel', [frame.locator('body'), ...(await wb.ours())]);
      assert.ok(existsSync(file), 'the article file is beside the bulletin (the fallback)');
      // its picture is also saved beside it, and the panel lists it to upload in WeChat's editor
      const picture = join(SCRATCH.path, '茶园冬季管理.wechat-1.jpeg');
      assert.ok(existsSync(picture), "the article's picture is saved beside it, numbered");
      await frame
        .locator('body', {
          hasText: l10n.t(
            'The article’s pictures, saved beside it in order — upload these in the editor if WeChat drops a picture:',
          ),
        })
        .waitFor({ state: 'visible', timeout: 20_000 });
      assert.match(await frame.locator('body').innerText(), /茶园冬季管理\.wechat-1\.jpeg/);

      const phone = await page
        .context()
        .browser()
        .newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 });
      try {
        const p = await phone.newPage();
        await p.goto(pathToFileURL(file).href);
        const layout = await p.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          notes: [...document.querySelectorAll('section p')]
            .map((e) => e.textContent)
            .filter((t) => /^\[\d+\]/.test(t)),
          img: document.querySelector('img')?.getBoundingClientRect().width ?? 0,
          styles: document.querySelectorAll('style').length,
          links: document.querySelectorAll('a[href]').length,
        }));
        assert.ok(layout.scrollWidth <= 375, `nothing wider than the phone (${layout.scrollWidth} px)`);
        assert.ok(layout.img > 0 && layout.img <= 375, 'the picture fits');
        assert.equal(layout.styles, 0);
        assert.equal(layout.links, 0);
        assert.deepEqual(layout.notes, [
          '[1] 茶树修剪技术要点.docx#1 — 茶树管理',
          '[2] 茶园施肥技术.pdf#0 — 茶树管理',
          '[3] 2026 年 11 月各乡镇农技站调查汇总。',
          '[4] 农业农村部: https://www.moa.gov.cn/',
        ]);
        await p.screenshot({ path: screenshot.path('04-wechat-375px'), fullPage: true });
      } finally {
        await phone.close();
      }
    },
  },
];
