// e2e: the guided search listens, and a miss does not invite noise, on the real workbench.
//  - Rice, then a stage typed as text (分蘖期: `Use "分蘖期"` chosen) and a task typed as text (晒田,
//    nothing matches: `Use "晒田"` first and highlighted); the composed query `水稻 分蘖期 晒田` is
//    shown, reaches the local endpoint (its `GET /__admin/requests` log), and the results read as
//    ranks, not percentages.
//  - A query the local endpoint answers with a miss: "refine" highlighted first, the lowered-threshold
//    retry last; choosing it asks first on the quick input (Back highlighted); its passages are labelled
//    below the usual relevance threshold, and inserting one asks once (Back to the results highlighted).
//
// The installed extension runs in Production mode, so the key is typed into "Set API Key" first.
// The bulletin is a scratch file of the sample workspace, removed afterwards.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchFolder, setApiKeyStep } from './workbench.mjs';

const SCRATCH = scratchFolder('guided');
const FILE = 'guided-e2e-bulletin.md';
const TYPED_QUERY = '水稻 分蘖期 晒田';
/** No passage of the local endpoint's knowledge bases reaches the usual threshold 0.7 for it. */
const MISS_QUERY = '火星登陆舱推进剂燃烧效率';
/** How a result's score reads (src/knowledge/score.ts): a rank, never a percentage. */
const SCORE_KEYS = ['rrf.both', 'rrf.one', 'rrf.vector', 'rrf.fulltext', 'rrf.unknown', 'cosine', 'cosine.threshold'];

/** Run after the file's tests, passed or not. */
export const cleanup = SCRATCH.remove;

export const title = 'Guided search with typed values, and a miss with its offers';

/** The knowledge_search calls the local endpoint has logged (with their arguments). */
async function knowledgeSearches(endpoint) {
  const res = await fetch(`${endpoint.origin}/__admin/requests`);
  assert.equal(res.status, 200);
  const { requests } = await res.json();
  return requests.filter((r) => r.rpcMethod === 'tools/call' && r.tool === 'knowledge_search');
}

/** The first passage row of a results step (passages are labelled `KB #id`). */
const firstPassage = (wb) => wb.quickInput.locator('.monaco-list-row', { hasText: '#' }).first();

export const tests = [
  {
    name: 'a scratch bulletin about rice',
    run() {
      SCRATCH.create();
      writeFileSync(join(SCRATCH.path, FILE), '# 水稻分蘖期管理\n\n');
    },
  },
  setApiKeyStep,
  {
    name: 'Rice → typed stage 分蘖期 → typed task 晒田: the composed query carries both, so does the request',
    timeoutMs: 150_000,
    async run({ page, wb, screenshot, l10n, endpoint }) {
      const lines = await wb.openFile(FILE);
      await wb.runCommand(l10n.command('shunong.searchKnowledge'));
      // The vocabulary's names (Rice / 水稻…) are data of the guided search, not catalogue strings.
      await wb.choose(undefined, /Rice|水稻/, l10n.t('Search Knowledge: crop'));

      await wb.waitForStep(l10n.t('Search Knowledge: growth stage'));
      const input = wb.quickInput.locator('.quick-input-box input');
      await input.fill('分蘖期');
      const useStage = wb.quickInput.locator('.monaco-list-row', { hasText: l10n.t('Use "{0}"', '分蘖期') });
      await useStage.first().waitFor({ state: 'visible', timeout: 15_000 });
      // 分蘖期 is also the Chinese name of the vocabulary's tillering stage (found whatever the UI
      // language); the typed text is a choice of its own next to it.
      await wb.highlight(new RegExp(l10n.t('Use "{0}"', '分蘖期')));
      await screenshot('01-stage-typed');
      await wb.assertNoEnglish('the stage step with typed text');
      await page.keyboard.press('Enter');

      await wb.waitForStep(l10n.t('Search Knowledge: farm task'));
      await input.fill('晒田');
      const useTask = l10n.t('Use "{0}"', '晒田');
      await wb.quickInput.locator('.monaco-list-row', { hasText: useTask }).first().waitFor({ state: 'visible' });
      await page.waitForTimeout(300);
      assert.ok(
        (await wb.focusedRow().innerText()).includes(useTask),
        `nothing matches 晒田: "${useTask}" is highlighted`,
      );
      const rows = await wb.quickInput.locator('.monaco-list-row').allInnerTexts();
      assert.ok(rows[0]?.includes(useTask), `"${useTask}" first: ${JSON.stringify(rows)}`);
      await screenshot('02-task-typed');
      await wb.assertNoEnglish('the task step with typed text');
      await page.keyboard.press('Enter');

      await wb.waitForStep(l10n.t('Search Knowledge: your own words'));
      await page.keyboard.press('Enter'); // nothing typed: Skip
      await wb.waitForStep(l10n.t('Search Knowledge: the query (edit it freely)'));
      await wb.quickInput
        .locator('.monaco-list-row', { hasText: l10n.t('Search') })
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(await input.inputValue(), TYPED_QUERY, 'the typed stage and task are in the composed query');
      await screenshot('03-composed-query');
      await wb.assertNoEnglish('the composed query');

      const before = (await knowledgeSearches(endpoint)).length;
      await page.keyboard.press('Enter');
      try {
        await firstPassage(wb).waitFor({ state: 'visible', timeout: 60_000 });
      } catch {
        await screenshot('04-failed');
        assert.fail(`no results; toasts: ${JSON.stringify(await wb.toasts())}`);
      }
      const sent = (await knowledgeSearches(endpoint)).slice(before);
      assert.equal(sent.at(-1)?.arguments?.query, TYPED_QUERY, 'the request carries the composed query');
      assert.equal(sent.at(-1)?.arguments?.kbCode, 'RICE_001', 'the crop picked its knowledge base');
      await page.waitForTimeout(1200);
      await screenshot('04-results');
      await wb.assertNoEnglish('the results');
      const first = await firstPassage(wb).innerText();
      assert.ok(
        SCORE_KEYS.some((k) => l10n.msgPattern(`score.${k}`, 1).test(first)),
        `the first passage reads as rank 1: ${first}`,
      );
      assert.ok(!/%|▰/.test(first), 'no percentage, no strength bars');
      await page.keyboard.press('Escape');
      assert.ok(!(await lines.innerText()).includes('[^1]'), 'nothing inserted');
    },
  },
  {
    name: 'a miss: refine highlighted first; the lowered-threshold retry last, asked first; its passages labelled, asked about once',
    timeoutMs: 150_000,
    async run({ page, wb, screenshot, l10n }) {
      const lines = page.locator('.editor-instance .view-lines').first();
      await wb.runCommand(l10n.command('shunong.searchSelection'));
      const input = wb.quickInput.locator('.quick-input-box input');
      await wb.quickInput
        .locator('.monaco-list-row', { hasText: l10n.t('Search') })
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill(MISS_QUERY);
      await page.waitForTimeout(800); // the search as you type settles
      await page.keyboard.press('Enter');

      await wb.waitForStep(l10n.t('No passage matched "{0}"', MISS_QUERY), 60_000);
      const refine = l10n.msg('offer.refine');
      await wb.quickInput.locator('.monaco-list-row', { hasText: refine }).first().waitFor({ state: 'visible' });
      await page.waitForTimeout(300);
      assert.ok((await wb.focusedRow().innerText()).includes(refine), 'refining is highlighted');
      const rows = await wb.quickInput.locator('.monaco-list-row').allInnerTexts();
      const lower = l10n.msgPattern('offer.lowerThreshold');
      const offers = rows.filter((r) => r.includes(refine) || lower.test(r));
      assert.ok(offers[0]?.includes(refine) && lower.test(offers.at(-1) ?? ''), `refine before the retry: ${rows}`);
      await screenshot('05-miss-offers');
      await wb.assertNoEnglish('the miss and its offers');

      await wb.quickInput.locator('.monaco-list-row', { hasText: lower }).first().click();
      // The noisy retry asks first, on the same quick input (a modal dialog would close the search),
      // with Back highlighted.
      const retry = wb.quickInput.locator('.monaco-list-row', { hasText: l10n.t('Retry anyway') }).first();
      await retry.waitFor({ state: 'visible', timeout: 15_000 });
      await page.waitForTimeout(300);
      assert.ok((await wb.focusedRow().innerText()).includes(l10n.t('Back')), 'Back is highlighted');
      await screenshot('06-retry-confirm');
      await wb.assertNoEnglish('the retry confirmation');
      await retry.click();

      // The retried search's passages are labelled below the usual threshold.
      const below = l10n.msgPattern('score.below');
      await firstPassage(wb).waitFor({ state: 'visible', timeout: 60_000 });
      await page.waitForTimeout(800);
      assert.ok(below.test(await firstPassage(wb).innerText()), 'the passage is labelled below the usual threshold');
      await screenshot('07-below-threshold');
      await wb.assertNoEnglish('the results below the usual threshold');

      // Enter on it asks once, "Back to the results" highlighted: one more Enter does not cite it.
      await firstPassage(wb).click();
      const anyway = wb.quickInput.locator('.monaco-list-row', { hasText: l10n.t('Insert it anyway') }).first();
      await anyway.waitFor({ state: 'visible', timeout: 15_000 });
      await page.waitForTimeout(300);
      assert.ok((await wb.focusedRow().innerText()).includes(l10n.t('Back to the results')), 'Back is highlighted');
      await screenshot('08-insert-confirm');
      await wb.assertNoEnglish('the insert confirmation');
      await page.keyboard.press('Enter');
      await firstPassage(wb).waitFor({ state: 'visible', timeout: 15_000 });
      await page.keyboard.press('Escape');
      assert.ok(!(await lines.innerText()).includes('[^1]'), 'nothing inserted without a hit');
    },
  },
];
