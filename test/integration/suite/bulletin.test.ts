/**
 * Weather and the farming calendar inside a real VS Code, against the local endpoint:
 * each command, undo, an unknown place, the endpoint rate-limiting, and the status bar's cache.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { admin, api, closeAllEditors, stub, openMarkdown } from './helpers';

async function markdownEditor(content: string): Promise<vscode.TextEditor> {
  const editor = await openMarkdown(content);
  const doc = editor.document;
  const end = doc.lineAt(doc.lineCount - 1).range.end;
  editor.selection = new vscode.Selection(end, end);
  return editor;
}

suite('Weather and the farming calendar', () => {
  // the first suite of the zh-CN run: a fresh host's activation and features load here, not in a test
  suiteSetup(async function () {
    this.timeout(120_000);
    await api();
  });

  teardown(async () => {
    await admin({ now: null, rateLimit: null });
    (await api()).calendar.invalidate();
    await closeAllEditors();
  });

  test('"Insert Weather Brief" inserts now + 7 days + source line as one undoable edit', async function () {
    // the host's first platform call loads the client (the MCP SDK, zod): on a busy CI machine it took
    // over 20 s once, beside two other lanes
    this.timeout(60_000);
    const original = '# 简报\n\n';
    const editor = await markdownEditor(original);
    const inserted = (await vscode.commands.executeCommand('shunong.insertWeatherBrief', '成都')) as string | undefined;
    assert.ok(inserted, 'something was inserted');
    const text = editor.document.getText();
    assert.ok(text.startsWith(original) && text.includes(inserted));
    assert.match(inserted, /101270101/, 'the code from now mode');
    assert.equal(
      inserted.split('\n').filter((l) => /^\| \d{4}-\d{2}-\d{2} \|/.test(l)).length,
      7,
      'seven forecast rows',
    );
    assert.match(inserted, /^> (来源|Source)/m);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), original, 'one undo restores the text');
  });

  test('"Insert Weather Brief" keeps no listener on the progress token once the brief is in', async () => {
    const editor = await markdownEditor('# 简报\n');
    // The notification's token as VS Code hands it, counting the listeners still subscribed.
    let live = 0;
    const token: vscode.CancellationToken = {
      isCancellationRequested: false,
      onCancellationRequested: () => {
        live++;
        let disposed = false;
        return {
          dispose: () => {
            if (!disposed) live--;
            disposed = true;
          },
        };
      },
    };
    const progress = stub(vscode.window, 'withProgress', (async (
      _o: unknown,
      task: (p: vscode.Progress<unknown>, t: vscode.CancellationToken) => Promise<unknown>,
    ) => task({ report: () => undefined }, token)) as unknown as typeof vscode.window.withProgress);
    try {
      assert.ok(await vscode.commands.executeCommand('shunong.insertWeatherBrief', '成都'));
    } finally {
      progress.restore();
    }
    assert.equal(progress.calls.length, 1, 'the fetch ran under the progress notification');
    assert.match(editor.document.getText(), /101270101/);
    assert.equal(live, 0, 'the cancellation listener was disposed when the fetch ended');
  });

  test('a brief inserted right under a heading is separated from it by a blank line', async () => {
    const editor = await markdownEditor('## 天气\n');
    assert.ok(await vscode.commands.executeCommand('shunong.insertWeatherBrief', '成都'));
    assert.match(editor.document.getText(), /^## 天气\n\n### /);
  });

  test('a recent place picked again by its code keeps its name in the heading', async () => {
    const editor = await markdownEditor('# 简报\n');
    assert.ok(await vscode.commands.executeCommand('shunong.insertWeatherBrief', '成都'));
    // What the picker hands over for a recent place is its code.
    const again = (await vscode.commands.executeCommand('shunong.insertWeatherBrief', '101270101')) as string;
    assert.match(again, /^### .+ · 成都（101270101）$/m, `the name, not only the code: ${again.split('\n')[0]}`);
    assert.equal(editor.document.getText().match(/^### .+ · 成都（101270101）$/gm)?.length, 2, 'both headings name it');
  });

  test("an unknown place shows the endpoint's reason and inserts nothing", async () => {
    const editor = await markdownEditor('正文\n');
    const warn = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as typeof vscode.window.showWarningMessage,
    );
    try {
      const inserted = await vscode.commands.executeCommand('shunong.insertWeatherBrief', '不存在的城市');
      assert.equal(inserted, undefined);
      assert.match(String(warn.calls[0]?.[0]), /不存在的城市/);
    } finally {
      warn.restore();
    }
    assert.equal(editor.document.getText(), '正文\n');
  });

  test('a rate-limited endpoint is explained and the text is untouched', async () => {
    const editor = await markdownEditor('正文\n');
    await admin({ rateLimit: { next: 50, retryAfterSec: 0 } });
    const err = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as typeof vscode.window.showErrorMessage,
    );
    try {
      assert.equal(await vscode.commands.executeCommand('shunong.insertWeatherBrief', '北京'), undefined);
      assert.match(String(err.calls[0]?.[0]), /rate limiting|限流/);
    } finally {
      err.restore();
    }
    assert.equal(editor.document.getText(), '正文\n');
  });

  test('"Insert Date and Solar Term" writes the line from get_current_time (endpoint clock set)', async () => {
    const { calendar } = await api();
    await admin({ now: '2026-10-25T21:06:13+08:00' });
    calendar.invalidate();
    const editor = await markdownEditor('');
    const line = (await vscode.commands.executeCommand('shunong.insertDateAndSolarTerm')) as string;
    const expected = vscode.env.language.startsWith('zh')
      ? '2026年10月25日 星期日 · 霜降（距立冬 13 天）'
      : "Sunday, October 25, 2026 · 霜降 Frost's Descent (13 days to 立冬 Start of Winter)";
    assert.equal(line, expected);
    assert.equal(editor.document.getText(), expected);
    // the cache answers without a new request on the same day
    const t1 = await calendar.get();
    await admin({ now: '2026-11-08T08:00:00+08:00' });
    const t2 = await calendar.get();
    assert.equal(t2, t1, 'cached for the day');
  });

  test('"New Bulletin" opens a Markdown bulletin with front matter filled from the tools', async () => {
    const { calendar } = await api();
    await admin({ now: '2026-11-06T09:00:00+08:00' });
    calendar.invalidate();
    const doc = (await vscode.commands.executeCommand('shunong.newBulletin', '成都')) as vscode.TextDocument;
    assert.equal(doc.languageId, 'markdown');
    const text = doc.getText();
    // Nothing to go by but the UI language (no setting, the built-in template): its words, and lang: to say so.
    const zh = vscode.env.language.startsWith('zh');
    const head = zh
      ? '---\ntitle: "成都农情简报 2026-11-06"\nlang: zh-CN\ndate: 2026-11-06\nweekday: 星期五\nsolar_term: 霜降\nnext_solar_term: 立冬\n'
      : '---\ntitle: "成都 farm bulletin 2026-11-06"\nlang: en\ndate: 2026-11-06\nweekday: Friday\nsolar_term: 霜降 Frost\'s Descent\nnext_solar_term: 立冬 Start of Winter\n';
    assert.ok(text.startsWith(head + 'days_to_next_solar_term: 1\nplace: "成都"\n---\n'), text);
    assert.match(text, zh ? /^## 参考资料$/m : /^## References$/m);
  });

  test('"New Bulletin" as a pest forecast: its fields, and the next issue of the year among the workspace\'s bulletins', async () => {
    const { calendar } = await api();
    await admin({ now: '2026-11-06T09:00:00+08:00' });
    calendar.invalidate();
    // The sample workspace's tea bulletin is 2026年第11期; these add a later one and one of last year.
    const dir = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, '.bulletin-test-issues');
    const write = (name: string, issue: string): Thenable<void> =>
      vscode.workspace.fs.writeFile(
        vscode.Uri.joinPath(dir, name),
        Buffer.from(`---\nissue: "${issue}"\n---\n\n# x\n`),
      );
    await write('a.md', '2026年第12期');
    await write('b.md', '2025年第30期');
    try {
      const doc = (await vscode.commands.executeCommand(
        'shunong.newBulletin',
        '成都',
        'forecast',
      )) as vscode.TextDocument;
      const text = doc.getText();
      const zh = vscode.env.language.startsWith('zh');
      assert.match(text, /^type: forecast$/m);
      assert.match(text, zh ? /^issue: "2026年第13期"$/m : /^issue: "2026 No\. 13"$/m);
      assert.match(text, /^date: 2026-11-06$/m);
      assert.match(text, /^issuer: ""$/m, 'the issuer is left for the author');
      assert.match(text, zh ? /^title: "成都病虫情报 2026-11-06"$/m : /^title: "成都 pest forecast 2026-11-06"$/m);
    } finally {
      await vscode.workspace.fs.delete(dir, { recursive: true });
    }
  });
});
