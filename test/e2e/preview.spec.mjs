// e2e: a person opens a bulletin with two cited snippets and a footnote of their own, runs VS Code's
// "Markdown: Open Preview to the Side" from the palette, and sees in the preview what readers will:
// superscript footnote numbers, the numbered references list with our sources (document name,
// knowledge base), the inline citation as a superscript label, and the undefined reference marked.
//
// VS Code's Markdown preview applies our markdown-it plugin (markdown.markdownItPlugins); no key
// is needed. The bulletin is a scratch file of the sample workspace, removed afterwards.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchFolder } from './workbench.mjs';

const SCRATCH = scratchFolder('preview');
const FILE = '茶园病虫害通报.md';
const BULLETIN = `# 茶园病虫害通报

## 一、茶小绿叶蝉

> 茶小绿叶蝉以若虫和成虫刺吸嫩梢汁液，秋季虫口回升，宜在低龄若虫期用药。 [^1]

## 二、黑刺粉虱

> 黑刺粉虱越冬前清园修剪，剪除虫枝，集中处理，可压低越冬虫口。 [^2]

据县茶叶站调查[^3]，行内引用〔茶树病虫害图谱.pdf#4〕，尚未补注的出处[^9]。

## 参考资料

[^1]: 茶园病虫害绿色防控.docx#0 — 茶树管理 (TEA_MANAGER_001)

[^2]: 茶树病虫害图谱.pdf#3 — 茶树管理 (TEA_MANAGER_001)

[^3]: 2026 年 11 月各乡镇农技站调查汇总。
`;

/** The Markdown preview's document inside the webview's two iframes. */
function preview(page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** Run after the file's tests, passed or not. */
export const cleanup = SCRATCH.remove;

export const title = 'Citations in the Markdown preview';

export const tests = [
  {
    name: 'the extension contributes a markdown-it plugin and the preview styles',
    run({ manifest }) {
      assert.equal(manifest.contributes?.['markdown.markdownItPlugins'], true);
      assert.ok((manifest.contributes?.['markdown.previewStyles'] ?? []).length > 0);
      SCRATCH.create();
      writeFileSync(join(SCRATCH.path, FILE), BULLETIN);
    },
  },
  {
    name: 'bulletin → Markdown: Open Preview to the Side → footnotes, references and marks in the preview',
    timeoutMs: 120_000,
    async run({ page, wb, screenshot, l10n }) {
      await wb.ready();
      const explorer = page.locator('.explorer-folders-view');
      await explorer.locator('.monaco-list-row', { hasText: SCRATCH.folder }).first().click();
      await explorer.locator('.monaco-list-row', { hasText: FILE }).first().click();
      const editor = page.locator('.editor-group-container .monaco-editor').first();
      await editor.locator('.view-lines', { hasText: '茶园病虫害通报' }).waitFor({ state: 'visible', timeout: 20_000 });
      await editor.locator('.view-lines').click();
      // VS Code's own command: its title is English in both windows (the test pack translates none of VS Code).
      await wb.runCommand('Markdown: Open Preview to the Side');
      const doc = preview(page);
      const refs = doc.locator('sup.footnote-ref a');
      await refs.first().waitFor({ state: 'visible', timeout: 60_000 });
      assert.deepEqual(await refs.allInnerTexts(), ['[1]', '[2]', '[3]'], 'one superscript per citation');
      assert.equal(await doc.locator('section.footnotes').count(), 1, 'one references list');
      const items = doc.locator('section.footnotes li.footnote-item');
      assert.equal(await items.count(), 3);
      await items.last().scrollIntoViewIfNeeded();
      for (const item of await items.all()) assert.ok(await item.isVisible(), 'every reference is visible');
      const sources = await doc.locator('section.footnotes .shunong-source').allInnerTexts();
      assert.deepEqual(sources, ['茶园病虫害绿色防控.docx#0', '茶树病虫害图谱.pdf#3']);
      assert.match(await items.first().innerText(), /茶园病虫害绿色防控\.docx#0 — 茶树管理 \(TEA_MANAGER_001\)/);
      assert.equal(await doc.locator('sup.shunong-cite').innerText(), '茶树病虫害图谱.pdf#4');
      const undefinedRef = doc.locator('.shunong-undefined');
      assert.equal(await undefinedRef.innerText(), '[^9]');
      assert.equal(
        await undefinedRef.getAttribute('title'),
        l10n.t('Footnote [^{0}] has no definition.', '9'),
        'the mark’s title is in the window’s language',
      );
      assert.equal(
        await doc.locator('sup.footnote-ref a').first().getAttribute('title'),
        '茶园病虫害绿色防控.docx#0 — 茶树管理',
      );
      // Reading position for the screenshot: the citations and the references list together.
      await doc.locator('h2', { hasText: '二、黑刺粉虱' }).scrollIntoViewIfNeeded();
      await screenshot('01-preview');
      await wb.assertNoEnglish('the Markdown preview', [doc.locator('body'), ...(await wb.ours())]);
    },
  },
];
