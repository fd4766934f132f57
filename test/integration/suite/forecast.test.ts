/**
 * A forecast's required parts inside a real VS Code: a 病虫情报 that does not state its area and
 * severity has exactly those two Problems (source shunong-forecast, warnings on its type: line, in
 * the display language); typing them in clears them; a bulletin that is not a forecast has none.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closeAllEditors, displayed, openMarkdown, until } from './helpers';

/** A 病虫情报 on 稻飞虱 that states neither the area nor the severity. */
const FORECAST = `---
title: 稻飞虱发生趋势预报
type: 病虫情报
date: 2026-08-05
issuer: 德清县植保站
---

# 病虫情报（2026年第18期）

预计8月中下旬稻飞虱将迁入为害。

每亩用25%吡蚜酮可湿性粉剂20克，兑水30公斤均匀喷雾。
`;

const forecastOf = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'shunong-forecast');

suite("A forecast's required parts", () => {
  teardown(closeAllEditors);

  test('a forecast without its area and severity has exactly those two Problems; typing them in clears them', async () => {
    await api();
    const weekly = await openMarkdown(FORECAST.replace('type: 病虫情报', 'type: 周报'));
    const editor = await openMarkdown(FORECAST);
    await until(() => forecastOf(editor.document.uri).length === 2, 'two forecast problems');
    const found = forecastOf(editor.document.uri);
    assert.deepEqual(
      found.map((d) => d.code),
      ['forecast-missing-area', 'forecast-missing-severity'],
    );
    for (const d of found) {
      assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
      assert.equal(editor.document.getText(d.range), 'type: 病虫情报');
    }
    assert.equal(
      found[0]!.message,
      displayed('This forecast does not state the area it covers (the 2021 forecast rules require it).'),
    );
    assert.deepEqual(forecastOf(weekly.document.uri), [], 'the weekly bulletin, opened first, is no forecast');

    const at = editor.document.getText().indexOf('将迁入为害');
    await editor.edit((b) =>
      b.replace(
        new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + '将迁入为害'.length)),
        '在全县单季稻区中等发生',
      ),
    );
    await until(() => forecastOf(editor.document.uri).length === 0, 'the area and the severity stated');
  });

  test('a forecast that stops being one (type: 周报) loses its Problems', async () => {
    await api();
    const editor = await openMarkdown(FORECAST);
    await until(() => forecastOf(editor.document.uri).length === 2, 'two forecast problems');
    const at = editor.document.getText().indexOf('病虫情报');
    await editor.edit((b) =>
      b.replace(new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + 4)), '周报'),
    );
    await until(() => forecastOf(editor.document.uri).length === 0, 'no forecast, no problems');
  });
});
