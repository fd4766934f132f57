/**
 * The sidebar knowledge browser (native TreeView in the Shunong container): sections, counts in the
 * view's description, inline and context actions on passages, drag into Markdown, reveal from the
 * results list. The data is the shared knowledge store, handed in with the passage documents.
 */
import vscode = require('vscode');
import type { CitedPassage } from '../../citations/passage';
import { clearHistory, clearPins, removeSearch } from '../../knowledge/history';
import { citationText } from '../../knowledge/snippet';
import type { KnowledgeServices } from '../shared/knowledge';
import { copyPassage } from '../shared/passageText';
import { KnowledgeTree, type BrowserNode } from './tree';

/** The view id (declared in package.json). */
const VIEW_ID = 'shunong.knowledgeBrowser';

/** What the browser registered: its tree, its view and its commands. */
export interface Browser {
  readonly tree: KnowledgeTree;
  readonly view: vscode.TreeView<BrowserNode>;
  readonly commands: readonly vscode.Disposable[];
  /** Reveals (and selects) a passage of a search. */
  reveal(recordId: string, passageId: string): Promise<boolean>;
}

function passageOf(node: unknown): CitedPassage | undefined {
  const n = node as BrowserNode | undefined;
  return n && n.type === 'passage' ? n.passage : undefined;
}

/** Inserts a passage at the cursor of the Markdown editor last used. */
async function insert(node: unknown, snippet: boolean): Promise<boolean> {
  const passage = passageOf(node);
  if (!passage) return false;
  const editor =
    vscode.window.activeTextEditor ??
    vscode.window.visibleTextEditors.find((e) => e.document.languageId === 'markdown');
  if (!editor) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Open a Markdown bulletin and put the cursor where the citation goes.'),
    );
    return false;
  }
  if (vscode.window.activeTextEditor !== editor)
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
  return (
    (await vscode.commands.executeCommand<boolean>(
      snippet ? 'shunong.insertCitedSnippet' : 'shunong.insertCitation',
      passage,
    )) === true
  );
}

/** Registers the view and its commands. */
export function activate(context: vscode.ExtensionContext, services: KnowledgeServices): Browser {
  const { store, docs } = services;
  const tree = new KnowledgeTree(store);
  const view = vscode.window.createTreeView(VIEW_ID, {
    treeDataProvider: tree,
    dragAndDropController: tree,
    showCollapseAll: true,
    canSelectMany: false,
  });
  const describe = (): void => {
    const s = store.state;
    view.description =
      s.history.length || s.pins.length
        ? `${s.history.length === 1 ? vscode.l10n.t('1 search') : vscode.l10n.t('{0} searches', s.history.length)} · ${vscode.l10n.t('{0} pinned', s.pins.length)}`
        : '';
  };
  describe();

  const confirm = async (message: string): Promise<boolean> => {
    const clear = vscode.l10n.t('Clear');
    return (await vscode.window.showWarningMessage(message, { modal: true }, clear)) === clear;
  };

  const reveal = async (recordId: string, passageId: string): Promise<boolean> => {
    const node = tree.passageNode(recordId, passageId);
    if (!node) return false;
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    await view.reveal(node, { select: true, focus: true, expand: true });
    return true;
  };

  const commands = [
    vscode.commands.registerCommand('shunong.browser.insertCitedSnippet', (node?: unknown) => insert(node, true)),
    vscode.commands.registerCommand('shunong.browser.insertCitation', (node?: unknown) => insert(node, false)),
    vscode.commands.registerCommand('shunong.browser.copyCitation', async (node?: unknown) => {
      const p = passageOf(node);
      if (!p) return undefined;
      const text = citationText(p);
      await vscode.env.clipboard.writeText(text);
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', text), 3000);
      return text;
    }),
    vscode.commands.registerCommand('shunong.browser.copyPassage', async (node?: unknown) => {
      const p = passageOf(node);
      if (p) await copyPassage(p);
    }),
    vscode.commands.registerCommand('shunong.browser.openPassage', async (node?: unknown) => {
      const n = node as BrowserNode | undefined;
      if (!n || n.type !== 'passage') return undefined;
      return docs.open(n.stored ?? n.passage);
    }),
    vscode.commands.registerCommand('shunong.browser.pin', async (node?: unknown) => {
      const p = passageOf(node);
      if (p) await store.setPinned(p, true);
    }),
    vscode.commands.registerCommand('shunong.browser.unpin', async (node?: unknown) => {
      const p = passageOf(node);
      if (p) await store.setPinned(p, false);
    }),
    vscode.commands.registerCommand('shunong.browser.searchAgain', (node?: unknown) => {
      const n = node as BrowserNode | undefined;
      if (n?.type === 'search') return vscode.commands.executeCommand('shunong.searchAgain', n.record.id);
      if (n?.type === 'passage') {
        if (n.record) return vscode.commands.executeCommand('shunong.searchAgain', n.record.id);
        return vscode.commands.executeCommand('shunong.searchKnowledge', {
          query: n.passage.query,
          kbCode: n.passage.kbCode,
        });
      }
      if (n?.type === 'base') return vscode.commands.executeCommand('shunong.searchKnowledge', { kbCode: n.base.code });
      return vscode.commands.executeCommand('shunong.searchAgain');
    }),
    vscode.commands.registerCommand('shunong.browser.removeSearch', async (node?: unknown) => {
      const n = node as BrowserNode | undefined;
      if (n?.type === 'search') await store.update((s) => removeSearch(s, n.record.id));
    }),
    vscode.commands.registerCommand('shunong.browser.clearHistory', async (skipConfirm?: unknown) => {
      if (store.state.history.length === 0) return false;
      if (
        skipConfirm !== true &&
        !(await confirm(
          store.state.history.length === 1
            ? vscode.l10n.t('Clear the recent search of this workspace? Pinned passages stay.')
            : vscode.l10n.t(
                'Clear the {0} recent searches of this workspace? Pinned passages stay.',
                store.state.history.length,
              ),
        ))
      )
        return false;
      await store.update(clearHistory);
      return true;
    }),
    vscode.commands.registerCommand('shunong.browser.clearPins', async (skipConfirm?: unknown) => {
      if (store.state.pins.length === 0) return false;
      if (
        skipConfirm !== true &&
        !(await confirm(
          store.state.pins.length === 1
            ? vscode.l10n.t('Unpin the pinned passage?')
            : vscode.l10n.t('Unpin all {0} pinned passages?', store.state.pins.length),
        ))
      )
        return false;
      await store.update(clearPins);
      return true;
    }),
    vscode.commands.registerCommand('shunong.browser.reveal', (recordId?: unknown, passageId?: unknown) =>
      typeof recordId === 'string' && typeof passageId === 'string' ? reveal(recordId, passageId) : false,
    ),
  ];
  context.subscriptions.push(tree, view, store.onDidChange(describe), ...commands);
  return { tree, view, commands, reveal };
}
