/** What a passage of the results can do: be inserted cited into the bulletin, copied, or shown in the browser. */
import vscode = require('vscode');
import type { CitedPassage } from '../../../citations/passage';
import { idOf, keyOf, type SearchRecord, type StoredPassage } from '../../../knowledge/history';
import { copyPassage } from '../../shared/passageText';
import { BUTTON_COPY, BUTTON_REVEAL } from '../items';
import type { EndStatus, FlowContext } from '../state';

/** Inserts a passage into the editor the search started from (a Markdown bulletin). */
export async function citePassage(ctx: FlowContext, passage: CitedPassage, snippet: boolean): Promise<EndStatus> {
  const target = ctx.target;
  if (!target || target.document.isClosed || target.document.languageId !== 'markdown') {
    await ctx.services.docs.open(passage);
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Open a Markdown bulletin and put the cursor where the citation goes, then insert it from the knowledge browser.',
      ),
    );
    return 'opened';
  }
  await vscode.window.showTextDocument(target.document, {
    viewColumn: target.viewColumn ?? vscode.ViewColumn.Active,
    selection: target.selection,
    preserveFocus: false,
  });
  const ok = await vscode.commands.executeCommand<boolean>(
    snippet ? 'shunong.insertCitedSnippet' : 'shunong.insertCitation',
    passage,
  );
  return ok ? (snippet ? 'inserted' : 'cited') : 'closed';
}

/**
 * Before a passage that came only because its search ran under the usual threshold is inserted:
 * asks once, on the search's own quick input (not a modal dialog), with "Back to the results"
 * first, so that one more Enter does not cite it. True to insert; every other passage is true at once.
 */
export async function confirmBelowUsual(ctx: FlowContext, stored: StoredPassage): Promise<boolean> {
  const usual = stored.view.belowUsual;
  if (usual === undefined) return true;
  return ctx.steps.confirm({
    title: vscode.l10n.t('{0} is below the usual relevance threshold {1}', keyOf(stored.passage), String(usual)),
    placeholder: vscode.l10n.t(
      'It was found only because the threshold was lowered, and may be off-topic. Check that it supports your text.',
    ),
    go: vscode.l10n.t('Insert it anyway'),
    back: vscode.l10n.t('Back to the results'),
  });
}

/** Copy and "show in the browser" on a passage (the browser needs the search in the history first: `remember`). */
export function passageButton(
  ctx: FlowContext,
  record: SearchRecord,
  stored: StoredPassage,
  button: vscode.QuickInputButton,
  remember: () => Promise<void>,
): void {
  if (button === BUTTON_COPY) void copyPassage(stored.passage);
  else if (button === BUTTON_REVEAL) {
    ctx.input.qp.hide();
    void remember().then(() =>
      vscode.commands.executeCommand('shunong.browser.reveal', record.id, idOf(stored.passage)),
    );
  }
}
