/**
 * The citation problems in the UI language (keys and English texts from src/citations/problems.ts):
 * the citations' diagnostics and an export's warnings word them alike.
 */
import vscode = require('vscode');

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
