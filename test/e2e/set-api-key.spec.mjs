// e2e: a person installs the packaged .vsix, runs "Shunong: Set API Key" from the command palette,
// types the key into the password box, and sees the status bar say "connected".
//
// Spec files export `title` and `tests` (run in order on one fresh workbench window); each test's
// `run(ctx)` gets: page, wb (test/e2e/workbench.mjs), endpoint { url, apiKey, admin() }, workspace (the open folder),
// screenshot(name) → test-output/e2e/<name>.png, manifest (package.json), log().

import assert from 'node:assert/strict';

export const title = 'Set API Key from the command palette';

export const tests = [
  {
    name: 'the extension contributes "Shunong: Set API Key"',
    run({ manifest }) {
      const cmd = manifest.contributes?.commands?.find((c) => c.command === 'shunong.setApiKey');
      assert.ok(cmd, 'package.json contributes no command shunong.setApiKey yet');
    },
  },
  {
    name: 'before a key is set, the workbench shows no "connected" state',
    async run({ wb, screenshot }) {
      await wb.ready();
      await screenshot('01-workbench');
      assert.equal(await wb.statusItem('Shunong: connected').count(), 0);
    },
  },
  {
    name: 'Set API Key: palette → password box → status bar turns connected',
    timeoutMs: 150_000,
    async run({ page, wb, endpoint, screenshot }) {
      await wb.ready();
      await page.locator('.monaco-workbench').click({ position: { x: 640, y: 400 } });
      await wb.runCommand('Shunong: Set API Key', { screenshot: () => screenshot('02-palette') });
      const box = await wb.passwordBox();
      await box.pressSequentially(endpoint.apiKey, { delay: 20 });
      await screenshot('03-password-box');
      assert.equal(await box.getAttribute('type'), 'password', 'the key is typed into a password box');
      await page.keyboard.press('Enter');
      const connected = wb.statusItem('Shunong: connected');
      try {
        await connected.waitFor({ state: 'visible', timeout: 60_000 });
      } catch {
        await screenshot('03-failed');
        assert.fail(
          `the status bar never said "Shunong: connected"; it shows ${JSON.stringify(await wb.statusLabels())}; toasts: ${JSON.stringify(await wb.toasts())}`,
        );
      }
      // The "Connected to …" toast slides in; let it settle so the picture shows it whole.
      await page
        .locator('.notifications-toasts .notification-toast')
        .first()
        .waitFor({ state: 'visible', timeout: 5_000 })
        .catch(() => undefined);
      await page.waitForTimeout(800);
      await screenshot('04-connected');
      await wb.statusBar.screenshot({ path: screenshot.path('04-connected-statusbar') });
      const text = await page.locator('body').innerText();
      assert.ok(!text.includes(endpoint.apiKey), 'the key is never shown on screen');
    },
  },
];
