/**
 * Reads the pictures of a bulletin for an export through `workspace.fs` (so it works in virtual
 * workspaces too): beside the bulletin, from its workspace folder, in `recognition.saveFolder`.
 */
import vscode = require('vscode');
import type { ImageCandidate, ImageReader } from '../../publish/index';
import { settings } from '../shared/settings';

/** The reader of `document`'s pictures. */
export function imageReader(document: vscode.TextDocument): ImageReader {
  const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri;
  const beside = vscode.Uri.joinPath(document.uri, '..');
  const bases: Record<ImageCandidate['base'], vscode.Uri | undefined> = {
    document: document.isUntitled ? undefined : beside,
    workspace: folder,
    saveFolder: folder ? vscode.Uri.joinPath(folder, settings.recognition(document.uri).saveFolder) : undefined,
  };
  return async (c) => {
    const base = bases[c.base];
    if (!base) return undefined;
    try {
      return await vscode.workspace.fs.readFile(vscode.Uri.joinPath(base, ...c.path.split('/')));
    } catch {
      return undefined;
    }
  };
}
