/**
 * A bulletin VS Code did not decode in its own encoding (a GBK file opened as UTF-8 holds U+FFFD
 * where its Chinese was): the author is told once per document, with VS Code's own "Reopen with
 * Encoding", and every check, verification and export of it says it was not run instead of
 * passing it. Decoding a document is VS Code's (`files.encoding`, `files.autoGuessEncoding`); a
 * file the extension reads itself (a template, a rules file) is read by `text/decode.ts`.
 */
import vscode = require('vscode');
import { decodeText, isMisdecoded, REPLACEMENT_CHARACTER } from '../../text/decode';

/**
 * A text file the extension reads itself (the bulletin template, the station's rules file): UTF-8,
 * UTF-16 with its byte order mark or GB18030, as `shunong check` reads it; or why it cannot be read.
 */
export async function readWorkspaceText(
  uri: vscode.Uri,
): Promise<{ text: string } | { error: 'unreadable' | 'undecodable' }> {
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch {
    return { error: 'unreadable' };
  }
  const read = decodeText(bytes);
  return read.ok ? { text: read.text } : { error: 'undecodable' };
}

/** VS Code's command that reopens the active editor's file in an encoding the user picks. */
export const REOPEN_WITH_ENCODING = 'workbench.action.editor.changeEncoding';

/** The documents the author has been told about (by URI), so the notice comes once per document. */
const told = new Set<string>();

/** Whether the document's text holds replacement characters: it must not be checked, verified or exported. */
export function isMisdecodedDocument(doc: vscode.TextDocument): boolean {
  return isMisdecoded(doc.getText());
}

/** Where the first replacement character is (the start of the document if none). */
export function firstMisdecoded(doc: vscode.TextDocument): vscode.Range {
  const at = doc.positionAt(Math.max(0, doc.getText().indexOf(REPLACEMENT_CHARACTER)));
  return new vscode.Range(at, at.translate(0, 1));
}

/** What a check, a verification or an export says of a document it did not run on. */
export function notDecodedMessage(doc: vscode.TextDocument, what: 'check' | 'verify' | 'export'): string {
  const name = vscode.workspace.asRelativePath(doc.uri);
  switch (what) {
    case 'check':
      return vscode.l10n.t(
        'Pesticide safety was not checked: the text of {0} was not decoded in its encoding (it shows \uFFFD). Reopen it with its encoding (GB18030 for a file saved as ANSI on Chinese Windows).',
        name,
      );
    case 'verify':
      return vscode.l10n.t(
        'The citations of {0} were not verified: its text was not decoded in its encoding (it shows \uFFFD). Reopen it with its encoding and verify again.',
        name,
      );
    case 'export':
      return vscode.l10n.t(
        '{0} was not exported: its text was not decoded in its encoding (it shows \uFFFD) and would be published garbled. Reopen it with its encoding and export again.',
        name,
      );
  }
}

/**
 * When the document was not decoded: says that `what` was not run on it, offering "Reopen with
 * Encoding", and resolves to true (the caller stops); false for a document read right.
 */
export async function refusedAsMisdecoded(doc: vscode.TextDocument, what: 'verify' | 'export'): Promise<boolean> {
  if (!isMisdecodedDocument(doc)) return false;
  const reopen = vscode.l10n.t('Reopen with Encoding');
  const picked = await vscode.window.showErrorMessage(notDecodedMessage(doc, what), reopen);
  if (picked === reopen) await reopenWithEncoding(doc);
  return true;
}

/** Shows the document and runs VS Code's "Reopen with Encoding" on it. */
async function reopenWithEncoding(doc: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand(REOPEN_WITH_ENCODING);
}

/**
 * Tells the author once per document that its text was not decoded, offering "Reopen with
 * Encoding" (which shows the document and runs VS Code's command). Resolves when the notice is
 * answered or dismissed (at once when it was shown before).
 */
export async function tellMisdecoded(doc: vscode.TextDocument): Promise<void> {
  const key = doc.uri.toString();
  if (told.has(key)) return;
  told.add(key);
  const reopen = vscode.l10n.t('Reopen with Encoding');
  const picked = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      '{0} was not decoded in its encoding: its text shows \uFFFD where characters could not be read. Checks, verification and export are not run on it until it is reopened with its encoding (GB18030 for a file saved as ANSI on Chinese Windows, or turn on files.autoGuessEncoding).',
      vscode.workspace.asRelativePath(doc.uri),
    ),
    reopen,
  );
  if (picked === reopen) await reopenWithEncoding(doc);
}

/** Forgets a closed document, so reopening it with the wrong encoding tells again. */
export function forgetMisdecoded(doc: vscode.TextDocument): void {
  told.delete(doc.uri.toString());
}
