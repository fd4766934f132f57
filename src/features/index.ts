/**
 * The features bundle (`dist/features.js`): builds the few shared services and hands each feature
 * what it needs. Loaded by the thin activation entry (src/extension.ts) right after activation or
 * at the first command, whichever comes first, in every extension mode. The platform bundle (MCP
 * SDK, zod) is not loaded here either; it loads on first use.
 */
import vscode = require('vscode');
import type { ChatStandIns } from './chat/standIns';
import type { CitationDiagnostics } from './cite/diagnostics';
import type { CommandId } from '../settings/commands';
import { CommandRegistry } from './shared/commands';
import { Connection } from './shared/connection';
import { Failures } from './shared/failures';
import { settings } from './shared/settings';
import * as account from './account/index';
import * as browser from './browser/index';
import * as chat from './chat/index';
import * as calendar from './calendar/index';
import * as cite from './cite/index';
import * as dose from './dose/index';
import * as draft from './draft/index';
import * as exporting from './export/index';
import * as forecast from './forecast/index';
import * as newBulletin from './newBulletin/index';
import * as preview from './markdownPreview/index';
import * as recognition from './recognition/index';
import * as safety from './safety/index';
import * as search from './search/index';
import * as verify from './verify/index';
import * as weather from './weather/index';
import { CitationService } from './shared/citationService';
import { SafetyService } from './shared/safety';
import { createKnowledgeServices, type KnowledgeServices } from './shared/knowledge';
import { SourceOutcomes } from './shared/sourceOutcomes';

/** What the extension exports (used by the integration tests). */
export interface ShunongApi {
  readonly connection: Connection;
  /** The commands the registry registered (every one the manifest contributes). */
  readonly commands: readonly CommandId[];
  /** The day's date and solar terms, as the calendar status item holds them. */
  readonly calendar: ReturnType<typeof calendar.activate>['calendar'];
  readonly citations: cite.Citations;
  /** The knowledge store and passage documents the search and the browser share, and the browser. */
  readonly knowledge: KnowledgeServices & { readonly browser: browser.Browser };
  /** The passages the Markdown preview titles citations with. */
  readonly preview: ReturnType<typeof preview.activate>;
  /** Publishing: exports and the "Copy for WeChat" panel. */
  readonly export: exporting.ExportApi;
  /** "Verify Citations": the source outcomes and their Problems. */
  readonly verify: verify.VerifyFeature;
  /** VS Code's chat: the language model tools, the participant, the MCP server definition. */
  readonly chat: chat.ChatFeature;
  /** Pesticide safety: the Problems, the station's rules file. */
  readonly safety: safety.SafetyFeature;
  /** The dose check: its Problems. */
  readonly dose: dose.DoseFeature;
}

/** The features once loaded: their API, and when they have started. */
export interface Features {
  readonly api: ShunongApi;
  /**
   * Settles once the connection's idle state is known. It needs a SecretStorage read (a round trip
   * to the workbench), so the features do not wait for it: the status bar shows "checking" until then.
   */
  readonly started: Promise<void>;
}

/** What activation built before the features loaded, for them to take over. */
export interface Handoff {
  /** The chat registrations (tools, participant, MCP provider), answered by stand-ins until now. */
  readonly standIns: ChatStandIns;
  /** The citation Problems, published and following the documents since activation. */
  readonly diagnostics: CitationDiagnostics;
}

/** Registers every feature (synchronously) and starts reading the connection's state. */
export function activate(context: vscode.ExtensionContext, handoff: Handoff): Features {
  const { connection, output } = connect(context);
  const started = seedKeyInDevelopment(context, connection) ?? connection.reset();
  return { api: register(context, connection, output, handoff), started };
}

/** The output channel and the connection, shared by every feature. */
function connect(context: vscode.ExtensionContext): { connection: Connection; output: vscode.LogOutputChannel } {
  const output = vscode.window.createOutputChannel('Shunong', { log: true });
  const connection = new Connection(context, output);
  context.subscriptions.push(output, connection);
  return { connection, output };
}

/** The services the features share, besides the connection and the output channel. */
interface SharedServices {
  readonly failures: Failures;
  readonly commands: CommandRegistry;
  readonly safetyService: SafetyService;
  readonly citationService: CitationService;
  /** The knowledge store and passage documents. */
  readonly shared: KnowledgeServices;
}

/** Builds the services the features share. */
function sharedServices(
  context: vscode.ExtensionContext,
  connection: Connection,
  output: vscode.LogOutputChannel,
): SharedServices {
  const failures = new Failures(output, connection);
  const commands = new CommandRegistry(context, failures);
  const safetyService = new SafetyService();
  context.subscriptions.push(safetyService);
  const citationService = new CitationService(context.workspaceState, safetyService);
  const shared = createKnowledgeServices(context, () => citationService.cache, safetyService);
  return { failures, commands, safetyService, citationService, shared };
}

/** Logs the commands the manifest contributes and no feature registered, if any. */
function logMissing(commands: CommandRegistry, output: vscode.LogOutputChannel): void {
  const missing = commands.missing();
  if (missing.length > 0)
    output.error(`commands the manifest contributes and no feature registered: ${missing.join(', ')}`);
}

/** The shared services first, then the features: one line each, `feature.activate(context, services)`. */
function register(
  context: vscode.ExtensionContext,
  connection: Connection,
  output: vscode.LogOutputChannel,
  { standIns, diagnostics }: Handoff,
): ShunongApi {
  const { failures, commands, safetyService, citationService, shared } = sharedServices(context, connection, output);
  const base = { connection, commands, failures };
  draft.activate(context, { ...base, citations: citationService });
  recognition.activate(context, base);
  account.activate(context, base);
  const { calendar: today } = calendar.activate(context, base);
  weather.activate(context, base);
  newBulletin.activate(context, { ...base, calendar: today });
  const outcomes = new SourceOutcomes();
  context.subscriptions.push(outcomes);
  const citations = cite.activate(context, { commands, citations: citationService, diagnostics, outcomes, ...shared });
  const verified = verify.activate(context, {
    ...base,
    citations: citationService,
    model: (doc) => citations.diagnostics.model(doc),
    outcomes,
  });
  search.activate(context, { ...base, ...shared });
  const knowledgeBrowser = browser.activate(context, { ...shared, commands });
  const passages = preview.activate(context, { citations: citationService, store: shared.store });
  const doses = dose.activate(context, { ...base, ...shared, citations: citationService, outcomes });
  const exports = exporting.activate(context, { ...base, output, safety: safetyService, doses: doses.diagnostics });
  const safetyFeature = safety.activate(context, { commands, safety: safetyService });
  forecast.activate(context, { safety: safetyService });
  const chatFeature = chat.activate(
    context,
    {
      ...base,
      ...shared,
      insertDraft: (editor, blocks) => citationService.insertDraft(editor, blocks),
    },
    standIns,
  );
  logMissing(commands, output);
  return {
    connection,
    commands: commands.ids,
    calendar: today,
    citations,
    knowledge: { ...shared, browser: knowledgeBrowser },
    preview: passages,
    export: exports,
    verify: verified,
    chat: chatFeature,
    safety: safetyFeature,
    dose: doses,
  };
}

/**
 * Only in Development or Test mode: the SHUNONG_API_KEY environment variable is stored for the
 * configured endpoint, so the demo and the integration tests need not type the key. Storing puts
 * it in the connection's memory at once (before the SecretStorage write), so a command run right
 * after activation already finds it. Undefined when there is nothing to store.
 */
function seedKeyInDevelopment(context: vscode.ExtensionContext, connection: Connection): Promise<void> | undefined {
  if (context.extensionMode === vscode.ExtensionMode.Production) return undefined;
  const key = process.env.SHUNONG_API_KEY;
  if (!key) return undefined;
  return connection.storeKey(key, settings.connection().endpoint);
}
