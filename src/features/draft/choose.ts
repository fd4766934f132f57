/** Choosing what of the draft goes into the bulletin: all, some sentences (a checkbox list) or none. */
import vscode = require('vscode');
import type { DraftSentence, ResolvedKnowledge, WeatherSource } from '../../citations/draftBlocks';
import type { PreviewState } from './draftDocuments';

/** Where a sentence comes from, as the author reads it. */
export function sourceLabel(
  s: DraftSentence,
  knowledge: readonly ResolvedKnowledge[],
  weather: readonly WeatherSource[],
): string {
  if (s.from.kind === 'knowledge') {
    const k = knowledge[s.from.index]!;
    return k.passage ? `${k.passage.docName}#${k.passage.chunkIndex}` : `〔${k.title} · ${k.kbId}〕`;
  }
  if (s.from.kind === 'weather') return `${vscode.l10n.t('Weather')}: ${weather[s.from.index]?.location ?? ''}`;
  return vscode.l10n.t('not found verbatim in a cited passage');
}

/** The sentences to insert (undefined: none); `scripted` answers without asking. */
export async function chooseSentences(
  sentences: DraftSentence[],
  state: PreviewState,
  scripted: 'all' | 'none' | number[] | undefined,
): Promise<Set<number> | undefined> {
  if (scripted !== undefined) {
    if (scripted === 'all') return new Set(sentences.map((s) => s.id));
    if (scripted === 'none') return undefined;
    return new Set(scripted.filter((id) => sentences.some((s) => s.id === id)));
  }
  if (sentences.length === 0) return undefined;
  const choice = await vscode.window.showQuickPick(
    [
      {
        id: 'all',
        label: `$(check) ${vscode.l10n.t('Accept all')}`,
        description: vscode.l10n.t('{0} sentences', sentences.length),
      },
      { id: 'part', label: `$(checklist) ${vscode.l10n.t('Choose sentences…')}` },
      { id: 'none', label: `$(trash) ${vscode.l10n.t('Discard')}` },
    ],
    { title: vscode.l10n.t('Insert the draft into the bulletin?'), placeHolder: state.usage, ignoreFocusOut: true },
  );
  if (!choice || choice.id === 'none') return undefined;
  if (choice.id === 'all') return new Set(sentences.map((s) => s.id));
  const picks = await vscode.window.showQuickPick(
    sentences.map((s) => ({
      label: s.text,
      description: sourceLabel(s, state.knowledge, state.weather),
      picked: true,
      id: s.id,
    })),
    {
      title: vscode.l10n.t('Keep the checked sentences'),
      canPickMany: true,
      ignoreFocusOut: true,
      matchOnDescription: true,
    },
  );
  return picks ? new Set(picks.map((p) => p.id)) : undefined;
}
