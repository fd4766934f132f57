/**
 * Starter integration test: the extension is loaded into a real VS Code extension host and
 * activates; the host is what we think it is. Runs under code-server (web workbench, Node
 * extension host on the server) and under @vscode/test-electron (desktop) alike.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'shunong-authors.shunong-vscode';

/** `1.100.3` → [1, 100, 3] (pre-release suffixes ignored). */
function versionParts(v: string): number[] {
  return v.split(/[.-]/).slice(0, 3).map((p) => Number.parseInt(p, 10));
}

suite('Activation', () => {
  test('the extension is present', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    const pkg = ext.packageJSON as { name: string; publisher: string; main: string };
    assert.equal(pkg.publisher, 'shunong-authors');
    assert.equal(pkg.name, 'shunong-vscode');
    assert.equal(pkg.main, './dist/extension.js');
  });

  test('it activates without error', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  test('it runs in the Node extension host, and never activates on "*"', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    assert.equal(ext.extensionKind, vscode.ExtensionKind.Workspace);
    assert.equal(typeof process.versions.node, 'string');
    const events = (ext.packageJSON as { activationEvents?: string[] }).activationEvents ?? [];
    assert.ok(!events.includes('*'), 'activation must come from contributions, not "*"');
  });

  test('the host is a real VS Code no older than our engines.vscode', () => {
    const [major = 0, minor = 0] = versionParts(vscode.version);
    assert.ok(major > 1 || (major === 1 && minor >= 100), `VS Code ${vscode.version} is older than 1.100`);
    assert.ok([vscode.UIKind.Desktop, vscode.UIKind.Web].includes(vscode.env.uiKind));
    assert.ok(vscode.env.appName.length > 0);
    assert.ok(vscode.env.machineId.length > 0);
    assert.match(vscode.env.language, /^[a-z]{2}/);
  });

  test('the sample workspace is open', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1, 'exactly one workspace folder');
    assert.equal(path(folders[0]!.uri).endsWith('/test/fixtures/workspace'), true, `opened ${folders[0]!.uri.toString()}`);
  });
});

/** A URI's path without a trailing slash. */
function path(uri: vscode.Uri): string {
  return uri.path.replace(/\/$/, '');
}
