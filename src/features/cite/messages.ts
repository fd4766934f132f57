/** Localised texts of the citation layer's problem, fix and insertion messages (keys from src/citations). */
import * as vscode from 'vscode';
import type { InsertErrorCode } from '../../citations/index';

export { problemMessage } from '../shared/problems';

/** Localises a quick-fix title by its key. */
export function fixTitle(key: string, args: readonly string[], english: string): string {
  switch (key) {
    case 'citations.fix.removeReference':
      return vscode.l10n.t('Remove reference [^{0}]', ...args);
    case 'citations.fix.removeDefinition':
      return vscode.l10n.t('Remove unused definition [^{0}]', ...args);
    case 'citations.fix.merge':
      return vscode.l10n.t('Merge [^{0}] into [^{1}]', ...args);
    case 'citations.fix.chunkIndex':
      return vscode.l10n.t('Write the chunk index as {0}', ...args);
    case 'citations.fix.renumber':
      return vscode.l10n.t('Renumber citations');
    case 'citations.fix.space':
      return vscode.l10n.t('Put a space before {0}', ...args);
    default:
      return english;
  }
}

/** Localises why an insertion was refused. */
export function insertErrorMessage(code: InsertErrorCode): string {
  switch (code) {
    case 'invalid-source':
      return vscode.l10n.t(
        'This passage has no document name or a chunk index that is not a non-negative integer; nothing was inserted.',
      );
    case 'in-code':
      return vscode.l10n.t(
        'The cursor is inside code; a citation there would be plain code text. Move the cursor into text.',
      );
    case 'in-html':
      return vscode.l10n.t(
        'The cursor is inside an HTML block; a citation there would not be Markdown. Move the cursor into text.',
      );
    case 'in-front-matter':
      return vscode.l10n.t('The cursor is inside the front matter. Move the cursor into the text of the bulletin.');
    case 'in-references':
      return vscode.l10n.t(
        'The cursor is in the references section. Move the cursor to the sentence the passage supports.',
      );
    case 'not-in-text':
      return vscode.l10n.t(
        'Put the cursor in text (a paragraph, heading, list item or table cell) or on an empty line.',
      );
    case 'unclosed-block':
      return vscode.l10n.t(
        'The document ends inside an unclosed code or HTML block; close it before adding a references section.',
      );
  }
}
