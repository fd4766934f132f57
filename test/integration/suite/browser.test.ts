/**
 * The knowledge browser inside a real VS Code: sections with counts, search → passages nodes,
 * text-only tooltips, the passage actions (insert cited snippet, insert citation, copy citation,
 * open the full passage, pin / unpin, search again), drag data, reveal from the results, the clear
 * actions, the welcome state, and persistence (a tree rebuilt from workspace state).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isCitedPassage, PASSAGE_MIME } from '../../../src/citations/passage';
import { KnowledgeTree, tooltip, type BrowserNode } from '../../../src/features/browser/tree';
import { KnowledgeStore } from '../../../src/features/shared/knowledgeStore';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { api, captureQuickPick, stub, until, closeAllEditors, openMarkdown } from './helpers';

const QUERY = '茶树修剪技术要点';

/** Runs a search (TEA_MANAGER_001) and closes the results; returns the record id. */
async function searchOnce(): Promise<string> {
  const captured = captureQuickPick();
  const run = Promise.resolve(
    vscode.commands.executeCommand<{ status: string; record?: { id: string } }>('shunong.searchKnowledge', {
      query: QUERY,
      kbCode: 'TEA_MANAGER_001',
      topK: 3,
      scoreThreshold: 0.7,
    }),
  );
  await until(() => {
    const qp = captured.get();
    return !!qp && !qp.busy && qp.items.some((i) => i.role === 'passage');
  }, 'the results');
  captured.get()?.hide();
  const result = await run;
  assert.ok(result.record);
  return result.record.id;
}

function section(tree: KnowledgeTree, name: 'bases' | 'history' | 'pins'): BrowserNode {
  const node = tree.getChildren().find((n) => n.type === 'section' && n.section === name);
  assert.ok(node, `section ${name}`);
  return node;
}

suite('Knowledge browser', () => {
  suiteSetup(async () => {
    const { knowledge } = await api();
    await knowledge.store.update((s) => ({ ...s, history: [], pins: [] }));
  });

  teardown(async () => {
    await closeAllEditors();
  });

  /** A workspace state in memory, as VS Code's Memento keeps it. */
  function memoryMemento(): vscode.Memento {
    const values = new Map<string, unknown>();
    return {
      keys: () => [...values.keys()],
      get: (key: string, fallback?: unknown) => (values.has(key) ? values.get(key) : fallback),
      update: async (key: string, value: unknown) => {
        values.set(key, value);
      },
    } as vscode.Memento;
  }

  test('an empty workspace state gives an empty tree (the welcome view shows)', () => {
    const memento: vscode.Memento = {
      keys: () => [],
      get: () => undefined,
      update: async () => undefined,
    } as unknown as vscode.Memento;
    const tree = new KnowledgeTree(new KnowledgeStore(memento));
    assert.deepEqual(tree.getChildren(), []);
  });

  test('sections with counts; a search lists its passages with text-only tooltips', async () => {
    const { knowledge } = await api();
    const id = await searchOnce();
    const tree = knowledge.browser.tree;
    const history = section(tree, 'history');
    const historyItem = tree.getTreeItem(history);
    assert.equal(historyItem.description, String(knowledge.store.state.history.length));
    const searchNode = tree.getChildren(history).find((n) => n.type === 'search' && n.record.id === id);
    assert.ok(searchNode);
    assert.equal(tree.getTreeItem(searchNode).label, QUERY);
    const passages = tree.getChildren(searchNode);
    assert.equal(passages.length, 3);
    const first = passages[0];
    assert.ok(first && first.type === 'passage');
    const item = tree.getTreeItem(first);
    assert.equal(item.description, `${first.passage.docName}#${first.passage.chunkIndex} · 茶树管理`);
    const tip = item.tooltip as vscode.MarkdownString;
    assert.ok(tip instanceof vscode.MarkdownString);
    assert.equal(tip.isTrusted, false);
    assert.equal(tip.supportHtml, false);
    assert.ok(tip.value.includes('TEA\\_MANAGER\\_001') || tip.value.includes('TEA_MANAGER_001'));
    assert.match(tip.value.replace(/&nbsp;/g, ' '), /Rank 1 of 3|第 1\/3 名/);
    assert.equal(tree.getParent(first)?.id, searchNode.id);
    const bases = tree.getChildren(section(tree, 'bases'));
    assert.ok(bases.some((b) => b.type === 'base' && b.base.code === 'TEA_MANAGER_001'));
    assert.match(
      knowledge.browser.view.description ?? '',
      /^(?:1 search|(?:[02-9]|\d{2,}) searches) · \d+ pinned$|次检索 · \d+ 个固定$/,
    );
  });

  test('a tooltip shows server text as it is: a URL is no link holding escaping backslashes', () => {
    // VS Code's own appendText, rendered by a GFM renderer (micromark stands in for VS Code's marked)
    const content = '修剪方法见图(https://x.cn/a_b/track.png)，R&amp;D <b>报告</b>，联系 a_b@c-d.cn。';
    const tip = tooltip(
      {
        docName: 'www.a-b.cn/茶.docx',
        chunkIndex: 1,
        content,
        kbCode: 'TEA_MANAGER_001',
        kbName: '茶树管理',
        query: QUERY,
        score: 0.5,
        scoreType: 'cosine',
        retrievedAt: '2026-12-01T12:00:00Z',
      },
      undefined,
    );
    const html = micromark(tip.value, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
    assert.doesNotMatch(html, /<a |<b>/, html);
    const seen = html
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/\u00a0/g, ' ');
    assert.ok(seen.includes(content), seen);
    assert.ok(seen.includes('www.a-b.cn/茶.docx#1'), seen);
  });

  test('passage actions: pin / unpin, copy citation, open the full passage, insert cited snippet and citation, drag data', async () => {
    const { knowledge } = await api();
    const tree = knowledge.browser.tree;
    const searchNode = tree.getChildren(section(tree, 'history'))[0];
    assert.ok(searchNode);
    const node = tree.getChildren(searchNode)[0];
    assert.ok(node && node.type === 'passage');
    const p = node.passage;

    await vscode.commands.executeCommand('shunong.browser.pin', node);
    const pins = tree.getChildren(section(tree, 'pins'));
    assert.equal(pins.length, 1);
    assert.equal(tree.getTreeItem(node).contextValue, 'shunong.passage.pinned');

    const copied = await vscode.commands.executeCommand<string>('shunong.browser.copyCitation', node);
    assert.equal(copied, `${p.docName}#${p.chunkIndex} — 茶树管理 (TEA_MANAGER_001)`);
    assert.equal(await vscode.env.clipboard.readText(), copied);

    const viewer = await vscode.commands.executeCommand<vscode.TextEditor>('shunong.browser.openPassage', pins[0]);
    assert.equal(viewer.document.uri.scheme, 'shunong-knowledge');
    assert.ok(viewer.document.getText().includes(p.content));

    const editor = await openMarkdown('修剪：');
    const doc = editor.document;
    editor.selection = new vscode.Selection(doc.positionAt(3), doc.positionAt(3));
    const warn = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as typeof vscode.window.showWarningMessage,
    );
    try {
      assert.equal(
        await vscode.commands.executeCommand('shunong.browser.insertCitation', node),
        true,
        JSON.stringify(warn.calls),
      );
      assert.match(doc.getText(), /^修剪：\[\^1\]/);
      assert.equal(
        await vscode.commands.executeCommand('shunong.browser.insertCitedSnippet', pins[0]),
        true,
        JSON.stringify(warn.calls),
      );
    } finally {
      warn.restore();
    }
    assert.ok(doc.getText().includes(p.content.split('\n')[0] ?? '?'));
    assert.equal(doc.getText().match(/^\[\^1\]: /gm)?.length, 1, 'the same passage keeps its number');

    const dt = new vscode.DataTransfer();
    tree.handleDrag([node], dt);
    const dragged: unknown = JSON.parse((await dt.get(PASSAGE_MIME)?.asString()) ?? 'null');
    assert.ok(isCitedPassage(dragged));
    assert.equal(dragged.kbCode, 'TEA_MANAGER_001');

    await vscode.commands.executeCommand('shunong.browser.unpin', node);
    assert.equal(knowledge.store.state.pins.length, 0);
  });

  test('reveal from the results selects the passage in the view', async () => {
    const { knowledge } = await api();
    const record = knowledge.store.state.history[0];
    const passage = record?.passages[1]?.passage;
    assert.ok(record && passage);
    const id = `${passage.kbCode}/${passage.docName}#${passage.chunkIndex}`;
    assert.equal(await vscode.commands.executeCommand('shunong.browser.reveal', record.id, id), true);
    await until(() => knowledge.browser.view.selection[0]?.id === `passage:${record.id}/${id}`, 'the selection');
  });

  test('history and pins persist: a tree rebuilt from the state written shows the same nodes', async () => {
    const { knowledge } = await api();
    const tree = knowledge.browser.tree;
    const node = tree.getChildren(tree.getChildren(section(tree, 'history'))[0])[0];
    await vscode.commands.executeCommand('shunong.browser.pin', node);
    // What the store writes is what a reload reads: the extension's state written through a store on
    // a workspace state in memory, read back by a second store (the e2e suite reloads a real window).
    const memento = memoryMemento();
    const written = new KnowledgeStore(memento);
    await written.update(() => knowledge.store.state);
    const reread = new KnowledgeStore(memento);
    const rebuilt = new KnowledgeTree(reread);
    const shape = (t: KnowledgeTree): string[] => {
      const out: string[] = [];
      const walk = (n?: BrowserNode): void => {
        for (const c of t.getChildren(n)) {
          out.push(`${c.id}|${String(t.getTreeItem(c).label)}|${String(t.getTreeItem(c).description)}`);
          walk(c);
        }
      };
      walk();
      return out;
    };
    assert.deepEqual(shape(rebuilt), shape(tree));
    assert.equal(reread.state.pins.length, 1);
    await written.update((s) => ({ ...s, pins: [] }));
    assert.equal(new KnowledgeStore(memento).state.pins.length, 0, 'a change is written at once');
    rebuilt.dispose();
    reread.dispose();
    written.dispose();
  });

  test('search again from a history node reruns it; clear history and pins', async () => {
    const { knowledge } = await api();
    const tree = knowledge.browser.tree;
    const searchNode = tree.getChildren(section(tree, 'history'))[0];
    const captured = captureQuickPick();
    const run = Promise.resolve(
      vscode.commands.executeCommand<{ status: string }>('shunong.browser.searchAgain', searchNode),
    );
    await until(() => {
      const qp = captured.get();
      return !!qp && !qp.busy && qp.items.some((i) => i.role === 'passage');
    }, 'the results again');
    assert.ok(captured.get()?.title?.includes(QUERY));
    captured.get()?.hide();
    assert.equal((await run).status, 'closed');

    assert.equal(await vscode.commands.executeCommand('shunong.browser.clearHistory', true), true);
    assert.equal(await vscode.commands.executeCommand('shunong.browser.clearPins', true), true);
    assert.equal(knowledge.store.state.history.length, 0);
    assert.equal(tree.getChildren(section(tree, 'history')).length, 0);
    assert.equal(knowledge.store.state.pins.length, 0, 'pins cleared');
  });
});
