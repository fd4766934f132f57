/**
 * Markdown citations for Shunong bulletins — pure logic, no `vscode`. See DESIGN.md, "Citation format".
 *
 * Every operation parses the document once (markdown-it, see `parser.ts`) and returns edits in
 * UTF-16 document offsets, sorted and non-overlapping, to apply as one WorkspaceEdit.
 *
 * Bundled as dist/citations.js, which the export requires for everything it takes from here
 * (markdown-it included) instead of holding a copy.
 */
export * from './types';
export {
  citationKey,
  isOurLabel,
  parseCitation,
  parseDefinitionBody,
  parseRawCitation,
  formatCitation,
  formatDefinition,
  formatInlineCitation,
  type ParseCitationResult,
} from './citation';
export { analyzeDocument, recognisedHeadings } from './analyze';
export { normalizeForParser, type Token } from './parser';
/** markdown-it itself, for the export's reader (it parses bulletins as the preview does). */
export { default as markdownIt } from 'markdown-it';
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
export { applyEdits } from './edits';
export { renumber, type RenumberOptions, type RenumberResult } from './renumber';
export { lint, type Diagnostic, type Fix } from './lint';
export { CitationCache, type CitationContext, type CitationCacheData, type Retrieval } from './retrievalContext';
export { citationsPlugin, firstWords, PREVIEW_CLASSES, type PreviewOptions, type PreviewText } from './citationsPlugin';
export { verifySources, type VerifyOptions, type VerifyReport, type VerifyResult } from './verify';
export {
  VerifyCache,
  type VerifyOutcome,
  type VerifyStatus,
  type CachedOutcome,
  type KnowledgeBase,
  type VerifyCacheData,
} from './verifyCache';
export {
  collectSources,
  removeCitationEdits,
  sourceKey,
  type SourceDocument,
  type SourceUse,
  type VerifySource,
} from './verifySources';
