/**
 * The citation model of a bulletin: what one analysis finds (see `analyze.ts`) and the problems in
 * it (see `problems.ts`). Types only, so the analysis and the problem rules can share them.
 */
import type { ParseCitationResult } from './citation';
import type { Citation, SourceRange } from './types';

export type ProblemCode =
  | 'undefined-reference'
  | 'unused-definition'
  | 'duplicate-source'
  | 'malformed-citation'
  | 'duplicate-label'
  | 'glued-to-url';

/** One problem, without a fix (see `lint` for fixes). */
export interface Problem {
  code: ProblemCode;
  severity: 'error' | 'warning';
  /** The footnote label concerned, when there is one. */
  label?: string;
  message: string;
  messageKey: string;
  args: string[];
  /** A malformed citation's reason (its English sentence is the last of `args`). */
  failure?: CitationError;
  range: SourceRange;
}

/** A `[^label]` reference outside code. `range` covers exactly `[^label]`. */
export interface FootnoteReference {
  label: string;
  range: SourceRange;
  /** The label has one of our definitions (the first definition of that label is ours). */
  ours: boolean;
  /** Some definition (ours or the author's) exists for the label. */
  defined: boolean;
  /** Written right after a bare URL: a linkifying renderer reads it as part of the link (`bareUrl.ts`). */
  gluedToUrl?: true;
}

/** Why a citation could not be read. */
export type CitationError = Extract<ParseCitationResult, { ok: false }>;

/** A definition of our form `[^n]: doc#idx — kb (code)` (one line, top level, numeric label). */
export interface OurDefinition {
  label: string;
  /** The label as a number. */
  number: number;
  /** The parsed citation; absent when malformed (see `error`). */
  citation?: Citation;
  error?: CitationError;
  /** The `doc#idx` text as written (escaped) and where it is. */
  citationRaw: string;
  citationRange: SourceRange;
  kbName: string;
  kbCode: string;
  /** The whole definition line, without its line break. */
  range: SourceRange;
  line: number;
  /** An earlier definition has the same label (this one is ignored by Markdown). */
  duplicateLabel: boolean;
}

/** Any other footnote definition: the author's. Never edited. */
export interface AuthorDefinition {
  label: string;
  /** From `[^` to the end of the definition's last line. */
  range: SourceRange;
  line: number;
  /** Exclusive. */
  endLine: number;
  duplicateLabel: boolean;
}

/** An inline citation `〔doc#idx〕`; `range` covers the brackets too. */
export interface InlineCitation {
  raw: string;
  citation?: Citation;
  error?: CitationError;
  range: SourceRange;
  /** Written right after a bare URL (see {@link FootnoteReference.gluedToUrl}). */
  gluedToUrl?: true;
}

/** The references section: its heading and the lines up to the next heading of the same or a higher level. */
export interface ReferencesSection {
  headingRange: SourceRange;
  headingLine: number;
  level: number;
  /** Exclusive end line of the section. */
  endLine: number;
}

/** What {@link analyzeDocument} finds. */
export interface DocumentModel {
  /** The line break the document uses (first one found; LF by default). */
  eol: '\n' | '\r\n';
  lineCount: number;
  references: FootnoteReference[];
  definitions: OurDefinition[];
  authorDefinitions: AuthorDefinition[];
  /** Labels our numbers must avoid: used by the author (definitions, or references we do not own). */
  authorLabels: string[];
  inlineCitations: InlineCitation[];
  referencesSection?: ReferencesSection;
  frontMatter?: SourceRange;
  problems: Problem[];
}
