/**
 * Activation: builds the few shared services and hands each feature what it needs. Nothing else.
 * The platform bundle (MCP SDK, zod) is not loaded here; it loads on first use.
 */
import * as vscode from 'vscode';
import { Connection, readSettings } from './features/account/connection';
import * as account from './features/account/index';
import * as bulletin from './features/bulletin/index';
import * as cite from './features/cite/index';
import * as draft from './features/draft/index';
import * as recognition from './features/recognition/index';
import * as search from './features/search/index';

/** What the extension exports (used by the integration tests). */
export interface ShunongApi {
  readonly connection: Connection;
  readonly bulletin: ReturnType<typeof bulletin.activate>;
  readonly citations: cite.Citations;
  readonly knowledge: search.KnowledgeApi;
}

/** Activation entry point. */
export async function activate(context: vscode.ExtensionContext): Promise<ShunongApi> {
  const output = vscode.window.createOutputChannel('Shunong', { log: true });
  const connection = new Connection(context, output);
  context.subscriptions.push(output, connection);

  // The idle state needs a SecretStorage read (a round trip to the workbench): it is not awaited,
  // so activation never waits on it; the status bar shows "checking" until it is known. Only the
  // Development/Test-mode key seeding is awaited, so tests start with the key in place.
  if (context.extensionMode === vscode.ExtensionMode.Production) void connection.reset();
  else await seedKeyInDevelopment(context, connection).then(() => connection.reset());

  // Features: one line each, `feature.activate(context, services)`.
  draft.activate(context, { connection, citations: () => citations });
  recognition.activate(context, connection);
  account.activate(context, connection);
  const bulletinApi = bulletin.activate(context, { connection });
  const citations = cite.activate(context);
  const knowledge = search.activate(context, { connection });
  return { connection, bulletin: bulletinApi, citations, knowledge };
}

/**
 * Only in Development or Test mode: the SHUNONG_API_KEY environment variable is stored for the
 * configured endpoint, so the demo and the integration tests need not type the key.
 */
async function seedKeyInDevelopment(context: vscode.ExtensionContext, connection: Connection): Promise<void> {
  if (context.extensionMode === vscode.ExtensionMode.Production) return;
  const key = process.env.SHUNONG_API_KEY;
  if (!key) return;
  const { endpoint } = readSettings();
  if ((await connection.getKey(endpoint)) !== key) await connection.storeKey(key, endpoint);
}

export function deactivate(): void {
  // every disposable is on context.subscriptions
}
