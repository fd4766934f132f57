/** The search vocabulary: built in, extended by `shunong.knowledge.vocabulary`. */
import vscode = require('vscode');
import type { Vocabulary } from '../../../knowledge/vocabulary';
import type { KnowledgeLib } from '../../../bundles';
import { localise } from '../passageText';
import { settings } from '../settings';

/** The vocabulary: built in, extended by `shunong.knowledge.vocabulary`; problems are shown once per change. */
let warnedVocabulary = '';
export function vocabularyFor(lib: KnowledgeLib, uri?: vscode.Uri): Vocabulary {
  const setting = settings.knowledge(uri).vocabulary;
  const loaded = lib.loadVocabulary(setting ?? {});
  const first = loaded.warnings[0];
  const key = JSON.stringify(setting ?? {});
  if (first && warnedVocabulary !== key) {
    warnedVocabulary = key;
    void vscode.window.showWarningMessage(localise(first.message));
  }
  return loaded.vocabulary;
}
