/**
 * "Shunong: Verify Citations" (the active bulletin), "Verify Citations in Workspace" and the hover's
 * "Fetch this passage": each distinct source looked up on the platform by the verify plan
 * (src/citations/verify.ts) through the shared connection, with progress and a Cancel that aborts
 * the searches in flight. Verified passages go into the citation cache (so hovers show them), the
 * other outcomes into the Problems panel with quick fixes; outcomes are kept with their Beijing
 * date in workspace state, so a second run the same day asks nothing unless told to.
 */
import vscode = require('vscode');
import type { CitedPassage } from '../../citations/passage';
import type { CitationCache, DocumentModel, VerifyReport } from '../../citations/index';
import type { CommandRegistry } from '../shared/commands';
import type { Connection } from '../shared/connection';
import type { Failures } from '../shared/failures';
import type { SourceOutcomes } from '../shared/sourceOutcomes';
import { verifyCommands } from './commands';
import { SourceDiagnostics } from './diagnostics';
import { Verifier } from './run';

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

/** Registers the commands, the diagnostics and their quick fixes. */
export function activate(context: vscode.ExtensionContext, services: VerifyServices): VerifyFeature {
  const diagnostics = new SourceDiagnostics({ model: services.model, outcomes: services.outcomes });
  const verifier = new Verifier(context, services, diagnostics);
  services.commands.register(...verifyCommands(verifier, services));
  context.subscriptions.push(
    diagnostics,
    vscode.languages.registerCodeActionsProvider(
      { language: 'markdown' },
      { provideCodeActions: (doc, range) => diagnostics.codeActions(doc, range) },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
  );
  return { diagnostics, verify: (docs, options) => verifier.verify(docs, options) };
}
