// UI helpers for e2e specs: they drive the real VS Code workbench (code-server in headless Chromium)
// the way a person would — keyboard, command palette, quick input, status bar — and look only at
// what is on screen. Selectors are the workbench's own stable class names; the extension's own
// words come from its catalogues in the window's display language (./l10n.mjs).

import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { englishLeaks, strings } from './l10n.mjs';
import { REPO, SAMPLE_WORKSPACE } from '../harness/code-server.mjs';

const PALETTE_RETRY_MS = 90_000;
const OUR_MANIFEST = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

/**
 * Thrown by a test that finds the workbench cannot run it (the reason is its message): the harness
 * counts it, and the rest of its file, as skipped with that reason instead of failed.
 */
export class SkipTest extends Error {}

/**
 * A scratch folder of the workspace the run opens for one spec file (`.<name>-e2e-<pid>`):
 * `create()` makes it; `remove()` is the spec's `cleanup`, run after its tests, passed or not. The
 * workspace is the run's copy of the sample workspace (SHUNONG_E2E_WORKSPACE, set by
 * test/harness/run-e2e.mjs before any spec is imported), else the sample workspace itself.
 */
export function scratchFolder(name) {
  const folder = `.${name}-e2e-${process.pid}`;
  const path = join(process.env.SHUNONG_E2E_WORKSPACE ?? SAMPLE_WORKSPACE, folder);
  return {
    folder,
    path,
    create: () => mkdirSync(path, { recursive: true }),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/** Helpers bound to one workbench page whose display language is that of `l10n` (./l10n.mjs). */
export function workbench(page, l10n = strings('en')) {
  const quickInput = page.locator('.quick-input-widget');
  const quickInputBox = quickInput.locator('.quick-input-box input');
  const statusBar = page.locator('.monaco-workbench .part.statusbar');

  return {
    page,
    l10n,
    quickInput,
    statusBar,

    /**
     * Where the extension's own text shows in the workbench: the quick input, notification toasts,
     * hovers, our status bar entries, the panes of our views and the editor tabs. (Not the whole
     * window: the test language pack translates nothing of VS Code, whose own English words, such
     * as "Search", must not count against us. Nor the command palette: it shows each localised
     * command's English title under it on purpose, so it is left out while it is open.)
     */
    async ours() {
      const palette =
        (await quickInput.isVisible().catch(() => false)) &&
        (await quickInputBox.inputValue().catch(() => '')).startsWith('>');
      const views = OUR_MANIFEST.contributes.views.shunong.map((v) => l10n.nls(v.name.replace(/^%|%$/g, '')));
      return [
        ...(palette ? [] : [quickInput]),
        page.locator('.notifications-toasts .notification-toast'),
        page.locator('.monaco-hover'),
        statusBar.locator('[id^="shunong-authors.shunong-vscode"]'),
        page.locator('.part.sidebar .pane').filter({
          has: page.locator('.pane-header h3.title', { hasText: new RegExp(`^(${views.join('|')})$`, 'i') }),
        }),
        page.locator('.part.sidebar .composite.title'),
        page.locator('.tabs-container .tab'),
      ];
    },

    /**
     * Every visible text under the given locators (default {@link ours}): each element's whole
     * text, and its aria-label, title and placeholder. Locators inside a webview work too
     * (`page.frameLocator(…).locator('body')`).
     */
    async shownTexts(scopes) {
      scopes ??= await this.ours();
      const all = await Promise.all(
        scopes.map((scope) =>
          scope
            .evaluateAll((roots) => {
              const out = [];
              for (const root of roots) {
                if (!root.checkVisibility()) continue;
                for (const el of [root, ...root.querySelectorAll('*')]) {
                  if (!el.checkVisibility()) continue;
                  const text = el.innerText ?? el.textContent ?? '';
                  if (text && text.length <= 500) out.push(text);
                  for (const a of ['aria-label', 'title', 'placeholder'])
                    if (el.getAttribute(a)) out.push(el.getAttribute(a));
                }
              }
              return out;
            })
            .catch(() => []),
        ),
      );
      return all.flat();
    },

    /**
     * In a zh-CN window, fails when text of ours on screen is an English catalogue value whose
     * zh-CN value differs (see englishLeaks in ./l10n.mjs): a string that was never localised, or a
     * path that skips vscode.l10n.t. `where` names the moment in the message. No-op in English.
     * Returns the texts it looked at.
     */
    async assertNoEnglish(where, scopes) {
      const texts = await this.shownTexts(scopes);
      if (!l10n.zh) return texts;
      const leaks = englishLeaks(texts);
      if (leaks.length)
        throw new Error(
          `English text of ours in the ${l10n.locale} workbench (${where}):\n` +
            leaks.map((l) => `  "${l.text}" — the catalogue's zh-CN: "${l.zh}"`).join('\n'),
        );
      return texts;
    },

    /**
     * Waits for the quick input step whose title matches `title` (text or RegExp). A command that
     * reuses one QuickPick for every step clears its value when a step is shown, so text typed
     * before the step is up is lost.
     */
    async waitForStep(title, timeout = 20_000) {
      await quickInput.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout });
    },

    /**
     * Waits for a quick-input row and accepts it (typing `filter` first), on the step titled `title`
     * if given. It is reached with the arrow keys and accepted with Enter, not clicked: a click can
     * land on the hover of the row above it, which VS Code shows over the list.
     */
    async choose(filter, rowText, title) {
      await quickInputBox.waitFor({ state: 'visible', timeout: 15_000 });
      if (title) await this.waitForStep(title);
      if (filter !== undefined) await quickInputBox.fill(filter);
      const row = quickInput.locator('.monaco-list-row', { hasText: rowText }).first();
      await row.waitFor({ state: 'visible', timeout: 20_000 });
      await this.highlight(rowText);
      await page.keyboard.press('Enter');
    },

    /** Presses ArrowDown until the highlighted row contains `text` (a string or RegExp), at most `max` times. */
    async highlight(text, max = 20) {
      const matches = (rowText) => (typeof text === 'string' ? rowText.includes(text) : text.test(rowText));
      const focused = quickInput.locator('.monaco-list-row.focused').first();
      for (let i = 0; i < max; i++) {
        const now = (await focused.count()) ? await focused.innerText() : '';
        if (matches(now)) return;
        await page.keyboard.press('ArrowDown');
        // the highlight moves when the list re-renders: wait for the focused row to change
        await page
          .waitForFunction(
            (before) => document.querySelector('.quick-input-widget .monaco-list-row.focused')?.innerText !== before,
            now,
            { timeout: 2_000 },
          )
          .catch(() => {});
      }
      const rows = await quickInput.locator('.monaco-list-row').allInnerTexts();
      throw new Error(`no row matching ${text} could be highlighted; rows: ${rows}`);
    },

    /**
     * Opens a workspace file through Quick Open (Ctrl+P, its name, click) and puts the cursor at its
     * end. Returns the editor's text lines.
     */
    async openFile(name) {
      await page.keyboard.press('Control+P');
      await this.choose(name, name);
      const editor = page.locator('.editor-instance .monaco-editor').first();
      await editor.waitFor({ state: 'visible', timeout: 15_000 });
      await editor.click();
      await page.keyboard.press('Control+End');
      return page.locator('.editor-instance .view-lines').first();
    },

    /** The highlighted (focused) row of the quick input. */
    focusedRow() {
      return quickInput.locator('.monaco-list-row.focused').first();
    },

    /** Waits until the workbench is rendered and has focus somewhere inside it. */
    async ready(timeout = 60_000) {
      await statusBar.waitFor({ state: 'visible', timeout });
      // The explorer lists the folder's entries once the remote connection is up.
      await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout });
    },

    /**
     * Runs a command by its palette label (`l10n.command(id)` for ours, e.g. "Shunong: Set API Key"
     * or "蜀农: 设置 API 密钥"): F1, type `>label`, Enter.
     * The palette's command list is a snapshot taken when it opens: opened before the extension
     * host registered the contributions, it says "No matching commands"; then close and retry.
     */
    async runCommand(label, { screenshot } = {}) {
      const deadline = Date.now() + PALETTE_RETRY_MS;
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('Escape');
        await page.keyboard.press('F1');
        // The palette may close again as it opens (a late Escape, a focus change): then it is opened again.
        const typed = await quickInputBox
          .waitFor({ state: 'visible', timeout: 10_000 })
          .then(() => quickInputBox.fill(`>${label}`, { timeout: 5_000 }))
          .then(
            () => true,
            () => false,
          );
        const row = quickInput.locator('.monaco-list-row', { hasText: label }).first();
        const none = quickInput.getByText('No matching commands');
        const which = typed
          ? await Promise.race([
              row.waitFor({ state: 'visible', timeout: 5_000 }).then(() => 'row'),
              none.waitFor({ state: 'visible', timeout: 5_000 }).then(() => 'none'),
            ]).catch(() => 'nothing')
          : 'closed';
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
  async run({ page, wb, endpoint, l10n }) {
    await wb.ready();
    await page.locator('.monaco-workbench').click({ position: { x: 640, y: 400 } });
    await wb.runCommand(l10n.command('shunong.setApiKey'));
    const box = await wb.passwordBox();
    await box.pressSequentially(endpoint.apiKey, { delay: 10 });
    await page.keyboard.press('Enter');
    try {
      await wb.statusItem(l10n.t('Shunong: connected')).waitFor({ state: 'visible', timeout: 60_000 });
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
