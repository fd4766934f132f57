/**
 * What the author can do with a dose Problem: read the passage's own words in a hover; take the
 * passage's value (one edit); silence the finding with the safety lint's comment; fetch the
 * bulletin's missing passages (one action: Verify Citations, which keeps the passages it finds);
 * find a source for a dose recommended without one, and cite it (source.ts).
 */
import vscode = require('vscode');
import { plainForMarkdown } from '../../text/plain';
import type { SafetyService } from '../shared/safety';
import type { DoseDiagnostic, DoseDiagnostics } from './diagnostics';

/** The hover over a dose Problem: the passage's own words for the fact, and what it says instead. */
export function doseHover(
  doc: vscode.TextDocument,
  pos: vscode.Position,
  diagnostics: DoseDiagnostics,
): vscode.Hover | undefined {
  const hit = diagnostics.at(doc).find((d) => d.diagnostic.range.contains(pos) && d.finding.passage);
  if (!hit) return undefined;
  const f = hit.finding;
  const md = new vscode.MarkdownString();
  md.appendMarkdown(
    `**${plainForMarkdown(vscode.l10n.t('The cited passage ({0}) says:', f.citations.join(', ')))}**\n\n`,
  );
  md.appendMarkdown(`> ${plainForMarkdown(f.passage!.quote)}\n`);
  return new vscode.Hover(md, hit.diagnostic.range);
}

/** The quick fix that writes the passage's value in place of the sentence's. */
function takeValue(doc: vscode.TextDocument, d: DoseDiagnostic): vscode.CodeAction | undefined {
  const p = d.finding.passage;
  if (!p?.replace) return undefined;
  const action = new vscode.CodeAction(
    vscode.l10n.t("Use the passage's value: {0}", p.value),
    vscode.CodeActionKind.QuickFix,
  );
  action.diagnostics = [d.diagnostic];
  action.isPreferred = true;
  action.edit = new vscode.WorkspaceEdit();
  action.edit.replace(
    doc.uri,
    new vscode.Range(doc.positionAt(p.replace.start), doc.positionAt(p.replace.end)),
    p.value,
  );
  return action;
}

/** The quick fix that silences the finding: the safety lint's comment, naming its code. */
function silence(doc: vscode.TextDocument, d: DoseDiagnostic, safety: SafetyService): vscode.CodeAction | undefined {
  const at = safety.core.silenceEdit(doc.getText(), d.finding.line, d.finding.code);
  if (!at) return undefined;
  // Its own title: a pesticide finding on the same line offers the safety lint's silencing beside it.
  const action = new vscode.CodeAction(
    vscode.l10n.t('Silence this dose finding (disable next line)'),
    vscode.CodeActionKind.QuickFix,
  );
  action.diagnostics = [d.diagnostic];
  action.edit = new vscode.WorkspaceEdit();
  if (at.replace) action.edit.replace(doc.uri, doc.lineAt(at.line).range, at.text);
  else
    action.edit.insert(
      doc.uri,
      new vscode.Position(at.line, 0),
      at.text + (doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n'),
    );
  return action;
}

/** The action that runs a command (fetching the passages, searching for a source). */
function run(title: string, d: DoseDiagnostic, command: string, args: unknown[]): vscode.CodeAction {
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  action.diagnostics = [d.diagnostic];
  action.command = { title, command, arguments: args };
  return action;
}

/** The code actions of the dose Problems in a range. */
export function doseActions(
  doc: vscode.TextDocument,
  range: vscode.Range,
  diagnostics: DoseDiagnostics,
  safety: SafetyService,
): vscode.CodeAction[] {
  const out: vscode.CodeAction[] = [];
  let fetch = false;
  for (const d of diagnostics.at(doc)) {
    if (!d.diagnostic.range.intersection(range)) continue;
    const take = takeValue(doc, d);
    if (take) out.push(take);
    if (d.finding.code === 'passage-not-at-hand' && !fetch) {
      fetch = true;
      out.push(
        run(vscode.l10n.t("Fetch the bulletin's cited passages (Verify Citations)"), d, 'shunong.verifyCitations', [
          doc.uri,
        ]),
      );
    }
    if (d.finding.code === 'source-needed')
      out.push(
        run(vscode.l10n.t('Find a source for this dose and cite it…'), d, 'shunong.dose.findSource', [
          doc.uri,
          d.finding.offset,
          d.finding.length,
        ]),
      );
    const quiet = silence(doc, d, safety);
    if (quiet) out.push(quiet);
  }
  return out;
}
