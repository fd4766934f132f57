/**
 * A forecast's required parts in the editor: a Markdown bulletin whose front matter says it is a
 * forecast (`type: forecast`, 预报, 病虫情报, 警报) gets a warning in the Problems panel for each part
 * the 2021 forecast rules require that it does not state. The check is the safety core's, reached
 * through the shared SafetyService, so its bundle loads as it does for the safety Problems.
 */
import vscode = require('vscode');
import type { SafetyService } from '../shared/safety';
import { ForecastDiagnostics } from './diagnostics';

/** What the feature needs. */
export interface ForecastServices {
  /** The rules in force (their pesticide names) and the core that checks. */
  safety: SafetyService;
}

/** Registers the Problems and checks the bulletins already open. */
export function activate(context: vscode.ExtensionContext, services: ForecastServices): void {
  const diagnostics = new ForecastDiagnostics(services.safety);
  context.subscriptions.push(diagnostics, ...diagnostics.watch());
  // The bulletins already open are read in the next task, not after the typing debounce: nobody is typing in them.
  for (const d of vscode.workspace.textDocuments) if (d.languageId === 'markdown') diagnostics.schedule(d, 0);
}
