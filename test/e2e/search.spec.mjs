// e2e: a person opens a bulletin, runs "Shunong: Search Knowledge" from the palette, walks the guided
// steps (Tea → dormant bud → pruning → 要点), sees the results in the server's order, presses Enter
// on the first one and finds the cited snippet in the bulletin; then looks at the knowledge browser.
//
// The installed extension runs in Production mode, so the key is typed into "Set API Key" first.
// The bulletin is a scratch file of the sample workspace, removed afterwards.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchFolder, setApiKeyStep } from './workbench.mjs';

const SCRATCH = scratchFolder('search');
const FILE = 'search-e2e-bulletin.md';

/** Run after the file's tests, passed or not. */
export const cleanup = SCRATCH.remove;

export const title = 'Knowledge search from the palette';

/**
 * Focuses the Knowledge view, expands the guided search's history node, and waits for its first
 * passage (the one cited in the bulletin). Returns the view; rows are looked for only inside it (the
 * Citations view below shows the same passage).
 */
async function showSearchInBrowser(page, wb) {
  const { nls } = wb.l10n;
  // VS Code's own command for a view: "<container>: Focus on <view> View" (VS Code's words stay
  // English under the test language pack; the names are ours).
  await wb.runCommand(`${nls('viewsContainer.shunong')}: Focus on ${nls('view.knowledgeBrowser')} View`);
  const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: nls('view.knowledgeBrowser') }) });
  const search = view.locator('.monaco-list-row', { hasText: '茶树 驻芽期 修剪 要点' }).first();
  await search.waitFor({ state: 'visible', timeout: 30_000 });
  if ((await search.getAttribute('aria-expanded')) !== 'true') await search.click();
  await view
    .locator('.monaco-list-row', { hasText: '新梢生长到一定程度' })
    .first()
    .waitFor({ state: 'visible', timeout: 15_000 });
  return view;
}

export const tests = [
  {
    name: 'the extension contributes the search commands and the walkthrough step',
    run({ manifest }) {
      for (const id of ['shunong.searchKnowledge', 'shunong.searchSelection', 'shunong.searchAgain']) {
        assert.ok(
          manifest.contributes?.commands?.some((c) => c.command === id),
          id,
        );
      }
      assert.ok(manifest.contributes.walkthroughs[0].steps.some((s) => s.id === 'firstSearch'));
      SCRATCH.create();
      writeFileSync(join(SCRATCH.path, FILE), '# 茶园夏季管理\n\n修剪安排如下。\n\n');
    },
  },
  setApiKeyStep,
  {
    name: 'palette → guided steps → results → Enter: the cited snippet is in the bulletin',
    timeoutMs: 180_000,
    async run({ page, wb, screenshot, l10n }) {
      // Open the bulletin through Quick Open and put the cursor at its end.
      await wb.openFile(FILE);

      await wb.runCommand(l10n.command('shunong.searchKnowledge'));
      // The vocabulary's names (Tea / 茶树…) are data of the guided search, not catalogue strings.
      await wb.choose(undefined, /^Tea|茶树/, l10n.t('Search Knowledge: crop'));
      await wb.assertNoEnglish('the crop step');
      await wb.choose(undefined, /Dormant bud|驻芽期/, l10n.t('Search Knowledge: growth stage'));
      // Typed to filter: the task list carries the names of the display language.
      await wb.choose(l10n.zh ? '修剪' : 'prun', /Pruning|修剪/, l10n.t('Search Knowledge: farm task'));
      await wb.waitForStep(l10n.t('Search Knowledge: your own words'));
      const input = wb.quickInput.locator('.quick-input-box input');
      await input.fill('要点');
      assert.equal(await input.inputValue(), '要点');
      await page.keyboard.press('Enter');
      await wb.waitForStep(l10n.t('Search Knowledge: the query (edit it freely)'));
      await wb.quickInput
        .locator('.monaco-list-row', { hasText: l10n.t('Search') })
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(await input.inputValue(), '茶树 驻芽期 修剪 要点');
      await screenshot('01-composed-query');
      await wb.assertNoEnglish('the composed query');
      await page.keyboard.press('Enter');
      const first = wb.quickInput.locator('.monaco-list-row', { hasText: '#' }).first();
      try {
        await first.waitFor({ state: 'visible', timeout: 60_000 });
      } catch {
        await screenshot('02-failed');
        assert.fail(`no results; toasts: ${JSON.stringify(await wb.toasts())}`);
      }
      await page.waitForTimeout(1200);
      await screenshot('02-results');
      await wb.assertNoEnglish('the results');
      const firstText = await first.innerText();
      assert.match(firstText, /Rank 1 of|第 1\//);
      assert.ok(!/%/.test(firstText), 'no percentage for an RRF score');
      await page.keyboard.press('Enter');
      const lines = page.locator('.editor-instance .view-lines').first();
      await page.waitForFunction(
        () => document.querySelector('.editor-instance .view-lines')?.textContent?.includes('[^1]'),
        null,
        { timeout: 30_000 },
      );
      const text = await lines.innerText();
      assert.match(text, /参考资料/);
      assert.match(text, /TEA_MANAGER_001/);
      await screenshot('03-cited-snippet');
    },
  },
  {
    name: 'renumber, then hover the citation: the passage, its knowledge base and its score by type',
    timeoutMs: 90_000,
    async run({ page, wb, screenshot }) {
      await wb.runCommand(wb.l10n.command('shunong.renumberCitations'));
      const lines = page.locator('.editor-instance .view-lines').first();
      assert.match(await lines.innerText(), /\[\^1\]:\s茶树/); // the editor renders spaces as U+00A0
      // Put the cursor on the reference with Find, then ask for the hover at the cursor.
      await lines.click();
      await page.keyboard.press('Control+Home');
      await page.keyboard.press('Control+F');
      await page.keyboard.type('[^1]');
      await page.keyboard.press('Escape');
      await page.keyboard.press('ArrowLeft'); // the cursor to the start of the found `[^1]`
      await wb.runCommand('Show or Focus Hover');
      const hover = page.locator('.monaco-hover', { hasText: '茶树管理' }).first();
      await hover.waitFor({ state: 'visible', timeout: 20_000 });
      const text = await hover.innerText();
      assert.match(text, /#\d+/);
      assert.match(text, /RRF/, 'an RRF score is read as rank only');
      assert.ok(!/%/.test(text), 'no percentage');
      await screenshot('05-hover');
      await wb.assertNoEnglish('the citation hover');
      await page.keyboard.press('Escape');
    },
  },
  {
    name: 'the knowledge browser shows the search, its passages and the knowledge base',
    timeoutMs: 60_000,
    async run({ page, wb, screenshot }) {
      const view = await showSearchInBrowser(page, wb);
      await view
        .locator('.monaco-list-row', { hasText: 'TEA_MANAGER_001' })
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 });
      await screenshot('04-browser-view');
      const seen = await wb.assertNoEnglish('the knowledge browser');
      assert.ok(
        seen.some((t) => t.includes(wb.l10n.t('Recent searches'))),
        'the check looks at the knowledge browser',
      );
    },
  },
  {
    name: "search for selection: passages appear as the query is typed, in the server's order, under the Search item",
    timeoutMs: 60_000,
    async run({ page, wb, screenshot }) {
      await wb.runCommand(wb.l10n.command('shunong.searchSelection'));
      const input = wb.quickInput.locator('.quick-input-box input');
      await wb.quickInput
        .locator('.monaco-list-row', { hasText: wb.l10n.t('Search') })
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill('');
      await input.pressSequentially('茶树修剪技术要点', { delay: 40 });
      const passage = wb.quickInput.locator('.monaco-list-row', { hasText: '#' }).first();
      await passage.waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForTimeout(500);
      const rows = await wb.quickInput.locator('.monaco-list-row').allInnerTexts();
      assert.ok(
        (rows[0] ?? '').includes(wb.l10n.t('Search')),
        'the Search item stays first: Enter runs the full search',
      );
      assert.ok(rows.filter((r) => r.includes('#')).length >= 2, 'the passages are listed while typing');
      await screenshot('06-search-as-you-type');
      await wb.assertNoEnglish('search as you type');
      await page.keyboard.press('Escape');
    },
  },
  {
    name: 'after a window reload the knowledge browser still lists the search (history in workspace state)',
    timeoutMs: 120_000,
    // What a reload keeps does not depend on the display language; the browser's words are the test above's.
    locales: ['en'],
    async run({ page, wb, screenshot }) {
      await wb.runCommand('File: Save All Files');
      // A browser reload is a window reload for the workbench; accept a "leave the page?" question.
      page.once('dialog', (d) => void d.accept().catch(() => undefined));
      await page.reload({ waitUntil: 'load' });
      // The window comes back with the Shunong side bar it had open (not the explorer).
      await wb.statusBar.waitFor({ state: 'visible', timeout: 60_000 });
      await showSearchInBrowser(page, wb); // its passages now read back from workspace state
      await screenshot('07-browser-after-reload');
    },
  },
];
