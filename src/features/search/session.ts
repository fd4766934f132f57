/**
 * "Shunong: Search Knowledge" in one quick input: the guided steps (or the free-text query step),
 * then the search with progress (Cancel aborts the request) and its results, or, on a miss, the
 * counts, threshold and best score with the ways out; the loop goes on while the user retries.
 * The session is the one file that imports the steps (steps/): it hands each step the others
 * through its context (`steps`), so no step imports another.
 */
import vscode = require('vscode');
import type { SearchOptions, SearchRecord } from '../../knowledge/history';
import type { MissInfo } from '../../knowledge/miss';
import type { SearchOutcome } from '../../knowledge/search';
import { isPlatformError } from '../shared/errors';
import { withCancellableProgress } from '../shared/progress';
import { commitOutcome, searchThrough } from '../shared/search/searching';
import { FlowAction, FlowInput } from './input';
import { describeOptions } from './items';
import type { FlowContext, GuidedStart, SearchRun, SearchServices, Steps } from './state';
import { LiveSearch } from './typing';
import { citePassage, confirmBelowUsual, passageButton } from './steps/cite';
import { confirmNoise, confirmStep } from './steps/confirm';
import { runGuided } from './steps/guided';
import { offersStep } from './steps/offers';
import { editOptions } from './steps/options';
import { queryStep } from './steps/query';
import { resultsStep } from './steps/results';

/** One run of the search UI, on one QuickPick. */
export class SearchSession implements FlowContext, vscode.Disposable {
  readonly input = new FlowInput();
  readonly typing: LiveSearch;
  readonly steps: Steps = {
    guided: (start) => runGuided(this, start),
    query: (initial, place) => queryStep(this, initial, place),
    options: (initial) => editOptions(this, initial),
    confirm: (q) => confirmStep(this, q),
    confirmNoise: (warning) => confirmNoise(this, warning),
    cite: (passage, snippet) => citePassage(this, passage, snippet),
    confirmBelowUsual: (stored) => confirmBelowUsual(this, stored),
    passageButton: (record, stored, button, remember) => passageButton(this, record, stored, button, remember),
  };
  private lastRecord: SearchRecord | undefined;
  private lastMiss: MissInfo | undefined;
  private free = false;

  constructor(
    readonly services: SearchServices,
    readonly target: vscode.TextEditor | undefined,
  ) {
    this.typing = new LiveSearch(this.input, services);
  }

  get freeText(): boolean {
    return this.free;
  }

  found(record: SearchRecord): void {
    this.lastRecord = record;
  }

  /**
   * The guided steps, then the composed query. Returns the search to run, or undefined when the
   * user closed the flow.
   */
  guided(start: GuidedStart = {}): Promise<SearchOptions | undefined> {
    return this.steps.guided(start);
  }

  /**
   * The quick free-text search: the query step with search-as-you-type, then the full search on
   * Enter (or the passage picked while typing, inserted).
   */
  async searchFreeText(initial: SearchOptions): Promise<SearchRun> {
    this.free = true;
    let chosen;
    try {
      chosen = await this.steps.query(initial, { back: false, live: true });
    } catch (err) {
      if (err === FlowAction.cancel) return this.end('closed');
      throw err;
    }
    if (typeof chosen === 'string') return this.end(chosen);
    return this.search(chosen);
  }

  /** Runs `first` and shows its results or its miss; loops while the user retries. Returns how the session ended. */
  async search(first: SearchOptions): Promise<SearchRun> {
    let options = first;
    for (;;) {
      const outcome = await this.execute(options);
      if (outcome === 'cancelled') return this.end('cancelled');
      if (outcome instanceof Error) {
        this.input.qp.hide();
        this.services.failures.report('search', outcome);
        return this.end('error');
      }
      let next;
      try {
        if (outcome.kind === 'hit') {
          this.lastRecord = outcome.record;
          next = await resultsStep(this, outcome);
        } else {
          this.lastMiss = outcome.miss;
          next = await offersStep(this, outcome);
        }
      } catch (err) {
        if (err === FlowAction.cancel) return this.end('closed');
        throw err;
      }
      if (typeof next === 'string') return this.end(next);
      options = next;
    }
  }

  private end(status: SearchRun['status']): SearchRun {
    return {
      status,
      ...(this.lastRecord ? { record: this.lastRecord } : {}),
      ...(this.lastMiss ? { miss: this.lastMiss } : {}),
    };
  }

  /** One search with progress; Cancel (or closing the quick input) aborts it. */
  private async execute(options: SearchOptions): Promise<SearchOutcome | Error | 'cancelled'> {
    const qp = this.input.qp;
    const { connection, store } = this.services;
    this.input.showBusy(vscode.l10n.t('Searching for "{0}"…', options.query), describeOptions(options));
    const abort = new AbortController();
    const hide = qp.onDidHide(() => abort.abort());
    try {
      return await withCancellableProgress(
        vscode.l10n.t('Searching the knowledge base for "{0}"…', options.query),
        async (signal): Promise<SearchOutcome | 'cancelled'> => {
          const state = store.state;
          // A failure is shown by showError (with "Set API Key" for a key problem): no second offer.
          const outcome = await searchThrough(connection, state, options, signal, this.target?.document.uri);
          if (signal.aborted) return 'cancelled';
          // The store takes the change at once (in memory); writing it to workspace state is not waited for.
          void commitOutcome(store, outcome).catch(() => undefined);
          return outcome;
        },
        abort,
      );
    } catch (err) {
      if (abort.signal.aborted || isPlatformError(err, 'cancelled')) return 'cancelled';
      return err instanceof Error ? err : new Error(String(err));
    } finally {
      hide.dispose();
      qp.busy = false;
      qp.ignoreFocusOut = false;
      if (abort.signal.aborted) {
        qp.hide();
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Knowledge search cancelled.'), 3000);
      }
    }
  }

  dispose(): void {
    this.input.dispose();
  }
}
