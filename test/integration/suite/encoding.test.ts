/**
 * A bulletin saved as GB18030 and opened by VS Code as UTF-8 (its default): its text shows U+FFFD
 * where the Chinese was. The author is told once, with VS Code's own "Reopen with Encoding"; the
 * safety check, Verify Citations and Export say they were not run on it instead of passing it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, displayed, stub, until } from './helpers';

/** test/fixtures/encodings/玉米螟-gb18030.md (this file runs from out/test/integration/suite/): 氧化乐果 on maize, saved as GB18030. */
const FIXTURE = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'encodings', '玉米螟-gb18030.md');

const REOPEN = 'Reopen with Encoding';

/** VS Code's command behind "Reopen with Encoding" (a quick pick of encodings: answered by a stub here). */
const CHANGE_ENCODING = 'workbench.action.editor.changeEncoding';

/** VS Code's own `executeCommand`, taken before any test stubs it. */
const original: typeof vscode.commands.executeCommand = vscode.commands.executeCommand.bind(vscode.commands);

suite('Bulletins not decoded', () => {
  let file: string;
  setup(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shunong-it-encoding-'));
    file = path.join(dir, '玉米螟.md');
    fs.copyFileSync(FIXTURE, file);
  });
  teardown(closeAllEditors);

  test('a GB18030 bulletin opened as UTF-8 is not checked, verified or exported, and the author is told once how to reopen it', async () => {
    const { safety: feature } = await api();
    const warned = stub(vscode.window, 'showWarningMessage', (async (...args: unknown[]) =>
      args.includes(displayed(REOPEN))
        ? displayed(REOPEN)
        : undefined) as unknown as typeof vscode.window.showWarningMessage);
    const errors = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as unknown as typeof vscode.window.showErrorMessage,
    );
    const commands = stub(vscode.commands, 'executeCommand', (async (id: string, ...rest: unknown[]) =>
      id === CHANGE_ENCODING ? undefined : original(id, ...rest)) as typeof vscode.commands.executeCommand);
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      await vscode.window.showTextDocument(doc);
      assert.ok(doc.getText().includes('\uFFFD'), 'VS Code read the GB18030 bytes as UTF-8');
      const name = vscode.workspace.asRelativePath(doc.uri);

      // The safety check: one Problem saying it was not run, where the first undecoded character is.
      await until(
        () => vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === 'shunong-safety'),
        'the safety Problem of the undecoded bulletin',
      );
      const safety = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'shunong-safety');
      assert.equal(safety.length, 1, 'no finding from the garbled text, one Problem saying why');
      assert.equal(safety[0]!.code, 'not-decoded');
      assert.equal(
        safety[0]!.message,
        displayed(
          'Pesticide safety was not checked: the text of {0} was not decoded in its encoding (it shows \uFFFD). Reopen it with its encoding (GB18030 for a file saved as ANSI on Chinese Windows).',
          name,
        ),
      );
      assert.equal(doc.getText(safety[0]!.range), '\uFFFD');

      // Told once, with VS Code's "Reopen with Encoding", which the answer runs.
      await until(() => warned.calls.length > 0, 'the notice');
      const notice = warned.calls[0]!;
      assert.equal(
        notice[0],
        displayed(
          '{0} was not decoded in its encoding: its text shows \uFFFD where characters could not be read. Checks, verification and export are not run on it until it is reopened with its encoding (GB18030 for a file saved as ANSI on Chinese Windows, or turn on files.autoGuessEncoding).',
          name,
        ),
      );
      assert.deepEqual(notice.slice(1), [displayed(REOPEN)]);
      await until(() => commands.calls.some(([id]) => id === CHANGE_ENCODING), 'Reopen with Encoding run');
      // Linted again (as on every edit): the same Problem, and no second notice.
      assert.deepEqual(feature.diagnostics.refresh(doc), [], 'no findings from the garbled text');
      assert.equal(vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'shunong-safety').length, 1);
      assert.equal(
        warned.calls.filter((c) => c[0] === notice[0]).length,
        1,
        'the notice comes once per document, not on every lint',
      );

      // Verify and Export refuse it, saying why, and write nothing.
      assert.equal(await original('shunong.verifyCitations'), undefined);
      assert.equal(await original('shunong.exportBulletin', undefined, 'html'), undefined, 'nothing exported');
      assert.ok(!fs.existsSync(file.replace(/\.md$/, '.html')), 'no page written');
      assert.deepEqual(
        errors.calls.map((c) => c[0]),
        [
          displayed(
            'The citations of {0} were not verified: its text was not decoded in its encoding (it shows \uFFFD). Reopen it with its encoding and verify again.',
            name,
          ),
          displayed(
            '{0} was not exported: its text was not decoded in its encoding (it shows \uFFFD) and would be published garbled. Reopen it with its encoding and export again.',
            name,
          ),
        ],
      );
      assert.deepEqual(
        errors.calls.map((c) => c[1]),
        [displayed(REOPEN), displayed(REOPEN)],
      );
    } finally {
      commands.restore();
      errors.restore();
      warned.restore();
    }
  });

  test('VS Code\u2019s "Reopen with Encoding" exists under the id the notice runs', async () => {
    assert.ok((await vscode.commands.getCommands(true)).includes(CHANGE_ENCODING));
  });
});
