/** What New Bulletin asks and reads: the kind of bulletin, the workspace's template, the issues already out. */
import vscode = require('vscode');
import { frontMatter } from '../../bulletin/frontMatter';
import { readWorkspaceText } from '../shared/decoding';
import { settings } from '../shared/settings';

/** A farm bulletin (农情简报), or a pest forecast (病虫情报). */
export type BulletinKind = 'bulletin' | 'forecast';

/** How many of the workspace's Markdown files are read for their issue numbers, at most. */
const ISSUE_FILES = 500;

/** Asks what kind of bulletin to start; undefined when the author closed the list. */
export async function chooseKind(): Promise<BulletinKind | undefined> {
  const items: (vscode.QuickPickItem & { value: BulletinKind })[] = [
    {
      label: vscode.l10n.t('Farm bulletin'),
      detail: vscode.l10n.t('Weather, farm advice, pests and diseases'),
      value: 'bulletin',
    },
    {
      label: vscode.l10n.t('Pest forecast (病虫情报)'),
      detail: vscode.l10n.t('The parts the forecast rules ask for, and the next issue number of the year'),
      value: 'forecast',
    },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Shunong: New Bulletin'),
    placeHolder: vscode.l10n.t('What kind of bulletin?'),
  });
  return pick?.value;
}

/** The workspace's template (`shunong.bulletin.template`), if set and readable; the built-in one is used otherwise. */
export async function customTemplate(folder: vscode.WorkspaceFolder | undefined): Promise<string | undefined> {
  const templatePath = settings.bulletin(folder?.uri).template;
  if (!templatePath) return undefined;
  const uri = folder ? vscode.Uri.joinPath(folder.uri, templatePath) : vscode.Uri.file(templatePath);
  const read = await readWorkspaceText(uri);
  if ('text' in read) return read.text;
  void vscode.window.showWarningMessage(
    read.error === 'undecodable'
      ? vscode.l10n.t(
          'The bulletin template {0} is not UTF-8, UTF-16 or GB18030 text; the built-in template is used. Save it as UTF-8.',
          templatePath,
        )
      : vscode.l10n.t('The bulletin template {0} could not be read; the built-in template is used.', templatePath),
  );
  return undefined;
}

/** The `issue:` of every Markdown bulletin of the workspace that has one. */
export async function workspaceIssues(): Promise<string[]> {
  const uris = await vscode.workspace.findFiles(
    '**/*.{md,markdown}',
    '**/{node_modules,.git,.vscode-test}/**',
    ISSUE_FILES,
  );
  const issues: string[] = [];
  for (const uri of uris) {
    const read = await readWorkspaceText(uri);
    const issue = 'text' in read ? frontMatter(read.text).fields['issue'] : undefined;
    if (issue) issues.push(issue);
  }
  return issues;
}
