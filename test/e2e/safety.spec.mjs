// e2e: a person opens a pest-control bulletin of the sample workspace that recommends 克百威 (banned
// since 2026-06-01) on 白菜 and, two lines below, forbids 克百威、氧乐果、甲拌磷. The recommendation
// gets a red squiggle, its hover names the substance, the announcement and its date, and the
// Problems panel lists exactly that one, in the window's language; the prohibition is left alone.
// No key is needed: the lint runs in the extension host.

import assert from 'node:assert/strict';

const FILE = '2026-12-蔬菜病虫害防治.md';

export const title = 'Pesticide safety in a bulletin';

export const tests = [
  {
    name: 'a bulletin recommending a banned pesticide: the squiggle, its hover, the one Problem',
    timeoutMs: 120_000,
    async run({ page, wb, screenshot, l10n }) {
      await wb.ready();
      const lines = await wb.openFile(FILE);
      await lines.locator('.view-line', { hasText: '防治蛴螬' }).waitFor({ state: 'visible', timeout: 20_000 });
      const editor = page.locator('.editor-instance .monaco-editor').first();
      const squiggle = editor.locator('.squiggly-error');
      await squiggle.first().waitFor({ state: 'attached', timeout: 30_000 });
      assert.equal(await squiggle.count(), 1, 'one error: the recommendation, not the prohibition');

      // The cursor onto the flagged name with Find, then the hover at the cursor.
      await page.keyboard.press('Control+Home');
      await page.keyboard.press('Control+F');
      await page.keyboard.type('克百威颗粒剂');
      await page.keyboard.press('Escape');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowRight');
      await wb.runCommand('Show or Focus Hover');
      // The Problem's own part (its message) shows first; wait for our provider's part, which alone
      // names the ministry's announcement by its Chinese title in either display language.
      const hover = page.locator('.monaco-hover', { hasText: '农业农村部公告第736号' }).first();
      await hover.waitFor({ state: 'visible', timeout: 20_000 });
      const text = await hover.innerText();
      assert.match(text, /克百威/);
      assert.match(text, /农业农村部公告第736号/);
      assert.match(
        text,
        l10n.zh
          ? /克百威已禁用：自2026-06-01起禁止销售和使用/
          : /克百威 \(carbofuran\) is banned: its sale and use are prohibited from 2026-06-01/,
      );
      await screenshot('01-safety-hover');
      await wb.assertNoEnglish('the pesticide hover');
      await page.keyboard.press('Escape');

      await wb.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
      const problems = page.locator('.markers-panel .monaco-list-row');
      await problems.filter({ hasText: 'shunong-safety' }).first().waitFor({ state: 'visible', timeout: 20_000 });
      const rows = await problems.filter({ hasText: 'shunong-safety' }).allInnerTexts();
      assert.equal(rows.length, 1, rows.join('\n'));
      assert.match(rows[0], l10n.zh ? /克百威已禁用/ : /克百威 \(carbofuran\) is banned/);
      assert.match(rows[0], /carbofuran-736/);
      await screenshot('02-safety-problems');
    },
  },
];
