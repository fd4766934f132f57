/**
 * The checks on a local picture before anything is sent: its size on disk, then its type by its
 * magic bytes (JPEG, PNG or WebP). The command and the chat's recognition tool read pictures
 * through {@link readPicture}, so both accept and refuse the same files.
 */
import vscode = require('vscode');
import { ImageRefusedError, MAX_INPUT_BYTES, UPLOADABLE_FORMATS, sniffImageFormat } from '../../recognition/image';
import type { Source } from './state';
import { describeRefusal } from './strings';

/** The picture's bytes once checked; or the message the user was shown. `bytes` is undefined for a URL or pasted data. */
export type CheckedSource = { ok: true; bytes: Uint8Array | undefined } | { ok: false; message: string };

/**
 * Reads a local picture the platform may be sent (after shrinking or conversion by the flow).
 * Throws `ImageRefusedError` for a file too large to read, not an image or of another format; a
 * file that cannot be read throws the file system's error.
 */
export async function readPicture(uri: vscode.Uri): Promise<Uint8Array> {
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > MAX_INPUT_BYTES) throw new ImageRefusedError('too-large', undefined, stat.size);
  const bytes = await vscode.workspace.fs.readFile(uri);
  const format = sniffImageFormat(bytes);
  if (!format) throw new ImageRefusedError('not-image', undefined, bytes.length);
  if (!UPLOADABLE_FORMATS.includes(format)) throw new ImageRefusedError('unsupported-format', format, bytes.length);
  return bytes;
}

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
