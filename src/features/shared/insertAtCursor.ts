/** Inserting generated text at the cursor, as the calendar line and the weather brief are. */
import vscode = require('vscode');

/** Inserts `text` at the cursor of `editor` as one undoable edit; returns false when it could not. */
export async function insertAtCursor(editor: vscode.TextEditor | undefined, text: string): Promise<boolean> {
  if (!editor || editor.document.isClosed) {
    const copy = vscode.l10n.t('Copy');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('No open editor to insert into. Copy the text to the clipboard instead?'),
      copy,
    );
    if (choice === copy) await vscode.env.clipboard.writeText(text);
    return false;
  }
  const sel = editor.selection;
  const line = editor.document.lineAt(sel.active.line);
  // A block goes on lines of its own, after a blank line.
  const block = text.includes('\n');
  const prevLine = sel.start.line > 0 ? editor.document.lineAt(sel.start.line - 1) : undefined;
  const before = !block ? '' : sel.start.character > 0 ? '\n\n' : prevLine && !prevLine.isEmptyOrWhitespace ? '\n' : '';
  const after = text.includes('\n') && !line.isEmptyOrWhitespace && sel.end.character < line.text.length ? '\n' : '';
  return editor.edit((b) => b.replace(sel, before + text + after));
}
