/**
 * "Shunong: Export Bulletin…" → PDF inside a real VS Code: printed by the browser on the machine the
 * extension host runs on (read back by poppler where it is installed), the Word export offered when
 * `shunong.export.browserPath` names no browser, and a browser that hangs stopped at
 * `shunong.export.pdfTimeoutMs` with its reason.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, displayed, setSetting, stub } from './helpers';

const SCRATCH = `.export-pdf-test-${process.pid}-${Date.now().toString(36)}`;

const BULLETIN = `---
title: 关于做好秋播小麦病虫害防控的通知
layout: official
masthead: 病虫情报
issue: 2026年第12期
issuer: 某某县植保植检站
date: 2026-10-02
---

# 关于做好秋播小麦病虫害防控的通知

## 发生趋势

当前秋播小麦陆续出苗[^1]。

## 参考资料

[^1]: 小麦病虫害测报.pdf#2 — 植保 (PLANT_001)
`;

function folder(): vscode.Uri {
  const wf = vscode.workspace.workspaceFolders?.[0];
  assert.ok(wf, 'the sample workspace is open');
  return vscode.Uri.joinPath(wf.uri, SCRATCH);
}

async function bulletin(name: string): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.joinPath(folder(), name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(BULLETIN));
  return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
}

/** A poppler tool's output, or undefined where poppler-utils is not installed. */
function poppler(tool: string, ...args: string[]): string | undefined {
  try {
    return execFileSync(tool, args, { encoding: 'utf8' });
  } catch {
    return undefined;
  }
}

suite('Export a bulletin to PDF', function () {
  this.timeout(120_000);
  const restores: { restore(): void }[] = [];
  let scripts: string;

  suiteSetup(async () => {
    await api();
    scripts = mkdtempSync(path.join(tmpdir(), 'shunong-pdf-it-'));
  });
  teardown(async () => {
    for (const r of restores.splice(0)) r.restore();
    await setSetting('export.browserPath', undefined);
    await setSetting('export.pdfTimeoutMs', undefined);
    await closeAllEditors();
  });
  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(folder(), { recursive: true, useTrash: false });
    rmSync(scripts, { recursive: true, force: true });
  });

  test("printed by the machine's browser beside the bulletin, in the bulletin's layout, with its page numbers", async function () {
    const infos = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    const errors = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as typeof vscode.window.showErrorMessage,
    );
    restores.push(infos, errors);
    const editor = await bulletin('情报.md');
    const written = (await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'pdf')) as
      vscode.Uri | undefined;
    if (!written && /No browser|没有找到/.test(String(errors.calls[0]?.[0]))) this.skip(); // no browser on this machine
    assert.equal(written?.toString(), vscode.Uri.joinPath(folder(), '情报.pdf').toString());
    const bytes = await vscode.workspace.fs.readFile(written);
    assert.equal(Buffer.from(bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
    assert.match(String(infos.calls[0]?.[0]), /情报\.pdf/, 'the user is told where');
    assert.equal(editor.document.getText(), BULLETIN, 'the bulletin is unchanged');
    const info = poppler('pdfinfo', written.fsPath);
    if (info !== undefined) {
      assert.match(info, /Title:\s+关于做好秋播小麦病虫害防控的通知/);
      assert.match(info, /Page size:\s+594\.96 x 841\.92 pts \(A4\)/);
      const text = poppler('pdftotext', written.fsPath, '-') ?? '';
      assert.match(text, /病虫情报/, 'the masthead: the official layout of the front matter');
      assert.match(text, /一、发生趋势/);
      assert.match(text, /—\s*1\s*—/, 'the page number');
      assert.match(text, /1 小麦病虫害测报\.pdf#2 — 植保/, 'the note');
    }
  });

  test('no browser where shunong.export.browserPath points: says so and what to do, and the Word export is offered', async () => {
    const missing = path.join(scripts, 'no-such-browser');
    await setSetting('export.browserPath', missing);
    const errors = stub(vscode.window, 'showErrorMessage', (async (_message: string, ...items: string[]) =>
      items.find(
        (i) => i === displayed('Export to Word Instead'),
      )) as unknown as typeof vscode.window.showErrorMessage);
    const infos = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    restores.push(errors, infos);
    await bulletin('无浏览器.md');
    const written = (await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'pdf')) as
      vscode.Uri | undefined;
    assert.equal(
      errors.calls[0]?.[0],
      displayed(
        'No browser at "{0}" (shunong.export.browserPath). Set the path of Microsoft Edge, Google Chrome or Chromium, or clear the setting to look where they install.',
        missing,
      ),
    );
    assert.deepEqual(errors.calls[0]?.slice(1), [displayed('Export to Word Instead'), displayed('Open Settings')]);
    assert.equal(
      written?.toString(),
      vscode.Uri.joinPath(folder(), '无浏览器.docx').toString(),
      'the Word file instead',
    );
  });

  test('a browser that hangs is stopped at shunong.export.pdfTimeoutMs, and the export says why', async function () {
    if (process.platform === 'win32') this.skip(); // the stand-in browser is a shell script
    const hang = path.join(scripts, 'hang.sh');
    writeFileSync(hang, '#!/bin/sh\nsleep 300\n');
    chmodSync(hang, 0o755);
    await setSetting('export.browserPath', hang);
    await setSetting('export.pdfTimeoutMs', 1000);
    const errors = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as typeof vscode.window.showErrorMessage,
    );
    restores.push(errors);
    await bulletin('超时.md');
    const started = Date.now();
    const written = await vscode.commands.executeCommand('shunong.exportBulletin', undefined, 'pdf');
    assert.equal(written, undefined);
    assert.ok(Date.now() - started < 20_000, 'stopped soon after the limit');
    assert.equal(
      errors.calls[0]?.[0],
      displayed(
        'Not exported: the browser {0} could not print the PDF: {1}.',
        hang,
        displayed('it did not finish within {0} s and was stopped', '1'),
      ),
    );
    assert.equal(await exists(vscode.Uri.joinPath(folder(), '超时.pdf')), false, 'nothing written');
  });
});

async function exists(uri: vscode.Uri): Promise<boolean> {
  return vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
}
