/**
 * The bulletin's date in a real VS Code: a `date:` written as authors write it (2010/04/10) decides
 * which rules apply, and one that is not a day is a warning on it that says which date was used.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closeAllEditors, displayed, openMarkdown, until } from './helpers';

const safetyOf = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'shunong-safety');

suite("Pesticide safety: the bulletin's date", () => {
  teardown(closeAllEditors);

  test('a date written 2010/04/10 is read: 甲拌磷 on 韭菜 is an error under the 2002 announcement', async () => {
    await api();
    const editor = await openMarkdown('---\ndate: 2010/04/10\n---\n\n# 韭菜韭蛆防治\n\n用3911颗粒剂灌根。\n');
    await until(() => safetyOf(editor.document.uri).length === 1, 'one safety problem');
    const [d] = safetyOf(editor.document.uri);
    assert.equal(d!.code, 'phorate-199');
    assert.equal(d!.severity, vscode.DiagnosticSeverity.Error);
  });

  test('a date: that is not a day is a warning on its value, naming the date the rules were applied on', async () => {
    const { safety } = await api();
    const editor = await openMarkdown('---\ndate: 三月中旬\n---\n\n玉米田可用甲拌磷灌根。\n');
    await until(() => safetyOf(editor.document.uri).some((d) => d.code === 'bulletin/date'), 'the date warning');
    const d = safetyOf(editor.document.uri).find((x) => x.code === 'bulletin/date')!;
    assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(editor.document.getText(d.range), '三月中旬');
    const today = safety.diagnostics.current(editor.document)[0]?.date;
    assert.ok(today, 'the ban of 甲拌磷 is judged on a date');
    assert.equal(
      d.message,
      displayed(
        'date: "{0}" is not a date; the pesticide rules were applied on {1} (today) instead. Write it as YYYY-MM-DD.',
        '三月中旬',
        today,
      ),
    );
  });

  test('a front matter YAML rejects is a warning on its line, and its date still applies the rules of that day', async () => {
    await api();
    const editor = await openMarkdown(
      '---\ntitle: 2026年第12期: 韭蛆\ndate: 2010/04/10\n---\n\n# 韭菜韭蛆防治\n\n用3911颗粒剂灌根。\n',
    );
    await until(
      () => safetyOf(editor.document.uri).some((d) => d.code === 'bulletin/front-matter'),
      'the front matter warning',
    );
    const d = safetyOf(editor.document.uri).find((x) => x.code === 'bulletin/front-matter')!;
    assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(d.range.start.line, 1, 'on the title line');
    const reason = /[(（]([^()（）]*)[)）]/.exec(d.message)?.[1] ?? '';
    assert.equal(
      d.message,
      displayed(
        'YAML cannot read this front matter ({0}); its fields were read one "key: value" a line. Quote a value that holds a colon: title: "…".',
        reason,
      ),
    );
    assert.ok(
      safetyOf(editor.document.uri).some((x) => x.code === 'phorate-199'),
      'the date read line by line still decides the rules',
    );
    await editor.edit((e) => e.replace(editor.document.lineAt(1).range, 'title: "2026年第12期: 韭蛆"'));
    await until(
      () => !safetyOf(editor.document.uri).some((x) => x.code === 'bulletin/front-matter'),
      'quoted: the warning goes',
    );
  });
});
