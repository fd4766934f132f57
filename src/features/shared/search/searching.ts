/**
 * The knowledge search wired to the shared connection: the search commands (guided, free text,
 * search-as-you-type) and the chat's knowledge tool both run it, so a query is turned into the same
 * arguments (the `shunong.knowledge.*` settings, the knowledge base its crop names), every
 * knowledge base is searched one by one and fused by rank, and each passage's score is read by its
 * `score_type`, whoever asks; and what a search saw is kept in the store the same way.
 */
import type * as vscode from 'vscode';
import type { KnowledgeLib } from '../../../bundles';
import { addSearch, observeBases, type KnowledgeState, type SearchOptions } from '../../../knowledge/history';
import { runSearch, type SearchDeps, type SearchOutcome } from '../../../knowledge/search';
import type { KnowledgeResult } from '../../../shunong/index';
import type { Connection } from '../connection';
import type { KnowledgeStore } from '../knowledgeStore';
import { isPlatformError } from '../errors';
import { settings } from '../settings';
import { vocabularyFor } from './vocabulary';

/**
 * The search of free words `query`: topK, threshold and rerank from the settings of `scope`, the
 * knowledge base the `defaultKbCode` setting names, else the one the query's crop names, else all.
 */
export function textSearchOptions(query: string, scope: vscode.Uri | undefined, lib: KnowledgeLib): SearchOptions {
  const defaults = settings.knowledge(scope);
  const detected = query ? lib.detectSelection(query, vocabularyFor(lib, scope)) : undefined;
  const kbCode = defaults.defaultKbCode || detected?.kbCode || '';
  return {
    query,
    ...(kbCode ? { kbCode } : {}),
    topK: defaults.topK,
    scoreThreshold: defaults.scoreThreshold,
    useRerank: defaults.useRerank,
  };
}

/** What `runSearch` needs: the shared client's call, the knowledge bases known in `state`, the usual threshold. */
function searchDeps(
  client: { knowledgeSearch(o: SearchOptions, opts: { signal: AbortSignal }): Promise<KnowledgeResult> },
  state: KnowledgeState,
  scope?: vscode.Uri,
): SearchDeps {
  return {
    call: (o, signal): Promise<KnowledgeResult> => client.knowledgeSearch(o, { signal }),
    missOf: (e) => (isPlatformError(e, 'knowledge-miss') ? e : undefined),
    bases: state.bases,
    basesListed: state.basesListed,
    now: () => new Date(),
    usualThreshold: settings.knowledge(scope).scoreThreshold,
  };
}

/**
 * Runs the search `options` through `connection` with the knowledge bases known in `state`
 * (`scope`: the document whose usual threshold marks the passages under it). A rejected key does
 * not offer "Set API Key": every caller shows the failure its own way.
 */
export function searchThrough(
  connection: Connection,
  state: KnowledgeState,
  options: SearchOptions,
  signal: AbortSignal,
  scope?: vscode.Uri,
): Promise<SearchOutcome> {
  return connection.run((client) => runSearch(options, searchDeps(client, state, scope), signal), {
    offerSetKey: false,
  });
}

/**
 * Remembers what a search saw (knowledge bases) and, for a hit, the search in the history
 * (`toHistory` false: the bases only, for a search the author did not run from the search UI).
 */
export async function commitOutcome(store: KnowledgeStore, outcome: SearchOutcome, toHistory = true): Promise<void> {
  await store.update((s) => {
    let next = s;
    for (const o of outcome.observed) next = observeBases(next, o.kbCode, o.kbName, o.listed);
    if (toHistory && outcome.kind === 'hit' && !next.history.some((r) => r.id === outcome.record.id))
      next = addSearch(next, outcome.record);
    return next;
  });
}
