/** "Open the full passage" of a cited passage: the shared read-only passage document. */
import vscode = require('vscode');
import type { PassageDocs } from '../shared/passageDocs';

/** Registers the `shunong.openPassage` command (a citation key, `doc#idx`, of the workspace cache). */
export function registerPassageViewer(docs: PassageDocs): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('shunong.openPassage', async (key?: unknown) =>
      typeof key === 'string' ? docs.openCited(key) : undefined,
    ),
  ];
}
