/**
 * Before an export: a bulletin with a wrong dose (one that differs from its cited passage, or a
 * dilution whose arithmetic does not add up: the findings `shunong check` counts as problems) goes
 * out only after the user says so in a modal warning. A dose the author silenced with a
 * `shunong-disable-next-line` comment, a dose without a source and a passage not at hand do not
 * stop it: the editor's Problems tell of those.
 */
import vscode = require('vscode');
import type { WrongDose } from '../shared/doses';

/** Whether the export goes on; false when the user cancelled. */
export async function dosesAgreeForExport(wrong: readonly WrongDose[]): Promise<boolean> {
  const first = wrong[0];
  if (!first) return true;
  const anyway = vscode.l10n.t('Export Anyway');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      'Line {0} gives a dose its cited passage does not ({1} wrong dose(s) in all). Export it anyway?',
      first.line + 1,
      wrong.length,
    ),
    { modal: true, detail: first.message },
    anyway,
  );
  return pick === anyway;
}
