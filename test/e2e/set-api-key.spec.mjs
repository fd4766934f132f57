// e2e: a person installs the packaged .vsix, runs "Shunong: Set API Key" from the command palette,
// types the key into the password box, and sees the status bar say "connected".
//
// Spec files export `title` and `tests` (run in order on one fresh workbench window); each test's
// `run(ctx)` gets: page, wb (test/e2e/workbench.mjs), endpoint { url, apiKey, admin() }, workspace (the open folder),
// screenshot(name) → test-output/e2e/<locale>/<spec>-<name>.png, manifest (package.json), log(),
// l10n (test/e2e/l10n.mjs: the extension's strings in the window's display language, en or zh-cn).

import assert from 'node:assert/strict';
import { englishLeaks, strings } from './l10n.mjs';

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
    name: 'the English-leak check flags an English string of ours and passes its zh-CN',
    run() {
      const zh = strings('zh-cn');
      const english = ['Shunong: connected', 'Connected to http://127.0.0.1:1/mcp. Tools: weather_search.'];
      assert.deepEqual(
        englishLeaks(english).map((l) => l.zh),
        ['蜀农：已连接', '已连接 {0}。可用工具：{1}。'],
      );
      assert.deepEqual(englishLeaks([zh.t('Shunong: connected'), zh.t('Connected to {0}. Tools: {1}.', 'x', 'y')]), []);
      // VS Code's own words are not ours, and a bare placeholder template matches nothing.
      assert.deepEqual(englishLeaks(['Explorer', 'No matching commands', '12', '茶树 · TEA_MANAGER_001']), []);
    },
  },
  {
    name: 'before a key is set, the workbench shows no "connected" state',
    async run({ wb, screenshot, l10n }) {
      await wb.ready();
      await screenshot('01-workbench');
      assert.equal(await wb.statusItem(l10n.t('Shunong: connected')).count(), 0);
    },
  },
  {
    name: 'Set API Key: palette → password box → status bar turns connected',
    timeoutMs: 150_000,
    async run({ page, wb, endpoint, screenshot, l10n }) {
      await wb.ready();
      await page.locator('.monaco-workbench').click({ position: { x: 640, y: 400 } });
      await wb.runCommand(l10n.command('shunong.setApiKey'), { screenshot: () => screenshot('02-palette') });
      const box = await wb.passwordBox();
      await box.pressSequentially(endpoint.apiKey, { delay: 20 });
      await screenshot('03-password-box');
      await wb.assertNoEnglish('the password box');
      assert.equal(await box.getAttribute('type'), 'password', 'the key is typed into a password box');
      await page.keyboard.press('Enter');
      const connected = wb.statusItem(l10n.t('Shunong: connected'));
      try {
        await connected.waitFor({ state: 'visible', timeout: 60_000 });
      } catch {
        await screenshot('03-failed');
        assert.fail(
          `the status bar never said "${l10n.t('Shunong: connected')}"; it shows ${JSON.stringify(await wb.statusLabels())}; toasts: ${JSON.stringify(await wb.toasts())}`,
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
      assert.match((await wb.toasts()).join('\n'), l10n.pattern('Connected to {0}. Tools: {1}.', endpoint.url));
      const seen = await wb.assertNoEnglish('connected: status bar and toast');
      assert.ok(
        seen.some((t) => t.includes(l10n.t('Shunong: connected'))),
        `the check looks at our status bar entry; it saw ${JSON.stringify(seen.slice(0, 20))}`,
      );
      // Not blind: in the English window, the same places show English catalogue values.
      if (!l10n.zh) assert.ok(englishLeaks(seen).length >= 2, 'the English window shows our English strings');
      await wb.statusBar.screenshot({ path: screenshot.path('04-connected-statusbar') });
      const text = await page.locator('body').innerText();
      assert.ok(!text.includes(endpoint.apiKey), 'the key is never shown on screen');
    },
  },
];
