/**
 * Markdown citations for Shunong bulletins — pure logic, no `vscode`. See DESIGN.md, "Citation format".
 *
 * Every operation parses the document once (markdown-it, see `parser.ts`) and returns edits in
 * UTF-16 document offsets, sorted and non-overlapping, to apply as one WorkspaceEdit.
 */
export * from './types';
export {
  parseCitation,
  parseRawCitation,
  formatCitation,
  formatDefinition,
  formatDefinitionBody,
  formatInlineCitation,
  unescapeMarkdown,
  citationKey,
  isOurLabel,
  type ParseCitationResult,
} from './citation';
export { analyzeDocument } from './analyze';
export type {
  AuthorDefinition,
  CitationError,
  DocumentModel,
  FootnoteReference,
  InlineCitation,
  OurDefinition,
  Problem,
  ProblemCode,
  ReferencesSection,
} from './model';
export { insertCitation, type InsertOptions, type InsertResult, type InsertErrorCode } from './insert';
export { formatSnippet } from './snippet';
export { inlineText, snippetLine } from '../text/markdown';
export { applyEdits, normalizeEdits } from './edits';
export { MESSAGES, formatMessage } from './problems';
export { LineIndex } from './positions';
export { renumber, type RenumberOptions, type RenumberResult } from './renumber';
export { lint, type Diagnostic, type Fix } from './lint';
export { CitationCache, type CitationContext, type CitationCacheData } from './retrievalContext';
export { citationsPlugin, firstWords, PREVIEW_CLASSES, type PreviewOptions, type PreviewText } from './citationsPlugin';
export {
  verifySources,
  queryFor,
  sameText,
  basesOf,
  contextOfFound,
  VERIFY_TOP_K,
  VERIFY_CONCURRENCY,
  type VerifyOptions,
  type VerifyReport,
  type VerifyResult,
} from './verify';
export {
  VerifyCache,
  type VerifyOutcome,
  type VerifyStatus,
  type CachedOutcome,
  type FoundPassage,
  type KnowledgeBase,
  type VerifyCacheData,
} from './verifyCache';
export {
  collectSources,
  citedTextBefore,
  removeCitationEdits,
  sourceKey,
  type SourceDocument,
  type SourceUse,
  type VerifySource,
} from './verifySources';
