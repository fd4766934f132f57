/**
 * "Insert Summary into Bulletin": the Markdown summary (with links to the saved pictures) goes into
 * the last active Markdown document at its cursor, as one undoable edit.
 */
import vscode = require('vscode');
import * as path from 'node:path';
import { relativeLink, summaryLabels, summaryMarkdown } from '../../recognition/summary';
import { insertWordsFor } from '../shared/language';
import type { RecognitionPanel } from './panel';
import { save, savedNames } from './saving';
import type { PanelState } from './state';

/** Follows the last active Markdown editor and its cursor: the bulletin a summary goes into. */
export class Bulletins implements vscode.Disposable {
  private last: { uri: string; position: vscode.Position } | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    const track = (e: vscode.TextEditor | undefined): void => {
      if (e && e.document.languageId === 'markdown')
        this.last = { uri: e.document.uri.toString(), position: e.selection.active };
    };
    track(vscode.window.activeTextEditor);
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(track),
      vscode.window.onDidChangeTextEditorSelection((e) => track(e.textEditor)),
    ];
  }

  /** The bulletin to insert into: the last active Markdown editor, else a visible one. */
  target(): { uri: vscode.Uri; position: vscode.Position } | undefined {
    const last = this.last;
    if (last) {
      const uri = vscode.Uri.parse(last.uri);
      const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === last.uri && !d.isClosed);
      if (open) return { uri, position: last.position };
    }
    const e = vscode.window.visibleTextEditors.find((x) => x.document.languageId === 'markdown');
    return e ? { uri: e.document.uri, position: e.selection.active } : undefined;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/** Inserts the Markdown summary into the last active Markdown document, as one undoable edit. */
export async function insertSummary(panel: RecognitionPanel, state: PanelState, bulletins: Bulletins): Promise<void> {
  if (!state.outcome || !state.summary) throw new Error(vscode.l10n.t('There is no result to insert yet.'));
  const target = bulletins.target();
  if (!target) throw new Error(vscode.l10n.t('Open a Markdown bulletin first, then insert the summary.'));
  const doc = await vscode.workspace.openTextDocument(target.uri);
  const saved = await save(
    panel,
    state,
    doc.uri.scheme === 'file' || doc.uri.scheme === 'vscode-remote' ? doc.uri : undefined,
  );
  const link = (u: vscode.Uri | undefined): string | undefined =>
    u && !doc.isUntitled ? relativeLink(doc.uri.path, u.path) : u?.toString();
  const imageLink = link(saved.annotated ?? saved.original);
  const originalLink = saved.annotated ? link(saved.original) : undefined;
  const md = summaryMarkdown(state.summary, {
    labels: summaryLabels(insertWordsFor(doc)),
    date: isoDate(new Date()),
    ...(imageLink !== undefined ? { imageLink } : {}),
    ...(originalLink !== undefined ? { originalLink } : {}),
  });
  const pos = doc.validatePosition(target.position);
  const line = doc.lineAt(pos.line);
  let text = md;
  let at = pos;
  if (!line.isEmptyOrWhitespace) {
    at = line.range.end;
    text = '\n\n' + md;
  } else if (pos.line > 0 && !doc.lineAt(pos.line - 1).isEmptyOrWhitespace) {
    text = '\n' + md;
  }
  if (at.line < doc.lineCount - 1 && !doc.lineAt(at.line + 1).isEmptyOrWhitespace) text += '\n';
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, at, text);
  if (!(await vscode.workspace.applyEdit(edit)))
    throw new Error(vscode.l10n.t('The summary could not be inserted into {0}.', path.basename(doc.uri.path)));
  panel.post({
    type: 'status',
    error: false,
    message: vscode.l10n.t('Summary inserted into {0}; saved {1}.', path.basename(doc.uri.path), savedNames(saved)),
  });
}

const pad = (n: number): string => String(n).padStart(2, '0');

function isoDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
