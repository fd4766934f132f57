/** The citation commands: insert a citation or cited snippet, renumber, and check the workspace. */
import vscode = require('vscode');
import { isCitedPassage, passageOfContext, type CitedPassage } from '../../citations/passage';
import { loadCitations } from '../../bundles';
import type { CitationDiagnostics } from './diagnostics';
import { toWorkspaceEdit } from './ranges';
import type { CitationService } from '../shared/citationService';
import type { Command } from '../shared/commands';
import { settings } from '../shared/settings';

/** "Insert Cited Snippet", "Insert Citation", "Renumber Citations" and "Check Citations in Workspace". */
export function citationCommands(citations: CitationService, diagnostics: CitationDiagnostics): Command[] {
  const insertCommand =
    (snippet: boolean) =>
    async (arg?: unknown): Promise<boolean> => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('Open a Markdown bulletin and put the cursor where the citation goes.'),
        );
        return false;
      }
      const passage = isCitedPassage(arg) ? arg : await pickCached(citations);
      return passage ? citations.insert(editor, passage, snippet) : false;
    };
  return [
    { id: 'shunong.insertCitedSnippet', run: insertCommand(true) },
    { id: 'shunong.insertCitation', run: insertCommand(false) },
    {
      id: 'shunong.renumberCitations',
      run: async () => {
        const editor = vscode.window.activeTextEditor;
        if (!editor || editor.document.languageId !== 'markdown') {
          void vscode.window.showWarningMessage(vscode.l10n.t('Open a Markdown bulletin to renumber its citations.'));
          return false;
        }
        return renumber(editor);
      },
    },
    { id: 'shunong.checkCitations', run: () => checkWorkspace(diagnostics) },
  ];
}

/** Picks a passage from the workspace cache (when a command runs without one). */
async function pickCached(citations: CitationService): Promise<CitedPassage | undefined> {
  const entries = citations.cache.toJSON().entries.sort((a, b) => b.retrievedAt.localeCompare(a.retrievedAt));
  if (entries.length === 0) {
    const search = vscode.l10n.t('Search Knowledge');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('No passage retrieved in this workspace yet. Search the knowledge base first.'),
      search,
    );
    if (choice === search) await vscode.commands.executeCommand('shunong.searchKnowledge');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    entries.map((e) => ({
      label: e.content.split('\n')[0]?.slice(0, 80) ?? e.citation,
      description: `${e.citation} · ${e.kbName}`,
      detail: e.query,
      entry: e,
    })),
    { title: vscode.l10n.t('Cite a passage retrieved earlier'), matchOnDescription: true, matchOnDetail: true },
  );
  return pick ? passageOfContext(pick.entry) : undefined;
}

/** Renumbers the citations of a document; unused definitions are removed only on confirmation. */
async function renumber(
  editor: vscode.TextEditor,
  confirmRemove?: (labels: string[]) => Thenable<boolean>,
): Promise<boolean> {
  const doc = editor.document;
  const heading = settings.citations(doc.uri).referencesHeading;
  const lib = loadCitations();
  let result = lib.renumber(doc.getText(), { referencesHeading: heading });
  if (result.unused.length) {
    const ask =
      confirmRemove ??
      (async (labels: string[]) => {
        const remove = vscode.l10n.t('Remove');
        const answer = await vscode.window.showWarningMessage(
          vscode.l10n.t(
            'These citations are defined but never used: {0}. Remove their definitions?',
            labels.map((l) => `[^${l}]`).join(', '),
          ),
          remove,
          vscode.l10n.t('Keep'),
        );
        return answer === remove;
      });
    if (await ask(result.unused))
      result = lib.renumber(doc.getText(), { referencesHeading: heading, removeUnused: true });
  }
  if (result.edits.length === 0) {
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Citations are already numbered in order of use.'), 3000);
    return true;
  }
  return vscode.workspace.applyEdit(toWorkspaceEdit(doc, result.edits));
}

/** "Shunong: Check Citations in Workspace": lints every Markdown file into the Problems panel. */
async function checkWorkspace(
  diagnostics: CitationDiagnostics,
): Promise<{ files: number; problems: number; report: string[] }> {
  const uris = await vscode.workspace.findFiles('**/*.{md,markdown}', '**/{node_modules,.git,.vscode-test}/**');
  const report: string[] = [];
  let problems = 0;
  for (const uri of uris.sort((a, b) => a.fsPath.localeCompare(b.fsPath))) {
    const doc = await vscode.workspace.openTextDocument(uri);
    const items = (await diagnostics.refresh(doc)) ?? [];
    const model = diagnostics.model(doc);
    const count = model.references.filter((r) => r.ours).length + model.inlineCitations.length;
    problems += items.length;
    report.push(
      vscode.l10n.t('{0}: {1} citations, {2} problems', vscode.workspace.asRelativePath(uri), count, items.length),
    );
  }
  const summary = vscode.l10n.t('Checked {0} Markdown files: {1} citation problems.', uris.length, problems);
  const show = vscode.l10n.t('Show Problems');
  void (
    problems ? vscode.window.showWarningMessage(summary, show) : vscode.window.showInformationMessage(summary)
  ).then((c) => (c === show ? vscode.commands.executeCommand('workbench.actions.view.problems') : undefined));
  return { files: uris.length, problems, report };
}
