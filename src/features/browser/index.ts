/**
 * The sidebar knowledge browser (native TreeView in the Shunong container): sections, counts in the
 * view's description, inline and context actions on passages, drag into Markdown, reveal from the
 * results list. The data is the shared knowledge store, handed in with the passage documents.
 */
import vscode = require('vscode');
import type { KnowledgeServices } from '../shared/knowledge';
import type { CommandRegistry } from '../shared/commands';
import { passageCommands, searchCommands } from './commands';
import { KnowledgeTree, type BrowserNode } from './tree';

/** The view id (declared in package.json). */
const VIEW_ID = 'shunong.knowledgeBrowser';

/** What the browser registered: its tree and its view. */
export interface Browser {
  readonly tree: KnowledgeTree;
  readonly view: vscode.TreeView<BrowserNode>;
  /** Reveals (and selects) a passage of a search. */
  reveal(recordId: string, passageId: string): Promise<boolean>;
}

/** Registers the view and its commands. */
export function activate(
  context: vscode.ExtensionContext,
  services: KnowledgeServices & { readonly commands: CommandRegistry },
): Browser {
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

  const reveal = async (recordId: string, passageId: string): Promise<boolean> => {
    const node = tree.passageNode(recordId, passageId);
    if (!node) return false;
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    await view.reveal(node, { select: true, focus: true, expand: true });
    return true;
  };

  const needs = { store, docs, reveal };
  services.commands.register(...passageCommands(needs), ...searchCommands(needs));
  context.subscriptions.push(tree, view, store.onDidChange(describe));
  return { tree, view, reveal };
}
