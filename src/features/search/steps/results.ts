/**
 * The results list: the passages in the server's (or the fused) order, the preview beside that
 * follows the active item, the counts and score notes under them, and the buttons to cite, copy or
 * show a passage in the browser.
 */
import vscode = require('vscode');
import type { SearchOptions } from '../../../knowledge/history';
import type { SearchOutcome } from '../../../knowledge/search';
import { summarizeCounts } from '../../../knowledge/summary';
import { describeError } from '../../shared/errors';
import { localise, scoreNote } from '../../shared/passageText';
import { FlowAction } from '../input';
import {
  BUTTON_CITATION,
  BUTTON_OPTIONS,
  BUTTON_SNIPPET,
  passageItems,
  resultsHeading,
  separator,
  type FlowItem,
} from '../items';
import type { EndStatus, FlowContext } from '../state';

/** The info lines under the results: counts, server warnings, what the scores mean, the bases that failed. */
function infoItems(ctx: FlowContext, outcome: SearchOutcome & { kind: 'hit' }): FlowItem[] {
  const scoreType = outcome.record.passages[0]?.passage.scoreType ?? '';
  const info = [
    ...summarizeCounts(outcome.counts, outcome.warnings).map(localise),
    scoreNote(scoreType, outcome.fused),
    ...outcome.failed.map((f) =>
      vscode.l10n.t('{0} did not answer: {1}', f.kbCode, describeError(f.error, ctx.services.connection.endpoint)),
    ),
  ];
  return [
    separator(vscode.l10n.t('About these results')),
    ...info.map((line): FlowItem => ({ label: `$(info) ${line}`, role: 'info' })),
  ];
}

/**
 * Shows the results of a hit until one is used. Returns new options to search with (Back edits the
 * query, the options button edits the options) or how the session ended; closing is thrown.
 */
export async function resultsStep(
  ctx: FlowContext,
  outcome: SearchOutcome & { kind: 'hit' },
): Promise<SearchOptions | EndStatus> {
  const { record } = outcome;
  const { input, services } = ctx;
  const docs = services.docs;
  const passages = passageItems(record, false, services.safety);
  const info = infoItems(ctx, outcome);
  for (;;) {
    let r;
    try {
      r = await input.show({
        title: resultsHeading(outcome),
        placeholder: vscode.l10n.t('Enter inserts the cited snippet; the buttons cite, copy or show it in the browser'),
        items: [...passages, ...info],
        back: true,
        buttons: [BUTTON_OPTIONS],
        onActive: (item) => {
          if (item?.role === 'passage') void docs.preview(item.stored);
        },
        onItemButton: (item, button) => {
          if (item.role !== 'passage') return;
          if (button === BUTTON_SNIPPET || button === BUTTON_CITATION)
            input.answer({
              kind: 'accept',
              item,
              value: '',
              citeAs: button === BUTTON_SNIPPET ? 'snippet' : 'citation',
            });
          else ctx.steps.passageButton(record, item.stored, button, () => Promise.resolve());
        },
      });
    } catch (err) {
      if (err === FlowAction.back) return ctx.steps.query(record.options, { back: false, live: ctx.freeText });
      if (err === FlowAction.cancel) await docs.closePreview();
      throw err;
    }
    if (r.kind === 'button') return ctx.steps.options(record.options);
    if (r.item?.role !== 'passage') continue;
    if (!(await ctx.steps.confirmBelowUsual(r.item.stored))) continue;
    input.qp.hide();
    await docs.closePreview();
    return ctx.steps.cite(r.item.stored.passage, r.citeAs !== 'citation');
  }
}
