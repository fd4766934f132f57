// UI helpers for e2e specs: they drive the real VS Code workbench (code-server in headless Chromium)
// the way a person would — keyboard, command palette, quick input, status bar — and look only at
// what is on screen. Selectors are the workbench's own stable class names.

import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PALETTE_RETRY_MS = 90_000;
const WORKSPACE = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'fixtures', 'workspace');

/**
 * A scratch folder of the sample workspace for one spec file (`.<name>-e2e-<pid>`, ignored by
 * git): `create()` makes it; `remove()` is the spec's `cleanup`, run after its tests, passed or not.
 */
export function scratchFolder(name) {
  const folder = `.${name}-e2e-${process.pid}`;
  const path = join(WORKSPACE, folder);
  return {
    folder,
    path,
    create: () => mkdirSync(path, { recursive: true }),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/** Helpers bound to one workbench page. */
export function workbench(page) {
  const quickInput = page.locator('.quick-input-widget');
  const quickInputBox = quickInput.locator('.quick-input-box input');
  const statusBar = page.locator('.monaco-workbench .part.statusbar');

  return {
    page,
    quickInput,
    statusBar,

    /** Waits until the workbench is rendered and has focus somewhere inside it. */
    async ready(timeout = 60_000) {
      await statusBar.waitFor({ state: 'visible', timeout });
      // The explorer lists the folder's entries once the remote connection is up.
      await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout });
    },

    /**
     * Runs a command by its palette label (e.g. "Shunong: Set API Key"): F1, type `>label`, Enter.
     * The palette's command list is a snapshot taken when it opens: opened before the extension
     * host registered the contributions, it says "No matching commands"; then close and retry.
     */
    async runCommand(label, { screenshot } = {}) {
      const deadline = Date.now() + PALETTE_RETRY_MS;
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('Escape');
        await page.keyboard.press('F1');
        await quickInputBox.waitFor({ state: 'visible', timeout: 10_000 });
        await quickInputBox.fill(`>${label}`);
        const row = quickInput.locator('.monaco-list-row', { hasText: label }).first();
        const none = quickInput.getByText('No matching commands');
        const which = await Promise.race([
          row.waitFor({ state: 'visible', timeout: 5_000 }).then(() => 'row'),
          none.waitFor({ state: 'visible', timeout: 5_000 }).then(() => 'none'),
        ]).catch(() => 'nothing');
        if (which === 'row') {
          if (screenshot) await screenshot();
          await page.keyboard.press('Enter');
          // The command's own quick input reuses the palette's widget: wait until the palette is
          // gone, so that text typed next never lands in it.
          await page.waitForFunction(
            () => {
              const widget = document.querySelector('.quick-input-widget');
              const box = widget?.querySelector('.quick-input-box input');
              return !widget || !widget.checkVisibility() || !box?.value.startsWith('>');
            },
            null,
            { timeout: 10_000 },
          );
          return attempt;
        }
        if (Date.now() > deadline)
          throw new Error(`the command palette never offered "${label}" (last: ${which}; ${attempt} attempts)`);
        await page.keyboard.press('Escape');
        await page.waitForTimeout(1000);
      }
    },

    /** Waits for the quick input to show a password box; returns its locator. */
    async passwordBox(timeout = 15_000) {
      const box = quickInput.locator('input[type="password"]');
      await box.waitFor({ state: 'visible', timeout });
      return box;
    },

    /** The status bar entry whose accessible label contains `text`. */
    statusItem(text) {
      return statusBar.locator(`[aria-label*="${text.replace(/"/g, '\\"')}"]`).first();
    },

    /** Accessible labels of every status bar entry (for failure messages). */
    async statusLabels() {
      return statusBar.locator('[aria-label]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    },

    /** Texts of the notification toasts currently shown. */
    async toasts() {
      return page.locator('.notifications-toasts .notification-toast').allInnerTexts();
    },
  };
}

/**
 * The shared first step of the flows that need a connection: "Shunong: Set API Key" from the
 * palette, the key typed into the real password box (the installed .vsix runs in Production mode,
 * so there is no development key), and the status bar turning to connected.
 */
export const setApiKeyStep = {
  name: 'set the API key (Production mode)',
  timeoutMs: 150_000,
  async run({ page, wb, endpoint }) {
    await wb.ready();
    await page.locator('.monaco-workbench').click({ position: { x: 640, y: 400 } });
    await wb.runCommand('Shunong: Set API Key');
    const box = await wb.passwordBox();
    await box.pressSequentially(endpoint.apiKey, { delay: 10 });
    await page.keyboard.press('Enter');
    try {
      await wb.statusItem('Shunong: connected').waitFor({ state: 'visible', timeout: 60_000 });
    } catch (e) {
      // Say what the workbench showed instead: the status bar, the toasts, the input box's message.
      const message = await wb.quickInput
        .locator('.quick-input-message')
        .allInnerTexts()
        .catch(() => []);
      throw new Error(
        `${e.message}\nstatus bar: ${JSON.stringify(await wb.statusLabels().catch(() => []))}` +
          `\ntoasts: ${JSON.stringify(await wb.toasts().catch(() => []))}\ninput box: ${JSON.stringify(message)}`,
      );
    }
  },
};
