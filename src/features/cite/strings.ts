/** Localised texts of the citation layer's problem and fix messages (keys from src/citations). */
import vscode = require('vscode');

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
