/**
 * The items of the search quick input, as a tagged union (`role`: what the item stands for, with
 * its data), the buttons, and the item builders shared by the steps. (`kind` is VS Code's own field
 * of a quick-pick item: it marks separators.)
 */
import vscode = require('vscode');
import { showBidi } from '../../text/bidi';
import type { MissOffer } from '../../knowledge/miss';
import type { Crop, Stage, Task } from '../../knowledge/vocabulary';
import { keyOf, type SearchOptions, type SearchRecord, type StoredPassage } from '../../knowledge/history';
import { firstLine, snippetRest } from '../../knowledge/snippet';
import type { SearchOutcome } from '../../knowledge/search';
import { uiLanguage } from '../shared/language';
import type { SafetyService } from '../shared/safety';
import { passageCount, scoreText } from '../shared/passageText';

/** An entry of the vocabulary (crop, growth stage or farm task). */
export type VocabularyEntry = Crop | Stage | Task;

/** One option of the "Search options" step. */
export type OptionName = 'kb' | 'topK' | 'threshold' | 'rerank' | 'mode';

/** What an item stands for. */
export type Choice =
  | { readonly role: 'entry'; readonly entry: VocabularyEntry }
  /** A typed-in or preset value: a knowledge base code, a topK or a threshold. */
  | { readonly role: 'value'; readonly value: string }
  | { readonly role: 'skip' }
  /** "Add" the words typed. */
  | { readonly role: 'custom' }
  /** `Use "…"`: the text typed at a crop, stage or task step, as it is. */
  | { readonly role: 'typed'; readonly value: string }
  | { readonly role: 'search' }
  | { readonly role: 'options' }
  | { readonly role: 'option'; readonly option: OptionName }
  | { readonly role: 'done' }
  | { readonly role: 'passage'; readonly stored: StoredPassage }
  /** A line to read (or a separator): accepting it does nothing. */
  | { readonly role: 'info' }
  | { readonly role: 'offer'; readonly offer: MissOffer }
  | { readonly role: 'edit' };

/** A QuickPick item of the flow. */
export type FlowItem = vscode.QuickPickItem & Choice;
/** A result item. */
export type PassageItem = FlowItem & { readonly role: 'passage' };

export const BUTTON_SNIPPET: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('quote'),
  tooltip: vscode.l10n.t('Insert cited snippet'),
};
export const BUTTON_CITATION: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('link'),
  tooltip: vscode.l10n.t('Insert citation only'),
};
export const BUTTON_COPY: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('copy'),
  tooltip: vscode.l10n.t('Copy passage with its citation'),
};
export const BUTTON_REVEAL: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('list-tree'),
  tooltip: vscode.l10n.t('Show in the knowledge browser'),
};
export const BUTTON_OPTIONS: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('settings-gear'),
  tooltip: vscode.l10n.t('Search options…'),
};

/** A vocabulary entry's label in the display language. */
export function labelOf(e: { labels: { 'zh-CN': string; en: string } }): string {
  return uiLanguage() === 'zh' ? e.labels['zh-CN'] : e.labels.en;
}

/** A separator (an unlabelled one draws a line). */
export function separator(label = ''): FlowItem {
  return { label, kind: vscode.QuickPickItemKind.Separator, role: 'info' };
}

/** The "Skip" item of a guided step. */
export function skipItem(detail?: string): FlowItem {
  return {
    label: `$(debug-step-over) ${vscode.l10n.t('Skip')}`,
    role: 'skip',
    alwaysShow: true,
    ...(detail ? { description: detail } : {}),
  };
}

/**
 * The result items of `record` in its order (the server's ranking, or the fused one). `alwaysShow`
 * while typing: the typed query is the quick pick's filter text, and VS Code must neither hide nor
 * re-sort the passages by it.
 */
export function passageItems(record: SearchRecord, alwaysShow: boolean, safety: SafetyService): PassageItem[] {
  return record.passages.map((s) => {
    const bans = safety.bans(s.passage.content);
    const mark = bans.length
      ? `${vscode.l10n.t('Recommends a banned pesticide: {0}', [...new Set(bans.map((f) => f.mention))].join(vscode.l10n.t(', ')))} · `
      : '';
    return {
      label: `${bans.length ? '$(warning) ' : ''}${showBidi(firstLine(s.passage.content, 40))}`,
      description: showBidi(`${keyOf(s.passage)} · ${s.passage.kbName}`),
      detail: mark + showBidi(`${scoreText(s)} · ${snippetRest(s.passage.content)}`),
      role: 'passage',
      stored: s,
      buttons: [BUTTON_SNIPPET, BUTTON_CITATION, BUTTON_COPY, BUTTON_REVEAL],
      ...(alwaysShow ? { alwaysShow: true } : {}),
    };
  });
}

/** The heading of a hit: `"query": 3 passages · where` (the knowledge base, or how many were fused). */
export function resultsHeading(outcome: SearchOutcome & { kind: 'hit' }): string {
  const { record } = outcome;
  const where = outcome.fused
    ? vscode.l10n.t('{0} knowledge bases, fused by rank', outcome.lists)
    : record.passages[0]?.passage.kbName || record.kbCodes.join(', ');
  return vscode.l10n.t('"{0}": {1} · {2}', record.options.query, passageCount(record.passages.length), where);
}

/** "kb · topK 5 · threshold 0.7 · rerank off", the options of a search on one line. */
export function describeOptions(o: SearchOptions): string {
  const parts = [
    o.kbCode ? o.kbCode : vscode.l10n.t('all knowledge bases'),
    `topK ${o.topK ?? 5}`,
    vscode.l10n.t('threshold {0}', String(o.scoreThreshold ?? 0.7)),
    o.useRerank ? vscode.l10n.t('rerank on') : vscode.l10n.t('rerank off'),
    ...(o.mode ? [o.mode] : []),
  ];
  return parts.join(' · ');
}
