/**
 * What a PDF export needs besides the other formats: the browser that prints it, found on the
 * machine the extension runs on (in a remote window, that machine), or `shunong.export.browserPath`;
 * with none, a message that says what to install or set and offers the Word export instead; and
 * the browser's failure said with its reason.
 */
import vscode = require('vscode');
import type { PublishLib } from '../../bundles';
import type { Browser, PrintFailure } from '../../publish/index';

/** The browser to print with, `'word'` when the user takes the Word export instead, or undefined. */
export async function pdfBrowser(
  publish: PublishLib,
  browserPath: string,
  output: vscode.LogOutputChannel,
): Promise<Browser | 'word' | undefined> {
  const search = publish.findBrowserHere(browserPath);
  if (search.found) return search.found;
  output.warn(`PDF: no browser found; looked at ${search.looked.join(', ')}`);
  const remote = vscode.env.remoteName;
  const message = search.setting
    ? vscode.l10n.t(
        'No browser at "{0}" (shunong.export.browserPath). Set the path of Microsoft Edge, Google Chrome or Chromium, or clear the setting to look where they install.',
        search.setting,
      )
    : remote
      ? vscode.l10n.t(
          'No browser to print the PDF was found on the remote machine ({0}), where the extension runs. Install Microsoft Edge, Google Chrome or Chromium there, or set shunong.export.browserPath to its program on that machine. The Word export needs no browser.',
          remote,
        )
      : vscode.l10n.t(
          'No browser to print the PDF was found on this machine. Install Microsoft Edge, Google Chrome or Chromium, or set shunong.export.browserPath to its program. The Word export needs no browser.',
        );
  const word = vscode.l10n.t('Export to Word Instead');
  const open = vscode.l10n.t('Open Settings');
  const pick = await vscode.window.showErrorMessage(message, word, open);
  if (pick === word) return 'word';
  if (pick === open)
    await vscode.commands.executeCommand('workbench.action.openSettings', 'shunong.export.browserPath');
  return undefined;
}

/** Says why the browser gave no PDF; `'word'` when the user takes the Word export instead. */
export async function pdfFailed(
  publish: PublishLib,
  browser: Browser,
  failure: PrintFailure,
  output: vscode.LogOutputChannel,
): Promise<'word' | undefined> {
  const why = publish.pdfFailureText(failure, vscode.l10n);
  output.error(`PDF: ${browser.path}: ${why}`);
  const word = vscode.l10n.t('Export to Word Instead');
  const open = vscode.l10n.t('Open Settings');
  const pick = await vscode.window.showErrorMessage(
    vscode.l10n.t('Not exported: the browser {0} could not print the PDF: {1}.', browser.path, why),
    word,
    open,
  );
  if (pick === word) return 'word';
  if (pick === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'shunong.export.');
  return undefined;
}
