/** Localised texts of the citation layer's problem, fix and insertion messages (keys from src/citations). */
import * as vscode from 'vscode';
import type { InsertErrorCode } from '../../citations/index';

/** Localises a problem message by its key; unknown keys fall back to the English text. */
export function problemMessage(key: string, args: readonly string[], english: string): string {
  switch (key) {
    case 'citations.undefinedReference':
      return vscode.l10n.t('Footnote [^{0}] has no definition.', ...args);
    case 'citations.unusedDefinition':
      return vscode.l10n.t('Citation [^{0}] ({1}) is defined but never used.', ...args);
    case 'citations.duplicateSource':
      return vscode.l10n.t('Citation [^{0}] cites the same source as [^{1}] ({2}).', ...args);
    case 'citations.malformedDefinition':
      return vscode.l10n.t('Malformed citation "{0}" in [^{1}]: {2}', ...args);
    case 'citations.malformedInline':
      return vscode.l10n.t('Malformed inline citation "{0}": {1}', ...args);
    case 'citations.duplicateLabel':
      return vscode.l10n.t('Footnote [^{0}] is defined more than once; only the first definition counts.', ...args);
    case 'citations.gluedToUrl':
      return vscode.l10n.t(
        'Citation {0} follows a bare URL without a space: previews and GitHub read it as part of the link, and the footnote disappears.',
        ...args,
      );
    default:
      return english;
  }
}

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
