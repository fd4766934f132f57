/**
 * The quick fix that silences one safety finding: a `shunong-disable-next-line` comment naming its
 * rule, on a line of its own above the finding's line, where the pure core places it so that the
 * bulletin renders as before (src/safety/silenceEdit.ts). One edit, one undo.
 */
import vscode = require('vscode');
import type { SafetyFinding } from '../../safety/types';
import type { SafetyService } from '../shared/safety';

/** The quick fix for a finding; none where no comment line can go (a table's body row). */
export function silenceAction(
  doc: vscode.TextDocument,
  f: SafetyFinding,
  diagnostic: vscode.Diagnostic,
  safety: SafetyService,
): vscode.CodeAction | undefined {
  const at = safety.core.silenceEdit(doc.getText(), f.line, f.rule.id);
  if (!at) return undefined;
  const action = new vscode.CodeAction(
    vscode.l10n.t('Silence this finding (disable next line)'),
    vscode.CodeActionKind.QuickFix,
  );
  action.diagnostics = [diagnostic];
  action.edit = new vscode.WorkspaceEdit();
  if (at.replace) action.edit.replace(doc.uri, doc.lineAt(at.line).range, at.text);
  else {
    const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    action.edit.insert(doc.uri, new vscode.Position(at.line, 0), at.text + eol);
  }
  return action;
}
