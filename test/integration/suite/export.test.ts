/**
 * "Shunong: Export Bulletin…" and "Copy for WeChat" inside a real VS Code: the format prompt, the
 * file beside the bulletin, overwrite refusal, the Word template setting, the official layout (the
 * setting, the front matter over it, the station's fonts), broken citations, a banned pesticide,
 * the copy panel's webview handshake, and the bulletin never changed.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import JSZip from 'jszip';
import * as vscode from 'vscode';
import { api, closeAllEditors, setSetting, stub, until } from './helpers';

const SCRATCH = `.export-test-${process.pid}-${Date.now().toString(36)}`;
const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const PHOTO = vscode.Uri.file(path.join(REPO, 'test', 'fixtures', 'workspace', 'photos', 'tea-buds.jpg'));

const BULLETIN = `---
title: 茶园冬季管理
date: 2026-11-20
---

# 茶园冬季管理

## 修剪与施肥

修剪以轻剪为主[^1]，施肥见下表[^2]。

| 措施 | 用量 |
| --- | --- |
| 施基肥 | 1500 公斤[^2] |

![识别结果](images/tea-buds.jpg)

## 参考资料

[^1]: 茶树修剪技术要点.docx#1 — 茶树管理 (TEA_MANAGER_001)
[^2]: 茶园施肥技术.pdf#0 — 茶树管理 (TEA_MANAGER_001)
`;

function folder(): vscode.Uri {
  const wf = vscode.workspace.workspaceFolders?.[0];
  assert.ok(wf, 'the sample workspace is open');
  return vscode.Uri.joinPath(wf.uri, SCRATCH);
}

async function bulletin(name: string, text = BULLETIN): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.joinPath(folder(), name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
}

async function footnotes(uri: vscode.Uri): Promise<string[]> {
  const zip = await JSZip.loadAsync(await vscode.workspace.fs.readFile(uri));
  const xml = (await zip.file('word/footnotes.xml')?.async('string')) ?? '';
  return [...xml.matchAll(/<w:footnote w:id="(\d+)">([\s\S]*?)<\/w:footnote>/g)]
    .filter((m) => Number(m[1]) > 0)
    .map((m) =>
      [...m[2]!.matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g)]
        .map((t) => t[1])
        .join('')
        .trim(),
    );
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  return vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
}

suite('Export a bulletin', function () {
  this.timeout(60_000);
  const restores: { restore(): void }[] = [];

  suiteSetup(async () => {
    await api();
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder(), 'images'));
    await vscode.workspace.fs.copy(PHOTO, vscode.Uri.joinPath(folder(), 'images', 'tea-buds.jpg'), { overwrite: true });
  });
  teardown(async () => {
    for (const r of restores.splice(0)) r.restore();
    await vscode.workspace
      .getConfiguration('shunong')
      .update('export.docxTemplate', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('shunong')
      .update('export.refuseBrokenCitations', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('shunong')
      .update('export.refuseUnsafe', undefined, vscode.ConfigurationTarget.Global);
    await setSetting('export.layout', undefined);
    await setSetting('export.officialFonts', undefined);
    (await api()).export.wechatPanel?.dispose();
    await closeAllEditors();
  });
  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(folder(), { recursive: true, useTrash: false });
  });

  test('asks for the format, writes the Word file beside the bulletin with one footnote per reference', async () => {
    const editor = await bulletin('周报.md');
    const picks = stub(vscode.window, 'showQuickPick', (async (items: readonly vscode.QuickPickItem[]) =>
      (await items).find((i) => i.label.includes('.docx'))) as unknown as typeof vscode.window.showQuickPick);
    const infos = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    restores.push(picks, infos);
    const written = (await vscode.commands.executeCommand('shunong.exportBulletin')) as vscode.Uri | undefined;
    const expected = vscode.Uri.joinPath(folder(), '周报.docx');
    assert.equal(written?.toString(), expected.toString());
    const offered = (await (picks.calls[0]![0] as
      Promise<vscode.QuickPickItem[]> | vscode.QuickPickItem[])) as vscode.QuickPickItem[];
    assert.equal(offered.length, 4, 'Word, WeChat, HTML, PDF');
    assert.deepEqual(await footnotes(expected), [
      '茶树修剪技术要点.docx#1 — 茶树管理',
      '茶园施肥技术.pdf#0 — 茶树管理',
      '茶园施肥技术.pdf#0 — 茶树管理',
    ]);
    const zip = await JSZip.loadAsync(await vscode.workspace.fs.readFile(expected));
    assert.ok(
      Object.keys(zip.files).some((f) => f.startsWith('word/media/')),
      'the picture beside the bulletin is embedded',
    );
    assert.match(String(infos.calls[0]?.[0]), /周报\.docx/, 'the user is told where');
    assert.equal(editor.document.getText(), BULLETIN, 'the bulletin is unchanged');
    assert.equal(editor.document.isDirty, false);
  });

  test('never overwrites without asking: Cancel keeps the file, Replace writes it', async () => {
    await bulletin('覆盖.md');
    const target = vscode.Uri.joinPath(folder(), '覆盖.docx');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('keep me'));
    const infos = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    let answer: string | undefined;
    const warns = stub(vscode.window, 'showWarningMessage', (async (message: string, options: unknown) => {
      assert.match(message, /覆盖\.docx/);
      assert.deepEqual(options, { modal: true });
      return answer;
    }) as unknown as typeof vscode.window.showWarningMessage);
    restores.push(infos, warns);
    answer = undefined; // Cancel
    assert.equal(await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'docx'), undefined);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(target)), 'keep me');
    answer = vscode.l10n.t('Replace');
    assert.ok(await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'docx'));
    assert.equal((await footnotes(target)).length, 3);
  });

  test('uses the Word template of shunong.export.docxTemplate, and says so when it cannot', async () => {
    await bulletin('模板.md');
    const zip = new JSZip();
    zip.file(
      'word/document.xml',
      '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p/></w:body></w:document>',
    );
    zip.file(
      'word/styles.xml',
      '<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        '<w:style w:type="paragraph" w:styleId="2"><w:name w:val="heading 2"/><w:rPr><w:rFonts w:eastAsia="黑体"/></w:rPr></w:style></w:styles>',
    );
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(folder(), 'house.docx'),
      await zip.generateAsync({ type: 'uint8array' }),
    );
    await vscode.workspace
      .getConfiguration('shunong')
      .update('export.docxTemplate', `${SCRATCH}/house.docx`, vscode.ConfigurationTarget.Global);
    restores.push(
      stub(
        vscode.window,
        'showInformationMessage',
        (async () => undefined) as typeof vscode.window.showInformationMessage,
      ),
    );
    const written = (await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'docx')) as vscode.Uri;
    const out = await JSZip.loadAsync(await vscode.workspace.fs.readFile(written));
    assert.match((await out.file('word/styles.xml')!.async('string')) ?? '', /黑体/, 'the house style');
    assert.match(
      (await out.file('word/document.xml')!.async('string')) ?? '',
      /<w:pStyle w:val="2"\/>/,
      'its heading 2',
    );

    await vscode.workspace
      .getConfiguration('shunong')
      .update('export.docxTemplate', `${SCRATCH}/missing.docx`, vscode.ConfigurationTarget.Global);
    const errors = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as typeof vscode.window.showErrorMessage,
    );
    const warns = stub(vscode.window, 'showWarningMessage', (async () =>
      vscode.l10n.t('Replace')) as unknown as typeof vscode.window.showWarningMessage);
    restores.push(errors, warns);
    assert.equal(await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'docx'), undefined);
    assert.match(String(errors.calls[0]?.[0]), /missing\.docx/);

    // a zip that is not a Word document: refused, and the message says what it lacks
    zip.remove('word/document.xml');
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(folder(), 'styles-only.docx'),
      await zip.generateAsync({ type: 'uint8array' }),
    );
    await vscode.workspace
      .getConfiguration('shunong')
      .update('export.docxTemplate', `${SCRATCH}/styles-only.docx`, vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'docx'), undefined);
    assert.match(String(errors.calls[1]?.[0]), /styles-only\.docx.*word\/document\.xml/);
  });

  test("the official layout: from shunong.export.layout, unless the front matter says otherwise; the station's fonts", async () => {
    restores.push(
      stub(
        vscode.window,
        'showInformationMessage',
        (async () => undefined) as typeof vscode.window.showInformationMessage,
      ),
    );
    const official = BULLETIN.replace('date:', 'masthead: 茶园情报\nissue: 2026年第3期\nissuer: 某某县茶叶站\ndate:');
    /** The exported Word file's document.xml and fontTable.xml (absent: ''). */
    const exportDocx = async (name: string, text: string): Promise<{ doc: string; fonts: string }> => {
      await bulletin(name, text);
      const written = (await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'docx')) as vscode.Uri;
      assert.ok(written, `${name} exported`);
      const zip = await JSZip.loadAsync(await vscode.workspace.fs.readFile(written));
      return {
        doc: (await zip.file('word/document.xml')?.async('string')) ?? '',
        fonts: (await zip.file('word/fontTable.xml')?.async('string')) ?? '',
      };
    };
    const isOfficial = (doc: string): boolean =>
      /<w:pgSz w:w="11906" w:h="16838"\/>/.test(doc) && /<w:pgMar w:top="2098"/.test(doc);

    await setSetting('export.layout', 'official');
    const bySetting = await exportDocx('公文-设置.md', official);
    assert.ok(isOfficial(bySetting.doc), 'the setting: A4, top margin 37 mm');
    assert.match(bySetting.doc, /茶园情报/, 'the masthead');
    assert.match(bySetting.doc, /w:color w:val="FF0000"/, 'in red');
    assert.match(bySetting.fonts, /w:name="仿宋_GB2312"/, "the standard's fonts");

    await setSetting('export.layout', 'standard');
    const byFrontMatter = await exportDocx('公文-前置.md', official.replace('date:', 'layout: official\ndate:'));
    assert.ok(isOfficial(byFrontMatter.doc), 'the front matter wins over the setting (standard)');
    assert.match(byFrontMatter.doc, /茶园情报/);

    await setSetting('export.layout', 'official');
    const standard = await exportDocx('公文-标准.md', official.replace('date:', 'layout: standard\ndate:'));
    assert.ok(!isOfficial(standard.doc), 'the front matter wins over the setting (official)');
    assert.doesNotMatch(standard.doc, /FF0000/, 'no masthead');
    assert.equal(standard.fonts, '', 'no font table of the layout');

    await setSetting('export.officialFonts', { body: '仿宋', heading: ' ' });
    const stationFonts = await exportDocx('公文-字体.md', official);
    assert.match(stationFonts.fonts, /w:name="仿宋"/, "the station's body font");
    assert.doesNotMatch(stationFonts.fonts, /仿宋_GB2312/);
    assert.match(stationFonts.fonts, /w:name="黑体"/, "a blank key keeps the standard's");
    assert.match(stationFonts.doc, /w:eastAsia="仿宋"/);
  });

  test('broken citations: exported with a warning that lists them, or refused when the setting says so', async () => {
    const text = '# 周报\n\n引用[^9]。\n';
    const editor = await bulletin('失效.md', text);
    const warns = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as typeof vscode.window.showWarningMessage,
    );
    restores.push(warns);
    assert.ok(await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'html'));
    assert.match(String(warns.calls[0]?.[0]), /\[\^9\]/, 'the warning names the broken citation');

    await vscode.workspace
      .getConfiguration('shunong')
      .update('export.refuseBrokenCitations', true, vscode.ConfigurationTarget.Global);
    const errors = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as typeof vscode.window.showErrorMessage,
    );
    restores.push(errors);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), '失效.html'));
    assert.equal(await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'html'), undefined);
    assert.match(String(errors.calls[0]?.[0]), /1/);
    assert.equal(await exists(vscode.Uri.joinPath(folder(), '失效.html')), false, 'nothing written');
    assert.equal(editor.document.getText(), text);
  });

  test('a banned pesticide: a modal warning before anything is written, or refused when the setting says so', async () => {
    const text = '---\ndate: 2026-12-02\n---\n\n# 地下害虫防治\n\n玉米播种时可用3%克百威颗粒剂沟施，防治蛴螬。\n';
    const editor = await bulletin('克百威.md', text);
    const target = vscode.Uri.joinPath(folder(), '克百威.html');
    let answer: string | undefined;
    const warns = stub(
      vscode.window,
      'showWarningMessage',
      (async () => answer) as unknown as typeof vscode.window.showWarningMessage,
    );
    const infos = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    restores.push(warns, infos);
    answer = undefined; // Cancel
    assert.equal(await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'html'), undefined);
    assert.equal(warns.calls.length, 1);
    const [message, options, ...buttons] = warns.calls[0]!;
    const substance = vscode.env.language.startsWith('zh') ? '克百威' : 'carbofuran';
    assert.ok(String(message).includes(substance), String(message));
    assert.match(String(message), /7/, 'the line');
    assert.equal((options as vscode.MessageOptions).modal, true);
    assert.deepEqual(buttons, [vscode.l10n.t('Export Anyway')]);
    assert.equal(await exists(target), false, 'nothing written after Cancel');
    answer = vscode.l10n.t('Export Anyway');
    assert.equal(
      ((await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'html')) as vscode.Uri).toString(),
      target.toString(),
    );
    assert.equal(await exists(target), true);
    await vscode.workspace.fs.delete(target);

    await vscode.workspace
      .getConfiguration('shunong')
      .update('export.refuseUnsafe', true, vscode.ConfigurationTarget.Global);
    const errors = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as typeof vscode.window.showErrorMessage,
    );
    restores.push(errors);
    const asked = warns.calls.length;
    assert.equal(await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'html'), undefined);
    assert.equal(warns.calls.length, asked, 'refused without asking');
    assert.ok(String(errors.calls[0]?.[0]).includes(substance), String(errors.calls[0]?.[0]));
    assert.match(String(errors.calls[0]?.[0]), /7/, 'the line');
    assert.equal(await exists(target), false, 'nothing written');
    assert.equal(editor.document.getText(), text);
  });

  test('a file that cannot be written is said in a message, and nothing is thrown', async () => {
    await bulletin('只读.md');
    // a folder where the file would go: Replace is answered, and writing it fails
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder(), '只读.docx'));
    const warns = stub(vscode.window, 'showWarningMessage', (async () =>
      vscode.l10n.t('Replace')) as unknown as typeof vscode.window.showWarningMessage);
    const errors = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as typeof vscode.window.showErrorMessage,
    );
    restores.push(warns, errors);
    assert.equal(await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'docx'), undefined);
    assert.match(String(errors.calls[0]?.[0]), /只读\.docx/);
  });

  test('Copy for WeChat writes the article and opens the copy panel, whose webview says it is ready', async () => {
    await bulletin('公众号.md');
    const infos = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    restores.push(infos);
    const written = (await vscode.commands.executeCommand('shunong.copyForWeChat')) as vscode.Uri;
    assert.equal(written.path.split('/').pop(), '公众号.wechat.html');
    const html = new TextDecoder().decode(await vscode.workspace.fs.readFile(written));
    assert.ok(!/<style|\sclass=|<a\s/i.test(html));
    const panel = (await api()).export.wechatPanel;
    assert.ok(panel, 'the copy panel is open');
    let ready = false;
    const sub = panel.onDidReceiveMessage((m) => {
      if (m.type === 'ready') ready = true;
    });
    // the webview may have said ready before we listened: a reload makes it say it again
    panel.panel.webview.html = panel.panel.webview.html + ' ';
    await until(() => ready, 'the copy webview says ready');
    sub.dispose();
    assert.match(panel.panel.webview.html, /default-src 'none'/);
    assert.match(panel.panel.webview.html, /script-src 'nonce-/);
  });
});
