/**
 * A local picture before anything is sent: its size on disk, then its type by its magic bytes
 * (JPEG, PNG or WebP), and why a picture was refused. The Recognize command and the chat's
 * recognition tool read pictures through {@link readPicture} and tell a refusal with
 * {@link describeRefusal}, so both accept and refuse the same files in the same words.
 */
import vscode = require('vscode');
import {
  ImageRefusedError,
  MAX_INPUT_BYTES,
  MAX_UPLOAD_BYTES,
  UPLOADABLE_FORMATS,
  sniffImageFormat,
} from '../../../recognition/image';

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

/** Why a picture was refused before anything was sent. */
export function describeRefusal(err: ImageRefusedError, name: string): string {
  const mb = (n: number): string => (n / (1024 * 1024)).toFixed(1);
  switch (err.reason) {
    case 'empty':
      return vscode.l10n.t('{0} is empty. Nothing was sent.', name);
    case 'not-image':
      return vscode.l10n.t('{0} is not an image (JPEG, PNG or WebP). Nothing was sent.', name);
    case 'unsupported-format':
      return vscode.l10n.t(
        '{0} is a {1} image; the platform takes JPEG, PNG or WebP. Nothing was sent.',
        name,
        (err.format ?? '').toUpperCase(),
      );
    case 'too-large':
      return vscode.l10n.t(
        '{0} is {1} MB, more than the {2} MB this extension reads. Nothing was sent.',
        name,
        mb(err.byteLength),
        mb(MAX_INPUT_BYTES),
      );
    case 'cannot-shrink':
      return vscode.l10n.t(
        "{0} is {1} MB, over the platform's {2} MB limit, and could not be shrunk. Save it as a smaller JPEG and try again. Nothing was sent.",
        name,
        mb(err.byteLength),
        mb(MAX_UPLOAD_BYTES),
      );
  }
}
