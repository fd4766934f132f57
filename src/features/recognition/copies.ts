/**
 * Copies of pictures that exist as no file the webview may read: a shrunk or re-oriented photo,
 * an image downloaded from a URL, a pasted data URI. They are written to one folder of the
 * extension's storage, which is a `localResourceRoots` entry of every preview panel, so the
 * webview loads them through `asWebviewUri` like any local file (no base64 through postMessage).
 * One copy per panel: replaced on each run, deleted when the panel closes; leftovers of earlier
 * sessions older than a day are swept on first use.
 */
import vscode = require('vscode');
import { createHash } from 'node:crypto';
import { extensionOf, type ImageFormat } from '../../recognition/image';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The preview copies of all panels. */
export class PreviewCopies {
  private readonly current = new Map<string, vscode.Uri>();
  private swept = false;
  private counter = 0;

  constructor(
    /** The folder of the copies (inside the extension's global storage). */
    readonly folder: vscode.Uri,
  ) {}

  /** Writes the copy of panel `key`'s picture (replacing its previous one); answers its URI. */
  async write(key: string, bytes: Uint8Array, format: ImageFormat): Promise<vscode.Uri> {
    await vscode.workspace.fs.createDirectory(this.folder);
    if (!this.swept) {
      this.swept = true;
      await this.sweep();
    }
    const stem = createHash('sha256').update(key).digest('hex').slice(0, 16);
    const uri = vscode.Uri.joinPath(
      this.folder,
      `${stem}-${Date.now().toString(36)}${(this.counter++).toString(36)}.${extensionOf(format)}`,
    );
    await vscode.workspace.fs.writeFile(uri, bytes);
    const previous = this.current.get(key);
    this.current.set(key, uri);
    if (previous) await remove(previous);
    return uri;
  }

  /** Deletes the copy of panel `key`, if any. */
  async release(key: string): Promise<void> {
    const uri = this.current.get(key);
    this.current.delete(key);
    if (uri) await remove(uri);
  }

  /** Deletes every copy of this session. */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.current.keys()].map((k) => this.release(k)));
  }

  /** Deletes copies left over by earlier sessions (older than a day). */
  private async sweep(): Promise<void> {
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.folder);
    } catch {
      return;
    }
    const now = Date.now();
    for (const [name, type] of entries) {
      if (type !== vscode.FileType.File) continue;
      const uri = vscode.Uri.joinPath(this.folder, name);
      try {
        const stat = await vscode.workspace.fs.stat(uri);
        if (now - stat.mtime > DAY_MS) await remove(uri);
      } catch {
        // gone already
      }
    }
  }
}

async function remove(uri: vscode.Uri): Promise<void> {
  try {
    await vscode.workspace.fs.delete(uri, { useTrash: false });
  } catch {
    // already gone, or in use: the next sweep takes it
  }
}
