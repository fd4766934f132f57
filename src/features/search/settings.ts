/** The search settings (`shunong.knowledge.*`, resource scope) and the vocabulary they extend. */
import * as vscode from 'vscode';
import type { Vocabulary } from '../../knowledge/vocabulary';
import type { KnowledgeLib } from '../../platform';
import { localise } from '../shared/passageText';

/** The search options from the settings (`shunong.knowledge.*`, resource scope). */
export interface SearchDefaults {
  readonly topK: number;
  readonly scoreThreshold: number;
  readonly useRerank: boolean;
  readonly defaultKbCode: string;
  /** Results update while the query is typed in the free-text search. */
  readonly searchAsYouType: boolean;
}

/** Reads `shunong.knowledge.*` for `uri`, clamped to what the tool accepts. */
export function readDefaults(uri?: vscode.Uri): SearchDefaults {
  const c = vscode.workspace.getConfiguration('shunong.knowledge', uri);
  const topK = c.get<number>('topK', 5);
  const threshold = c.get<number>('scoreThreshold', 0.7);
  return {
    topK: Number.isFinite(topK) ? Math.min(20, Math.max(1, Math.round(topK))) : 5,
    scoreThreshold: Number.isFinite(threshold) ? Math.min(1, Math.max(0, threshold)) : 0.7,
    useRerank: c.get<boolean>('useRerank', false),
    defaultKbCode: (c.get<string>('defaultKbCode') ?? '').trim(),
    searchAsYouType: c.get<boolean>('searchAsYouType', true) !== false,
  };
}

/** The vocabulary: built in, extended by `shunong.knowledge.vocabulary`; problems are shown once per change. */
let warnedVocabulary = '';
export function vocabularyFor(lib: KnowledgeLib, uri?: vscode.Uri): Vocabulary {
  const setting = vscode.workspace.getConfiguration('shunong.knowledge', uri).get<unknown>('vocabulary');
  const loaded = lib.loadVocabulary(setting ?? {});
  const first = loaded.warnings[0];
  const key = JSON.stringify(setting ?? {});
  if (first && warnedVocabulary !== key) {
    warnedVocabulary = key;
    void vscode.window.showWarningMessage(localise(first.message));
  }
  return loaded.vocabulary;
}
