/**
 * What the steps of one search session share: its quick input, services, target editor and state,
 * and the steps themselves as they reach one another ({@link Steps}: the session wires them, so no
 * step imports another).
 */
import type { SafetyService } from '../shared/safety';
import type * as vscode from 'vscode';
import type { CitedPassage } from '../../citations/passage';
import type { LatestOnly } from '../../knowledge/latestOnly';
import type { MissInfo } from '../../knowledge/miss';
import type { SearchOptions, SearchRecord, StoredPassage } from '../../knowledge/history';
import type { SearchOutcome } from '../../knowledge/search';
import type { KnowledgeLib } from '../../bundles';
import type { Failures } from '../shared/failures';
import type { Connection } from '../shared/connection';
import type { KnowledgeStore } from '../shared/knowledgeStore';
import type { PassageDocs } from '../shared/passageDocs';
import type { FlowInput } from './input';

/** How a search command ended (returned by the commands, for callers). */
export interface SearchRun {
  readonly status: 'inserted' | 'cited' | 'opened' | 'closed' | 'cancelled' | 'error';
  /** The last search that found passages in this session. */
  readonly record?: SearchRecord;
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
  /** Where a failed search is told and logged. */
  readonly failures: Failures;
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
   * `shown` gets the outcome only if nothing newer came and the step is still on screen, and
   * undefined at once for a query too short to search while typing (its list is emptied).
   */
  typed(options: SearchOptions, shown: (r: SearchOutcome | Error | undefined) => void): void;
  /** Drops the waiting request and aborts the one in flight. */
  cancel(): void;
}

/** Entries (ids) preselected when refining after a miss. */
export interface Prefill {
  readonly crop?: string;
  readonly stage?: string;
  readonly task?: string;
}

/** Where the guided search starts: a knowledge base given, entries preselected. */
export interface GuidedStart {
  readonly prefill?: Prefill;
  readonly kbCode?: string;
}

/** Where the query step is shown: with Back and "(5/5)" in the guided search, alone elsewhere. */
export interface QueryPlace {
  readonly back: boolean;
  readonly step?: number;
  /** In the free-text search: the passages of the typed query are listed as the user types (when the setting is on). */
  readonly live: boolean;
}

/** A question asked on the quick input, with `go` as the way forward and `back` first. */
export interface Question {
  readonly title: string;
  readonly placeholder: string;
  readonly go: string;
  readonly back: string;
}

/**
 * The steps (src/features/search/steps/) as one step calls another. Each shows itself on the
 * session's quick input; Back and closing are thrown as `FlowAction`s unless said otherwise.
 */
export interface Steps {
  /** The guided steps, then the composed query: the search to run, or undefined when closed. */
  guided(start?: GuidedStart): Promise<SearchOptions | undefined>;
  /** The query step: the search to run or — a passage found while typing used — how the session ended. */
  query(initial: SearchOptions, place: QueryPlace): Promise<SearchOptions | EndStatus>;
  /** The options menu: the options when done (Done or Back). */
  options(initial: SearchOptions): Promise<SearchOptions>;
  /** True only when `q.go` is accepted (Back is an answer: false). */
  confirm(q: Question): Promise<boolean>;
  /** Before a search that brings noise (a lowered or disabled threshold): asks once. */
  confirmNoise(warning: string): Promise<boolean>;
  /** Inserts `passage` into the editor the search started from. */
  cite(passage: CitedPassage, snippet: boolean): Promise<EndStatus>;
  /** Before a passage found only under the usual threshold is inserted: true to insert. */
  confirmBelowUsual(stored: StoredPassage): Promise<boolean>;
  /** Copy and "show in the browser" on a passage (`remember`: the search put in the history first). */
  passageButton(
    record: SearchRecord,
    stored: StoredPassage,
    button: vscode.QuickInputButton,
    remember: () => Promise<void>,
  ): void;
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
  /** The steps, for a step to go on to another. */
  readonly steps: Steps;
  /** Notes the last search that found passages. */
  found(record: SearchRecord): void;
}
