/**
 * The features bundle (`dist/features.js`): builds the few shared services and hands each feature
 * what it needs. Loaded by the thin activation entry (src/extension.ts) right after activation or
 * at the first command, whichever comes first. The platform bundle (MCP SDK, zod) is not loaded
 * here either; it loads on first use.
 */
import * as vscode from 'vscode';
import { Connection, readSettings } from './account/connection';
import * as account from './account/index';
import * as bulletin from './bulletin/index';
import * as cite from './cite/index';
import * as draft from './draft/index';
import * as recognition from './recognition/index';
import * as search from './search/index';

/** What the extension exports (used by the integration tests). */
export interface ShunongApi {
  readonly connection: Connection;
  readonly bulletin: ReturnType<typeof bulletin.activate>;
  readonly citations: cite.Citations;
  readonly knowledge: search.KnowledgeApi;
}

/** What activating the features gives: the API at once, and when the connection's state is known. */
export interface Features {
  readonly api: ShunongApi;
  /** Settles once the Development/Test-mode key is seeded (at once in Production). */
  readonly ready: Promise<void>;
}

/** Registers every feature (synchronously) and starts reading the connection's state. */
export function activate(context: vscode.ExtensionContext): Features {
  const output = vscode.window.createOutputChannel('Shunong', { log: true });
  const connection = new Connection(context, output);
  context.subscriptions.push(output, connection);

  // The idle state needs a SecretStorage read (a round trip to the workbench): it is not awaited;
  // the status bar shows "checking" until it is known. Only the Development/Test-mode key seeding
  // is awaited (by the activation entry, through `ready`), so tests start with the key in place.
  let ready: Promise<void>;
  if (context.extensionMode === vscode.ExtensionMode.Production) {
    void connection.reset();
    ready = Promise.resolve();
  } else {
    ready = seedKeyInDevelopment(context, connection).then(() => connection.reset());
  }

  // Features: one line each, `feature.activate(context, services)`.
  draft.activate(context, { connection, citations: () => citations });
  recognition.activate(context, connection);
  account.activate(context, connection);
  const bulletinApi = bulletin.activate(context, { connection });
  const citations = cite.activate(context);
  const knowledge = search.activate(context, { connection });
  return { api: { connection, bulletin: bulletinApi, citations, knowledge }, ready };
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
