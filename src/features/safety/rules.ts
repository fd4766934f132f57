/**
 * The rules in force: the shipped ones plus the station's file named by `shunong.safety.rulesFile`
 * (relative to the first workspace folder). A bad file keeps the shipped rules working and is
 * reported where the author can fix it: a diagnostic on each problem's line of the file, and a
 * notification with "Open". The file and the setting are watched, and a change reloads the rules.
 */
import vscode = require('vscode');
import { readWorkspaceText } from '../shared/decoding';
import { onDidChangeSettings, settings } from '../shared/settings';
import type { RulesProblem } from '../../safety/types';
import type { SafetyService } from '../shared/safety';

/** The rules file's problems in the Problems panel (source `shunong-safety`). */
export class StationRules implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('shunong-safety-rules');
  private watcher: vscode.FileSystemWatcher | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The file read last, if any. */
  file: vscode.Uri | undefined;

  constructor(private readonly safety: SafetyService) {
    this.subscriptions.push(onDidChangeSettings('safety', () => void this.reload()));
  }

  /** The file the setting names, or undefined when it names none. */
  private target(): vscode.Uri | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const name = settings.safety(folder?.uri).rulesFile;
    if (!name) return undefined;
    return folder ? vscode.Uri.joinPath(folder.uri, name) : vscode.Uri.file(name);
  }

  /** Reads the rules again and hands them on; resolves to the problems found (none for no file). */
  async reload(): Promise<RulesProblem[]> {
    if (this.file) this.collection.delete(this.file);
    const uri = this.target();
    this.watch(uri);
    const had = this.file;
    this.file = uri;
    // Without a file the shipped rules stand; the core is not loaded for them before a bulletin needs it.
    if (!uri) {
      if (had) this.safety.setRules(this.safety.core.shippedRules());
      return [];
    }
    const base = this.safety.core.shippedRules();
    const read = await readWorkspaceText(uri);
    if ('error' in read) {
      const problem = {
        line: 1,
        message:
          read.error === 'undecodable'
            ? vscode.l10n.t('The file is not UTF-8, UTF-16 or GB18030 text; save it as UTF-8.')
            : vscode.l10n.t('The file could not be read.'),
      };
      this.report(uri, [problem]);
      this.safety.setRules(base);
      return [problem];
    }
    const { text } = read;
    const { rules, problems } = this.safety.core.withStationRules(base, text, vscode.workspace.asRelativePath(uri));
    this.report(uri, problems);
    this.safety.setRules(rules);
    return problems;
  }

  /** Publishes the problems on the file and tells the author once per load. */
  private report(uri: vscode.Uri, problems: readonly RulesProblem[]): void {
    if (problems.length === 0) {
      this.collection.delete(uri);
      return;
    }
    this.collection.set(
      uri,
      problems.map((p) => {
        const at = new vscode.Position(Math.max(0, p.line - 1), Math.max(0, (p.column ?? 1) - 1));
        const d = new vscode.Diagnostic(new vscode.Range(at, at), p.message, vscode.DiagnosticSeverity.Error);
        d.source = 'shunong-safety';
        return d;
      }),
    );
    const first = problems[0]!;
    const open = vscode.l10n.t('Open');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          'The pesticide rules file {0} has a problem on line {1}: {2} The shipped rules are used until it is fixed.',
          vscode.workspace.asRelativePath(uri),
          first.line,
          first.message,
        ),
        open,
      )
      .then(async (choice) => {
        if (choice !== open) return;
        const editor = await vscode.window.showTextDocument(uri);
        const at = new vscode.Position(Math.max(0, first.line - 1), 0);
        editor.selection = new vscode.Selection(at, at);
        editor.revealRange(new vscode.Range(at, at));
      });
  }

  /** Watches the named file (only it): a save, a create or a delete reloads the rules. */
  private watch(uri: vscode.Uri | undefined): void {
    if (uri?.toString() === this.file?.toString() && this.watcher) return;
    this.watcher?.dispose();
    this.watcher = undefined;
    if (!uri) return;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const pattern = folder
      ? new vscode.RelativePattern(folder, vscode.workspace.asRelativePath(uri, false))
      : new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), uri.path.split('/').pop() ?? '');
    this.watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const again = (): void => void this.reload();
    this.watcher.onDidChange(again);
    this.watcher.onDidCreate(again);
    this.watcher.onDidDelete(again);
  }

  dispose(): void {
    this.watcher?.dispose();
    this.collection.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
