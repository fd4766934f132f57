/**
 * The citation problems in the UI language (keys and English texts from src/citations/problems.ts,
 * the words from src/citations/problemText.ts, which `shunong check` speaks from too): the
 * citations' diagnostics and an export's warnings word them alike.
 */
import vscode = require('vscode');
import type { CitationError, Problem } from '../../citations/model';
import { citationFailureIn, problemMessageIn } from '../../citations/problemText';

/** Why a citation cannot be read, in the UI language. */
export function citationFailure(f: CitationError): string {
  return citationFailureIn(f, vscode.l10n);
}

/**
 * A problem's message in the UI language, by its key (a malformed citation's reason, its last
 * argument, by its failure); unknown keys fall back to the English text.
 */
export function problemMessage(p: Pick<Problem, 'messageKey' | 'args' | 'message' | 'failure'>): string {
  return problemMessageIn(p, vscode.l10n);
}
