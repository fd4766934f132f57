/**
 * Citations inside a real VS Code: insert via command (one edit, one undo), reuse of a number,
 * author footnotes skipped, diagnostics and quick fixes, hover content and range, renumbering
 * with author footnotes mixed in, the workspace check, and the per-document caches emptied on
 * close and delete.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Diagnostic as CitationDiagnostic } from '../../../src/citations/index';
import type { CitedPassage } from '../../../src/citations/passage';
import { api, closeAllEditors, stub, until, openMarkdown } from './helpers';

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

async function open(content: string, cursor?: string): Promise<vscode.TextEditor> {
  const editor = await openMarkdown(content);
  const doc = editor.document;
  const at = cursor === undefined ? content.length : content.indexOf(cursor) + cursor.length;
  const pos = doc.positionAt(at);
  editor.selection = new vscode.Selection(pos, pos);
  return editor;
}

suite('Citations in Markdown', () => {
  teardown(async () => {
    await closeAllEditors();
  });

  test('"Open the full passage" of a cited passage shows it in the read-only passage document', async () => {
    const { citations } = await api();
    await citations.service.rememberAll([PASSAGE]);
    const key = `${PASSAGE.docName}#${PASSAGE.chunkIndex}`;
    const viewer = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('shunong.openPassage', key);
    assert.ok(viewer, 'the passage opened');
    assert.equal(viewer.document.uri.scheme, 'shunong-knowledge', 'the one passage document of the search and browser');
    const text = viewer.document.getText();
    assert.ok(text.includes(PASSAGE.content), 'the passage text');
    assert.ok(text.includes(`${key} — 茶树管理 (TEA_MANAGER_001)`), 'its citation and knowledge base');
    assert.equal(await vscode.commands.executeCommand('shunong.openPassage', '不在缓存中.docx#9'), undefined);
  });

  test('"Insert Cited Snippet" writes the passage and its footnote in one undoable edit', async () => {
    await api();
    const original = '# 茶园管理\n\n夏季管理要点如下。\n';
    const editor = await open(original);
    const warn = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as typeof vscode.window.showWarningMessage,
    );
    try {
      assert.equal(
        await vscode.commands.executeCommand('shunong.insertCitedSnippet', PASSAGE),
        true,
        JSON.stringify(warn.calls),
      );
    } finally {
      warn.restore();
    }
    const text = editor.document.getText();
    assert.match(text, /^> 7月底驻芽期时，提示对茶树进行浅修，同步施基肥或者复合肥。 ?\[\^1\]$/m);
    assert.match(text, /^## 参考资料\n\n\[\^1\]: 茶树农事操作\.docx#1 — 茶树管理 \(TEA_MANAGER_001\)$/m);
    assert.ok(text.startsWith(original.trimEnd()), 'the text before the cursor is untouched');
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), original, 'one undo restores the exact text');
  });

  test("the same source reuses its number; the author's labels are skipped", async () => {
    const editor = await open('作者说明[^1]。浅修要点：\n\n[^1]: 作者自己的脚注。\n', '浅修要点：');
    assert.equal(await vscode.commands.executeCommand('shunong.insertCitation', PASSAGE), true);
    assert.match(editor.document.getText(), /浅修要点：\[\^2\]/);
    const end = editor.document.positionAt(editor.document.getText().indexOf('作者说明'));
    editor.selection = new vscode.Selection(end, end);
    assert.equal(await vscode.commands.executeCommand('shunong.insertCitation', PASSAGE), true);
    const text = editor.document.getText();
    assert.equal(text.match(/^\[\^2\]: 茶树农事操作\.docx#1/gm)?.length, 1, 'one definition');
    assert.match(text, /^\[\^1\]: 作者自己的脚注。$/m, "the author's footnote is untouched");
  });

  test('inside a code block nothing is inserted and the user is told why', async () => {
    const content = '```\ncode here\n```\n';
    const editor = await open(content, 'code');
    const warn = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as typeof vscode.window.showWarningMessage,
    );
    try {
      assert.equal(await vscode.commands.executeCommand('shunong.insertCitation', PASSAGE), false);
      assert.match(String(warn.calls[0]?.[0]), /code|代码/);
    } finally {
      warn.restore();
    }
    assert.equal(editor.document.getText(), content);
  });

  test('diagnostics report a missing definition and the quick fix removes the reference', async () => {
    const editor = await open('浅修[^1]。\n\n## 参考资料\n\n[^2]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)\n');
    const uri = editor.document.uri;
    await until(() => vscode.languages.getDiagnostics(uri).length >= 2, 'diagnostics');
    const diags = vscode.languages.getDiagnostics(uri);
    assert.deepEqual(diags.map((d) => d.code).sort(), ['undefined-reference', 'unused-definition']);
    const undefinedRef = diags.find((d) => d.code === 'undefined-reference') as vscode.Diagnostic;
    assert.equal(editor.document.getText(undefinedRef.range), '[^1]', 'the range is exactly the reference');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      undefinedRef.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((a) => /\[\^1\]/.test(a.title));
    assert.ok(fix?.edit, 'a quick fix');
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(editor.document.getText(), /^浅修。$/m);
    await until(
      () => !vscode.languages.getDiagnostics(uri).some((d) => d.code === 'undefined-reference'),
      'the fixed diagnostic to go away',
    );
  });

  test('hover on a citation shows the cached passage, its knowledge base and its score by type', async () => {
    await api();
    const editor = await open('驻芽期浅修。\n');
    assert.equal(await vscode.commands.executeCommand('shunong.insertCitation', PASSAGE), true);
    const text = editor.document.getText();
    const at = editor.document.positionAt(text.indexOf('[^1]') + 1);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      editor.document.uri,
      at,
    );
    const ours = hovers.find((h) =>
      h.contents.some((c) => (c as vscode.MarkdownString).value?.includes('茶树农事操作')),
    );
    assert.ok(ours, 'our hover');
    const value = ours.contents.map((c) => (c as vscode.MarkdownString).value).join('\n');
    assert.match(value, /浅修/);
    assert.match(value, /TEA\\?_MANAGER\\?_001/);
    assert.match(value, /RRF/);
    assert.ok(ours.range && editor.document.getText(ours.range) === '[^1]', 'the hover range is exactly the citation');
  });

  test('"Renumber Citations" numbers by first use, sorts definitions and leaves author footnotes alone', async () => {
    const content = [
      '乙[^2]，作者[^a]，甲[^1]。',
      '',
      '[^a]: 作者的脚注。',
      '',
      '## 参考资料',
      '',
      '[^1]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)',
      '[^2]: 水稻分蘖期管理要点.pdf#3 — 水稻 (RICE_001)',
      '',
    ].join('\n');
    const editor = await open(content);
    assert.equal(await vscode.commands.executeCommand('shunong.renumberCitations'), true);
    const text = editor.document.getText();
    assert.match(text, /^乙\[\^1\]，作者\[\^a\]，甲\[\^2\]。$/m);
    assert.match(text, /\[\^1\]: 水稻分蘖期管理要点\.pdf#3 — 水稻 \(RICE_001\)\n\[\^2\]: 茶树农事操作\.docx#1/);
    assert.match(text, /^\[\^a\]: 作者的脚注。$/m);
    assert.equal(await vscode.commands.executeCommand('shunong.renumberCitations'), true);
    assert.equal(editor.document.getText(), text, 'renumbering twice changes nothing');
  });

  test("the Citations view lists the active bulletin's sources with their uses", async () => {
    const { citations } = await api();
    const editor = await open('驻芽期浅修。\n');
    assert.equal(await vscode.commands.executeCommand('shunong.insertCitation', PASSAGE), true);
    const tree = citations.tree;
    assert.ok(tree);
    await until(() => tree.document === editor.document, 'the view to follow the editor');
    const roots = tree.getChildren();
    assert.equal(roots.length, 1);
    const item = tree.getTreeItem(roots[0] as never);
    assert.equal(item.label, '[^1] 茶树农事操作.docx#1');
    const uses = tree.getChildren(roots[0]);
    assert.equal(uses.length, 1);
    const use = tree.getTreeItem(uses[0] as never);
    assert.equal(use.command?.command, 'shunong.citations.reveal');
    await vscode.commands.executeCommand(use.command.command, ...(use.command.arguments ?? []));
    assert.equal(editor.document.getText(editor.selection), '[^1]', 'jumping selects the use');
  });

  test('"Check Citations in Workspace" fills the Problems panel for every bulletin', async () => {
    const warn = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as typeof vscode.window.showWarningMessage,
    );
    const info = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    let result: { files: number; problems: number; report: string[] };
    try {
      result = (await vscode.commands.executeCommand('shunong.checkCitations')) as typeof result;
    } finally {
      warn.restore();
      info.restore();
    }
    assert.ok(result.files >= 2);
    const example = vscode.workspace.workspaceFolders?.[0]?.uri.with({
      path: `${vscode.workspace.workspaceFolders[0]?.uri.path}/examples/引用问题示例.md`,
    });
    assert.ok(example);
    const codes = vscode.languages
      .getDiagnostics(example)
      .map((d) => String(d.code))
      .sort();
    assert.deepEqual(codes, ['duplicate-source', 'undefined-reference', 'unused-definition']);
    assert.ok(result.report.some((l) => l.includes('引用问题示例.md')));
  });

  test("the open bulletins' lint settles once the workbench has reported their Problems back", async () => {
    // What activation waits for before it loads the features, so that they do not hold the Problems up.
    const { diagnostics } = (await api()).citations;
    const editor = await open('茶园封园[^9]。\n');
    const uri = editor.document.uri;
    await until(() => diagnostics.lints.has(uri.toString()), 'the lint results of the open bulletin');
    let reported = false;
    const listener = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) reported = true;
    });
    try {
      await diagnostics.refreshOpen();
      assert.ok(reported, 'the workbench reported the Problems before refreshOpen settled');
      assert.deepEqual(
        vscode.languages.getDiagnostics(uri).map((d) => String(d.code)),
        ['undefined-reference'],
      );
    } finally {
      listener.dispose();
    }
  });

  test("a file deleted while its closed document's last lint runs gets no Problems back", async () => {
    const { diagnostics } = (await api()).citations;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    // The same class the extension runs, with a linter that answers when the test says (the race
    // made deterministic), and closed documents of files the extension itself never saw.
    const answers: ((items: CitationDiagnostic[]) => void)[] = [];
    const linter = {
      lint: () => new Promise<CitationDiagnostic[]>((resolve) => answers.push(resolve)),
      dispose() {},
    };
    const Diagnostics = diagnostics.constructor as new (l: typeof linter) => typeof diagnostics;
    const own = new Diagnostics(linter);
    const text = '浅修[^1]。\n';
    const closed = (name: string): vscode.TextDocument =>
      ({
        uri: vscode.Uri.joinPath(folder, name),
        languageId: 'markdown',
        version: 1,
        isClosed: true,
        isUntitled: false,
        getText: () => text,
        positionAt: (offset: number) => new vscode.Position(0, offset),
      }) as unknown as vscode.TextDocument;
    const items: CitationDiagnostic[] = [
      {
        code: 'undefined-reference',
        severity: 'warning',
        label: '1',
        message: 'Footnote [^1] has no definition.',
        messageKey: 'citations.undefinedReference',
        args: ['1'],
        range: { start: 2, end: 6, line: 0, character: 2, endLine: 0, endCharacter: 6 },
      },
    ];
    const codes = (doc: vscode.TextDocument): string[] =>
      vscode.languages.getDiagnostics(doc.uri).map((d) => String(d.code));
    const id = Date.now().toString(36);
    const kept = closed(`late-lint-kept-${id}.md`);
    const gone = closed(`late-lint-gone-${id}.md`);
    try {
      const lateKept = own.refresh(kept);
      const lateGone = own.refresh(gone);
      await until(() => answers.length === 2, 'both closed documents to be linted');
      own.deleted(gone.uri);
      for (const answer of answers) answer(items);
      assert.deepEqual(await lateKept, items, "a closed file's last lint is published");
      assert.deepEqual(codes(kept), ['undefined-reference']);
      assert.equal(await lateGone, undefined, 'the lint of a file deleted meanwhile publishes nothing');
      assert.deepEqual(codes(gone), [], 'the deleted file has no Problems');
    } finally {
      own.dispose();
    }
  });

  test('a closed bulletin leaves the caches but keeps its Problems; a deleted one loses both', async () => {
    const { citations } = await api();
    const { diagnostics } = citations;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const uri = vscode.Uri.joinPath(folder, `cache-check-${Date.now().toString(36)}.md`);
    const key = uri.toString();
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('浅修[^1]。\n'));
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      await until(() => diagnostics.lints.has(key), 'the lint results of the open bulletin');
      await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, new vscode.Position(0, 3));
      assert.ok(diagnostics.models.has(key), 'the hover parsed and kept the citation model');
      const codes = (): string[] => vscode.languages.getDiagnostics(uri).map((d) => String(d.code));
      assert.deepEqual(codes(), ['undefined-reference']);

      // A language change closes the Markdown document (and opens it again as plain text).
      await vscode.languages.setTextDocumentLanguage(doc, 'plaintext');
      await until(() => !diagnostics.models.has(key) && !diagnostics.lints.has(key), 'closing to empty the caches');
      assert.deepEqual(codes(), ['undefined-reference'], 'a closed file keeps its Problems');

      await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
      await until(() => diagnostics.lints.has(key), 'the bulletin to be linted again');
      await closeAllEditors();
      await vscode.workspace.fs.delete(uri);
      await until(
        () => !diagnostics.models.has(key) && !diagnostics.lints.has(key) && codes().length === 0,
        'deleting the file to empty the caches and its Problems',
      );
    } finally {
      await vscode.workspace.fs.delete(uri).then(
        () => undefined,
        () => undefined,
      );
    }
  });
});
