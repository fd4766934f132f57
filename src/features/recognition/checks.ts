/**
 * The check on the Recognize command's picture before anything is sent: a local file is read
 * through the check the chat's recognition tool uses too (src/features/shared/recognition/picture.ts).
 */
import vscode = require('vscode');
import { ImageRefusedError } from '../../recognition/image';
import { describeRefusal, readPicture } from '../shared/recognition/picture';
import type { Source } from './state';

/** The picture's bytes once checked; or the message the user was shown. `bytes` is undefined for a URL or pasted data. */
export type CheckedSource = { ok: true; bytes: Uint8Array | undefined } | { ok: false; message: string };

/** Reads and checks a local picture (a URL or pasted data is checked by the flow). */
export async function checkSource(source: Source): Promise<CheckedSource> {
  if (!source.uri || source.data) return { ok: true, bytes: undefined };
  try {
    return { ok: true, bytes: await readPicture(source.uri) };
  } catch (err) {
    const message =
      err instanceof ImageRefusedError
        ? describeRefusal(err, source.title)
        : vscode.l10n.t('Cannot read {0}: {1}', source.title, err instanceof Error ? err.message : String(err));
    void vscode.window.showErrorMessage(message);
    return { ok: false, message };
  }
}
