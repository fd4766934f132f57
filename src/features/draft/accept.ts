/** A draft that ended, accepted whole, in part (sentences picked) or not at all, and inserted as one edit. */
import vscode = require('vscode');
import { loadCitations } from '../../bundles';
import { buildBlocks, splitDraft } from '../../citations/draftBlocks';
import { insertLanguageFor } from '../shared/language';
import { chooseSentences, sourceLabel } from './choose';
import { usageText } from './draftDocuments';
import type { DraftArgs, DraftOutcome, DraftServices } from './types';
import type { Streamed } from './stream';

/** Offers the draft's sentences (or takes the scripted choice) and inserts those accepted. */
export async function acceptDraft(
  services: DraftServices,
  editor: vscode.TextEditor,
  { result, view }: Streamed,
  accept: DraftArgs['accept'] | undefined,
): Promise<DraftOutcome> {
  const { state, uri } = view;
  const sentences = splitDraft(result.content, state.knowledge, state.weather);
  state.usage = usageText(result.usage, services.connection.rest().isLocal);
  state.status = vscode.l10n.t('Done. Choose what to insert.');
  view.flush();
  const base: DraftOutcome = {
    content: result.content,
    sentences: sentences.map((s) => ({
      id: s.id,
      text: s.text,
      source: sourceLabel(s, state.knowledge, state.weather),
    })),
    usage: result.usage,
    resolved: state.knowledge.filter((k) => k.passage).length,
    unresolved: state.knowledge.filter((k) => !k.passage).length,
    preview: uri.toString(),
    status: 'discarded',
  };

  const accepted = await chooseSentences(sentences, state, accept);
  if (!accepted || accepted.size === 0) {
    state.status = vscode.l10n.t('Discarded: nothing was inserted.');
    view.flush();
    return base;
  }
  const blocks = buildBlocks(
    sentences,
    accepted,
    state.knowledge,
    state.weather,
    insertLanguageFor(editor.document),
    loadCitations().inlineText,
  );
  const target = await vscode.window.showTextDocument(editor.document, {
    viewColumn: editor.viewColumn ?? vscode.ViewColumn.One,
    preserveFocus: false,
  });
  const ok = await services.citations.insertDraft(target, blocks);
  state.status = ok
    ? vscode.l10n.t('Inserted {0} of {1} sentences.', accepted.size, sentences.length)
    : vscode.l10n.t('Nothing was inserted.');
  view.flush();
  return { ...base, status: ok ? 'inserted' : 'failed' };
}
