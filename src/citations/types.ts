/**
 * Shared types of the citation layer. Offsets are UTF-16 code-unit offsets into the document
 * text exactly as given (CRLF counts as two units); lines and characters are 0-based, the way
 * VS Code counts them.
 */
import type { Lang } from '../text/words';

/** A passage reference: `<docName>#<chunkIndex>`. */
export interface Citation {
  docName: string;
  chunkIndex: number;
}

/** Everything needed to cite a passage. */
export interface CitationSource extends Citation {
  kbName: string;
  kbCode: string;
}

/** A 0-based line / character position (UTF-16 characters, like `vscode.Position`). */
export interface Position {
  line: number;
  character: number;
}

/** A document range: offsets plus the matching 0-based positions. */
export interface SourceRange {
  start: number;
  end: number;
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

/** One replacement in document offsets. A batch is sorted and non-overlapping (one WorkspaceEdit). */
export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

/** Options shared by every operation. */
export interface CitationOptions {
  /**
   * The references heading the author set (setting `citations.referencesHeading`): then the only one
   * recognised, and the one written. Unset or empty: `参考资料` and `References` are both recognised,
   * and a new section gets the one of {@link lang}.
   */
  referencesHeading?: string;
  /** The document's language: the heading a new references section gets when none is set (default zh, `参考资料`). */
  lang?: Lang;
}
