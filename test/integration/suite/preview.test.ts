/**
 * Citations in VS Code's own Markdown preview: the Markdown extension applies our
 * `extendMarkdownIt` (`markdown.markdownItPlugins`), so the HTML of `markdown.api.render` holds
 * real footnotes, our sources with their passage titles, and the marks of broken citations; and
 * applying the plugin loads at most the citations bundle.
 */
import * as assert from 'node:assert/strict';
import Module from 'node:module';
import * as vscode from 'vscode';
import markdownIt from 'markdown-it';
import type { ExtensionExports } from '../../../src/extension';
import { api, closeAllEditors, EXTENSION_ID, openMarkdown } from './helpers';

const BULLETIN = [
  '# 茶园管理',
  '',
  '> 春季修剪以轻剪为主。 [^1]',
  '',
  '作者的注释[^note]，行内〔茶树农事操作.docx#2〕，未定义[^9]。',
  '',
  '## 参考资料',
  '',
  '[^1]: 2026 \\_草稿\\_ 茶树.docx#0 — 茶树管理 (TEA_MANAGER_001)',
  '',
  '[^note]: 作者自己的注释。',
  '',
].join('\n');

/** Two inserted snippets and one footnote of the author's. */
const TWO_SNIPPETS = [
  '# 病虫害通报',
  '',
  '> 茶园病虫害以绿色防控为主。 [^1]',
  '',
  '> 水稻分蘖期浅水勤灌。 [^2]',
  '',
  '作者的话[^3]。',
  '',
  '## 参考资料',
  '',
  '[^1]: 茶园病虫害绿色防控.docx#0 — 茶树管理 (TEA_MANAGER_001)',
  '',
  '[^2]: 水稻分蘖期管理要点.pdf#1 — 水稻种植 (RICE_001)',
  '',
  '[^3]: 作者的注释。',
  '',
].join('\n');

/** test/fixtures/footnote-plugin-extension, which the harness loads next to ours. */
const FOOTNOTE_PLUGIN_ID = 'shunong-tests.footnote-plugin-stand-in';

suite('Preview: citations in the Markdown preview', () => {
  teardown(closeAllEditors);

  test('markdown.api.render holds footnotes, our sources titled from the cache, and the marks', async () => {
    const shunong = await api();
    await shunong.citations.service.remember({
      docName: '2026 _草稿_ 茶树.docx',
      chunkIndex: 0,
      content: '春季修剪以轻剪为主，剪去树冠面突出的枝条。',
      kbCode: 'TEA_MANAGER_001',
      kbName: '茶树管理',
      query: '茶树修剪',
      score: 0.9,
      scoreType: 'vector',
      retrievedAt: '2026-03-01T08:00:00+08:00',
    });
    const editor = await openMarkdown(BULLETIN);
    const html = await vscode.commands.executeCommand<string>('markdown.api.render', editor.document);
    assert.match(
      html,
      /<sup class="footnote-ref"><a title="春季修剪以轻剪为主，剪去树冠面突出的枝条。" href="#fn1" id="fnref1">\[1\]<\/a><\/sup>/,
    );
    assert.equal((html.match(/<section class="footnotes">/g) ?? []).length, 1, 'one list of footnotes');
    assert.match(html, /<span class="shunong-source">2026 _草稿_ 茶树\.docx#0<\/span> — 茶树管理 \(TEA_MANAGER_001\)/);
    assert.match(html, /作者自己的注释。 <a href="#fnref2" class="footnote-backref">/);
    // titled when an earlier test of the run left that passage in the workspace's caches
    assert.match(html, /<sup class="shunong-cite"(?: title="[^"]+")?>茶树农事操作\.docx#2<\/sup>/);
    assert.match(html, /<span class="shunong-undefined" title="[^"]+">\[\^9\]<\/span>/);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext?.isActive, 'the preview’s engine activated the extension');
  });

  test('next to another extension’s markdown-it-footnote, footnotes render once, with our sources', async () => {
    const standIn = vscode.extensions.getExtension<{ applied: string[] }>(FOOTNOTE_PLUGIN_ID);
    assert.ok(standIn, `the harness loads the stand-in ${FOOTNOTE_PLUGIN_ID} next to ours`);
    const editor = await openMarkdown(TWO_SNIPPETS);
    const html = await vscode.commands.executeCommand<string>('markdown.api.render', editor.document);
    assert.ok(standIn.isActive && standIn.exports.applied.length > 0, 'the Markdown engine applied the stand-in');
    // The order VS Code applied the two plugins in (README "Preview"): 'after' = ours first.
    console.log(`footnote stand-in applied ${standIn.exports.applied.join(', ')} Shunong's plugin`);
    assert.equal((html.match(/<section class="footnotes">/g) ?? []).length, 1, 'one list of footnotes');
    assert.equal((html.match(/<sup class="footnote-ref">/g) ?? []).length, 3, 'one ref per citation');
    assert.equal((html.match(/<li id="fn\d+" class="footnote-item">/g) ?? []).length, 3, 'one item per footnote');
    for (const n of [1, 2, 3]) assert.equal(html.split(`href="#fn${n}"`).length - 1, 1, `one link to footnote ${n}`);
    // Our title on the ref: the passage's first words when the workspace holds it (an earlier test of
    // the run may have cited it), else the source.
    assert.match(
      html,
      /<a title="(?:茶园病虫害绿色防控\.docx#0 — 茶树管理|茶小绿叶蝉[^"]+)" href="#fn1" id="fnref1">\[1\]<\/a>/,
    );
    assert.match(
      html,
      /<span class="shunong-source">茶园病虫害绿色防控\.docx#0<\/span> — 茶树管理 \(TEA_MANAGER_001\)/,
    );
    assert.match(html, /<span class="shunong-source">水稻分蘖期管理要点\.pdf#1<\/span> — 水稻种植 \(RICE_001\)/);
    assert.match(html, /作者的注释。 <a href="#fnref3" class="footnote-backref">/);
  });

  test('extendMarkdownIt returns the engine synchronously and requires neither the platform nor the features', () => {
    const ext = vscode.extensions.getExtension<ExtensionExports>(EXTENSION_ID);
    assert.ok(ext?.isActive);
    const required: string[] = [];
    const proto = Module.prototype as unknown as { require: (id: string) => unknown };
    const real = proto.require;
    proto.require = function (this: unknown, id: string) {
      required.push(id);
      return real.call(this, id);
    };
    try {
      const md = markdownIt({ html: true });
      assert.equal(ext.exports.extendMarkdownIt(md), md);
      assert.match(md.render('a[^1]\n\n[^1]: b.docx#0 — kb (K)\n'), /<section class="footnotes">/);
    } finally {
      proto.require = real;
    }
    assert.deepEqual(
      required.filter((id) => /(platform|features)\.js$/.test(id)),
      [],
    );
  });
});
