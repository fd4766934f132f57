/**
 * After a miss: why nothing matched (candidate counts, threshold, best score) and the ways out —
 * lower or turn off the threshold (confirmed: noise), refine with the guided steps, search every
 * knowledge base, or edit the query. Nothing is inserted without a hit.
 */
import vscode = require('vscode');
import type { SearchOptions } from '../../../knowledge/history';
import type { MissOffer } from '../../../knowledge/miss';
import type { SearchOutcome } from '../../../knowledge/search';
import { localise } from '../../shared/passageText';
import { vocabularyFor } from '../../shared/search/vocabulary';
import { FlowAction } from '../input';
import { separator, type FlowItem } from '../items';
import type { EndStatus, FlowContext } from '../state';

function offerIcon(o: MissOffer): string {
  switch (o.id) {
    case 'lower-threshold':
    case 'disable-threshold':
      return '$(filter)';
    case 'refine':
      return '$(list-flat)';
    case 'all-knowledge-bases':
      return '$(globe)';
  }
}

/** Shows the miss until a way out is picked. Returns the next search or how the session ended; closing is thrown. */
export async function offersStep(
  ctx: FlowContext,
  outcome: SearchOutcome & { kind: 'miss' },
): Promise<SearchOptions | EndStatus> {
  const lib = ctx.services.knowledge();
  const vocab = vocabularyFor(lib, ctx.target?.document.uri);
  const lines = lib.describeMiss(outcome.miss).map(localise);
  const offers = lib.missOffers(outcome.miss, outcome.options, { vocabulary: vocab });
  const noise = vscode.l10n.t('Low scores bring noise: check each passage before citing it.');
  const offerItems: FlowItem[] = offers.map((o) => {
    const detail = o.warning ? localise(o.warning) : o.change.kind === 'scoreThreshold' ? noise : undefined;
    return {
      label: `${offerIcon(o)} ${localise(o.message)}`,
      ...(detail !== undefined ? { detail } : {}),
      role: 'offer',
      offer: o,
      alwaysShow: true,
    };
  });
  const items: FlowItem[] = [
    ...lines.map((l): FlowItem => ({ label: `$(info) ${l}`, role: 'info', alwaysShow: true })),
    separator(vscode.l10n.t('What next?')),
    ...offerItems,
    { label: `$(edit) ${vscode.l10n.t('Edit the query')}`, role: 'edit', alwaysShow: true },
  ];
  for (;;) {
    const r = await ctx.input.pick({
      title: vscode.l10n.t('No passage matched "{0}"', outcome.options.query),
      placeholder: vscode.l10n.t('Nothing is inserted without a hit. Pick a way to retry.'),
      items,
      ...(offerItems[0] ? { active: offerItems[0] } : {}),
    });
    const it = r.item;
    if (!it || (it.role !== 'edit' && it.role !== 'offer')) continue;
    if (it.role === 'edit') return ctx.steps.query(outcome.options, { back: false, live: ctx.freeText });
    const offer = it.offer;
    if (offer.requiresConfirmation && !(await ctx.steps.confirmNoise(offer.warning ? localise(offer.warning) : noise)))
      continue;
    if (offer.change.kind === 'guided') {
      const { query: _q, ...rest } = outcome.options;
      void _q;
      const guided = await ctx.steps.guided({
        prefill: offer.change.prefill,
        ...(rest.kbCode ? { kbCode: rest.kbCode } : {}),
      });
      if (!guided) throw FlowAction.cancel;
      return { ...rest, ...guided, query: guided.query };
    }
    return { ...offer.args } as SearchOptions;
  }
}
