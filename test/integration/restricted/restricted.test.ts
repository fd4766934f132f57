/**
 * Restricted Mode inside a real VS Code: the harness (`run-integration.mjs --restricted`) opens a
 * copy of the sample workspace that the workbench does not trust (workspace trust on, no startup
 * prompt), whose `.vscode/settings.json` sets the two restricted settings, `bulletin.template`
 * (to `templates/bulletin.md`, also in the folder) and `recognition.saveFolder`, and one that is
 * not restricted, `citations.referencesHeading`. The extension activates; citations, the weather
 * and recognition work; the restricted settings' workspace values are not what it reads.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closeAllEditors, EXTENSION_ID, openMarkdown, until } from '../suite/helpers';

/** What the harness wrote into the folder's .vscode/settings.json. */
const WORKSPACE_TEMPLATE = 'templates/bulletin.md';
const WORKSPACE_SAVE_FOLDER = 'restricted/saves';
const WORKSPACE_HEADING = '参考文献（工作区）';

function folder(): vscode.Uri {
  const wf = vscode.workspace.workspaceFolders?.[0];
  assert.ok(wf, 'a folder is open');
  return wf.uri;
}

suite('Restricted Mode (an untrusted folder)', function () {
  this.timeout(60_000);
  teardown(closeAllEditors);

  test('the folder is not trusted, and the extension activates in it', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the harness opened an untrusted folder');
    await api();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
  });

  test("citations: the example bulletin's problems are reported, and a hover shows the citation", async () => {
    const example = vscode.Uri.joinPath(folder(), 'examples', '引用问题示例.md');
    const doc = await vscode.workspace.openTextDocument(example);
    await vscode.window.showTextDocument(doc);
    const codes = (): string[] =>
      vscode.languages
        .getDiagnostics(example)
        .map((d) => String(d.code))
        .sort();
    await until(() => codes().length === 3, 'the Problems of the example');
    assert.deepEqual(codes(), ['duplicate-source', 'undefined-reference', 'unused-definition']);
    const at = doc.positionAt(doc.getText().indexOf('[^1]') + 2);
    const hovers = (await vscode.commands.executeCommand('vscode.executeHoverProvider', example, at)) as vscode.Hover[];
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /茶树农事操作\.docx/);
  });

  test('platform calls: a weather brief from the local endpoint, the sample tea photo recognised', async () => {
    const editor = await openMarkdown('# 简报\n\n');
    const brief = (await vscode.commands.executeCommand('shunong.insertWeatherBrief', '成都')) as string | undefined;
    assert.ok(brief, 'a brief was inserted');
    assert.match(brief, /101270101/);
    assert.ok(editor.document.getText().includes(brief));
    const photo = vscode.Uri.joinPath(folder(), 'photos', 'tea-buds.jpg');
    const r = (await vscode.commands.executeCommand('shunong.recognizeImage', photo, {
      recognitionType: 'tea_count',
    })) as { status: string; message?: string; summary?: { total: number; low: number } };
    assert.equal(r.status, 'done', r.message);
    assert.deepEqual([r.summary?.total, r.summary?.low], [7, 0]);
  });

  test("the workspace's bulletin.template, recognition.saveFolder and export.docxTemplate are ignored; its other settings apply", async () => {
    const read = async (rel: string): Promise<string> =>
      new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder(), rel)));
    const written = JSON.parse(await read('.vscode/settings.json')) as Record<string, unknown>;
    assert.equal(written['shunong.bulletin.template'], WORKSPACE_TEMPLATE, 'the folder sets it');
    assert.equal(written['shunong.recognition.saveFolder'], WORKSPACE_SAVE_FOLDER);
    const config = vscode.workspace.getConfiguration('shunong', folder());
    // VS Code does not even report the workspace's values of restricted settings in Restricted Mode.
    assert.equal(config.inspect('bulletin.template')?.workspaceValue, undefined);
    assert.equal(config.inspect('recognition.saveFolder')?.workspaceValue, undefined);
    assert.equal(written['shunong.export.docxTemplate'], 'templates/house.docx');
    assert.equal(config.get('export.docxTemplate'), '', 'the Word template of the workspace is not read');
    const template = await read(WORKSPACE_TEMPLATE);
    assert.match(template, /TEMPLATE OF THE WORKSPACE/, 'the template is there to be read');
    assert.equal(config.get('bulletin.template'), '', 'what the extension reads: the default');
    assert.equal(config.get('recognition.saveFolder'), 'images/recognition');
    assert.equal(config.get('citations.referencesHeading'), WORKSPACE_HEADING, 'not restricted: applies');

    const doc = (await vscode.commands.executeCommand('shunong.newBulletin', '成都')) as vscode.TextDocument;
    const text = doc.getText();
    assert.doesNotMatch(text, /TEMPLATE OF THE WORKSPACE/, 'the built-in template, not the workspace’s');
    assert.match(text, /^---\ntitle: ".*成都/);
    assert.ok(text.includes(`## ${WORKSPACE_HEADING}`), text);
  });
});
