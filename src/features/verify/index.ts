/**
 * "Shunong: Verify Citations" (the active bulletin), "Verify Citations in Workspace" and the hover's
 * "Fetch this passage": each distinct source looked up on the platform by the verify plan
 * (src/citations/verify.ts) through the shared connection, with progress and a Cancel that aborts
 * the searches in flight. Verified passages go into the citation cache (so hovers show them), the
 * other outcomes into the Problems panel with quick fixes; outcomes are kept with their Beijing
 * date in workspace state, so a second run the same day asks nothing unless told to.
 */
import vscode = require('vscode');
import { verifyCommands } from './commands';
import { SourceDiagnostics } from './diagnostics';
import { Verifier } from './run';
import type { VerifyFeature, VerifyServices } from './types';

export type { VerifyFeature, VerifyPassages, VerifyRunOptions, VerifyServices } from './types';

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
