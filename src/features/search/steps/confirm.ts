/**
 * A question asked on the search's own quick input, never in a modal dialog: a modal takes the focus,
 * the workbench then closes the quick input, and the search would end under the author's hands.
 * "Back" comes first and is highlighted, so one more Enter never does the risky thing.
 */
import vscode = require('vscode');
import type { FlowItem } from '../items';
import type { FlowContext, Question } from '../state';

/** Asks `title` with `go` as the way forward; true only when `go` is accepted. */
export async function confirmStep(ctx: FlowContext, q: Question): Promise<boolean> {
  const back: FlowItem = { label: `$(arrow-left) ${q.back}`, role: 'skip' };
  const go: FlowItem = { label: `$(warning) ${q.go}`, role: 'done' };
  const r = await ctx.input.pickOrBack({
    title: q.title,
    placeholder: q.placeholder,
    items: [back, go],
    active: back,
    back: true,
  });
  return r?.item === go;
}

/** Before a search that brings noise (a lowered or disabled threshold): asks once. */
export function confirmNoise(ctx: FlowContext, warning: string): Promise<boolean> {
  return confirmStep(ctx, {
    title: warning,
    placeholder: vscode.l10n.t('Low thresholds let off-topic passages through: check each before citing.'),
    go: vscode.l10n.t('Retry anyway'),
    back: vscode.l10n.t('Back'),
  });
}
