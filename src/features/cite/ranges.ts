/** Offsets of the citation library (UTF-16 document offsets) as editor ranges and edits. */
import vscode = require('vscode');
import type { SourceRange, TextEdit as CitationEdit } from '../../citations/index';

/** The editor range of a source range. */
export function toRange(doc: vscode.TextDocument, r: Pick<SourceRange, 'start' | 'end'>): vscode.Range {
  return new vscode.Range(doc.positionAt(r.start), doc.positionAt(r.end));
}

/** The library's edits as one workspace edit of `doc`. */
export function toWorkspaceEdit(doc: vscode.TextDocument, edits: readonly CitationEdit[]): vscode.WorkspaceEdit {
  const we = new vscode.WorkspaceEdit();
  for (const e of edits) we.replace(doc.uri, toRange(doc, e), e.newText);
  return we;
}
