/**
 * The dose check in the editor: each cited dose, dilution, interval and product compared with the
 * passage it cites, in the Problems panel (`shunong-dose`), with a hover that shows the passage's
 * words, a quick fix that takes its value, and the safety lint's silencing comment. The check is
 * the safety core's, reached through the shared SafetyService, so its bundle loads as it does for
 * the safety Problems; the passages are the citation cache's. A dose recommended without a source
 * gets "find a source", which searches the knowledge base and cites the passage picked (source.ts).
 */
import vscode = require('vscode');
import type { CitationService } from '../shared/citationService';
import type { CommandRegistry } from '../shared/commands';
import type { Connection } from '../shared/connection';
import type { KnowledgeStore } from '../shared/knowledgeStore';
import type { SafetyService } from '../shared/safety';
import type { SourceOutcomes } from '../shared/sourceOutcomes';
import { doseActions, doseHover } from './actions';
import { DoseDiagnostics } from './diagnostics';
import { findSourceCommand } from './source';

/** What the feature needs. */
export interface DoseServices {
  safety: SafetyService;
  citations: Pick<CitationService, 'cache' | 'onDidChange' | 'insert'>;
  /** Finding a source: the knowledge search, and the command that runs it. */
  connection: Connection;
  store: KnowledgeStore;
  commands: CommandRegistry;
  /** What Verify Citations found: a changed passage is compared in its current text. */
  outcomes?: Pick<SourceOutcomes, 'get' | 'onDidChange'>;
}

/** What the tests see of the feature. */
export interface DoseFeature {
  diagnostics: DoseDiagnostics;
}

const MARKDOWN: vscode.DocumentSelector = { language: 'markdown' };

/** Registers the Problems, the hover, the quick fixes and "find a source"; checks the bulletins already open. */
export function activate(context: vscode.ExtensionContext, services: DoseServices): DoseFeature {
  const diagnostics = new DoseDiagnostics(services.safety, services.citations, services.outcomes);
  services.commands.register(findSourceCommand(services));
  context.subscriptions.push(
    diagnostics,
    ...diagnostics.watch(),
    vscode.languages.registerHoverProvider(MARKDOWN, {
      provideHover: (doc, pos) => doseHover(doc, pos, diagnostics),
    }),
    vscode.languages.registerCodeActionsProvider(
      MARKDOWN,
      { provideCodeActions: (doc, range) => doseActions(doc, range, diagnostics, services.safety) },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
  );
  for (const d of vscode.workspace.textDocuments) if (d.languageId === 'markdown') diagnostics.schedule(d, 0);
  return { diagnostics };
}
