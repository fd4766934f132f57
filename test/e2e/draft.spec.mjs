// e2e: a person drafts a paragraph for "水稻分蘖期如何管理水层" in a bulletin: opens the bulletin, puts
// the cursor under the heading, runs "Shunong: Draft with Knowledge…" from the palette (the question
// comes prefilled from the current heading), picks "Draft now", watches the draft stream into the
// preview beside the bulletin, accepts all, and sees the paragraph with its footnotes and the
// references section in the bulletin. Screenshots are the evidence.
//
// The bulletin is written into a scratch folder of the sample workspace for the run and removed afterwards.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchFolder, setApiKeyStep } from './workbench.mjs';

const SCRATCH = scratchFolder('draft');
const FILE = '水稻简报.md';
const QUESTION = '水稻分蘖期如何管理水层';

/** Run after the file's tests, passed or not. */
export const cleanup = SCRATCH.remove;

export const title = 'Draft with Knowledge';

export const tests = [
  {
    name: 'the extension contributes "Shunong: Draft with Knowledge…" (palette and editor menu)',
    run({ manifest }) {
      const cmd = manifest.contributes?.commands?.find((c) => c.command === 'shunong.draftWithKnowledge');
      assert.ok(cmd, 'no command shunong.draftWithKnowledge');
      assert.ok(
        manifest.contributes?.menus?.['editor/context']?.some((m) => m.command === 'shunong.draftWithKnowledge'),
      );
      SCRATCH.create();
      writeFileSync(join(SCRATCH.path, FILE), `# 水稻简报\n\n## ${QUESTION}\n\n`);
    },
  },
  setApiKeyStep,
  {
    name: 'palette → question from the heading → Draft now → streamed preview → Accept all → cited paragraph',
    timeoutMs: 150_000,
    async run({ page, wb, screenshot, l10n }) {
      const explorer = page.locator('.explorer-folders-view');
      await explorer.locator('.monaco-list-row', { hasText: SCRATCH.folder }).first().click();
      await explorer.locator('.monaco-list-row', { hasText: FILE }).first().click();
      const editor = page.locator('.editor-group-container .monaco-editor').first();
      await editor.locator('.view-lines', { hasText: QUESTION }).waitFor({ state: 'visible', timeout: 20_000 });
      await editor.locator('.view-lines').click();
      await page.keyboard.press('Control+End');
      await wb.runCommand(l10n.command('shunong.draftWithKnowledge'));
      const input = wb.quickInput.locator('.quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      // The box may be drawn before its value is set: give it time, then compare.
      await page
        .waitForFunction(
          (q) => document.querySelector('.quick-input-widget .quick-input-box input')?.value === q,
          QUESTION,
          { timeout: 15_000 },
        )
        .catch(() => {});
      assert.equal(await input.inputValue(), QUESTION, 'the question comes from the current heading');
      await screenshot('01-question');
      await wb.assertNoEnglish('the question box');
      await page.keyboard.press('Enter');
      const go = wb.quickInput.locator('.monaco-list-row', { hasText: l10n.t('Draft now') }).first();
      await go.waitFor({ state: 'visible', timeout: 15_000 });
      await screenshot('02-options');
      await wb.assertNoEnglish('the draft options');
      await go.click();
      const accept = wb.quickInput.locator('.monaco-list-row', { hasText: l10n.t('Accept all') }).first();
      try {
        await accept.waitFor({ state: 'visible', timeout: 60_000 });
      } catch {
        await screenshot('03-failed');
        assert.fail(`the draft never finished; toasts: ${JSON.stringify(await wb.toasts())}`);
      }
      await page.waitForTimeout(500);
      await screenshot('03-preview-and-accept');
      await wb.assertNoEnglish('the draft preview and its choices');
      const previewText = await page.locator('.editor-group-container').nth(1).locator('.view-lines').innerText();
      assert.match(previewText, /分蘖/, 'the preview shows the draft');
      // The draft's labels follow the bulletin's language, not the display language.
      assert.match(previewText, l10n.anyLanguage('Sources'), 'the preview lists the sources');
      const usage = (await wb.quickInput.locator('.quick-input-box input').getAttribute('placeholder')) ?? '';
      assert.match(
        usage,
        l10n.pattern(
          'Knowledge search: {0} call(s), {1} chunk(s) · Weather: {2} call(s) · Tokens: {3} prompt + {4} completion = {5}',
          1,
        ),
        'usage is shown with the draft',
      );
      assert.ok(
        usage.includes(l10n.t('(estimates counted by the local endpoint)')),
        'local usage figures are labelled as estimates',
      );
      await accept.click();
      const lines = page.locator('.editor-group-container').first().locator('.view-lines');
      await lines
        .filter({ hasText: '参考资料' })
        .waitFor({ state: 'visible', timeout: 20_000 })
        .catch(async () => {
          await page.keyboard.press('Control+End');
        });
      await page.waitForTimeout(800);
      const text = await lines.innerText();
      assert.match(text, /\[\^1\]/, 'the paragraph carries footnotes');
      await screenshot('04-accepted');
    },
  },
];
