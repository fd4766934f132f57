/**
 * The knowledge search wired to the shared connection: the search commands (guided, free text,
 * search-as-you-type) and the chat's knowledge tool both run it, so a query is turned into the same
 * arguments (the `shunong.knowledge.*` settings, the knowledge base its crop names), every
 * knowledge base is searched one by one and fused by rank, and each passage's score is read by its
 * `score_type`, whoever asks.
 */
import type * as vscode from 'vscode';
import type { KnowledgeLib } from '../../bundles';
import type { KnowledgeState, SearchOptions } from '../../knowledge/history';
import { runSearch, type SearchDeps, type SearchOutcome } from '../../knowledge/search';
import type { KnowledgeResult } from '../../shunong/index';
import type { Connection } from '../shared/connection';
import { isPlatformError } from '../shared/errors';
import { settings } from '../shared/settings';
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
