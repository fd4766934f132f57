/**
 * Knowledge search: "Shunong: Search Knowledge" (guided), "Search Knowledge for Selection" (free
 * text from the editor) and "Search Again" (from the history). The store and the passage documents
 * it shows passages with are handed in (the knowledge browser shares them).
 */
import vscode = require('vscode');
import { queryFromContext } from '../../knowledge/editorQuery';
import type { SearchOptions, SearchRecord } from '../../knowledge/history';
import { loadKnowledge, type KnowledgeLib } from '../../bundles';
import type { CommandRegistry } from '../shared/commands';
import type { Failures } from '../shared/failures';
import type { Connection } from '../shared/connection';
import type { KnowledgeServices } from '../shared/knowledge';
import { KNOWLEDGE_SCHEME } from '../shared/passageDocs';
import { passageCount } from '../shared/passageText';
import type { SearchRun, SearchServices } from './state';
import { TYPING_DELAY_MS } from './typing';
import { SearchSession } from './session';
import { textSearchOptions } from '../shared/search/searching';

/** What the search feature registered. */
/** Options given as a command argument: a search to run at once (or just a knowledge base to start from). */
function isOptions(v: unknown): v is SearchOptions {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { query?: unknown }).query === 'string' &&
    (v as { query: string }).query.trim() !== ''
  );
}

/** The free-text search's first options: the selection (or the words at the cursor) and the settings. */
export function freeTextOptions(editor: vscode.TextEditor | undefined, lib: KnowledgeLib): SearchOptions {
  let query = '';
  if (editor) {
    const doc = editor.document;
    const sel = editor.selection;
    query = queryFromContext(doc.getText(), doc.offsetAt(sel.active), {
      selectionEnd: doc.offsetAt(sel.anchor),
    }).query;
  }
  return textSearchOptions(query, editor?.document.uri, lib);
}

/** Runs a search of the workspace's history again: the one named (by id, or a record), else the one picked. */
async function searchAgain(
  store: KnowledgeServices['store'],
  searchKnowledge: (arg?: unknown) => Promise<SearchRun>,
  arg?: unknown,
): Promise<SearchRun> {
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
        description: `${r.kbCodes.join(', ')} · ${passageCount(r.passages.length)}`,
        detail: r.at.slice(0, 16).replace('T', ' '),
        record: r,
      })),
      { title: vscode.l10n.t('Search again'), placeHolder: vscode.l10n.t('A search of this workspace to run again') },
    );
    if (!pick) return { status: 'closed' };
    record = pick.record;
  }
  return searchKnowledge(record.options);
}

/** Registers the search commands. */
export function activate(
  context: vscode.ExtensionContext,
  services: KnowledgeServices & {
    readonly connection: Connection;
    readonly commands: CommandRegistry;
    readonly failures: Failures;
  },
): void {
  const { store } = services;
  const sessionServices: SearchServices = {
    ...services,
    knowledge: loadKnowledge,
    debounce: (request) => loadKnowledge().createLatestOnly(request, { delayMs: TYPING_DELAY_MS }),
  };
  let session: SearchSession | undefined;

  const open = (): SearchSession => {
    session?.dispose();
    const editor = vscode.window.activeTextEditor;
    session = new SearchSession(sessionServices, editor?.document.uri.scheme === KNOWLEDGE_SCHEME ? undefined : editor);
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
    return finish(s, await s.searchFreeText(freeTextOptions(vscode.window.activeTextEditor, loadKnowledge())));
  };

  services.commands.register(
    { id: 'shunong.searchKnowledge', run: searchKnowledge },
    { id: 'shunong.searchSelection', run: searchSelection },
    { id: 'shunong.searchAgain', run: (arg?: unknown) => searchAgain(store, searchKnowledge, arg) },
  );
  context.subscriptions.push({ dispose: () => session?.dispose() });
}
