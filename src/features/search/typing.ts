/**
 * Search-as-you-type of the free-text query step: debounced, a superseded request aborted, busy
 * while a request is in flight (the query step, steps/query.ts, lists what it answers).
 */
import type { SearchOptions } from '../../knowledge/history';
import type { LatestOnly } from '../../knowledge/latestOnly';
import type { SearchOutcome } from '../../knowledge/search';
import { searchThrough } from '../shared/search/searching';
import type { SearchServices, TypingSearch } from './state';
import type { FlowInput } from './input';

/** Quiet time after the last keystroke before a search-as-you-type request is sent. */
export const TYPING_DELAY_MS = 300;
/** Shorter queries are not searched while typing (Enter still searches them). */
const TYPING_MIN_CHARS = 2;

/** Search-as-you-type of one session (its debouncer is made on first use). */
export class LiveSearch implements TypingSearch {
  private live: LatestOnly<SearchOptions, SearchOutcome> | undefined;
  /** Counts the requests, so only the latest one clears `busy`. */
  private generation = 0;

  constructor(
    private readonly input: FlowInput,
    private readonly services: SearchServices,
  ) {}

  /** @inheritdoc Failures are shown by `shown` as an item, never as notifications. */
  typed(options: SearchOptions, shown: (r: SearchOutcome | Error | undefined) => void): void {
    const live = (this.live ??= this.services.debounce((o: SearchOptions, signal: AbortSignal) =>
      this.request(o, signal),
    ));
    const input = this.input;
    const token = input.token;
    if ([...options.query].length < TYPING_MIN_CHARS) {
      live.cancel();
      input.qp.busy = false;
      shown(undefined);
      return;
    }
    live(options).then(
      (r) => {
        if (r.status === 'ok' && token === input.token && !input.hidden) shown(r.value);
      },
      (err: unknown) => {
        if (token === input.token && !input.hidden) shown(err instanceof Error ? err : new Error(String(err)));
      },
    );
  }

  cancel(): void {
    this.live?.cancel();
  }

  /** One request: busy while in flight; the store is left alone until a passage is used. */
  private async request(options: SearchOptions, signal: AbortSignal): Promise<SearchOutcome> {
    const gen = ++this.generation;
    this.input.qp.busy = true;
    try {
      const state = this.services.store.state;
      return await searchThrough(this.services.connection, state, options, signal);
    } finally {
      if (gen === this.generation) this.input.qp.busy = false;
    }
  }
}
