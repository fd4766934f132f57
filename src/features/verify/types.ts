/** What the verify feature takes and gives: its services, a run's options, what the tests see. */
import type vscode = require('vscode');
import type { CitedPassage } from '../../citations/passage';
import type { CitationCache, DocumentModel, VerifyReport } from '../../citations/index';
import type { CommandRegistry } from '../shared/commands';
import type { Connection } from '../shared/connection';
import type { Failures } from '../shared/failures';
import type { SourceOutcomes } from '../shared/sourceOutcomes';
import type { SourceDiagnostics } from './diagnostics';

/** The citation cache as this feature uses it (the citation service, handed in). */
export interface VerifyPassages {
  readonly cache: CitationCache;
  rememberAll(passages: readonly CitedPassage[]): Promise<void>;
}

/** What the feature needs. */
export interface VerifyServices {
  connection: Connection;
  commands: CommandRegistry;
  failures: Failures;
  citations: VerifyPassages;
  /** The citation model of a document (the citation feature's). */
  model(doc: vscode.TextDocument): DocumentModel;
  /** Where the outcomes go (the citation hover reads them). */
  outcomes: SourceOutcomes;
}

/** Options of a run (command arguments). */
export interface VerifyRunOptions {
  /** Ask again even for sources verified today. */
  refresh?: boolean;
  /** Only this source (its key): the hover's "Fetch this passage". */
  only?: string;
}

/** What the feature registered (the integration tests' seam). */
export interface VerifyFeature {
  readonly diagnostics: SourceDiagnostics;
  /** Runs a verification of documents (what the commands do, without the summary message). */
  verify(docs: readonly vscode.TextDocument[], options?: VerifyRunOptions): Promise<VerifyReport | undefined>;
}
