/** An export refused for what the Problems panel lists (broken citations, banned pesticides). */
import vscode = require('vscode');

/** Says why the export was refused, offering the Problems panel, where each cause is listed. */
export async function refusedForProblems(message: string): Promise<void> {
  const show = vscode.l10n.t('Show Problems');
  const pick = await vscode.window.showErrorMessage(message, show);
  if (pick === show) await vscode.commands.executeCommand('workbench.actions.view.problems');
}
