/**
 * The citation problems in words of any language: the editor's Problems and an export's warnings
 * (through `vscode.l10n`, the UI language) and `shunong check` (the terminal's language) word them
 * alike, by each problem's key (the English templates are `problems.ts`'s). Also the rule each kind
 * of citation finding is reported under by `shunong check --format json|sarif`, and its description.
 * Pure: types only.
 */
import type { Words } from '../text/words';
import type { CitationError, Problem, ProblemCode } from './model';
import type { VerifyStatus } from './verifyCache';

/** Why a citation cannot be read. */
export function citationFailureIn(f: CitationError, words: Words): string {
  switch (f.error) {
    case 'missing-hash':
      return words.t('"{0}" has no "#<chunk_index>"', f.subject);
    case 'empty-doc-name':
      return words.t('"{0}" has an empty doc_name', f.subject);
    case 'bad-chunk-index':
      return words.t('"{0}" is not a non-negative integer chunk_index', f.subject);
  }
}

/**
 * A problem's message, by its key (a malformed citation's reason, its last argument, by its
 * failure); unknown keys fall back to the English text.
 */
export function problemMessageIn(
  p: Pick<Problem, 'messageKey' | 'args' | 'message' | 'failure'>,
  words: Words,
): string {
  const args = p.failure !== undefined ? [...p.args.slice(0, -1), citationFailureIn(p.failure, words)] : p.args;
  switch (p.messageKey) {
    case 'citations.undefinedReference':
      return words.t('Footnote [^{0}] has no definition.', ...args);
    case 'citations.unusedDefinition':
      return words.t('Citation [^{0}] ({1}) is defined but never used.', ...args);
    case 'citations.duplicateSource':
      return words.t('Citation [^{0}] cites the same source as [^{1}] ({2}).', ...args);
    case 'citations.malformedDefinition':
      return words.t('Malformed citation "{0}" in [^{1}]: {2}', ...args);
    case 'citations.malformedInline':
      return words.t('Malformed inline citation "{0}": {1}', ...args);
    case 'citations.duplicateLabel':
      return words.t('Footnote [^{0}] is defined more than once; only the first definition counts.', ...args);
    case 'citations.gluedToUrl':
      return words.t(
        'Citation {0} follows a bare URL without a space: previews and GitHub read it as part of the link, and the footnote disappears.',
        ...args,
      );
    default:
      return p.message;
  }
}

/** What a citation finding is: a problem of the bulletin's citations, or a source looked up and not verified. */
export type CitationFindingKind = ProblemCode | Exclude<VerifyStatus, 'verified'>;

/** The rule id a kind of citation finding is reported under (`citations/undefined-reference`); stable. */
export function citationRuleId(kind: CitationFindingKind): string {
  return `citations/${kind}`;
}

/** What a rule of the citations finds, in one line (SARIF's `shortDescription`). */
export function citationRuleText(kind: CitationFindingKind, words: Words): string {
  switch (kind) {
    case 'undefined-reference':
      return words.t('A footnote reference has no definition.');
    case 'unused-definition':
      return words.t('A citation is defined but never used.');
    case 'duplicate-source':
      return words.t('Two citations cite the same source.');
    case 'malformed-citation':
      return words.t('A citation cannot be read.');
    case 'duplicate-label':
      return words.t('A footnote label is defined more than once.');
    case 'glued-to-url':
      return words.t('A citation follows a bare URL without a space, so the footnote disappears.');
    case 'changed':
      return words.t('A cited passage has changed on the platform since it was cited.');
    case 'not-located':
      return words.t('A cited passage was not located on the platform.');
    case 'unknown-kb':
      return words.t("A citation names a knowledge base that is not one of the account's.");
    case 'unverified':
      return words.t('A cited source could not be verified.');
  }
}
