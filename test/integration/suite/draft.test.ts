/**
 * "Shunong: Draft with Knowledge…" inside a real VS Code against the local endpoint: the whole flow
 * (stream into the preview, resolve citations, accept, one undoable edit), cancel mid-stream,
 * accepting part of a draft, and the citations landing in the references section.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DraftOutcome } from '../../../src/features/draft/index';
import { admin, api, closeAllEditors, stub, until, openMarkdown } from './helpers';

const QUESTION = '水稻分蘖期如何管理水层';

async function open(content: string): Promise<vscode.TextEditor> {
  const editor = await openMarkdown(content);
  const doc = editor.document;
  const end = doc.positionAt(content.length);
  editor.selection = new vscode.Selection(end, end);
  return editor;
}

function previews(): vscode.TextDocument[] {
  return vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'shunong-draft');
}

suite('Draft with Knowledge', function () {
  this.timeout(60_000);
  teardown(async () => {
    await admin({ latencyMs: 0 });
    await closeAllEditors();
  });

  test('drafts end to end: streamed preview with usage, resolved footnotes, weather source line, one undo', async () => {
    await api();
    const original = '# 水稻简报\n\n## 分蘖期管水\n\n';
    const editor = await open(original);
    const outcome = (await vscode.commands.executeCommand('shunong.draftWithKnowledge', {
      question: QUESTION,
      kbCode: 'RICE_001',
      topK: 5,
      minScore: 0.5,
      useRerank: true,
      weather: '成都',
      accept: 'all',
    })) as DraftOutcome;
    assert.equal(outcome.status, 'inserted', JSON.stringify(outcome));
    assert.ok(outcome.resolved && outcome.resolved > 0);
    assert.equal(outcome.unresolved, 0);
    assert.ok(outcome.usage?.agriwis_knowledge_search_usage?.tool_usage === 1);
    const text = editor.document.getText();
    assert.ok(text.startsWith(original), 'the text before the cursor is untouched');
    const first = outcome.sentences![0]!.text;
    assert.ok(text.includes(first), 'the first sentence is in the bulletin');
    assert.match(text, /\[\^1\]/);
    assert.match(text, /^## 参考资料\n\n\[\^1\]: [^\n#]+\.\w+#\d+ — 水稻 \(RICE_001\)$/m);
    assert.match(text, /^> (来源|Source)：?:? ?shunong-local-emulator · 成都 · \d{4}-\d{2}-\d{2} · /m);
    assert.ok(!/#\d+〕/.test(text) || /〔[^〕]+\.docx#\d+〕/.test(text), 'no made-up inline citation');
    const preview = previews().at(-1);
    assert.ok(preview, 'the preview document is open');
    await until(() => preview.getText().includes(first), 'preview shows the draft');
    assert.match(preview.getText(), /estimates|估算/);
    await vscode.window.showTextDocument(editor.document, vscode.ViewColumn.One);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), original, 'one undo removes the draft and its references');
  });

  test('cancel mid-stream: nothing is inserted and the preview says so', async () => {
    await api();
    const original = '# 简报\n\n';
    const editor = await open(original);
    await admin({ latencyMs: 120 });
    const cts = new vscode.CancellationTokenSource();
    const progress = stub(vscode.window, 'withProgress', (async (
      _o: unknown,
      task: (p: vscode.Progress<unknown>, t: vscode.CancellationToken) => Promise<unknown>,
    ) => task({ report: () => undefined }, cts.token)) as unknown as typeof vscode.window.withProgress);
    const info = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    const before = previews().length;
    try {
      const running = vscode.commands.executeCommand('shunong.draftWithKnowledge', {
        question: QUESTION,
        kbCode: 'RICE_001',
        accept: 'all',
      }) as Thenable<DraftOutcome>;
      await until(
        () => previews().length > before && /水稻/.test(previews().at(-1)!.getText().split('\n').slice(2).join('\n')),
        'words streamed into the preview',
        400,
      );
      cts.cancel();
      const outcome = await running;
      assert.equal(outcome.status, 'cancelled');
      assert.ok(outcome.content && outcome.content.length > 0, 'some words had arrived');
      assert.equal(editor.document.getText(), original);
      await until(() => /Cancelled|已取消/.test(previews().at(-1)!.getText()), 'preview marked cancelled');
      assert.equal(info.calls.length, 1);
    } finally {
      progress.restore();
      info.restore();
    }
  });

  test('accepting part of a draft inserts only the chosen sentences and cites only their passages', async () => {
    await api();
    const editor = await open('# 简报\n\n');
    const dry = (await vscode.commands.executeCommand('shunong.draftWithKnowledge', {
      question: QUESTION,
      kbCode: 'RICE_001',
      topK: 5,
      accept: 'none',
    })) as DraftOutcome;
    assert.equal(dry.status, 'discarded');
    assert.equal(editor.document.getText(), '# 简报\n\n');
    const sentences = dry.sentences!;
    assert.ok(sentences.length >= 3, `a draft of several sentences (${sentences.length})`);
    const keep = [sentences[0]!.id, sentences.at(-1)!.id];
    const outcome = (await vscode.commands.executeCommand('shunong.draftWithKnowledge', {
      question: QUESTION,
      kbCode: 'RICE_001',
      topK: 5,
      accept: keep,
    })) as DraftOutcome;
    assert.equal(outcome.status, 'inserted');
    const text = editor.document.getText();
    assert.ok(text.includes(sentences[0]!.text));
    assert.ok(text.includes(sentences.at(-1)!.text));
    for (const s of sentences.slice(1, -1))
      if (s.text !== sentences[0]!.text && s.text !== sentences.at(-1)!.text)
        assert.ok(!text.includes(s.text), `left out: ${s.text}`);
    const sources = new Set([sentences[0]!.source, sentences.at(-1)!.source]);
    const defs = text.match(/^\[\^\d+\]: .+$/gm) ?? [];
    assert.equal(defs.length, sources.size);
    for (const src of sources)
      assert.ok(
        defs.some((d) => d.includes(src)),
        `definition for ${src}`,
      );
  });
});
