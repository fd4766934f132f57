// e2e: a person opens the recognition preview on a tea photo of the workspace from the command
// palette ("Shunong: Recognize Crop Image…" → the picture → "Tea bud count"), sees the boxes drawn
// over it, and hovers a row of the detections table to see its box highlighted.
//
// The boxes are painted on one canvas: "drawn" is checked on its pixels (box colours over the
// picture), the highlighted box is the one overlay element #box-hl (data-index, position).
//
// The installed extension runs in Production mode, so the key is typed into "Set API Key" first.
// The tea picture (the local endpoint's sample) is copied into a scratch folder of the sample
// workspace for the run and removed afterwards.

import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchFolder, setApiKeyStep } from './workbench.mjs';

const REPO = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const SCRATCH = scratchFolder('recognition');
const PICTURE = 'tea_buds.png';

/** The preview's document inside the webview's two iframes. */
function preview(page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** Run after the file's tests, passed or not. */
export const cleanup = SCRATCH.remove;

export const title = 'Crop recognition preview';

export const tests = [
  {
    name: 'the extension contributes "Shunong: Recognize Crop Image…" and its explorer menu entry',
    run({ manifest }) {
      const cmd = manifest.contributes?.commands?.find((c) => c.command === 'shunong.recognizeImage');
      assert.ok(cmd, 'no command shunong.recognizeImage');
      assert.ok(manifest.contributes?.menus?.['explorer/context']?.some((m) => m.command === 'shunong.recognizeImage'));
      SCRATCH.create();
      copyFileSync(join(REPO, 'test', 'emulator', 'images', PICTURE), join(SCRATCH.path, PICTURE));
    },
  },
  setApiKeyStep,
  {
    name: 'palette → tea picture → "Tea bud count": the preview shows the picture with its boxes',
    timeoutMs: 150_000,
    async run({ page, wb, screenshot, l10n }) {
      await wb.runCommand(l10n.command('shunong.recognizeImage'));
      const input = wb.quickInput.locator('.quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill(PICTURE.replace('.png', ''));
      const row = wb.quickInput.locator('.monaco-list-row', { hasText: PICTURE }).first();
      await row.waitFor({ state: 'visible', timeout: 15_000 });
      await screenshot('01-source');
      await wb.assertNoEnglish('the image picker');
      await page.keyboard.press('Enter');
      const typeRow = wb.quickInput.locator('.monaco-list-row', { hasText: l10n.t('Tea bud count') }).first();
      await typeRow.waitFor({ state: 'visible', timeout: 15_000 });
      await screenshot('02-type');
      await wb.assertNoEnglish('the recognition types');
      await typeRow.click();
      const view = preview(page);
      const rows = view.locator('#detections tbody tr[data-index]');
      try {
        await rows.first().waitFor({ state: 'attached', timeout: 60_000 });
        await view.locator('#image').waitFor({ state: 'visible', timeout: 10_000 });
        await view.locator('canvas.boxes').waitFor({ state: 'attached', timeout: 10_000 });
      } catch {
        await screenshot('03-failed');
        assert.fail(`no boxes in the preview; toasts: ${JSON.stringify(await wb.toasts())}`);
      }
      // The picture is a webview resource (asWebviewUri), not a data URI.
      assert.doesNotMatch((await view.locator('#image').getAttribute('src')) ?? '', /^data:/);
      const n = Number(await view.locator('#detections').getAttribute('aria-rowcount')) - 1;
      assert.ok(n > 0, 'detections are listed');
      assert.equal(await rows.count(), n, 'a few detections: every row is rendered');
      // Boxes are painted: the canvas has opaque pixels (it is transparent where there is no box).
      await page.waitForTimeout(300);
      const painted = await view.locator('canvas.boxes').evaluate((c) => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let k = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) k++;
        return k;
      });
      assert.ok(painted > 100, `box pixels on the canvas: ${painted}`);
      assert.match(await view.locator('#headline').innerText(), l10n.pattern('{0} tea buds'));
      // Let the progress toast go and the layout settle for the picture.
      await page.waitForTimeout(1500);
      await screenshot('03-preview-boxes');
      await wb.assertNoEnglish('the recognition preview', [...(await wb.ours()), view.locator('body')]);
    },
  },
  {
    name: 'hovering a table row highlights its box (and zoom keeps the boxes on the picture)',
    timeoutMs: 60_000,
    async run({ page, wb, screenshot }) {
      const view = preview(page);
      const row = view.locator('#detections tbody tr[data-index="1"]');
      const hl = view.locator('#box-hl');
      await row.hover();
      await page.waitForTimeout(200);
      assert.equal(await hl.getAttribute('data-index'), '1', "the hovered row's box is highlighted");
      assert.ok(await hl.isVisible());
      assert.match((await row.getAttribute('class')) ?? '', /\bhl\b/);
      assert.equal(await view.locator('#detections tbody tr.hl').count(), 1, 'only that row');
      // The overlay sits on that box: the row's coordinates, scaled to the stage.
      const coords = async (i) =>
        (await view.locator(`#detections tbody tr[data-index="${i}"] td.mono`).innerText()).split(',').map(Number);
      const [x1, y1, x2] = await coords(1);
      const stage = await view.locator('#stage').boundingBox();
      const natural = await view.locator('#image').evaluate((img) => [img.naturalWidth, img.naturalHeight]);
      const k = stage.width / natural[0];
      const at = await hl.boundingBox();
      assert.ok(
        Math.abs(at.x - (stage.x + x1 * k)) < 3 && Math.abs(at.y - (stage.y + y1 * k)) < 3,
        `overlay at ${at.x},${at.y}`,
      );
      assert.ok(Math.abs(at.width - (x2 - x1) * k) < 3, `overlay width ${at.width}`);
      await screenshot('04-hover-row');
      await wb.assertNoEnglish('the preview, a row hovered', [view.locator('body')]);
      // and the reverse: the pointer over box 0 on the picture highlights its row
      const [a1, b1, a2, b2] = await coords(0);
      await page.mouse.move(stage.x + ((a1 + a2) / 2) * k, stage.y + ((b1 + b2) / 2) * k);
      await page.waitForTimeout(200);
      assert.match((await view.locator('#detections tbody tr[data-index="0"]').getAttribute('class')) ?? '', /\bhl\b/);
      assert.equal(await hl.getAttribute('data-index'), '0');
      // 100%: the stage takes the picture's own size, the highlighted box follows it
      await view.locator('#zoom-100').click();
      const size = await view.locator('#stage').evaluate((el) => [el.clientWidth, el.clientHeight]);
      assert.deepEqual(size, natural);
      await row.hover();
      await page.waitForTimeout(200);
      const at100 = await hl.boundingBox();
      assert.ok(Math.abs(at100.width - (x2 - x1)) < 3, `overlay width at 100%: ${at100.width}`);
      await screenshot('05-zoom-100');
    },
  },
];
