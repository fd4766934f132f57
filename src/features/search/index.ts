/**
 * Knowledge search: "Shunong: Search Knowledge" (guided), "Search Knowledge for Selection" (free
 * text from the editor) and "Search Again" (from the history), the passage documents, and the
 * sidebar knowledge browser that shows what was found.
 */
import * as vscode from 'vscode';
import { queryFromContext } from '../../knowledge/context';
import { loadKnowledge } from '../../platform';
import type { Connection } from '../shared/connection';
import * as browser from '../browser/index';
import { PassageDocs, KNOWLEDGE_SCHEME } from './docs';
import { settings } from '../shared/settings';
import { SearchSession, vocabularyFor, type SearchRun, type TypingTimers } from './flow';
import type { SearchOptions, SearchRecord } from './model';
import { KnowledgeStore } from './store';

/** What the search feature exposes (for the integration tests). */
export interface KnowledgeApi {
  readonly store: KnowledgeStore;
  readonly docs: PassageDocs;
  readonly browser: browser.Browser;
  /** The session on screen, if any. */
  readonly session: SearchSession | undefined;
  /** The timers of search-as-you-type for the sessions opened from now on (tests inject a manual scheduler). */
  readonly typing: TypingTimers;
}

/** Options given as a command argument: a search to run at once (or just a knowledge base to start from). */
function isOptions(v: unknown): v is SearchOptions {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { query?: unknown }).query === 'string' &&
    (v as { query: string }).query.trim() !== ''
  );
}

/** Registers the search commands, the passage documents and the knowledge browser. */
export function activate(context: vscode.ExtensionContext, services: { connection: Connection }): KnowledgeApi {
  const store = new KnowledgeStore(context.workspaceState);
  const docs = new PassageDocs(store);
  let session: SearchSession | undefined;
  const typing: TypingTimers = {};

  const open = (): SearchSession => {
    session?.dispose();
    const editor = vscode.window.activeTextEditor;
    session = new SearchSession(
      { connection: services.connection, store, docs, typing },
      editor?.document.uri.scheme === KNOWLEDGE_SCHEME ? undefined : editor,
    );
    return session;
  };
  const finish = (s: SearchSession, run: SearchRun): SearchRun => {
    s.dispose();
    if (session === s) session = undefined;
    return run;
  };

  const searchKnowledge = async (arg?: unknown): Promise<SearchRun> => {
    const s = open();
    if (isOptions(arg)) return finish(s, await s.search(arg));
    const kbCode =
      typeof arg === 'object' && arg !== null && typeof (arg as { kbCode?: unknown }).kbCode === 'string'
        ? (arg as { kbCode: string }).kbCode
        : undefined;
    const options = await s.guided(kbCode ? { kbCode } : {});
    return finish(s, options ? await s.search(options) : { status: 'closed' });
  };

  const searchSelection = async (): Promise<SearchRun> => {
    const s = open();
    const editor = vscode.window.activeTextEditor;
    let query = '';
    if (editor) {
      const doc = editor.document;
      const sel = editor.selection;
      query = queryFromContext(doc.getText(), doc.offsetAt(sel.active), {
        selectionEnd: doc.offsetAt(sel.anchor),
      }).query;
    }
    const defaults = settings.knowledge(editor?.document.uri);
    const lib = loadKnowledge();
    const detected = query ? lib.detectSelection(query, vocabularyFor(lib, editor?.document.uri)) : undefined;
    const kbCode = defaults.defaultKbCode || detected?.kbCode || '';
    return finish(
      s,
      await s.searchFreeText({
        query,
        ...(kbCode ? { kbCode } : {}),
        topK: defaults.topK,
        scoreThreshold: defaults.scoreThreshold,
        useRerank: defaults.useRerank,
      }),
    );
  };

  const searchAgain = async (arg?: unknown): Promise<SearchRun> => {
    const history = store.state.history;
    let record: SearchRecord | undefined;
    const id =
      typeof arg === 'string'
        ? arg
        : typeof arg === 'object' && arg !== null
          ? ((arg as { recordId?: unknown; id?: unknown }).recordId ?? (arg as { id?: unknown }).id)
          : undefined;
    if (typeof id === 'string') record = history.find((r) => r.id === id);
    if (!record && isOptions(arg)) return searchKnowledge(arg);
    if (!record) {
      if (history.length === 0) {
        const search = vscode.l10n.t('Search Knowledge');
        const choice = await vscode.window.showInformationMessage(
          vscode.l10n.t('No search in this workspace yet.'),
          search,
        );
        return choice === search ? searchKnowledge() : { status: 'closed' };
      }
      const pick = await vscode.window.showQuickPick(
        history.map((r) => ({
          label: r.options.query,
          description: `${r.kbCodes.join(', ')} · ${vscode.l10n.t('{0} passages', r.passages.length)}`,
          detail: r.at.slice(0, 16).replace('T', ' '),
          record: r,
        })),
        { title: vscode.l10n.t('Search again'), placeHolder: vscode.l10n.t('A search of this workspace to run again') },
      );
      if (!pick) return { status: 'closed' };
      record = pick.record;
    }
    return searchKnowledge(record.options);
  };

  const tree = browser.activate(context, { store, docs });
  context.subscriptions.push(
    store,
    docs,
    { dispose: () => session?.dispose() },
    vscode.workspace.registerTextDocumentContentProvider(KNOWLEDGE_SCHEME, docs),
    vscode.commands.registerCommand('shunong.searchKnowledge', searchKnowledge),
    vscode.commands.registerCommand('shunong.searchSelection', searchSelection),
    vscode.commands.registerCommand('shunong.searchAgain', searchAgain),
  );
  return {
    store,
    docs,
    browser: tree,
    typing,
    get session() {
      return session;
    },
  };
}
