/** What a verification run tells the author when it ends. */
import vscode = require('vscode');
import type { VerifyReport } from '../../citations/index';
import type { CommandId } from '../../settings/commands';
import type { Failures } from '../shared/failures';
import { summary } from './strings';

/** Tells the outcome of a run; `command` re-runs it asking again when outcomes came from today's cache. */
export async function announce(
  report: VerifyReport | undefined,
  failures: Failures,
  command?: CommandId,
): Promise<VerifyReport | undefined> {
  if (!report) return report;
  if (report.results.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No citations of ours to verify.'));
    return report;
  }
  if (report.cancelled) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Verification cancelled. {0}', summary(report)));
    return report;
  }
  if (report.stoppedBy !== undefined) {
    failures.report(command ?? 'shunong.fetchPassage', report.stoppedBy);
    return report;
  }
  const text = summary(report);
  const clean = report.results.every((r) => r.outcome.status === 'verified');
  const show = vscode.l10n.t('Show Problems');
  const again = vscode.l10n.t('Ask Again');
  const buttons = [...(clean ? [] : [show]), ...(command && report.results.some((r) => r.cached) ? [again] : [])];
  void (
    clean ? vscode.window.showInformationMessage(text, ...buttons) : vscode.window.showWarningMessage(text, ...buttons)
  ).then((c) =>
    c === show
      ? vscode.commands.executeCommand('workbench.actions.view.problems')
      : c === again && command
        ? vscode.commands.executeCommand(command, { refresh: true })
        : undefined,
  );
  return report;
}
