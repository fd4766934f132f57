// e2e: a person creates a new bulletin from the palette ("Shunong: New Bulletin"), then inserts a
// weather brief for 成都 into it ("Shunong: Insert Weather Brief"): front matter from
// get_current_time, the 7-day table from weather_search, all seen in the editor.
//
// The installed extension runs in Production mode, so the key is typed into "Set API Key" first.

import assert from 'node:assert/strict';
import { setApiKeyStep } from './workbench.mjs';

export const title = 'A new bulletin with a weather brief';

export const tests = [
  setApiKeyStep,
  {
    name: 'palette → New Bulletin → place → the bulletin opens with date and solar term filled',
    timeoutMs: 90_000,
    async run({ page, wb, screenshot }) {
      await wb.runCommand(wb.l10n.command('shunong.newBulletin'));
      const input = wb.quickInput.locator('.quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill('成都');
      await screenshot('01-place');
      await wb.assertNoEnglish('the place prompt');
      await page.keyboard.press('Enter');
      const lines = page.locator('.editor-instance .view-lines').first();
      await page.waitForFunction(
        () => /solar_term:/.test(document.querySelector('.editor-instance .view-lines')?.textContent ?? ''),
        null,
        { timeout: 30_000 },
      );
      const text = await lines.innerText();
      assert.match(text, /date:\s\d{4}-\d{2}-\d{2}/);
      assert.match(text, /place:\s"成都"/);
      await screenshot('02-new-bulletin');
      await wb.assertNoEnglish('the new bulletin');
    },
  },
  {
    name: 'Insert Weather Brief for 成都: current conditions, seven days, source line',
    timeoutMs: 90_000,
    async run({ page, wb, screenshot }) {
      const lines = page.locator('.editor-instance .view-lines').first();
      await lines.click();
      await page.keyboard.press('Control+End');
      await wb.runCommand(wb.l10n.command('shunong.insertWeatherBrief'));
      const input = wb.quickInput.locator('.quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill('成都');
      const row = wb.quickInput.locator('.monaco-list-row', { hasText: '成都' }).first();
      await row.waitFor({ state: 'visible', timeout: 15_000 });
      await screenshot('03-weather-place');
      await wb.assertNoEnglish('the weather place picker');
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        () => (document.querySelector('.editor-instance .view-lines')?.textContent ?? '').includes('101270101'),
        null,
        { timeout: 30_000 },
      );
      await page.keyboard.press('Control+End');
      await page.waitForTimeout(500);
      const text = await lines.innerText();
      assert.match(text, /Weather\s·\s成都（101270101）|天气\s·\s成都（101270101）/);
      assert.match(text, /Source:|来源：/);
      await screenshot('04-weather-brief');
    },
  },
];
