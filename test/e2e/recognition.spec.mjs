// e2e: a person opens the recognition preview on a tea photo of the workspace from the command
// palette ("Shunong: Recognize Crop Image…" → the picture → "Tea bud count"), sees the boxes drawn
// over it, and hovers a row of the detections table to see its box highlighted. Then a 6 MB photo
// straight from a phone (stored landscape, EXIF orientation 6), which the panel's webview shrinks
// under the 4 MB limit: shown upright, from the pixels the webview drew, with the note saying so.
//
// The boxes are painted on one canvas: "drawn" is checked on its pixels (box colours over the
// picture), the highlighted box is the one overlay element #box-hl (data-index, position).
//
// The installed extension runs in Production mode, so the key is typed into "Set API Key" first.
// The tea picture (the local endpoint's sample) is copied into a scratch folder of the sample
// workspace for the run and removed afterwards.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchFolder, setApiKeyStep } from './workbench.mjs';

const REPO = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const SCRATCH = scratchFolder('recognition');
const PICTURE = 'tea_buds.png';
const PHONE_PHOTO = 'phone-photo.jpg';

/** The preview's document inside the webview's two iframes (of the newest panel when `newest`). */
function preview(page, newest = false) {
  const webviews = page.locator('iframe.webview.ready');
  return (newest ? webviews.last() : webviews).contentFrame().frameLocator('#active-frame');
}

/**
 * "Recognize Crop Image…" from the palette on the workspace picture `name`, as "Tea bud count";
 * `at` is called when the picture picker and when the type picker show.
 */
async function recognizeFromPalette({ page, wb, l10n }, name, at = async () => undefined) {
  await wb.runCommand(l10n.command('shunong.recognizeImage'));
  const input = wb.quickInput.locator('.quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(name.replace(/\.\w+$/, ''));
  const row = wb.quickInput.locator('.monaco-list-row', { hasText: name }).first();
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  await at('source');
  await page.keyboard.press('Enter');
  const typeRow = wb.quickInput.locator('.monaco-list-row', { hasText: l10n.t('Tea bud count') }).first();
  await typeRow.waitFor({ state: 'visible', timeout: 15_000 });
  await at('type');
  await typeRow.click();
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
      execFileSync(
        process.execPath,
        ['--import', 'tsx', join(REPO, 'test', 'e2e', 'phone-photo.ts'), join(SCRATCH.path, PHONE_PHOTO)],
        {
          cwd: REPO,
        },
      );
    },
  },
  setApiKeyStep,
  {
    name: 'palette → tea picture → "Tea bud count": the preview shows the picture with its boxes',
    timeoutMs: 150_000,
    async run({ page, wb, screenshot, l10n }) {
      await recognizeFromPalette({ page, wb, l10n }, PICTURE, async (step) => {
        await screenshot(step === 'source' ? '01-source' : '02-type');
        await wb.assertNoEnglish(step === 'source' ? 'the image picker' : 'the recognition types');
      });
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
  {
    name: 'a 6 MB phone photo (EXIF orientation 6): shrunk by the webview, shown upright from its own pixels, the note says so',
    timeoutMs: 150_000,
    async run({ page, wb, screenshot, l10n }) {
      // The tea picture's panel is closed first (a middle click on its tab): a webview that had
      // focus may take it back when the palette closes, and the image picker, losing it, hides at
      // once (seen once in the full e2e sequence). Only that tab: the editors of earlier specs
      // (an unsaved bulletin) stay as they are.
      await page.locator('.tabs-container .tab', { hasText: PICTURE }).first().click({ button: 'middle' });
      await page.locator('iframe.webview.ready').first().waitFor({ state: 'detached', timeout: 15_000 });
      await recognizeFromPalette({ page, wb, l10n }, PHONE_PHOTO);
      const view = preview(page, true);
      const note = view.locator('.side p.note', {
        hasText: l10n.pattern(
          'The image ({0} MB) was shrunk to {1} MB ({2} × {3}) before upload: the platform takes at most 4 MB.',
        ),
      });
      try {
        await note.waitFor({ state: 'visible', timeout: 90_000 });
      } catch {
        await screenshot('06-phone-failed');
        assert.fail(`no "shrunk" note in the preview; toasts: ${JSON.stringify(await wb.toasts())}`);
      }
      // The picture is the canvas of the webview's own pixels (no <img> of the copy), upright.
      const picture = view.locator('#image');
      const [tag, w, h] = await picture.evaluate((el) => [el.tagName, el.width, el.height]);
      assert.equal(tag, 'CANVAS', 'shown from the pixels the webview shrank');
      assert.ok(h > w, `upright: ${w} × ${h} (stored landscape, orientation 6)`);
      assert.match(await note.innerText(), new RegExp(`${w}\\s*×\\s*${h}`), 'the note gives the size sent');
      // The top-left quadrant of the upright picture is the stored bottom-left one (blue).
      const [r, g, b] = await picture.evaluate((el) => {
        const c = document.createElement('canvas');
        c.width = el.width;
        c.height = el.height;
        const ctx = c.getContext('2d');
        ctx.drawImage(el, 0, 0);
        const d = ctx.getImageData(Math.round(el.width / 4), Math.round(el.height / 4), 1, 1).data;
        return [d[0], d[1], d[2]];
      });
      assert.ok(b > 150 && r < 110 && g < 120, `top-left is blue: ${r},${g},${b}`);
      await page.waitForTimeout(1500);
      await screenshot('06-phone-photo');
      await wb.assertNoEnglish('the preview of a shrunk phone photo', [view.locator('body')]);
    },
  },
];
