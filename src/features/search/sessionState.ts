/** What the steps of one search session share: its quick input, services, target editor and state. */
import type { SafetyService } from '../shared/safety';
import type * as vscode from 'vscode';
import type { LatestOnly } from '../../knowledge/latestOnly';
import type { MissInfo } from '../../knowledge/miss';
import type * as history from '../../knowledge/history';
import type { SearchOutcome } from '../../knowledge/search';
import type { KnowledgeLib } from '../../bundles';
import type { Connection } from '../shared/connection';
import type { KnowledgeStore } from '../shared/knowledgeStore';
import type { PassageDocs } from '../shared/passageDocs';
import type { FlowInput } from './input';

/** How a search command ended (returned by the commands, for callers). */
export interface SearchRun {
  readonly status: 'inserted' | 'cited' | 'opened' | 'closed' | 'cancelled' | 'error';
  /** The last search that found passages in this session. */
  readonly record?: history.SearchRecord;
  /** The last miss shown in this session. */
  readonly miss?: MissInfo;
}

/** How a session ends once a passage was used (or the search failed). */
export type EndStatus = SearchRun['status'];

/** Makes the debouncer of search-as-you-type around `request` (the clock and the quiet time are its own). */
export type Debounce = <I, R>(request: (input: I, signal: AbortSignal) => Promise<R>) => LatestOnly<I, R>;

/** What the search flow needs. */
export interface SearchServices {
  readonly connection: Connection;
  readonly store: KnowledgeStore;
  readonly docs: PassageDocs;
  /** The pesticide rules: results that recommend a banned pesticide are marked. */
  readonly safety: SafetyService;
  /** The knowledge bundle (vocabulary, query composition, misses), loaded on first use. */
  readonly knowledge: () => KnowledgeLib;
  /** The debouncer of search-as-you-type, made on first use. */
  readonly debounce: Debounce;
}

/** Search-as-you-type of the free-text query step. */
export interface TypingSearch {
  /**
   * Asks for `options` after the quiet time, superseding (and aborting) every older request;
   * `shown` gets the outcome only if nothing newer came and the step is still on screen.
   */
  typed(options: history.SearchOptions, shown: (r: SearchOutcome | Error) => void): void;
  /** Drops the waiting request and aborts the one in flight. */
  cancel(): void;
}

/** One session, as its steps see it. */
export interface FlowContext {
  readonly input: FlowInput;
  readonly services: SearchServices;
  /** The editor the search started from (where a passage is inserted). */
  readonly target: vscode.TextEditor | undefined;
  /** True in the free-text search: its query step (also when coming back to it) searches as you type. */
  readonly freeText: boolean;
  /** Search-as-you-type of this session. */
  readonly typing: TypingSearch;
  /** Notes the last search that found passages. */
  found(record: history.SearchRecord): void;
}
