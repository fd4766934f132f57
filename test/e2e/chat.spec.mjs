// e2e: @shunong in VS Code 1.139's chat view, as a person without a signed-in account meets it:
// AI features on (the harness turns them off), the key typed into "Set API Key", the chat view
// opened from the palette, `@shunong /search 茶树修剪技术要点` typed and sent, then `@shunong /today`.
//
// What this workbench does (code-server 4.139.1, no GitHub account): the chat view shows, and
// @shunong is recognised in the input and answers as "Shunong" — but the model picker offers only
// "Sign in to use Copilot" (the scripted test model, a `languageModelChatProviders` vendor, is not
// listed), and VS Code's extension host then refuses the request before our participant is called
// ("Language model unavailable": with no model picked it asks for a default model, and only
// Copilot provides one) — /today too, which needs no model. So `/search …`, its insert button and the bulletin after cannot be driven
// here; the last test says so and is skipped with that reason whenever the answer is VS Code's
// "Language model unavailable". The pictures: test-output/e2e/<locale>/chat-*.png.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkipTest, setApiKeyStep } from './workbench.mjs';

export const title = 'Chat: @shunong in the chat view';

/** 1.100: no model provider API (the scripted model cannot register) and no bundled chat agent. */
export function skipReason({ vscode }) {
  return vscode.startsWith('1.100.')
    ? 'VS Code 1.100 has neither the language model provider API (the scripted model) nor a bundled chat agent'
    : undefined;
}

const UNAVAILABLE = 'Language model unavailable';
let answer = '';
let today = '';

export const tests = [
  {
    name: "VS Code's AI features on (user settings)",
    async run({ server, page }) {
      const file = join(server.userDataDir, 'User', 'settings.json');
      const settings = JSON.parse(readFileSync(file, 'utf8'));
      settings['chat.disableAIFeatures'] = false;
      writeFileSync(file, JSON.stringify(settings, null, 2));
      await page.waitForTimeout(2000); // the workbench reads the changed file
    },
  },
  setApiKeyStep,
  {
    name: 'the chat view shows without a signed-in account; @shunong /search is sent and answered as Shunong',
    timeoutMs: 120_000,
    async run({ page, wb, screenshot }) {
      await wb.runCommand('Chat: Open Chat');
      const chat = page.locator('.part.auxiliarybar');
      const input = chat.locator('.interactive-input-part .monaco-editor').first();
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      await screenshot('01-chat-view');
      // The model picker: what a person without an account can choose from.
      await chat.locator('.interactive-input-part').getByText('Models').first().click();
      await page.waitForTimeout(1000);
      await screenshot('02-model-picker');
      await page.keyboard.press('Escape');
      await input.click();
      await page.keyboard.type('@shunong /search 茶树修剪技术要点', { delay: 20 });
      await page.keyboard.press('Enter');
      const response = chat.locator('.interactive-response').last();
      await response.waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForFunction(
        () => !document.querySelector('.part.auxiliarybar .interactive-response.chat-response-loading'),
        null,
        { timeout: 60_000 },
      );
      await page.waitForTimeout(1000);
      await screenshot('03-answer');
      answer = await response.innerText();
      assert.match(answer, /Shunong|蜀农/, `the answer comes from @shunong: ${answer}`);
      // /today needs no model: does the workbench let it through?
      await input.click();
      // A word after the command, so that Enter sends rather than accepts a suggestion.
      await page.keyboard.type('@shunong /today 今天', { delay: 20 });
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        () => document.querySelectorAll('.part.auxiliarybar .interactive-response').length >= 2,
        null,
        { timeout: 30_000 },
      );
      await page.waitForFunction(
        () => !document.querySelector('.part.auxiliarybar .interactive-response.chat-response-loading'),
        null,
        { timeout: 60_000 },
      );
      await page.waitForTimeout(1000);
      await screenshot('04-today');
      today = await chat.locator('.interactive-response').last().innerText();
      console.log(`      /search answered: ${JSON.stringify(answer)}; /today answered: ${JSON.stringify(today)}`);
    },
  },
  {
    name: '@shunong /search: passages as references, the insert button, the bulletin after',
    timeoutMs: 120_000,
    async run() {
      if (answer.includes(UNAVAILABLE) && today.includes(UNAVAILABLE)) {
        throw new SkipTest(
          `this workbench refused the requests (/search and /today) before @shunong was called ("${UNAVAILABLE}"): without a signed-in account the model picker offers only "Sign in to use Copilot", and VS Code finds no default model (see README, Known limitations)`,
        );
      }
      assert.fail(`@shunong answered (${answer.slice(0, 200)}): this flow is not written yet; write it`);
    },
  },
];
