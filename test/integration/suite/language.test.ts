/**
 * Text written into a bulletin follows the bulletin's language, not VS Code's (the test host runs
 * in English): a Chinese bulletin gets Chinese inserts; an English one English inserts even where
 * `shunong.insertLanguage` says zh-CN (its front matter's `lang: en` wins); where the document does
 * not tell, the setting, then the prose, then the UI language decides. `.ci/run` runs this suite in
 * an English and in a Chinese workbench, so each direction is seen in both. Against the local endpoint.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CitedPassage } from '../../../src/citations/passage';
import { admin, api, closeAllEditors, openMarkdown, setSetting, stub } from './helpers';

const PASSAGE: CitedPassage = {
  docName: '茶树农事操作.docx',
  chunkIndex: 1,
  content: '7月底驻芽期时，提示对茶树进行浅修，同步施基肥或者复合肥。',
  kbCode: 'TEA_MANAGER_001',
  kbName: '茶树管理',
  query: '茶树修剪技术要点',
  score: 0.0164,
  scoreType: 'rrf(≈1/(60+rank), 仅用于排序)',
  retrievedAt: '2026-10-25T21:06:13+08:00',
};

const ZH_BULLETIN = '# 成都茶园简报\n\n本周气温回落，茶园以修剪和施基肥为主，注意防范倒春寒。\n\n';
const EN_PROSE =
  '# Tea garden bulletin\n\nThis week the tea gardens are pruned and fed; watch for a late cold spell.\n\n';
const EN_BULLETIN = '---\nlang: en\n---\n\n# Tea garden bulletin\n\n';

/** Opens a bulletin with the cursor at its end. */
async function bulletinEditor(content: string): Promise<vscode.TextEditor> {
  const editor = await openMarkdown(content);
  const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
  editor.selection = new vscode.Selection(end, end);
  return editor;
}

/** Runs a command of ours at the cursor of the active editor; warnings are collected, never shown. */
async function run<T>(command: string, ...args: unknown[]): Promise<T> {
  const warn = stub(
    vscode.window,
    'showWarningMessage',
    (async () => undefined) as typeof vscode.window.showWarningMessage,
  );
  try {
    const result = (await vscode.commands.executeCommand(command, ...args)) as T;
    assert.deepEqual(warn.calls, [], `${command}: no warning`);
    return result;
  } finally {
    warn.restore();
  }
}

/** Everything our inserters write into one bulletin: weather brief, date line, a cited snippet. */
async function insertAll(editor: vscode.TextEditor): Promise<{ brief: string; line: string; text: string }> {
  const { calendar } = await api();
  await admin({ now: '2026-10-25T21:06:13+08:00' });
  calendar.invalidate();
  const brief = await run<string>('shunong.insertWeatherBrief', '成都');
  assert.ok(brief, 'a weather brief was inserted');
  const line = await run<string>('shunong.insertDateAndSolarTerm');
  assert.ok(line, 'a date line was inserted');
  assert.equal(await run<boolean>('shunong.insertCitedSnippet', PASSAGE), true);
  return { brief, line, text: editor.document.getText() };
}

suite("Text in the bulletin's language", () => {
  teardown(async () => {
    await setSetting('insertLanguage', undefined);
    await setSetting('citations.referencesHeading', undefined);
    await admin({ now: null });
    (await api()).calendar.invalidate();
    await closeAllEditors();
  });

  test('a Chinese bulletin gets Chinese inserts: weather brief, date line, references heading', async () => {
    const editor = await bulletinEditor(ZH_BULLETIN);
    const { brief, line, text } = await insertAll(editor);
    assert.match(brief, /^### 天气 · 成都（101270101）$/m);
    assert.match(brief, /^实时：/m);
    assert.match(brief, /^\*\*未来 7 天\*\*$/m);
    assert.match(brief, /^\| 日期 \| 星期 \| 天气 \| 最高 \/ 最低 \| 风 \| 湿度 \|$/m);
    assert.match(brief, /^> 来源：中国天气网（经蜀农 weather_search）/m);
    assert.doesNotMatch(brief, /Weather|Now|Next 7 days|Source|updated/);
    assert.equal(line, '2026年10月25日 星期日 · 霜降（距立冬 13 天）');
    assert.match(text, /^## 参考资料\n\n\[\^1\]: 茶树农事操作\.docx#1 — 茶树管理 \(TEA_MANAGER_001\)$/m);
    assert.doesNotMatch(text, /^## References$/m);
  });

  test('an English bulletin (lang: en) gets English inserts even where shunong.insertLanguage says zh-CN', async () => {
    await setSetting('insertLanguage', 'zh-CN');
    const editor = await bulletinEditor(EN_BULLETIN);
    const { brief, line, text } = await insertAll(editor);
    assert.match(brief, /^### Weather · 成都（101270101）$/m);
    assert.match(brief, /^Now: /m);
    assert.match(brief, /^\| Date \| Day \| Weather \| High \/ Low \| Wind \| Humidity \|$/m);
    assert.match(brief, /^> Source: China Weather \(via Shunong weather_search\)/m);
    assert.doesNotMatch(brief, /天气 ·|实时|未来 7 天|来源|星期/);
    assert.equal(line, "Sunday, October 25, 2026 · 霜降 Frost's Descent (13 days to 立冬 Start of Winter)");
    assert.match(text, /^## References\n\n\[\^1\]: 茶树农事操作\.docx#1 — 茶树管理 \(TEA_MANAGER_001\)$/m);
    assert.doesNotMatch(text, /^## 参考资料$/m);
  });

  test('with no lang: and the setting on auto, the prose decides whatever the UI language (run in en and zh-CN)', async () => {
    const zh = await insertAll(await bulletinEditor(ZH_BULLETIN));
    assert.match(zh.brief, /^### 天气 · 成都（101270101）$/m);
    assert.match(zh.text, /^## 参考资料$/m);
    await closeAllEditors();
    const en = await insertAll(await bulletinEditor(EN_PROSE));
    assert.match(en.brief, /^### Weather · 成都（101270101）$/m);
    assert.equal(en.line, "Sunday, October 25, 2026 · 霜降 Frost's Descent (13 days to 立冬 Start of Winter)");
    assert.match(en.text, /^## References$/m);
    assert.doesNotMatch(en.text, /天气 ·|参考资料|星期/);
  });

  test('where the document does not tell, shunong.insertLanguage decides over the UI language', async () => {
    const { calendar } = await api();
    await admin({ now: '2026-10-25T21:06:13+08:00' });
    calendar.invalidate();
    await setSetting('insertLanguage', 'zh-CN');
    let editor = await bulletinEditor('');
    assert.equal(await run<string>('shunong.insertDateAndSolarTerm'), '2026年10月25日 星期日 · 霜降（距立冬 13 天）');
    assert.equal(editor.document.getText(), '2026年10月25日 星期日 · 霜降（距立冬 13 天）');
    await setSetting('insertLanguage', 'en');
    editor = await bulletinEditor('');
    assert.equal(
      await run<string>('shunong.insertDateAndSolarTerm'),
      "Sunday, October 25, 2026 · 霜降 Frost's Descent (13 days to 立冬 Start of Winter)",
    );
    // ...but not over a document's prose-free front matter that names its language.
    editor = await bulletinEditor('---\nlang: zh-CN\n---\n\n');
    assert.equal(await run<string>('shunong.insertDateAndSolarTerm'), '2026年10月25日 星期日 · 霜降（距立冬 13 天）');
  });

  test('"New Bulletin" writes lang: and its template in the language; inserts into it follow its lang:', async () => {
    const { calendar } = await api();
    await admin({ now: '2026-11-06T09:00:00+08:00' });
    calendar.invalidate();
    await setSetting('insertLanguage', 'zh-CN');
    const zh = (await run<vscode.TextDocument>('shunong.newBulletin', '成都')).getText();
    assert.ok(
      zh.startsWith('---\ntitle: "成都农情简报 2026-11-06"\nlang: zh-CN\ndate: 2026-11-06\nweekday: 星期五\n'),
      zh,
    );
    for (const h of ['## 天气与农事提示', '## 当前农事建议', '## 病虫害防控', '## 参考资料'])
      assert.match(zh, new RegExp(`^${h}$`, 'm'));
    assert.match(zh, /^2026年11月6日 星期五 · 霜降（距立冬 1 天）$/m);
    assert.doesNotMatch(zh, /Weather|Farm|References/);

    await setSetting('insertLanguage', 'en');
    const doc = await run<vscode.TextDocument>('shunong.newBulletin', '成都');
    const en = doc.getText();
    assert.ok(
      en.startsWith('---\ntitle: "成都 farm bulletin 2026-11-06"\nlang: en\ndate: 2026-11-06\nweekday: Friday\n'),
      en,
    );
    for (const h of ['## Weather and farm notes', '## Farm advice', '## Pests and diseases', '## References'])
      assert.match(en, new RegExp(`^${h}$`, 'm'));
    assert.doesNotMatch(en, /天气与农事提示|参考资料|星期/);

    // The new bulletin says lang: en, so a zh-CN setting does not turn its inserts Chinese.
    await setSetting('insertLanguage', 'zh-CN');
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document, doc, 'the new bulletin is the active editor');
    const line = await run<string>('shunong.insertDateAndSolarTerm');
    assert.equal(line, "Friday, November 6, 2026 · 霜降 Frost's Descent (1 day to 立冬 Start of Winter)");
  });

  test('an explicitly set citations.referencesHeading wins over the language, and is the one recognised', async () => {
    await setSetting('citations.referencesHeading', '参考文献');
    const editor = await bulletinEditor(EN_BULLETIN);
    assert.equal(await run<boolean>('shunong.insertCitedSnippet', PASSAGE), true);
    assert.equal(await run<boolean>('shunong.insertCitedSnippet', { ...PASSAGE, chunkIndex: 2 }), true);
    const text = editor.document.getText();
    assert.match(text, /^## 参考文献\n\n\[\^1\]: 茶树农事操作\.docx#1 — .*\n\[\^2\]: 茶树农事操作\.docx#2 — /m);
    assert.equal(text.match(/^## /gm)?.length, 1, 'one references section');
  });
});
