/**
 * The export's questions: which format (the last one chosen comes first), and where — beside the
 * bulletin by default; an existing file is replaced only after the user says so, or another name
 * is chosen in the save dialog.
 */
import vscode = require('vscode');
import type { ExportFormat } from '../../publish/index';

const LAST_FORMAT = 'shunong.export.lastFormat';

/** Where to write. */
export interface Target {
  uri: vscode.Uri;
}

interface FormatItem extends vscode.QuickPickItem {
  format: ExportFormat;
}

/** Asks for the format; undefined when the user cancels. */
export async function chooseFormat(state: vscode.Memento): Promise<ExportFormat | undefined> {
  const items: FormatItem[] = [
    {
      format: 'docx',
      label: `$(file-text) ${vscode.l10n.t('Word document (.docx)')}`,
      detail: vscode.l10n.t('Every citation a real Word footnote; the house style of shunong.export.docxTemplate.'),
    },
    {
      format: 'wechat',
      label: `$(comment-discussion) ${vscode.l10n.t('WeChat article')}`,
      detail: vscode.l10n.t(
        'For the official-account editor: styles inline, citations and links as numbered notes, pictures embedded.',
      ),
    },
    {
      format: 'html',
      label: `$(globe) ${vscode.l10n.t('HTML page')}`,
      detail: vscode.l10n.t('A standalone page for print or the web, footnotes as in the preview.'),
    },
    {
      format: 'pdf',
      label: `$(file-pdf) ${vscode.l10n.t('PDF')}`,
      detail: vscode.l10n.t(
        'A4 pages with page numbers and the notes at the end, in the layout of shunong.export.layout; printed by Edge, Chrome or Chromium on this machine.',
      ),
    },
  ];
  const last = state.get<string>(LAST_FORMAT);
  items.sort((a, b) => Number(b.format === last) - Number(a.format === last));
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Export Bulletin'),
    placeHolder: vscode.l10n.t('Export the bulletin as…'),
  });
  if (pick) await state.update(LAST_FORMAT, pick.format);
  return pick?.format;
}

/** Where to write: beside the bulletin, or where the user says; undefined when the user cancels. */
export async function chooseTarget(
  document: vscode.TextDocument,
  format: ExportFormat,
  outputName: (file: string, format: ExportFormat) => string,
): Promise<Target | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (document.isUntitled)
    return saveAs(folder ? vscode.Uri.joinPath(folder, outputName('bulletin.md', format)) : undefined, format);
  const beside = document.uri.with({ path: outputName(document.uri.path, format) });
  if (!(await exists(beside))) return { uri: beside };
  const replace = vscode.l10n.t('Replace');
  const other = vscode.l10n.t('Save As…');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} already exists. Replace it?', beside.path.split('/').pop() ?? beside.path),
    { modal: true },
    replace,
    other,
  );
  if (pick === replace) return { uri: beside };
  if (pick === other) return saveAs(beside, format);
  return undefined;
}

async function saveAs(defaultUri: vscode.Uri | undefined, format: ExportFormat): Promise<Target | undefined> {
  const filters: Record<string, string[]> =
    format === 'docx'
      ? { [vscode.l10n.t('Word document')]: ['docx'] }
      : format === 'pdf'
        ? { PDF: ['pdf'] }
        : { HTML: ['html'] };
  const uri = await vscode.window.showSaveDialog({ ...(defaultUri ? { defaultUri } : {}), filters });
  return uri ? { uri } : undefined;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
