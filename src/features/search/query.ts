/**
 * The query step: the composed (or typed) query, editable, with its options. In the free-text
 * search with `shunong.knowledge.searchAsYouType` on, the passages of the typed query are listed
 * under the Search item as the user types; Enter on the typed text (the Search item) still runs the
 * full search with its no-hit offers, Enter on a passage inserts it cited.
 */
import vscode = require('vscode');
import type { SearchOptions, SearchRecord } from '../../knowledge/history';
import type { SearchOutcome } from '../../knowledge/search';
import { citePassage, confirmBelowUsual, passageButton } from './cite';
import { commitOutcome } from '../shared/search/searching';
import type { EndStatus, FlowContext } from './sessionState';
import { typedItems } from './freeText';
import type { StepView } from './input';
import { BUTTON_CITATION, BUTTON_OPTIONS, BUTTON_SNIPPET, describeOptions, type FlowItem } from './items';
import { editOptions } from './options';
import { settings } from '../shared/settings';

/** Where the query step is shown: with Back and "(5/5)" in the guided search, alone elsewhere. */
export interface QueryPlace {
  readonly back: boolean;
  readonly step?: number;
  /** In the free-text search: the passages of the typed query are listed as the user types (when the setting is on). */
  readonly live: boolean;
}

/**
 * Shows the query step until it is answered. Returns the search to run or — in the free-text
 * search — how the session ended when a passage found while typing was inserted or cited. Back and
 * closing are thrown.
 */
export async function queryStep(
  ctx: FlowContext,
  initial: SearchOptions,
  place: QueryPlace,
): Promise<SearchOptions | EndStatus> {
  const { input, services } = ctx;
  let options = initial;
  const asYouType = place.live && settings.knowledge(ctx.target?.document.uri).searchAsYouType;
  let found: FlowItem[] = [];
  let record: SearchRecord | undefined;
  let outcome: (SearchOutcome & { kind: 'hit' }) | undefined;
  let previewed = false;
  try {
    for (;;) {
      const search: FlowItem = {
        label: `$(search) ${vscode.l10n.t('Search')}`,
        description: describeOptions(options),
        role: 'search',
        alwaysShow: true,
      };
      const more: FlowItem = {
        label: `$(settings-gear) ${vscode.l10n.t('Options…')}`,
        role: 'options',
        alwaysShow: true,
      };
      let shown = '';
      const show = (items: FlowItem[]): void => {
        found = items;
        input.qp.items = [search, more, ...items];
      };
      const live: Partial<StepView> = {
        onValue: (v: string): void => {
          const query = v.trim();
          if (query === shown) return;
          shown = query;
          ctx.typing.typed({ ...options, query }, (r) => {
            if (!(r instanceof Error) && r.kind === 'hit') {
              outcome = r;
              record = r.record;
            }
            show(typedItems(r, services.connection.endpoint, services.safety));
          });
        },
        onActive: (item) => {
          if (item?.role !== 'passage') return;
          previewed = true;
          void services.docs.preview(item.stored);
        },
        onItemButton: (item, button) => {
          if (item.role !== 'passage' || !record) return;
          if (button === BUTTON_SNIPPET || button === BUTTON_CITATION)
            input.answer({
              kind: 'accept',
              item,
              value: input.qp.value,
              citeAs: button === BUTTON_SNIPPET ? 'snippet' : 'citation',
            });
          else
            passageButton(ctx, record, item.stored, button, () =>
              outcome ? commitOutcome(services.store, outcome) : Promise.resolve(),
            );
        },
      };
      const r = await input.show({
        title: vscode.l10n.t('Search Knowledge: the query (edit it freely)'),
        placeholder: asYouType
          ? vscode.l10n.t('Type the query: passages appear as you type; Enter searches, or pick a passage to insert it')
          : vscode.l10n.t('The query: crop + growth stage + farm task, then your words'),
        items: [search, more, ...found],
        value: options.query,
        back: place.back,
        buttons: [BUTTON_OPTIONS],
        ...(place.step !== undefined ? { step: place.step, total: 5 } : {}),
        ...(asYouType ? live : {}),
      });
      ctx.typing.cancel();
      input.qp.busy = false;
      if (r.kind === 'accept' && r.item?.role === 'passage' && record && outcome) {
        if (!(await confirmBelowUsual(ctx, r.item.stored))) continue;
        ctx.found(record);
        await commitOutcome(services.store, outcome);
        input.qp.hide();
        if (previewed) {
          previewed = false;
          await services.docs.closePreview();
        }
        return citePassage(ctx, r.item.stored.passage, r.citeAs !== 'citation');
      }
      const query = input.qp.value.trim();
      options = { ...options, query };
      if (r.kind === 'button' || r.item?.role === 'options') {
        options = await editOptions(ctx, options);
        found = [];
        record = undefined;
        outcome = undefined;
        continue;
      }
      if (query === '') continue;
      return options;
    }
  } finally {
    ctx.typing.cancel();
    input.qp.busy = false;
    if (previewed) await services.docs.closePreview();
  }
}
