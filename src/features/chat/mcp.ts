/**
 * The platform's MCP server in VS Code's MCP list (agent mode): one "Shunong" HTTP definition for the
 * configured endpoint, offered only while a key is stored and not rejected (VS Code 1.139 starts an
 * OAuth discovery on a 401). The definition VS Code lists carries no key; the key is read from
 * SecretStorage in `resolveMcpServerDefinition`, when VS Code starts the server, and goes in memory
 * to VS Code's own MCP client as the `Authorization` header — never into `mcp.json`, settings or
 * logs. A change of the key or the endpoint fires a change with a new version, so VS Code restarts it.
 */
import { createHash } from 'node:crypto';
import vscode = require('vscode');
import type { Connection } from '../shared/connection';
import type { McpApi, McpHttpServerDefinition, McpServerDefinitionProvider } from './mcpApi';

/** The provider id, as package.json's `contributes.mcpServerDefinitionProviders` declares it. */
const MCP_PROVIDER_ID = 'shunong.mcp';
/** The definition's label (VS Code's server id is `<extension id>/<label>`: not localised, so it stays put). */
const MCP_SERVER_LABEL = 'Shunong';

/** The provider, also handed to the tests through the extension's API. */
export class ShunongMcpProvider implements McpServerDefinitionProvider<McpHttpServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private generation = 0;
  private signature: string | undefined;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly connection: Connection,
    private readonly api: McpApi,
    secrets: vscode.SecretStorage,
  ) {
    this.disposables.push(
      connection.onDidChangeState(() => void this.refresh()),
      secrets.onDidChange(() => void this.refresh()),
    );
    void this.refresh();
  }

  /** The definitions now: one while a key is stored for the endpoint and not rejected, else none. */
  async provideMcpServerDefinitions(): Promise<McpHttpServerDefinition[]> {
    const offered = await this.offered();
    if (!offered) return [];
    return [new this.api.Definition(MCP_SERVER_LABEL, vscode.Uri.parse(offered.endpoint), {}, String(this.generation))];
  }

  /** Adds the key, read from SecretStorage now; undefined (VS Code does not start it) without one. */
  async resolveMcpServerDefinition(server: McpHttpServerDefinition): Promise<McpHttpServerDefinition | undefined> {
    const offered = await this.offered();
    if (!offered || server.uri.toString() !== vscode.Uri.parse(offered.endpoint).toString()) return undefined;
    server.headers = { ...server.headers, Authorization: `Bearer ${offered.key}` };
    return server;
  }

  private async offered(): Promise<{ endpoint: string; key: string } | undefined> {
    const state = this.connection.state;
    if (state === 'key-rejected' || state === 'insecure' || state === 'no-key') return undefined;
    const endpoint = this.connection.endpoint;
    const key = await this.connection.getKey(endpoint).catch(() => undefined);
    return key ? { endpoint, key } : undefined;
  }

  /** Fires a change (with a new version) when the endpoint, the key or whether one is offered changes. */
  private async refresh(): Promise<void> {
    const offered = await this.offered();
    // The key itself is not kept here: a digest tells a changed key.
    const signature = offered ? `${offered.endpoint}\n${createHash('sha256').update(offered.key).digest('hex')}` : '';
    if (signature === this.signature) return;
    const first = this.signature === undefined;
    this.signature = signature;
    this.generation++;
    if (!first) this.changed.fire();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * Registers the provider where this VS Code has the API (or takes over the stand-in activation
 * registered, `takeOver`); undefined where it does not.
 */
export function registerMcpProvider(
  connection: Connection,
  api: McpApi | undefined,
  secrets: vscode.SecretStorage,
  takeOver?: (provider: ShunongMcpProvider) => vscode.Disposable | undefined,
): { provider: ShunongMcpProvider; registration: vscode.Disposable } | undefined {
  if (!api) return undefined;
  const provider = new ShunongMcpProvider(connection, api, secrets);
  try {
    const registration = takeOver?.(provider) ?? api.register(MCP_PROVIDER_ID, provider);
    return { provider, registration: vscode.Disposable.from(registration, provider) };
  } catch (err) {
    provider.dispose();
    throw err;
  }
}
