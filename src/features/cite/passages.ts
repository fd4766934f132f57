/** The read-only passage viewer (`shunong-passage:` documents) and "Open the full passage". */
import * as vscode from 'vscode';
import type { CitationCache } from '../../citations/index';
import { scoreLine } from '../shared/passageText';

export const PASSAGE_SCHEME = 'shunong-passage';

/** The passage URI of a cached citation. */
export function passageUri(key: string): vscode.Uri {
  return vscode.Uri.from({ scheme: PASSAGE_SCHEME, path: `/${key}.txt`, query: encodeURIComponent(key) });
}

/** The text of a cached passage, for the read-only passage viewer. */
export function passageText(cache: CitationCache, key: string): string | undefined {
  const ctx = cache.get(key);
  if (!ctx) return undefined;
  return `${key}\n${ctx.kbName} (${ctx.kbCode})\n${scoreLine(ctx)}\n${vscode.l10n.t('Retrieved {0} for "{1}"', ctx.retrievedAt, ctx.query)}\n\n${ctx.content}\n`;
}

/** Registers the viewer's content provider and the `shunong.openPassage` command. */
export function registerPassageViewer(cache: () => CitationCache): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('shunong.openPassage', async (key?: unknown) => {
      if (typeof key !== 'string' || !cache().has(key)) return undefined;
      const doc = await vscode.workspace.openTextDocument(passageUri(key));
      return vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    }),
    vscode.workspace.registerTextDocumentContentProvider(PASSAGE_SCHEME, {
      provideTextDocumentContent: (uri) =>
        passageText(cache(), decodeURIComponent(uri.query)) ??
        vscode.l10n.t('This passage is not in the workspace cache.'),
    }),
  ];
}
