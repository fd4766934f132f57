/**
 * Pesticide safety inside a real VS Code: the Problems of a bulletin that recommends a banned
 * pesticide (and none for the sentence that forbids it), as the author types; the hover and the quick
 * actions (alternatives; silencing a finding, which the export honours too); the station's rules file and its failure; the warning before an insertion brings a banned
 * pesticide in; Show Pesticide Rules.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { CitedPassage } from '../../../src/citations/passage';
import {
  api,
  captureQuickPick,
  closeAllEditors,
  openBulletin,
  openMarkdown,
  passagesOf,
  RESULTS,
  setSetting,
  stepTitled,
  stub,
  until,
  answeringWarnings,
} from './helpers';

/** test/fixtures/workspace/bulletins/2026-12-蔬菜病虫害防治.md */
const BULLETIN = `---
title: 蔬菜冬季病虫害防治
date: 2026-12-02
crop: 白菜
lang: zh-CN
---

# 蔬菜冬季病虫害防治

## 地下害虫

防治蛴螬、地老虎，可每亩撒施 3% 克百威颗粒剂 2 千克。

严禁在蔬菜上使用克百威、氧乐果、甲拌磷等高毒农药。

## 蚜虫

蚜虫发生初期，可选用吡虫啉或啶虫脒喷雾防治，注意安全间隔期。
`;

/** The aged passage of the local endpoint's sample knowledge base (test/emulator/kb/4-CORN_001.json). */
const AGED: CitedPassage = {
  docName: '玉米地下害虫防治（2022年版）.docx',
  chunkIndex: 0,
  content:
    '玉米地下害虫防治（2022年版）：蛴螬、地老虎发生重的地块，播种时每亩用3%克百威颗粒剂2～3公斤拌细土撒施于播种沟内，可兼治苗期蚜虫。',
  kbCode: 'CORN_001',
  kbName: '玉米',
  query: '玉米地下害虫',
  score: 0.0164,
  scoreType: 'rrf(≈1/(60+rank), 仅用于排序)',
  retrievedAt: '2026-12-02T09:00:00+08:00',
};

const safetyOf = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'shunong-safety');

async function problems(editor: vscode.TextEditor, what: string, n: number): Promise<vscode.Diagnostic[]> {
  await until(() => safetyOf(editor.document.uri).length === n, `${n} safety problem(s): ${what}`);
  return safetyOf(editor.document.uri);
}

suite('Pesticide safety', () => {
  teardown(async () => {
    await setSetting('safety.rulesFile', undefined);
    await closeAllEditors();
  });

  test('a recommendation of a banned pesticide is an error on its name; the prohibition and the allowed ones are not flagged', async () => {
    await api();
    const editor = await openMarkdown(BULLETIN);
    const [d] = await problems(editor, 'the bulletin', 1);
    assert.equal(d!.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(d!.code, 'carbofuran-736');
    assert.equal(editor.document.getText(d!.range), '克百威');
    assert.equal(d!.range.start.line, 11, 'the recommendation, not the prohibition two lines below');
    assert.equal(
      d!.message,
      '克百威 (carbofuran) is banned: its sale and use are prohibited from 2026-06-01 (Announcement No. 736).',
    );
  });

  test('typing a recommendation adds its Problem; turning it into a prohibition removes it', async () => {
    await api();
    const editor = await openMarkdown(BULLETIN);
    await problems(editor, 'the bulletin', 1);
    const end = editor.document.positionAt(BULLETIN.length);
    await editor.edit((b) => b.insert(end, '\n地老虎严重时可用甲拌磷拌种。\n'));
    const found = await problems(editor, 'the typed line', 2);
    assert.ok(found.some((x) => x.code === 'phorate-536' && editor.document.getText(x.range) === '甲拌磷'));
    const at = editor.document.getText().lastIndexOf('可用甲拌磷');
    await editor.edit((b) =>
      b.replace(new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + 2)), '严禁使用'),
    );
    await problems(editor, 'the prohibition', 1);
  });

  test('the hover names the substance, the announcement and its date; the quick action searches for alternatives', async () => {
    await api();
    const editor = await openMarkdown(BULLETIN);
    const [d] = await problems(editor, 'the bulletin', 1);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      editor.document.uri,
      d!.range.start.translate(0, 1),
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /克百威/);
    assert.match(text, /农业农村部公告第736号/);
    assert.match(text, /2026-06-01/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      editor.document.uri,
      d!.range,
    );
    const search = actions.find((a) => a.command?.command === 'shunong.searchKnowledge');
    assert.ok(search, actions.map((a) => a.title).join(', '));
    assert.equal(search.title, 'Search the knowledge base for alternatives to 克百威');
    assert.equal((search.command!.arguments![0] as { query: string }).query, '白菜 防治蛴螬 地老虎 替代药剂');
  });

  test('the quick fix silences a finding with a comment on the line above, in one undo; the Problem goes, and the export no longer warns', async () => {
    await api();
    const editor = await openMarkdown(BULLETIN);
    const [d] = await problems(editor, 'the bulletin', 1);
    const exportHtml = (): Thenable<vscode.Uri | undefined> =>
      vscode.commands.executeCommand<vscode.Uri | undefined>('shunong.exportBulletin', undefined, 'html');
    const before = await answeringWarnings(undefined, exportHtml);
    assert.equal(before.result, undefined, 'cancelled at the warning');
    assert.equal(before.warnings.length, 1, 'the ban is warned of before it is silenced');

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      editor.document.uri,
      d!.range,
    );
    const silence = actions.find((a) => a.title === vscode.l10n.t('Silence this finding (disable next line)'));
    assert.ok(silence?.edit, actions.map((a) => a.title).join(', '));
    assert.equal(silence.kind?.value, vscode.CodeActionKind.QuickFix.value);
    assert.ok(await vscode.workspace.applyEdit(silence.edit));
    const lines = editor.document.getText().split('\n');
    assert.equal(lines[11], '<!-- shunong-disable-next-line carbofuran-736 -->');
    assert.equal(lines[12], '防治蛴螬、地老虎，可每亩撒施 3% 克百威颗粒剂 2 千克。');
    await problems(editor, 'the finding silenced', 0);

    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), BULLETIN, 'one undo takes the comment away');
    await problems(editor, 'the comment undone', 1);
    await vscode.commands.executeCommand('redo');
    await problems(editor, 'the comment again', 0);

    const warns = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as unknown as typeof vscode.window.showWarningMessage,
    );
    const infos = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    let target: vscode.Uri | undefined;
    try {
      target = await exportHtml();
    } finally {
      warns.restore();
      infos.restore();
    }
    assert.deepEqual(warns.calls, [], 'no warning of the silenced ban');
    assert.ok(target, 'exported');
    const html = Buffer.from(await vscode.workspace.fs.readFile(target)).toString('utf8');
    await vscode.workspace.fs.delete(target);
    assert.match(html, /克百威颗粒剂/);
    assert.doesNotMatch(html, /shunong-disable-next-line/, 'the comment is not exported');
  });

  test("a station's rules file adds rules; a bad one is reported on its line and the shipped rules keep working", async () => {
    const { safety } = await api();
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const file = vscode.Uri.joinPath(folder, '.shunong-safety-test.json');
    const warn = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as typeof vscode.window.showWarningMessage,
    );
    try {
      fs.writeFileSync(file.fsPath, '{\n  "rules": [\n    { "id": "x" }\n  ]\n}\n');
      await setSetting('safety.rulesFile', '.shunong-safety-test.json');
      const bad = await safety.rules.reload();
      assert.equal(bad[0]!.line, 3);
      await until(() => vscode.languages.getDiagnostics(file).length > 0, 'the problems on the file');
      assert.equal(vscode.languages.getDiagnostics(file)[0]!.range.start.line, 2);
      assert.ok(
        warn.calls.some((c) => /line 3/.test(String(c[0]))),
        JSON.stringify(warn.calls),
      );
      const editor = await openBulletin(BULLETIN);
      await problems(editor, 'shipped rules still in force', 1);

      fs.writeFileSync(
        file.fsPath,
        JSON.stringify({
          rules: [
            {
              id: 'station-1',
              substance: '某某磷',
              names: ['某某磷'],
              kind: 'banned',
              effective: '2026-01-01',
              announcement: '县农业农村局通知第1号',
            },
          ],
        }),
      );
      assert.deepEqual(await safety.rules.reload(), []);
      await until(() => vscode.languages.getDiagnostics(file).length === 0, 'the file fixed');
      await editor.edit((b) =>
        b.insert(editor.document.positionAt(editor.document.getText().length), '\n可用某某磷。\n'),
      );
      const found = await problems(editor, 'the station rule', 2);
      assert.ok(found.some((x) => x.code === 'station-1'));
    } finally {
      warn.restore();
      fs.rmSync(file.fsPath, { force: true });
    }
  });

  test('"Insert Cited Snippet" asks before a passage that recommends a banned pesticide goes in, and inserts nothing when not told to', async () => {
    await api();
    const original = '---\ndate: 2026-12-02\ncrop: 玉米\n---\n\n# 玉米播种\n\n';
    const editor = await openBulletin(original);
    const insert = (): Thenable<unknown> => vscode.commands.executeCommand('shunong.insertCitedSnippet', AGED);
    const asked = await answeringWarnings(undefined, insert);
    assert.equal(asked.result, false);
    assert.equal(asked.warnings[0]![0], 'This passage recommends a banned pesticide. Insert it anyway?');
    assert.match(String((asked.warnings[0]![1] as { detail: string }).detail), /克百威 \(carbofuran\) is banned/);
    assert.equal(editor.document.getText(), original, 'nothing was inserted');

    assert.equal((await answeringWarnings('Insert Anyway', insert)).result, true);
    assert.ok(editor.document.getText().includes('克百威颗粒剂'));
  });

  test('a draft (or a chat answer) that recommends a banned pesticide asks before it goes in, in one edit or none', async () => {
    const { citations } = await api();
    const original = '---\ndate: 2026-12-02\n---\n\n# 玉米\n\n';
    const editor = await openBulletin(original);
    const blocks = [
      { runs: [{ text: '播种时可每亩撒施克百威颗粒剂。', cites: [{ kind: 'passage' as const, passage: AGED }] }] },
    ];
    const insert = (): Thenable<boolean> => citations.service.insertDraft(editor, blocks);
    const asked = await answeringWarnings(undefined, insert);
    assert.equal(asked.result, false);
    assert.equal(asked.warnings[0]![0], 'This passage recommends a banned pesticide. Insert it anyway?');
    assert.equal(editor.document.getText(), original, 'nothing was inserted');
    assert.equal((await answeringWarnings('Insert Anyway', insert)).result, true);
    assert.match(editor.document.getText(), /克百威颗粒剂/);
  });

  test('a snippet with no banned pesticide goes in without a question', async () => {
    await api();
    const editor = await openBulletin('# 玉米\n\n');
    const asked = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as typeof vscode.window.showWarningMessage,
    );
    try {
      const ok = await vscode.commands.executeCommand('shunong.insertCitedSnippet', {
        ...AGED,
        docName: '玉米病虫害防治.pdf',
        chunkIndex: 2,
        content: '玉米螟以幼虫钻蛀茎秆和果穗，在玉米大喇叭口期，每亩用3%辛硫磷颗粒剂撒入心叶。',
      });
      assert.equal(ok, true);
    } finally {
      asked.restore();
    }
    assert.deepEqual(asked.calls, []);
    assert.ok(editor.document.getText().includes('辛硫磷'));
  });

  test('search results mark a passage that recommends a banned pesticide, and only that one', async () => {
    await api();
    const cap = captureQuickPick();
    const run = Promise.resolve(
      vscode.commands.executeCommand<{ status: string }>('shunong.searchKnowledge', {
        query: '玉米地下害虫防治',
        kbCode: 'CORN_001',
        topK: 5,
        scoreThreshold: 0,
      }),
    );
    const qp = await stepTitled(cap.get, RESULTS);
    const items = passagesOf(qp);
    const aged = items.find((i) => i.stored.passage.docName === AGED.docName);
    assert.ok(aged, items.map((i) => i.stored.passage.docName).join(', '));
    assert.match(aged.label, /^\$\(warning\) /);
    assert.match(aged.detail ?? '', /^Recommends a banned pesticide: 克百威 · /);
    const others = items.filter((i) => i !== aged);
    assert.ok(others.length > 0);
    for (const i of others) assert.doesNotMatch(i.label, /\$\(warning\)/, i.stored.passage.content);
    qp.hide();
    await run;
  });

  test('"Show Pesticide Rules" opens the rules in force with their announcements', async () => {
    await api();
    await vscode.commands.executeCommand('shunong.showPesticideRules');
    await until(
      () => vscode.workspace.textDocuments.some((d) => d.isUntitled && d.getText().includes('农业农村部公告第736号')),
      'the rules document',
    );
    const doc = vscode.workspace.textDocuments.find((d) => d.getText().includes('农业农村部公告第736号'))!;
    assert.equal(doc.languageId, 'markdown');
    assert.match(doc.getText(), /\| 克百威 \(carbofuran, 呋喃丹\) \|/);
  });
});
