/**
 * The Knowledge view's commands: on a passage (insert, copy, open, pin) and on the searches (again,
 * remove, clear, reveal). Each is a {@link Command} the view's feature registers.
 */
import vscode = require('vscode');
import type { CitedPassage } from '../../citations/passage';
import { clearHistory, clearPins, removeSearch } from '../../knowledge/history';
import { citationText } from '../../knowledge/snippet';
import type { Command } from '../shared/commands';
import type { KnowledgeServices } from '../shared/knowledge';
import { copyPassage } from '../shared/passageText';
import type { BrowserNode } from './tree';

/** What the view's commands need: the store and passage documents, and how the view reveals a passage. */
export interface BrowserNeeds extends Pick<KnowledgeServices, 'store' | 'docs'> {
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

/** Asks before clearing, in a modal. */
async function confirm(message: string): Promise<boolean> {
  const clear = vscode.l10n.t('Clear');
  return (await vscode.window.showWarningMessage(message, { modal: true }, clear)) === clear;
}

/** The commands on a passage of the view. */
export function passageCommands({ store, docs }: BrowserNeeds): Command[] {
  return [
    { id: 'shunong.browser.insertCitedSnippet', run: (node?: unknown) => insert(node, true) },
    { id: 'shunong.browser.insertCitation', run: (node?: unknown) => insert(node, false) },
    {
      id: 'shunong.browser.copyCitation',
      run: async (node?: unknown) => {
        const p = passageOf(node);
        if (!p) return undefined;
        const text = citationText(p);
        await vscode.env.clipboard.writeText(text);
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', text), 3000);
        return text;
      },
    },
    {
      id: 'shunong.browser.copyPassage',
      run: async (node?: unknown) => {
        const p = passageOf(node);
        if (p) await copyPassage(p);
      },
    },
    {
      id: 'shunong.browser.openPassage',
      run: async (node?: unknown) => {
        const n = node as BrowserNode | undefined;
        if (!n || n.type !== 'passage') return undefined;
        return docs.open(n.stored ?? n.passage);
      },
    },
    {
      id: 'shunong.browser.pin',
      run: async (node?: unknown) => {
        const p = passageOf(node);
        if (p) await store.setPinned(p, true);
      },
    },
    {
      id: 'shunong.browser.unpin',
      run: async (node?: unknown) => {
        const p = passageOf(node);
        if (p) await store.setPinned(p, false);
      },
    },
  ];
}

/** Clears the workspace's recent searches, asking first unless `skipConfirm` is true. */
async function clearSearches(store: BrowserNeeds['store'], skipConfirm: unknown): Promise<boolean> {
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
}

/** Unpins every pinned passage, asking first unless `skipConfirm` is true. */
async function unpinAll(store: BrowserNeeds['store'], skipConfirm: unknown): Promise<boolean> {
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
}

/** The commands on the view's searches and pins. */
export function searchCommands({ store, reveal }: BrowserNeeds): Command[] {
  return [
    {
      id: 'shunong.browser.searchAgain',
      run: (node?: unknown) => {
        const n = node as BrowserNode | undefined;
        if (n?.type === 'search') return vscode.commands.executeCommand('shunong.searchAgain', n.record.id);
        if (n?.type === 'passage') {
          if (n.record) return vscode.commands.executeCommand('shunong.searchAgain', n.record.id);
          return vscode.commands.executeCommand('shunong.searchKnowledge', {
            query: n.passage.query,
            kbCode: n.passage.kbCode,
          });
        }
        if (n?.type === 'base')
          return vscode.commands.executeCommand('shunong.searchKnowledge', { kbCode: n.base.code });
        return vscode.commands.executeCommand('shunong.searchAgain');
      },
    },
    {
      id: 'shunong.browser.removeSearch',
      run: async (node?: unknown) => {
        const n = node as BrowserNode | undefined;
        if (n?.type === 'search') await store.update((s) => removeSearch(s, n.record.id));
      },
    },
    { id: 'shunong.browser.clearHistory', run: (skipConfirm?: unknown) => clearSearches(store, skipConfirm) },
    { id: 'shunong.browser.clearPins', run: (skipConfirm?: unknown) => unpinAll(store, skipConfirm) },
    {
      id: 'shunong.browser.reveal',
      run: (recordId?: unknown, passageId?: unknown) =>
        typeof recordId === 'string' && typeof passageId === 'string' ? reveal(recordId, passageId) : false,
    },
  ];
}
