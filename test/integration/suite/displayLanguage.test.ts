/**
 * The display language the harness started the workbench in (`run-integration.mjs --locale`,
 * told to the extension host as SHUNONG_TEST_LOCALE) is the one the extension meets: en by
 * default; zh-cn with the test language pack installed, and then vscode.l10n answers from our
 * zh-CN bundle and the manifest's strings come from package.nls.zh-cn.json.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  DISPLAY_LANGUAGE as asked,
  EXTENSION_ID,
  catalogue,
  closeAllEditors,
  displayed as t,
  openMarkdown,
  until,
} from './helpers';

suite('Display language', () => {
  const ext = () => {
    const e = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(e, `${EXTENSION_ID} is not loaded`);
    return e;
  };

  test('the display language the harness asked for reaches the extension host', () => {
    assert.equal(vscode.env.language, asked);
  });

  test('vscode.l10n answers from the bundle of the display language', async () => {
    // The host loads an extension's l10n bundle when it activates it: before, l10n.t answers in English.
    await ext().activate();
    const message = 'Shunong: connected';
    const zh = catalogue('l10n', 'bundle.l10n.zh-cn.json')[message];
    assert.ok(zh && zh !== message, 'the zh-CN bundle translates it');
    assert.equal(vscode.l10n.t(message), asked === 'zh-cn' ? zh : message);
  });

  test("the manifest's strings follow the display language (package.nls)", () => {
    const nls = catalogue(asked === 'zh-cn' ? 'package.nls.zh-cn.json' : 'package.nls.json');
    const pkg = ext().packageJSON as {
      displayName: string;
      contributes: { configuration: { title: string }; views: { shunong: { contextualTitle: string }[] } };
    };
    assert.equal(pkg.displayName, nls['displayName']);
    // the Settings editor's section and the views' titles when moved out of our container
    assert.equal(pkg.contributes.configuration.title, nls['category']);
    for (const v of pkg.contributes.views.shunong) assert.equal(v.contextualTitle, nls['viewsContainer.shunong']);
  });
});

suite('Display language: why a citation is malformed', () => {
  test("a malformed citation's Problem and its preview mark give the reason in the display language", async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await ext.activate();
    const { document: doc } = await openMarkdown('正文[^1]，又见〔b.docx#01〕。\n\n[^1]: a.docx#x — 茶树管理 (TEA)\n');
    const chunk = (subject: string): string => t('"{0}" is not a non-negative integer chunk_index', subject);
    const expected = [
      t('Malformed inline citation "{0}": {1}', 'b.docx#01', chunk('01')),
      t('Malformed citation "{0}" in [^{1}]: {2}', 'a.docx#x', '1', chunk('x')),
    ];
    const messages = (): string[] =>
      vscode.languages
        .getDiagnostics(doc.uri)
        .filter((d) => d.code === 'malformed-citation')
        .map((d) => d.message);
    await until(() => messages().length === 2, 'the two malformed citations among the Problems', 400);
    assert.deepEqual(messages(), expected);
    if (asked === 'zh-cn') assert.doesNotMatch(messages().join('\n'), /non-negative|is not/);

    const html = await vscode.commands.executeCommand<string>('markdown.api.render', doc);
    const title = t('Malformed citation: {0}', chunk('01')).replaceAll('"', '&quot;');
    assert.ok(html.includes(`title="${title}"`), html);
    await closeAllEditors();
  });
});
