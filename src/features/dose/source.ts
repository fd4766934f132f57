/**
 * "Find a source for this dose": the quick action of a dose recommended without a citation. It
 * searches the knowledge base for the sentence, keeps the passages that give a dose of the
 * ingredient it recommends (the safety core's doseSources: those that agree with the sentence
 * first), and cites the one the author picks at the end of the sentence, in one edit (one undo
 * step); the passage joins the citation cache, so the dose check compares the sentence with it at
 * once. Where no passage gives that dose, the author is told so and offered the search itself.
 */
import vscode = require('vscode');
import { queryFromContext } from '../../knowledge/editorQuery';
import { keyOf, type StoredPassage } from '../../knowledge/history';
import { loadKnowledge } from '../../bundles';
import type { DoseSource } from '../../safety/doseSource';
import type { CitationService } from '../shared/citationService';
import type { Command } from '../shared/commands';
import type { Connection } from '../shared/connection';
import type { KnowledgeStore } from '../shared/knowledgeStore';
import { withCancellableProgress } from '../shared/progress';
import type { SafetyService } from '../shared/safety';
import { commitOutcome, searchThrough, textSearchOptions } from '../shared/search/searching';

/** What finding a source needs. */
export interface SourceServices {
  readonly connection: Connection;
  readonly store: KnowledgeStore;
  readonly safety: SafetyService;
  readonly citations: Pick<CitationService, 'insert'>;
}

/** Where the sentence is: the code action's arguments. */
interface Where {
  uri: vscode.Uri;
  offset: number;
  length: number;
}

/** The longest query taken from the sentence, in characters. */
const QUERY_LENGTH = 100;

function whereOf(args: unknown[]): Where | undefined {
  const [uri, offset, length] = args;
  if (!(uri instanceof vscode.Uri) || !Number.isInteger(offset) || !Number.isInteger(length)) return undefined;
  return { uri, offset: offset as number, length: length as number };
}

/** The command, for the registry: its arguments are the document, and the sentence's offset and length. */
export function findSourceCommand(services: SourceServices): Command {
  return {
    id: 'shunong.dose.findSource',
    run: async (...args: unknown[]) => {
      const where = whereOf(args);
      if (!where) return false;
      const doc = await vscode.workspace.openTextDocument(where.uri);
      const sentence = doc.getText(
        new vscode.Range(doc.positionAt(where.offset), doc.positionAt(where.offset + where.length)),
      );
      // Only the search is under the progress notification (its Cancel aborts the request), not the choice after it.
      const found = await withCancellableProgress(
        vscode.l10n.t('Searching the knowledge base for a source of this dose…'),
        (signal) => search(services, doc, where, signal),
      );
      if (!found) return false;
      const pick = await choose(services, sentence, found);
      if (!pick) return false;
      return cite(services, doc, where, sentence, pick);
    },
  };
}

/** The passages a search for the sentence finds (none on a miss). */
async function search(
  services: SourceServices,
  doc: vscode.TextDocument,
  where: Where,
  signal: AbortSignal,
): Promise<readonly StoredPassage[] | undefined> {
  const text = doc.getText();
  const { query } = queryFromContext(text, where.offset, {
    selectionEnd: where.offset + where.length,
    maxLength: QUERY_LENGTH,
  });
  if (!query) return undefined;
  const options = textSearchOptions(query, doc.uri, loadKnowledge());
  const outcome = await searchThrough(services.connection, services.store.state, options, signal, doc.uri);
  if (signal.aborted) return undefined;
  // What the search saw (its knowledge bases) is kept; it is not the author's own search, so not in the history.
  void commitOutcome(services.store, outcome, false).catch(() => undefined);
  return outcome.kind === 'hit' ? outcome.record.passages : [];
}

interface SourceItem extends vscode.QuickPickItem {
  stored: StoredPassage;
}

/** The passages that give the sentence's ingredient a dose, agreeing ones first; the author picks one. */
async function choose(
  services: SourceServices,
  sentence: string,
  found: readonly StoredPassage[],
): Promise<StoredPassage | undefined> {
  const { ingredients, sources } = services.safety.core.doseSources(
    sentence,
    found.map((s) => s.passage.content),
    services.safety.rules,
  );
  const items = found
    .map((stored, i) => ({ stored, source: sources[i] }))
    .filter((x): x is { stored: StoredPassage; source: DoseSource } => x.source !== undefined)
    .sort((a, b) => Number(b.source.agrees) - Number(a.source.agrees))
    .map(({ stored, source }): SourceItem => item(stored, source));
  const names = ingredients.join('、');
  if (items.length === 0) {
    await none(sentence, names, found.length);
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Cite a source for the dose of {0}', names),
    placeHolder: vscode.l10n.t(
      'Passages that give a dose of {0}: the one you pick is cited at the end of the sentence',
      names,
    ),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return pick?.stored;
}

function item(stored: StoredPassage, source: DoseSource): SourceItem {
  return {
    label: `${source.agrees ? '$(pass)' : '$(warning)'} ${keyOf(stored.passage)}`,
    description: source.agrees
      ? vscode.l10n.t('gives the dose the sentence gives')
      : vscode.l10n.t('gives another dose: check the sentence once cited'),
    detail: source.quote,
    stored,
  };
}

/** No passage found gives the dose: said, with the knowledge search of the sentence offered. */
async function none(sentence: string, names: string, searched: number): Promise<void> {
  const search = vscode.l10n.t('Search Knowledge…');
  const message = names
    ? vscode.l10n.t('None of the {0} passages found for this sentence gives a dose of {1}.', searched, names)
    : vscode.l10n.t('None of the {0} passages found for this sentence gives its dose.', searched);
  const choice = await vscode.window.showInformationMessage(message, search);
  if (choice === search) await vscode.commands.executeCommand('shunong.searchKnowledge', { query: sentence.trim() });
}

/**
 * Cites the passage at the end of the sentence (before a line break), in one edit. If the
 * sentence changed meanwhile, it is looked for again; when it is gone, nothing is written.
 */
async function cite(
  services: SourceServices,
  doc: vscode.TextDocument,
  where: Where,
  sentence: string,
  stored: StoredPassage,
): Promise<boolean> {
  const text = doc.getText();
  const start =
    text.slice(where.offset, where.offset + where.length) === sentence ? where.offset : text.indexOf(sentence);
  if (start < 0 || sentence.trim() === '') {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('The sentence changed while the source was chosen; nothing was inserted. Try again.'),
    );
    return false;
  }
  const end = start + sentence.replace(/\s+$/, '').length;
  const editor = await vscode.window.showTextDocument(doc, { preserveFocus: false });
  return services.citations.insert(editor, stored.passage, false, doc.positionAt(end));
}
