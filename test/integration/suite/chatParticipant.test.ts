/**
 * `@shunong` driven by a scripted language model (test/fixtures/scripted-model-extension, installed
 * by the harness) that cites one returned passage and invents another citation and a footnote: the
 * grounding removes both and says so, the references are the returned passages, and the insert
 * button writes the answer into the bulletin with real citations as one edit (one undo). `/draft`
 * reaches the model as a draft (two grounded paragraphs), `/weather` and `/today` answer from the
 * platform's tools without a model. A dose the model wrote that its cited passage does not give is
 * marked under its paragraph.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { admin, api, displayed, enableAIFeatures, endpointRequests, setSetting, until } from './helpers';

/** What the participant says of citations it removed (our catalogue's key). */
const REMOVED = 'Removed {0} citation(s) that are not passages the knowledge base returned in this answer: {1}';

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
    .replace(/\\([\\`*_{}[\]()#+\-.!|~<>^])/g, '$1')
    // and the character references plainForMarkdown writes so that no autolink or tag starts
    .replace(
      /&(colon|period|commat|lt|amp);/g,
      (_m, name: string) => ({ colon: ':', period: '.', commat: '@', lt: '<', amp: '&' })[name] ?? '',
    );

/** Runs `@shunong /<command> <prompt>` through the participant's handler with a recording stream. */
async function ask(
  command: string | undefined,
  prompt: string,
  model?: vscode.LanguageModelChat,
): Promise<{ result: vscode.ChatResult; calls: Recorded[]; md: string }> {
  const { chat } = await api();
  const { stream, calls } = recordingStream();
  const request = { prompt, command, model, references: [], toolReferences: [] };
  const result = (await chat.participant.handle(
    request as unknown as vscode.ChatRequest,
    { history: [] } as unknown as vscode.ChatContext,
    stream,
    new vscode.CancellationTokenSource().token,
  )) as vscode.ChatResult;
  return { result, calls, md: markdownOf(calls) };
}

const methods = (calls: readonly Recorded[]): string[] => [...new Set(calls.map((c) => c.method))].sort();

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
    const removal = displayed(REMOVED, '3', '').trim();
    assert.ok(md.includes(removal), md);
    assert.ok(!/编造的茶树文献\.pdf#99〕|\[\^1\]/.test(md.split(removal)[0]!), 'nothing invented is shown');
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

  test('a dose the model wrote that its cited passage does not give is marked under its paragraph', async () => {
    await setSetting('knowledge.defaultKbCode', 'RICE_001');
    try {
      const { md } = await ask('search', '稻纵卷叶螟 氯虫苯甲酰胺', model);
      assert.ok(md.includes('每亩用20%氯虫苯甲酰胺悬浮剂30毫升'), md);
      const marked = displayed('Not what the cited passage gives: {0}', '').trim();
      const note = md.split('\n').find((l) => l.startsWith('⚠') && l.includes(marked));
      assert.ok(note, md);
      assert.match(note, /10-15/, 'the passage’s own dose');
    } finally {
      await setSetting('knowledge.defaultKbCode', undefined);
    }
  });

  test('a miss: the model is not asked, nothing is cited', async () => {
    const { result, calls } = await ask('search', '火星登陆舱推进剂燃烧效率', model);
    assert.deepEqual(result.metadata, { passages: 0 });
    assert.ok(
      markdownOf(calls).includes(
        displayed(
          'The knowledge base returned no passage for this question, so nothing is cited and nothing is written from it.',
        ),
      ),
      markdownOf(calls),
    );
    // the platform's reason and the knowledge layer's reading of the miss, in the display language
    assert.match(markdownOf(calls), /No passage in the knowledge base matched\.|知识库未命中相关片段。/);
    assert.ok(!/knowledge_search: NO passage/.test(markdownOf(calls)), 'not the text meant for the model');
    assert.ok(!calls.some((c) => c.method === 'button' || c.method === 'reference'));
  });

  test('/draft: the model is asked for bulletin paragraphs; both are shown grounded, with references and the insert button', async () => {
    const { chat } = await api();
    const { result, calls, md } = await ask('draft', '茶树修剪技术要点', model);
    const meta = result.metadata as { answerId: string; passages: number; removed: number };
    const answer = chat.participant.answer(meta.answerId)!;
    const [first, second = first] = answer.passages.map((p) => p.key);
    assert.ok(first, 'the knowledge base returned passages');
    // The draft script answers only to the draft instructions: this is the draft that reached the model.
    assert.ok(md.includes(`春茶采摘后及时修剪〔${first}〕。`), md);
    assert.ok(md.includes(`修剪后结合追肥，促进新梢萌发〔${second}〕。`), md);
    assert.equal(meta.removed, 0);
    const removal = displayed(REMOVED, '0', '').split('0')[0]!;
    assert.ok(!md.includes(removal), 'nothing was removed, and nothing is said about it');
    assert.equal(answer.blocks.length, 2, 'one block per paragraph');
    const progress = calls.filter((c) => c.method === 'progress').map((c) => String(c.args[0]));
    assert.deepEqual(progress, [
      displayed('Searching the Shunong knowledge base…'),
      displayed('Writing with {0}…', 'Scripted'),
    ]);
    const refs = calls.filter((c) => c.method === 'reference').map((c) => c.args[0] as vscode.Uri);
    assert.equal(refs.length, answer.passages.length);
    assert.equal(meta.passages, answer.passages.length);
    const buttons = calls.filter((c) => c.method === 'button').map((c) => c.args[0] as vscode.Command);
    assert.equal(buttons.length, 1);
    assert.deepEqual(buttons[0]!.arguments, [meta.answerId]);
    assert.equal(buttons[0]!.title, displayed('Insert into the bulletin'));

    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: '# 茶园简报\n\n' });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(doc.lineAt(2).range.start, doc.lineAt(2).range.start);
    assert.equal(await vscode.commands.executeCommand(buttons[0]!.command, ...buttons[0]!.arguments!), true);
    const text = doc.getText();
    assert.match(text, /春茶采摘后及时修剪。?\[\^1\]/);
    const escaped = (k: string): string => k.replace(/([\\[\]])/g, '\\$1');
    assert.ok(text.includes(`[^1]: ${escaped(first)} — `), text);
    if (second !== first) {
      assert.match(text, /促进新梢萌发。?\[\^2\]/);
      assert.ok(text.includes(`[^2]: ${escaped(second)} — `), text);
    }
    assert.ok(!text.includes('〔'), 'the chat syntax never reaches the bulletin');
    await vscode.commands.executeCommand('undo');
    await until(() => doc.getText() === '# 茶园简报\n\n', 'one undo takes the whole draft back');
  });
});

// No model is asked here: these run on 1.100 too (no model provider API there).
suite('chat: @shunong /weather, /today, and /search without a model', function () {
  suiteSetup(async function () {
    const { chat } = await api();
    if (typeof vscode.chat?.createChatParticipant !== 'function') this.skip();
    assert.ok(chat.registered().participant, '@shunong is registered');
  });

  test('/weather 成都: the weather brief in the display language (now, seven days, source), no model, no reference, no button', async () => {
    const before = (await endpointRequests()).length;
    const { result, calls, md } = await ask('weather', '成都');
    assert.deepEqual(result, {});
    const zh = vscode.env.language.toLowerCase().startsWith('zh');
    assert.match(md, zh ? /### 天气 · 成都（101270101）/ : /### Weather · 成都（101270101）/);
    assert.match(md, zh ? /实时：.+，湿度 .+（.+ 更新）/ : /Now: .+, humidity .+ \(updated /);
    assert.equal((md.match(/^\| \d{4}-\d{2}-\d{2} \|/gm) ?? []).length, 7, 'seven days in the table');
    assert.ok(!/weather_search \(now\)|temperature: /.test(md), 'not the text meant for the model');
    assert.deepEqual(methods(calls), ['markdown']);
    const sent = (await endpointRequests()).slice(before).filter((r) => r.rpcMethod === 'tools/call');
    assert.deepEqual(
      sent.map((r) => [r.tool, r.arguments?.['location']]),
      [
        ['weather_search', '成都'],
        ['weather_search', '成都'],
      ],
      'now and the forecast',
    );
  });

  test('/weather with no place: the default location setting; an unknown place: the platform says so', async () => {
    await setSetting('weather.defaultLocation', '101270101');
    try {
      const { md } = await ask('weather', '');
      assert.match(md, /### (?:Weather|天气) · 101270101\n/, 'the code asked for (the platform echoes it)');
    } finally {
      await setSetting('weather.defaultLocation', undefined);
    }
    const { md, calls } = await ask('weather', '火星城');
    assert.match(
      md,
      vscode.env.language.toLowerCase().startsWith('zh') ? /无法获取“火星城”的天气：/ : /No weather for "火星城": /,
    );
    assert.deepEqual(methods(calls), ['markdown']);
  });

  test('/today: the date and the solar term from the platform (its clock set to 2026-10-25 21:06 Beijing)', async () => {
    await admin({ now: '2026-10-25T21:06:13+08:00' });
    try {
      const { result, calls, md } = await ask('today', '');
      assert.deepEqual(result, {});
      // the calendar line a bulletin gets, in the display language
      assert.match(
        md,
        vscode.env.language.toLowerCase().startsWith('zh')
          ? /2026年10月25日 星期日 · 霜降（距立冬 13 天）/
          : /Sunday, October 25, 2026 · 霜降 Frost's Descent \(13 days to 立冬 Start of Winter\)/,
      );
      assert.ok(!/get_current_time/.test(md), 'not the text meant for the model');
      assert.deepEqual(methods(calls), ['markdown']);
    } finally {
      await admin({ now: null });
    }
  });

  test('/search with no model: said plainly; the passages shown as references and as text; nothing to insert', async () => {
    const { result, calls, md } = await ask('search', '茶树修剪技术要点');
    const passages = (result.metadata as { passages: number }).passages;
    assert.ok(passages > 0);
    assert.match(
      md,
      /No language model is available in this chat; here are the passages the knowledge base returned\.|此聊天中没有可用的语言模型；以下是知识库返回的段落。/,
    );
    assert.match(md, /〔茶树修剪技术要点\.docx#\d+〕 · 茶树管理[^\n]* \(TEA_MANAGER_001[^\n]*\)/);
    assert.match(
      md,
      /Rank score \d\.\d{4} \(RRF: orders results only, not a confidence\)|排序分 \d\.\d{4}（RRF：仅用于排序，不是置信度）/,
    );
    assert.ok(!/knowledge_search: |passage: /.test(md), 'not the text meant for the model');
    assert.equal(calls.filter((c) => c.method === 'reference').length, passages);
    assert.ok(!calls.some((c) => c.method === 'button'), 'no answer to insert');
  });
});
