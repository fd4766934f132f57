/**
 * The query step: the composed (or typed) query, editable, with its options. In the free-text
 * search with `shunong.knowledge.searchAsYouType` on, the passages of the typed query are listed
 * under the Search item as the user types; Enter on the typed text (the Search item) still runs the
 * full search with its no-hit offers, Enter on a passage inserts it cited.
 */
import vscode = require('vscode');
import type { SearchOptions, StoredPassage } from '../../../knowledge/history';
import type { SearchOutcome } from '../../../knowledge/search';
import { describeError, isPlatformError } from '../../shared/errors';
import type { SafetyService } from '../../shared/safety';
import { commitOutcome } from '../../shared/search/searching';
import { settings } from '../../shared/settings';
import type { StepView } from '../input';
import {
  BUTTON_CITATION,
  BUTTON_OPTIONS,
  BUTTON_SNIPPET,
  describeOptions,
  passageItems,
  resultsHeading,
  separator,
  type FlowItem,
} from '../items';
import type { EndStatus, FlowContext, QueryPlace } from '../state';

/**
 * The items of a search-as-you-type answer: the passages in the server's order, or one quiet line
 * (none for a query too short to search while typing).
 */
function typedItems(r: SearchOutcome | Error | undefined, endpoint: string, safety: SafetyService): FlowItem[] {
  if (r === undefined) return [];
  if (r instanceof Error) {
    const about = isPlatformError(r, 'cancelled') ? vscode.l10n.t('Cancelled.') : describeError(r, endpoint);
    return [{ label: `$(warning) ${about}`, role: 'info', alwaysShow: true }];
  }
  if (r.kind === 'miss') {
    return [
      {
        label: `$(info) ${vscode.l10n.t('No passage for "{0}" yet. Enter searches and tells why.', r.options.query)}`,
        role: 'info',
        alwaysShow: true,
      },
    ];
  }
  return [separator(resultsHeading(r)), ...passageItems(r.record, true, safety)];
}

/** One showing of the query step, until it is answered; what was found while typing is kept between its rounds. */
class QueryStep {
  private options: SearchOptions;
  private readonly asYouType: boolean;
  /** The passages listed under Search and Options… */
  private found: FlowItem[] = [];
  /** The last search-as-you-type hit (its passages are `found`). */
  private hit: (SearchOutcome & { kind: 'hit' }) | undefined;
  /** True while the preview beside shows a passage found while typing. */
  private previewed = false;

  constructor(
    private readonly ctx: FlowContext,
    initial: SearchOptions,
    private readonly place: QueryPlace,
  ) {
    this.options = initial;
    this.asYouType = place.live && settings.knowledge(ctx.target?.document.uri).searchAsYouType;
  }

  /** Shows the step until it is answered (see {@link queryStep}). */
  async run(): Promise<SearchOptions | EndStatus> {
    const { input, services } = this.ctx;
    try {
      for (;;) {
        const r = await input.show(this.view());
        this.ctx.typing.cancel();
        input.qp.busy = false;
        const hit = this.hit;
        if (r.kind === 'accept' && r.item?.role === 'passage' && hit) {
          if (!(await this.ctx.steps.confirmBelowUsual(r.item.stored))) continue;
          return this.usePassage(hit, r.item.stored, r.citeAs !== 'citation');
        }
        const query = input.qp.value.trim();
        this.options = { ...this.options, query };
        if (r.kind === 'button' || r.item?.role === 'options') {
          this.options = await this.ctx.steps.options(this.options);
          this.found = [];
          this.hit = undefined;
          continue;
        }
        if (query === '') continue;
        return this.options;
      }
    } finally {
      this.ctx.typing.cancel();
      input.qp.busy = false;
      if (this.previewed) await services.docs.closePreview();
    }
  }

  /** A passage found while typing, accepted: the search goes to the history, the passage is inserted. */
  private async usePassage(
    hit: SearchOutcome & { kind: 'hit' },
    stored: StoredPassage,
    snippet: boolean,
  ): Promise<EndStatus> {
    const { input, services } = this.ctx;
    this.ctx.found(hit.record);
    await commitOutcome(services.store, hit);
    input.qp.hide();
    if (this.previewed) {
      this.previewed = false;
      await services.docs.closePreview();
    }
    return this.ctx.steps.cite(stored.passage, snippet);
  }

  /** What the step shows this round: Search and Options…, the passages found while typing, and their handlers. */
  private view(): StepView {
    const search: FlowItem = {
      label: `$(search) ${vscode.l10n.t('Search')}`,
      description: describeOptions(this.options),
      role: 'search',
      alwaysShow: true,
    };
    const more: FlowItem = {
      label: `$(settings-gear) ${vscode.l10n.t('Options…')}`,
      role: 'options',
      alwaysShow: true,
    };
    return {
      title: vscode.l10n.t('Search Knowledge: the query (edit it freely)'),
      placeholder: this.asYouType
        ? vscode.l10n.t('Type the query: passages appear as you type; Enter searches, or pick a passage to insert it')
        : vscode.l10n.t('The query: crop + growth stage + farm task, then your words'),
      items: [search, more, ...this.found],
      value: this.options.query,
      back: this.place.back,
      buttons: [BUTTON_OPTIONS],
      ...(this.place.step !== undefined ? { step: this.place.step, total: 5 } : {}),
      ...(this.asYouType ? this.live([search, more]) : {}),
    };
  }

  /** The handlers of search-as-you-type: the typed query searched, a passage previewed, cited, copied or revealed. */
  private live(head: FlowItem[]): Partial<StepView> {
    const { input, services } = this.ctx;
    let shown = '';
    return {
      onValue: (v: string): void => {
        const query = v.trim();
        if (query === shown) return;
        shown = query;
        this.ctx.typing.typed({ ...this.options, query }, (r) => {
          if (r && !(r instanceof Error) && r.kind === 'hit') this.hit = r;
          this.found = typedItems(r, services.connection.endpoint, services.safety);
          input.qp.items = [...head, ...this.found];
        });
      },
      onActive: (item) => {
        if (item?.role !== 'passage') return;
        this.previewed = true;
        void services.docs.preview(item.stored);
      },
      onItemButton: (item, button) => {
        const hit = this.hit;
        if (item.role !== 'passage' || !hit) return;
        if (button === BUTTON_SNIPPET || button === BUTTON_CITATION)
          input.answer({
            kind: 'accept',
            item,
            value: input.qp.value,
            citeAs: button === BUTTON_SNIPPET ? 'snippet' : 'citation',
          });
        else this.ctx.steps.passageButton(hit.record, item.stored, button, () => commitOutcome(services.store, hit));
      },
    };
  }
}

/**
 * Shows the query step until it is answered. Returns the search to run or — in the free-text
 * search — how the session ended when a passage found while typing was inserted or cited. Back and
 * closing are thrown.
 */
export function queryStep(
  ctx: FlowContext,
  initial: SearchOptions,
  place: QueryPlace,
): Promise<SearchOptions | EndStatus> {
  return new QueryStep(ctx, initial, place).run();
}
