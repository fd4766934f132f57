/**
 * The citation problems in the UI language (keys and English texts from src/citations/problems.ts):
 * the citations' diagnostics and an export's warnings word them alike.
 */
import vscode = require('vscode');
import type { CitationError, Problem } from '../../citations/model';

/** Why a citation cannot be read, in the UI language. */
export function citationFailure(f: CitationError): string {
  switch (f.error) {
    case 'missing-hash':
      return vscode.l10n.t('"{0}" has no "#<chunk_index>"', f.subject);
    case 'empty-doc-name':
      return vscode.l10n.t('"{0}" has an empty doc_name', f.subject);
    case 'bad-chunk-index':
      return vscode.l10n.t('"{0}" is not a non-negative integer chunk_index', f.subject);
  }
}

/**
 * A problem's message in the UI language, by its key (a malformed citation's reason, its last
 * argument, by its failure); unknown keys fall back to the English text.
 */
export function problemMessage(p: Pick<Problem, 'messageKey' | 'args' | 'message' | 'failure'>): string {
  const args = p.failure !== undefined ? [...p.args.slice(0, -1), citationFailure(p.failure)] : p.args;
  switch (p.messageKey) {
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
      return p.message;
  }
}
