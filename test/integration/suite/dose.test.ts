/**
 * The dose check inside a real VS Code: a cited dose whose passage is not at hand is a hint that
 * says so; once the passage is in the citation cache the bulletin is checked again, the dose that
 * differs from it is a warning (source shunong-dose) with a hover quoting the passage, and the
 * quick fix that takes the passage's value clears it; before that, the export asks first (Cancel
 * exports nothing). `shunong.dose.sourceNeeded` turns the
 * not-at-hand hint into a warning, or off.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closeAllEditors, displayed, openMarkdown, setSetting, stub, until } from './helpers';

const PASSAGE =
  '稻纵卷叶螟药剂防治：在低龄幼虫高峰期施药，每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升，或15%茚虫威悬浮剂12-18毫升，兑水30-45公斤均匀喷雾。';

const BULLETIN = `---
date: 2026-07-15
---

# 稻纵卷叶螟防治

防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂30毫升，兑水30公斤喷雾[^1]。

## 参考资料

[^1]: 水稻病虫害药剂防治-it.docx#0 — 水稻 (RICE_001)
`;

const doseOf = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'shunong-dose');

suite('The dose check', () => {
  teardown(async () => {
    await setSetting('dose.sourceNeeded', undefined);
    await closeAllEditors();
  });

  test('not at hand: a hint; the passage arrives: a warning with the passage in its hover; the quick fix takes its value', async () => {
    const shunong = await api();
    const editor = await openMarkdown(BULLETIN);
    const uri = editor.document.uri;
    await until(() => doseOf(uri).some((d) => d.code === 'passage-not-at-hand'), 'the passage not at hand');
    assert.equal(doseOf(uri)[0]!.severity, vscode.DiagnosticSeverity.Hint);
    await setSetting('dose.sourceNeeded', 'warning');
    await until(() => doseOf(uri)[0]?.severity === vscode.DiagnosticSeverity.Warning, 'as a warning');
    await setSetting('dose.sourceNeeded', 'off');
    await until(() => doseOf(uri).length === 0, 'off');

    await shunong.citations.service.rememberAll([
      {
        docName: '水稻病虫害药剂防治-it.docx',
        chunkIndex: 0,
        kbCode: 'RICE_001',
        kbName: '水稻',
        query: '稻纵卷叶螟',
        score: 0.9,
        scoreType: 'rerank',
        retrievedAt: new Date().toISOString(),
        content: PASSAGE,
      },
    ]);
    await until(() => doseOf(uri).some((d) => d.code === 'dose-mismatch'), 'the mismatch');
    const [mismatch] = doseOf(uri);
    assert.equal(mismatch!.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(editor.document.getText(mismatch!.range), '30毫升');

    // The export asks first: Cancel exports nothing.
    const warns = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as unknown as typeof vscode.window.showWarningMessage,
    );
    try {
      assert.equal(await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'html'), undefined);
    } finally {
      warns.restore();
    }
    assert.deepEqual(warns.calls, [
      [
        displayed(
          'Line {0} gives a dose its cited passage does not ({1} wrong dose(s) in all). Export it anyway?',
          '7',
          '1',
        ),
        { modal: true, detail: mismatch!.message },
        displayed('Export Anyway'),
      ],
    ]);

    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      uri,
      mismatch!.range.start,
    );
    const shown = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
      .join('\n');
    assert.match(shown, /10-15毫升/, 'the passage’s own words');

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      mismatch!.range,
    );
    const take = actions.find((a) => a.isPreferred && a.edit);
    assert.ok(take, actions.map((a) => a.title).join(', '));
    assert.ok(actions.some((a) => a.title === displayed('Silence this dose finding (disable next line)')));
    await vscode.workspace.applyEdit(take.edit!);
    assert.match(editor.document.getText(), /悬浮剂10-15毫升，兑水30公斤/);
    await until(() => doseOf(uri).length === 0, 'the value taken');
  });
});
