/**
 * The dose check inside a real VS Code: a cited dose whose passage is not at hand is a hint that
 * says so; once the passage is in the citation cache the bulletin is checked again, the dose that
 * differs from it is a warning (source shunong-dose) with a hover quoting the passage, and the
 * quick fix that takes the passage's value clears it; before that, the export asks first (Cancel
 * exports nothing). `shunong.dose.sourceNeeded` turns the
 * not-at-hand hint into a warning, or off. A dose recommended without a citation gets "find a
 * source": a knowledge search of the local endpoint, the passages that dose its ingredient offered
 * (agreeing first), the one picked cited at the end of the sentence in one edit; where none doses
 * it, the author is told so.
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

  test('a dose without a source: the passages that give its dose are offered, and the one picked is cited in one edit', async () => {
    const editor = await openMarkdown(`# 稻纵卷叶螟防治

卵孵高峰期每亩用20%氯虫苯甲酰胺悬浮剂12毫升，兑水30公斤喷雾。
`);
    const uri = editor.document.uri;
    await until(() => doseOf(uri).some((d) => d.code === 'source-needed'), 'the source needed');
    const [needed] = doseOf(uri);
    assert.equal(needed!.severity, vscode.DiagnosticSeverity.Hint);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      needed!.range,
    );
    const find = actions.find((a) => a.command?.command === 'shunong.dose.findSource');
    assert.ok(find, actions.map((a) => a.title).join(', '));
    assert.equal(find.title, displayed('Find a source for this dose and cite it…'));

    let offered: vscode.QuickPickItem[] = [];
    const picks = stub(vscode.window, 'showQuickPick', (async (items: vscode.QuickPickItem[]) => {
      offered = [...(await items)];
      return offered[0];
    }) as unknown as typeof vscode.window.showQuickPick);
    try {
      assert.equal(await vscode.commands.executeCommand(find.command!.command, ...find.command!.arguments!), true);
    } finally {
      picks.restore();
    }
    assert.ok(offered.length > 0);
    // Every passage offered gives 氯虫苯甲酰胺 a dose, in its own words; the agreeing one first.
    for (const item of offered) assert.match(item.detail ?? '', /氯虫苯甲酰胺.*\d/);
    assert.equal(offered[0]!.label, '$(pass) 水稻病虫害药剂防治.docx#0');
    assert.equal(offered[0]!.description, displayed('gives the dose the sentence gives'));
    const text = editor.document.getText();
    assert.match(text, /兑水30公斤喷雾。\[\^1\]\n/);
    assert.match(text, /\n\[\^1\]: 水稻病虫害药剂防治\.docx#0 — /);
    await until(() => doseOf(uri).length === 0, 'cited: the dose agrees with its passage');
    // One edit: one undo takes it all back.
    await vscode.commands.executeCommand('undo');
    assert.doesNotMatch(editor.document.getText(), /\[\^1\]/);
  });

  test('a dose no passage gives: said, and nothing is written', async () => {
    const editor = await openMarkdown(`# 桃树病虫防治

每亩用1.8%阿维菌素乳油40毫升，兑水30公斤喷雾防治桃小食心虫。
`);
    const uri = editor.document.uri;
    await until(() => doseOf(uri).some((d) => d.code === 'source-needed'), 'the source needed');
    const before = editor.document.getText();
    const infos = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as unknown as typeof vscode.window.showInformationMessage,
    );
    try {
      const [needed] = doseOf(uri);
      await vscode.commands.executeCommand(
        'shunong.dose.findSource',
        uri,
        editor.document.offsetAt(needed!.range.start),
        editor.document.offsetAt(needed!.range.end) - editor.document.offsetAt(needed!.range.start),
      );
    } finally {
      infos.restore();
    }
    const said = String(infos.calls[0]?.[0]);
    assert.match(said, /阿维菌素/);
    assert.equal(infos.calls[0]?.[1], displayed('Search Knowledge…'));
    assert.equal(editor.document.getText(), before);
  });
});
