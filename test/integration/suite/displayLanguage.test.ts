/**
 * The display language the harness started the workbench in (`run-integration.mjs --locale`,
 * told to the extension host as SHUNONG_TEST_LOCALE) is the one the extension meets: en by
 * default; zh-cn with the test language pack installed, and then vscode.l10n answers from our
 * zh-CN bundle and the manifest's strings come from package.nls.zh-cn.json.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'shunong-authors.shunong-vscode';

function catalogue(extensionPath: string, ...file: string[]): Record<string, string> {
  return JSON.parse(readFileSync(join(extensionPath, ...file), 'utf8')) as Record<string, string>;
}

suite('Display language', () => {
  const asked = process.env['SHUNONG_TEST_LOCALE'] ?? 'en';
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
    const zh = catalogue(ext().extensionPath, 'l10n', 'bundle.l10n.zh-cn.json')[message];
    assert.ok(zh && zh !== message, 'the zh-CN bundle translates it');
    assert.equal(vscode.l10n.t(message), asked === 'zh-cn' ? zh : message);
  });

  test("the manifest's strings follow the display language (package.nls)", () => {
    const nls = catalogue(ext().extensionPath, asked === 'zh-cn' ? 'package.nls.zh-cn.json' : 'package.nls.json');
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
