/**
 * "Verify Citations" inside a real VS Code against the local endpoint: the outcomes in the Problems
 * panel and their quick fixes, the verified passage in the hover, the hover's "Fetch this passage",
 * today's outcomes reused, and Cancel aborting the searches in flight.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { VerifyReport } from '../../../src/citations/index';
import {
  admin,
  api,
  closeAllEditors,
  endpointRequests,
  EXTENSION_ID,
  knowledgeSearches,
  openMarkdown,
  stub,
  until,
} from './helpers';

interface KbFile {
  documents: { doc_name: string; chunks: string[] }[];
}

/** A passage of the local endpoint's tea knowledge base (read from its own file). */
function passage(doc: string, idx: number): string {
  const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
  const kb = JSON.parse(
    fs.readFileSync(path.join(root, 'test', 'emulator', 'kb', '1-TEA_MANAGER_001.json'), 'utf8'),
  ) as KbFile;
  const text = kb.documents.find((d) => d.doc_name === doc)?.chunks[idx];
  assert.ok(text, `${doc}#${idx} exists`);
  return text;
}

const def = (n: number, doc: string, idx: number, code = 'TEA_MANAGER_001'): string =>
  `[^${n}]: ${doc}#${idx} — 茶树管理 (${code})`;

function bulletin(): string {
  return [
    '# 茶园冬季管理',
    '',
    `> ${passage('茶园施肥与土壤管理.pdf', 3)}[^1]`,
    '',
    `> ${passage('茶园施肥与土壤管理.pdf', 4)}[^2]`,
    '',
    `> ${passage('茶园施肥与土壤管理.pdf', 5)}[^3]`,
    '',
    '## 参考资料',
    '',
    def(1, '茶园施肥与土壤管理.pdf', 3),
    def(2, '茶园施肥与土壤管理.pdx', 4),
    def(3, '茶园施肥与土壤管理.pdf', 5, 'TEA_MANAGR_001'),
    '',
  ].join('\n');
}

/** Silences the summary toasts of a run (they are asserted through the report). */
function quiet(): () => void {
  const a = stub(vscode.window, 'showInformationMessage', (async () => undefined) as never);
  const b = stub(vscode.window, 'showWarningMessage', (async () => undefined) as never);
  const c = stub(vscode.window, 'showErrorMessage', (async () => undefined) as never);
  return () => {
    a.restore();
    b.restore();
    c.restore();
  };
}

suite('Verify Citations', () => {
  teardown(async () => {
    await admin({ latencyMs: 0, rateLimit: null });
    await closeAllEditors();
  });

  test('outcomes in the Problems panel; one search per source plus one; quick fixes; the hover shows the verified passage', async () => {
    const shunong = await api();
    const editor = await openMarkdown(bulletin());
    const doc = editor.document;
    const before = knowledgeSearches(await endpointRequests()).length;
    const restore = quiet();
    let report: VerifyReport | undefined;
    try {
      report = await vscode.commands.executeCommand<VerifyReport>('shunong.verifyCitations', { refresh: true });
    } finally {
      restore();
    }
    assert.ok(report);
    assert.deepEqual(
      report.results.map((r) => r.outcome.status),
      ['verified', 'not-located', 'unknown-kb'],
    );
    // Two sources searched (the unknown base is known from the search over all of them) + that one.
    assert.equal(knowledgeSearches(await endpointRequests()).length - before, 3);
    const diags = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'shunong');
    const byCode = new Map(diags.map((d) => [String(d.code), d]));
    const notLocated = byCode.get('source-not-located');
    assert.ok(notLocated, JSON.stringify(diags.map((d) => d.code)));
    assert.equal(notLocated.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(doc.getText(notLocated.range), '茶园施肥与土壤管理.pdx#4');
    assert.match(notLocated.message, /not located|中定位到/);
    assert.ok(
      !/does not exist\.|不存在。/.test(
        notLocated.message.replace(/cannot prove it does not exist|无法证明它不存在/, ''),
      ),
    );
    const unknown = byCode.get('unknown-knowledge-base');
    assert.ok(unknown);
    assert.match(unknown.message, /TEA_MANAGR_001/);

    // The hover says what the run found.
    const atRef = doc.positionAt(doc.getText().indexOf('[^2]') + 1);
    const refHovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      atRef,
    );
    const refText = refHovers
      .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
      .join('\n')
      .replace(/&nbsp;/g, ' ')
      .replace(/\\/g, '');
    assert.match(refText, /Not located on \d{4}-\d{2}-\d{2}|\d{4}-\d{2}-\d{2} 未定位到/);

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      notLocated.range,
    );
    const search = actions.find((a) => a.command?.command === 'shunong.searchKnowledge');
    assert.ok(
      search,
      `search for a replacement: ${actions.map((a) => a.title + ' ' + (a.command?.command ?? '')).join(' | ')}`,
    );
    const [args] = search.command!.arguments as [{ query: string; kbCode: string }];
    assert.equal(args.kbCode, 'TEA_MANAGER_001');
    assert.ok(passage('茶园施肥与土壤管理.pdf', 4).startsWith(args.query.slice(0, 20)), args.query);
    const remove = actions.find((a) => a.edit && /\[\^2\]/.test(a.title));
    assert.ok(remove, actions.map((a) => a.title).join(' | '));
    assert.ok(await vscode.workspace.applyEdit(remove.edit!));
    const after = doc.getText();
    assert.ok(!after.includes('[^2]') && !after.includes('.pdx#4'), 'reference and definition removed');
    assert.ok(after.includes(passage('茶园施肥与土壤管理.pdf', 4)), 'the snippet stays');
    await until(
      () => !vscode.languages.getDiagnostics(doc.uri).some((d) => d.code === 'source-not-located'),
      'the removed citation loses its diagnostic',
    );

    // The verified passage is in the cache now: the hover shows it.
    const at = doc.positionAt(doc.getText().indexOf('[^1]') + 1);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.ok(text.includes(passage('茶园施肥与土壤管理.pdf', 3).slice(0, 20)), text);
    assert.match(text.replace(/&nbsp;/g, ' '), /Found in the knowledge base on|已在知识库中找到/);
    assert.ok(shunong.citations.service.cache.has('茶园施肥与土壤管理.pdf#3'));

    // A second run the same day asks nothing.
    const before2 = knowledgeSearches(await endpointRequests()).length;
    const info = stub(vscode.window, 'showInformationMessage', (async () => undefined) as never);
    const warn = stub(vscode.window, 'showWarningMessage', (async () => undefined) as never);
    try {
      const again = await vscode.commands.executeCommand<VerifyReport>('shunong.verifyCitations');
      assert.equal(again.requests, 0);
    } finally {
      info.restore();
      warn.restore();
    }
    // Its summary offers to ask again (a run that re-asks the platform).
    const shown = [...info.calls, ...warn.calls].flat().map(String);
    assert.ok(
      shown.some((x) => x === 'Ask Again' || x === '重新核验'),
      shown.join(' | '),
    );
    assert.equal(knowledgeSearches(await endpointRequests()).length, before2);
  });

  test('the hover of an uncached citation offers "Fetch this passage"; fetching it fills the hover', async () => {
    const shunong = await api();
    const content = `> ${passage('茶叶采摘与防灾.txt', 6)}[^1]\n\n## 参考资料\n\n${def(1, '茶叶采摘与防灾.txt', 6)}\n`;
    const editor = await openMarkdown(content);
    const doc = editor.document;
    assert.ok(!shunong.citations.service.cache.has('茶叶采摘与防灾.txt#6'));
    const at = doc.positionAt(content.indexOf('[^1]') + 1);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
    const md = hovers.flatMap((h) => h.contents).find((c) => typeof c !== 'string' && /fetchPassage/.test(c.value)) as
      vscode.MarkdownString | undefined;
    assert.ok(md, 'the hover has the fetch link');
    assert.deepEqual((md.isTrusted as { enabledCommands: string[] }).enabledCommands.sort(), [
      'shunong.fetchPassage',
      'shunong.openPassage',
    ]);
    const link = /\(command:shunong\.fetchPassage\?([^)]+)\)/.exec(md.value);
    assert.ok(link);
    const args = JSON.parse(decodeURIComponent(link[1]!)) as [string, number];
    const before = knowledgeSearches(await endpointRequests()).length;
    const restore = quiet();
    try {
      const result = await vscode.commands.executeCommand<{ outcome: { status: string } }>(
        'shunong.fetchPassage',
        ...args,
      );
      assert.equal(result.outcome.status, 'verified');
    } finally {
      restore();
    }
    const sent = knowledgeSearches(await endpointRequests()).slice(before);
    assert.ok(sent.length >= 1 && sent.length <= 2, `searches ${sent.length}`);
    assert.equal(sent.at(-1)?.arguments?.['kbCode'], 'TEA_MANAGER_001');
    const again = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
    const text = again.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.ok(text.includes(passage('茶叶采摘与防灾.txt', 6).slice(0, 20)), text);
    assert.ok(!/fetchPassage/.test(text), 'no fetch link once cached');
  });

  test('Cancel aborts the searches in flight; nothing is reported as not located', async () => {
    await api();
    const lines: string[] = [];
    const defs: string[] = [];
    for (let i = 0; i < 6; i++) {
      lines.push(`> ${passage('茶园病虫害绿色防控.docx', i)}[^${i + 1}]`, '');
      defs.push(def(i + 1, '茶园病虫害绿色防控.docx', i));
    }
    const editor = await openMarkdown([...lines, '## 参考资料', '', ...defs, ''].join('\n'));
    await admin({ latencyMs: 3000 });
    const before = (await endpointRequests()).length;
    const source = new vscode.CancellationTokenSource();
    const progress = stub(vscode.window, 'withProgress', ((_o: unknown, task: (p: unknown, t: unknown) => unknown) =>
      task({ report: () => undefined }, source.token)) as never);
    const restore = quiet();
    let report: VerifyReport;
    try {
      const run = vscode.commands.executeCommand<VerifyReport>('shunong.verifyCitations', { refresh: true });
      await until(
        async () => knowledgeSearches((await endpointRequests()).slice(before)).length >= 1,
        'a search in flight',
      );
      source.cancel();
      report = await run;
    } finally {
      restore();
      progress.restore();
    }
    assert.equal(report.cancelled, true);
    assert.ok(report.results.every((r) => r.outcome.status !== 'not-located'));
    const sent = knowledgeSearches((await endpointRequests()).slice(before));
    assert.ok(sent.length < 6, `searches sent ${sent.length}`);
    await until(
      async () => knowledgeSearches((await endpointRequests()).slice(before)).every((r) => r.status === 0),
      'the aborted searches were closed before any reply (status 0)',
    );
    assert.ok(
      !vscode.languages.getDiagnostics(editor.document.uri).some((d) => d.code === 'source-not-located'),
      'no not-located diagnostic from a cancelled run',
    );
  });

  test('Verify Citations in Workspace: every bulletin, each source once, one search each plus one', async () => {
    await api();
    const before = knowledgeSearches(await endpointRequests()).length;
    const restore = quiet();
    let report: VerifyReport;
    try {
      report = await vscode.commands.executeCommand<VerifyReport>('shunong.verifyWorkspaceCitations', {
        refresh: true,
      });
    } finally {
      restore();
    }
    // The sample workspace: the draft bulletin cites nothing yet; the example of citation problems
    // cites two passages, one of them twice ([^1] and [^4]); its author footnote is not a source.
    const files = new Set(report.results.flatMap((r) => r.source.uses.map((u) => u.file)));
    assert.equal(files.size, 1, [...files].join(', '));
    assert.match(decodeURIComponent([...files][0]!), /examples\/引用问题示例\.md$/);
    assert.deepEqual(report.results.map((r) => r.source.citation).sort(), [
      '茶树修剪技术要点.docx#0',
      '茶树农事操作.docx#1',
    ]);
    const shared = report.results.find((r) => r.source.citation === '茶树农事操作.docx#1');
    assert.deepEqual(
      shared?.source.uses.map((u) => u.label),
      ['1', '4'],
      'one source for both definitions',
    );
    // Verified, or changed when an earlier test cached a shortened text of it.
    assert.ok(report.results.every((r) => r.outcome.status === 'verified' || r.outcome.status === 'changed'));
    assert.equal(report.requests, 3);
    assert.equal(knowledgeSearches(await endpointRequests()).length - before, 3);
  });
});
