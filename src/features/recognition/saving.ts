/**
 * "Save Images to Workspace": the annotated PNG (drawn by the webview) and the original picture,
 * written once per result into shunong.recognition.saveFolder inside the workspace folder.
 */
import vscode = require('vscode');
import { insideFolder } from '../../paths';
import { extensionOf } from '../../recognition/image';
import { settings } from '../shared/settings';
import type { RecognitionPanel } from './panel';
import type { PanelState, SavedPictures } from './state';

/** Saves the annotated PNG and the original picture into the configured folder (once per result). */
export async function save(
  panel: RecognitionPanel,
  state: PanelState,
  forDocument: vscode.Uri | undefined,
): Promise<SavedPictures> {
  const outcome = state.outcome;
  if (!outcome) throw new Error(vscode.l10n.t('There is no result to save yet.'));
  if (state.saved && (state.saved.annotated || state.saved.original)) return state.saved;
  const folder = saveFolder(forDocument ?? state.source.uri);
  await vscode.workspace.fs.createDirectory(folder);
  const stamp = timestamp(new Date());
  const base = `${state.source.stem}-${state.type}-${stamp}`;
  const saved: SavedPictures = {};
  if (outcome.original) {
    saved.original = await uniqueUri(folder, `${base}-original`, extensionOf(outcome.original.format));
    await vscode.workspace.fs.writeFile(saved.original, outcome.original.bytes);
  }
  if (outcome.preview) {
    try {
      const png = await panel.annotatedPng();
      saved.annotated = await uniqueUri(folder, base, 'png');
      await vscode.workspace.fs.writeFile(saved.annotated, png);
    } catch (err) {
      panel.post({
        type: 'status',
        error: true,
        message: vscode.l10n.t(
          'The annotated picture could not be saved: {0}',
          err instanceof Error ? err.message : String(err),
        ),
      });
    }
  }
  if (!saved.annotated && !saved.original)
    throw new Error(vscode.l10n.t('Nothing could be saved: the picture is not available.'));
  state.saved = saved;
  return saved;
}

/** The save folder from the setting (resource scope), inside the workspace folder of `scope`. */
function saveFolder(scope: vscode.Uri | undefined): vscode.Uri {
  const wf = (scope && vscode.workspace.getWorkspaceFolder(scope)) ?? vscode.workspace.workspaceFolders?.[0];
  const setting = settings.recognition(scope ?? wf?.uri).saveFolder;
  const rel = insideFolder(setting);
  if (rel === undefined) {
    throw new Error(
      vscode.l10n.t(
        'The setting shunong.recognition.saveFolder must be a folder inside the workspace, not "{0}".',
        setting,
      ),
    );
  }
  if (wf) return vscode.Uri.joinPath(wf.uri, rel);
  if (scope && scope.scheme === 'file') return vscode.Uri.joinPath(scope, '..', rel);
  throw new Error(vscode.l10n.t('Open a folder to save the pictures into.'));
}

/** `base.ext` in `folder`, or `base-1.ext`, … when taken. */
async function uniqueUri(folder: vscode.Uri, base: string, ext: string): Promise<vscode.Uri> {
  for (let i = 0; i < 1000; i++) {
    const uri = vscode.Uri.joinPath(folder, `${base}${i ? `-${i}` : ''}.${ext}`);
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      return uri;
    }
  }
  return vscode.Uri.joinPath(folder, `${base}-${Date.now()}.${ext}`);
}

/** The saved pictures' paths, relative to the workspace, for a status line. */
export function savedNames(saved: SavedPictures): string {
  return [saved.annotated, saved.original]
    .filter((u): u is vscode.Uri => !!u)
    .map((u) => vscode.workspace.asRelativePath(u, false))
    .join(', ');
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** A local date-time stamp for file names: 20260501-083000. */
function timestamp(d: Date): string {
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}
