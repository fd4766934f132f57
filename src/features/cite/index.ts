/**
 * Citations in the editor: insert a cited snippet or a citation (one edit, one undo), renumber,
 * diagnostics with quick fixes, hovers, the workspace check, the passage viewer, the "Citations"
 * view and the drop of a passage dragged from the knowledge browser. The logic is in src/citations;
 * this is the VS Code side. The citation service (the workspace cache and the insertions) is built
 * by src/features/index.ts and handed in, since the draft feature inserts through it too; the
 * diagnostics are built at activation (src/extension.ts) and handed in, already following the
 * documents.
 */
import type { CommandRegistry } from '../shared/commands';
import vscode = require('vscode');
import { citationCommands } from './commands';
import { CITATION_SOURCE, type CitationDiagnostics } from './diagnostics';
import { registerPassageDrop } from './drop';
import { citationHover } from './hover';
import { passageCommand } from './passages';
import type { CitationService } from '../shared/citationService';
import type { PassageDocs } from '../shared/passageDocs';
import type { SourceOutcomes } from '../shared/sourceOutcomes';
import { registerCitationTree, type CitationTree } from './tree';

/** The services the feature needs. */
export interface CiteServices {
  citations: CitationService;
  /** The citation Problems, published since activation. */
  diagnostics: CitationDiagnostics;
  /** The read-only passage documents ("Open the full passage"). */
  docs: PassageDocs;
  /** What "Verify Citations" found, shown in the hover. */
  outcomes?: SourceOutcomes;
  commands: CommandRegistry;
}

/** What the feature registered. */
export interface Citations {
  /** The workspace cache of passages and the insertions (the service handed in). */
  readonly service: CitationService;
  /** The citation models, lint results and Problems of Markdown documents. */
  readonly diagnostics: CitationDiagnostics;
  /** The "Citations" view of the active bulletin. */
  readonly tree: CitationTree;
}

/** Registers the citation commands, providers and view over the diagnostics handed in. */
export function activate(context: vscode.ExtensionContext, services: CiteServices): Citations {
  const { citations: service, diagnostics } = services;
  const md: vscode.DocumentSelector = { language: 'markdown' };
  const { tree, disposables, reveal } = registerCitationTree({
    model: (doc) => diagnostics.model(doc),
    get cache() {
      return service.cache;
    },
  });
  services.commands.register(...citationCommands(service, diagnostics), passageCommand(services.docs), reveal);
  context.subscriptions.push(
    vscode.languages.registerHoverProvider(md, {
      provideHover: (doc, pos) => citationHover(doc, pos, diagnostics.model(doc), service.cache, services.outcomes),
    }),
    vscode.languages.registerCodeActionsProvider(
      md,
      {
        // Quick fixes are for Problems shown: none of ours at the range (not linted yet, or clean),
        // nothing to fix, and no lint is run for the asking (the workbench asks as an editor opens).
        provideCodeActions: (doc, range, context) =>
          context.diagnostics.some((d) => d.source === CITATION_SOURCE) ? diagnostics.codeActions(doc, range) : [],
      },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
    registerPassageDrop(service),
    ...disposables,
  );
  return { service, diagnostics, tree };
}
