/**
 * Before an export: a bulletin that recommends a pesticide banned on its date (by the rules in
 * force, the station's file included) goes out only after the user says so in a modal warning, or not at all
 * with `shunong.export.refuseUnsafe`. Restricted-use and coming bans do not stop an export: the
 * editor's diagnostics tell the author of those. Nor does a ban the author silenced with a
 * `shunong-disable-next-line` comment on the line before it (`SafetyService.bans` leaves it out).
 */
import vscode = require('vscode');
import type { SafetyService } from '../shared/safety';
import { refusedForProblems } from './refused';

/** Whether the export of `text` goes on; false after the user cancelled or was told it is refused. */
export async function safeToExport(text: string, refuse: boolean, safety: SafetyService): Promise<boolean> {
  const bans = safety.bans(text);
  const first = bans[0];
  if (!first) return true;
  const { substance } = safety.describe(first.rule);
  const line = first.line + 1;
  if (refuse) {
    await refusedForProblems(
      vscode.l10n.t(
        'Not exported: line {0} recommends {1}, a banned pesticide ({2} banned pesticide mention(s) in all). Remove them, or turn off shunong.export.refuseUnsafe.',
        line,
        substance,
        bans.length,
      ),
    );
    return false;
  }
  const anyway = vscode.l10n.t('Export Anyway');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      'This bulletin recommends {0} on line {1}, a banned pesticide ({2} banned pesticide mention(s) in all). Export it anyway?',
      substance,
      line,
      bans.length,
    ),
    { modal: true, detail: safety.message(first) },
    anyway,
  );
  return pick === anyway;
}
