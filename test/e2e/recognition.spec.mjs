// e2e: a person opens the recognition preview on a tea photo of the workspace from the command
// palette ("Shunong: Recognize Crop Image…" → the picture → "Tea bud count"), sees the boxes drawn
// over it, and hovers a row of the detections table to see its box highlighted.
//
// The installed extension runs in Production mode, so the key is typed into "Set API Key" first.
// The tea picture (the local endpoint's sample) is copied into a scratch folder of the sample
// workspace for the run and removed afterwards.

import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setApiKeyStep } from './workbench.mjs';

const REPO = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const SCRATCH = join(REPO, 'test', 'fixtures', 'workspace', `.recognition-e2e-${process.pid}`);
const PICTURE = 'tea_buds.png';

/** The preview's document inside the webview's two iframes. */
function preview(page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

export const title = 'Crop recognition preview';

export const tests = [
  {
    name: 'the extension contributes "Shunong: Recognize Crop Image…" and its explorer menu entry',
    run({ manifest }) {
      const cmd = manifest.contributes?.commands?.find((c) => c.command === 'shunong.recognizeImage');
      assert.ok(cmd, 'no command shunong.recognizeImage');
      assert.ok(manifest.contributes?.menus?.['explorer/context']?.some((m) => m.command === 'shunong.recognizeImage'));
      mkdirSync(SCRATCH, { recursive: true });
      copyFileSync(join(REPO, 'test', 'emulator', 'images', PICTURE), join(SCRATCH, PICTURE));
    },
  },
  setApiKeyStep,
  {
    name: 'palette → tea picture → "Tea bud count": the preview shows the picture with its boxes',
    timeoutMs: 150_000,
    async run({ page, wb, screenshot }) {
      await wb.runCommand('Shunong: Recognize Crop Image');
      const input = wb.quickInput.locator('.quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill(PICTURE.replace('.png', ''));
      const row = wb.quickInput.locator('.monaco-list-row', { hasText: PICTURE }).first();
      await row.waitFor({ state: 'visible', timeout: 15_000 });
      await screenshot('01-source');
      await page.keyboard.press('Enter');
      const typeRow = wb.quickInput.locator('.monaco-list-row', { hasText: 'Tea bud count' }).first();
      await typeRow.waitFor({ state: 'visible', timeout: 15_000 });
      await screenshot('02-type');
      await typeRow.click();
      const view = preview(page);
      const boxes = view.locator('svg.boxes rect.box');
      try {
        await boxes.first().waitFor({ state: 'attached', timeout: 60_000 });
        await view.locator('#image').waitFor({ state: 'visible', timeout: 10_000 });
      } catch {
        await screenshot('03-failed');
        assert.fail(`no boxes in the preview; toasts: ${JSON.stringify(await wb.toasts())}`);
      }
      const n = await boxes.count();
      const rows = await view.locator('#detections tbody tr[data-index]').count();
      assert.ok(n > 0, 'boxes are drawn');
      assert.equal(rows, n, 'one table row per box');
      assert.match(await view.locator('#headline').innerText(), /tea buds|茶芽/);
      // Let the progress toast go and the layout settle for the picture.
      await page.waitForTimeout(1500);
      await screenshot('03-preview-boxes');
    },
  },
  {
    name: 'hovering a table row highlights its box (and zoom keeps the boxes on the picture)',
    timeoutMs: 60_000,
    async run({ page, screenshot }) {
      const view = preview(page);
      const row = view.locator('#detections tbody tr[data-index="1"]');
      await row.hover();
      const box = view.locator('svg.boxes rect.box[data-index="1"]');
      await page.waitForTimeout(200);
      assert.match((await box.getAttribute('class')) ?? '', /\bhl\b/, 'the hovered row\'s box is highlighted');
      assert.match((await row.getAttribute('class')) ?? '', /\bhl\b/);
      assert.equal(await view.locator('svg.boxes rect.box.hl').count(), 1, 'only that box');
      await screenshot('04-hover-row');
      // and the reverse: hovering a box highlights its row
      await view.locator('svg.boxes rect.box[data-index="0"]').hover({ force: true });
      await page.waitForTimeout(200);
      assert.match((await view.locator('#detections tbody tr[data-index="0"]').getAttribute('class')) ?? '', /\bhl\b/);
      // 100%: the stage takes the picture's own size, the boxes stay on it (SVG in the same box)
      await view.locator('#zoom-100').click();
      const size = await view.locator('#stage').evaluate((el) => [el.clientWidth, el.clientHeight]);
      const natural = await view.locator('#image').evaluate((img) => [img.naturalWidth, img.naturalHeight]);
      assert.deepEqual(size, natural);
      const svg = await view.locator('svg.boxes').evaluate((el) => [el.clientWidth, el.clientHeight]);
      assert.deepEqual(svg, natural);
      await screenshot('05-zoom-100');
      rmSync(SCRATCH, { recursive: true, force: true });
    },
  },
];
