/**
 * `@shunong` driven by a scripted language model (test/fixtures/scripted-model-extension, installed
 * by the harness) that cites one returned passage and invents another citation and a footnote: the
 * grounding removes both and says so, the references are the returned passages, and the insert
 * button writes the answer into the bulletin with real citations as one edit (one undo).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, enableAIFeatures, until } from './helpers';

interface Recorded {
  readonly method: string;
  readonly args: unknown[];
}

/** A chat response stream that records every call. */
function recordingStream(): { stream: vscode.ChatResponseStream; calls: Recorded[] } {
  const calls: Recorded[] = [];
  const stream = new Proxy(
    {},
    {
      get:
        (_t, method: string) =>
        (...args: unknown[]) => {
          calls.push({ method, args });
        },
    },
  ) as vscode.ChatResponseStream;
  return { stream, calls };
}

const markdownOf = (calls: readonly Recorded[]): string =>
  calls
    .filter((c) => c.method === 'markdown')
    .map((c) => {
      const v = c.args[0];
      return typeof v === 'string' ? v : (v as vscode.MarkdownString).value;
    })
    .join('')
    // MarkdownString.appendText escapes (text shown as text): read it back as text
    .replace(/&nbsp;/g, ' ')
    .replace(/\\([\\`*_{}[\]()#+\-.!|~<>^])/g, '$1');

suite('chat: @shunong participant with a scripted model', function () {
  let model: vscode.LanguageModelChat | undefined;

  suiteSetup(async function () {
    const { chat } = await api();
    const lm = vscode.lm as unknown as { registerLanguageModelChatProvider?: unknown };
    if (typeof lm.registerLanguageModelChatProvider !== 'function') this.skip(); // 1.100: no model providers
    assert.ok(chat.registered().participant, '@shunong is registered');
    await enableAIFeatures();
    await until(
      async () => {
        [model] = await vscode.lm.selectChatModels({ vendor: 'shunong-test' });
        return model !== undefined;
      },
      'the scripted model',
      300,
    );
  });

  test('an invented citation and a footnote are removed, the author told; the insert is one edit with real citations', async () => {
    const { chat } = await api();
    const { stream, calls } = recordingStream();
    const request = { prompt: '茶树修剪技术要点', command: 'search', model, references: [], toolReferences: [] };
    const token = new vscode.CancellationTokenSource().token;
    const result = (await chat.participant.handle(
      request as unknown as vscode.ChatRequest,
      { history: [] } as unknown as vscode.ChatContext,
      stream,
      token,
    )) as vscode.ChatResult;
    const md = markdownOf(calls);
    const id = (result.metadata as { answerId: string }).answerId;
    const answer = chat.participant.answer(id)!;
    const real = answer.passages[0]!.key;
    assert.ok(md.includes(`修剪宜在春茶后进行〔${real}〕。`), md);
    assert.ok(md.includes('另据研究，深修剪可增产三成。'), md);
    assert.ok(!/编造的茶树文献\.pdf#99〕|\[\^1\]/.test(md.split('Removed')[0]!), 'nothing invented is shown');
    assert.match(md, /Removed 3 citation\(s\) that are not passages the knowledge base returned in this answer/);
    assert.deepEqual(answer.removed, ['[^1]: 编造的茶树文献.pdf#99', '[^1]', '〔编造的茶树文献.pdf#99〕']);
    const refs = calls.filter((c) => c.method === 'reference').map((c) => (c.args[0] as vscode.Uri).scheme);
    assert.equal(refs.length, answer.passages.length);
    assert.ok(refs.every((s) => s === 'shunong-knowledge'));
    const button = calls.find((c) => c.method === 'button')!.args[0] as vscode.Command;
    assert.equal(button.command, 'shunong.chat.insertAnswer');

    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: '# 茶园简报\n\n' });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(doc.lineAt(2).range.start, doc.lineAt(2).range.start);
    assert.equal(await vscode.commands.executeCommand(button.command, ...(button.arguments ?? [])), true);
    const text = doc.getText();
    assert.match(text, /修剪宜在春茶后进行。?\[\^1\]/);
    assert.ok(text.includes(`[^1]: ${real.replace(/([\\[\]])/g, '\\$1')} — `), text);
    assert.ok(!text.includes('编造'), text);
    assert.ok(!text.includes('[^2]'), 'one citation only');
    await vscode.commands.executeCommand('undo');
    await until(() => doc.getText() === '# 茶园简报\n\n', 'one undo takes the whole answer back');
  });

  test('a miss: the model is not asked, nothing is cited', async () => {
    const { chat } = await api();
    const { stream, calls } = recordingStream();
    const request = {
      prompt: '火星登陆舱推进剂燃烧效率',
      command: 'search',
      model,
      references: [],
      toolReferences: [],
    };
    const result = (await chat.participant.handle(
      request as unknown as vscode.ChatRequest,
      { history: [] } as unknown as vscode.ChatContext,
      stream,
      new vscode.CancellationTokenSource().token,
    )) as vscode.ChatResult;
    assert.deepEqual(result.metadata, { passages: 0 });
    assert.match(markdownOf(calls), /returned no passage for this question, so nothing is cited/);
    assert.ok(!calls.some((c) => c.method === 'button' || c.method === 'reference'));
  });
});
