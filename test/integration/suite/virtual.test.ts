/**
 * Files that are not on disk, as in a virtual workspace: the suite registers an in-memory file
 * system (scheme `shunong-memfs`, test code only) and puts a bulletin and the sample workspace's
 * tea photo in it. The extension reads both through VS Code's APIs (TextDocument,
 * workspace.fs), so citations are checked and the photo is recognised as from a local folder;
 * that is what `capabilities.virtualWorkspaces: true` claims.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, until } from './helpers';

const SCHEME = 'shunong-memfs';

/** The smallest in-memory file system: files and folders in one map, keyed by path. */
class MemFs implements vscode.FileSystemProvider {
  private readonly entries = new Map<string, { type: vscode.FileType; data: Uint8Array; mtime: number }>([
    ['/', { type: vscode.FileType.Directory, data: new Uint8Array(), mtime: 0 }],
  ]);
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  private entry(uri: vscode.Uri): { type: vscode.FileType; data: Uint8Array; mtime: number } {
    const e = this.entries.get(uri.path);
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    return e;
  }
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const e = this.entry(uri);
    return { type: e.type, ctime: 0, mtime: e.mtime, size: e.data.length };
  }
  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
    return [...this.entries]
      .filter(([p]) => p !== uri.path && p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
      .map(([p, e]) => [p.slice(prefix.length), e.type]);
  }
  createDirectory(uri: vscode.Uri): void {
    this.entries.set(uri.path, { type: vscode.FileType.Directory, data: new Uint8Array(), mtime: Date.now() });
  }
  readFile(uri: vscode.Uri): Uint8Array {
    return this.entry(uri).data;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const created = !this.entries.has(uri.path);
    this.entries.set(uri.path, { type: vscode.FileType.File, data: content, mtime: Date.now() });
    this.changes.fire([{ type: created ? vscode.FileChangeType.Created : vscode.FileChangeType.Changed, uri }]);
  }
  delete(uri: vscode.Uri): void {
    this.entries.delete(uri.path);
    this.changes.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }
  rename(from: vscode.Uri, to: vscode.Uri): void {
    this.entries.set(to.path, this.entry(from));
    this.entries.delete(from.path);
  }
}

const REPO = path.resolve(__dirname, '..', '..', '..', '..');

suite('Files of a virtual file system', function () {
  this.timeout(60_000);
  let registration: vscode.Disposable | undefined;
  const root = vscode.Uri.from({ scheme: SCHEME, path: '/bulletins' });

  suiteSetup(async () => {
    await api();
    registration = vscode.workspace.registerFileSystemProvider(SCHEME, new MemFs());
    await vscode.workspace.fs.createDirectory(root);
  });
  suiteTeardown(async () => {
    await closeAllEditors();
    registration?.dispose();
  });

  test('a bulletin on it gets its citation Problems', async () => {
    const uri = vscode.Uri.joinPath(root, '简报.md');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('浅修[^1]。\n'));
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal(doc.languageId, 'markdown');
    await vscode.window.showTextDocument(doc);
    const codes = (): string[] =>
      vscode.languages
        .getDiagnostics(uri)
        .map((d) => String(d.code))
        .sort();
    await until(() => codes().length > 0, 'the Problems of the bulletin');
    assert.deepEqual(codes(), ['undefined-reference']);
  });

  test('a photo on it is recognised (read through workspace.fs)', async () => {
    const photo = vscode.Uri.joinPath(root, 'tea-buds.jpg');
    const bytes = await vscode.workspace.fs.readFile(
      vscode.Uri.file(path.join(REPO, 'test', 'fixtures', 'workspace', 'photos', 'tea-buds.jpg')),
    );
    await vscode.workspace.fs.writeFile(photo, bytes);
    const r = (await vscode.commands.executeCommand('shunong.recognizeImage', photo, {
      recognitionType: 'tea_count',
    })) as { status: string; message?: string; summary?: { total: number } };
    assert.equal(r.status, 'done', r.message);
    assert.equal(r.summary?.total, 7);
  });
});
