/**
 * "Shunong: Draft with Knowledge…": a grounded draft written through the REST chat completions
 * endpoint (knowledge + optional weather tools), streamed into a read-only preview beside the
 * bulletin (cancellable from the progress notification), then accepted whole, in part (sentences
 * picked in a checkbox list) or not at all. Accepting inserts the text and its citations as one
 * undoable edit through the Citations service: each `knowledge_citation` is resolved to a real passage
 * by searching its summary in its knowledge base (MCP knowledge_search) and cited in the bulletin's
 * style; one that does not resolve is written as `〔title · kb_id〕` with a note, never as a made-up
 * `doc_name#chunk_index`; a `weather_citation` becomes the weather brief's source line.
 */
import vscode = require('vscode');
import { acceptDraft } from './accept';
import type { DraftArgs, DraftOutcome, DraftServices } from './types';
import { askDraft } from './ask';
import { DraftPreview, DRAFT_SCHEME } from './draftDocuments';
import { draftRequest, openDraftView, streamDraft } from './stream';

export type { DraftArgs, DraftInserter, DraftOutcome, DraftServices } from './types';

/** Runs the command: ask, stream into the preview, accept. */
async function draftWithKnowledge(
  services: DraftServices,
  preview: DraftPreview,
  args?: DraftArgs,
): Promise<DraftOutcome> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'markdown') {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Open a Markdown bulletin and put the cursor where the draft goes.'),
    );
    return { status: 'failed' };
  }
  const asked = await askDraft(editor, args);
  if (!asked) return { status: 'cancelled' };
  const request = draftRequest(services, asked.question, asked.options);
  if (!request) return { status: 'failed' };
  const view = await openDraftView(preview, asked.question);
  const streamed = await streamDraft(services, request, asked.question, view);
  if (!('result' in streamed)) return streamed;
  return acceptDraft(services, editor, streamed, asked.scripted ? args?.accept : undefined);
}

/** Registers the command and the preview provider. */
export function activate(context: vscode.ExtensionContext, services: DraftServices): { preview: DraftPreview } {
  const preview = new DraftPreview();
  context.subscriptions.push(preview, vscode.workspace.registerTextDocumentContentProvider(DRAFT_SCHEME, preview));
  services.commands.register({
    id: 'shunong.draftWithKnowledge',
    run: (args?: DraftArgs) => draftWithKnowledge(services, preview, args),
  });
  return { preview };
}
