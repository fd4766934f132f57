/**
 * The connection to the Shunong endpoint: the API key in SecretStorage (one per endpoint), the
 * platform's two clients for the configured endpoint (one lazily created MCP `ShunongClient` per
 * endpoint + key, and the REST `ShunongRestClient` the draft uses), and the connection state shown
 * in the status bar. Features receive this service and call `run()` or `rest()`; they never build clients.
 */
import vscode = require('vscode');
import { loadPlatform } from '../../bundles';
import { endpointId, endpointProblem, type EndpointProblem } from '../../shunong/endpoint';
import { redactSecret } from '../../shunong/redact';
import type { ShunongClient, ShunongRestClient, ToolInfo } from '../../shunong/index';
import {
  describeEndpointProblem,
  describeError,
  missingKeyMessage,
  stateFromError,
  type ConnectionState,
} from './errors';
import { onDidChangeSettings, settings, type ConnectionSettings } from './settings';

export type { ConnectionState };

const SECRET_PREFIX = 'shunong.apiKey:';
const TOOLS_PREFIX = 'shunong.tools:';

/** The SecretStorage name of an endpoint's key. */
export function secretName(endpoint: string): string {
  return SECRET_PREFIX + endpointId(endpoint);
}

/** The typed failure for an endpoint the key may not be sent to, its message the localised sentence. */
function endpointFailure(problem: EndpointProblem, endpoint: string): Error {
  const { ConfigurationError, InsecureEndpointError } = loadPlatform();
  const message = describeEndpointProblem(problem, endpoint);
  return problem === 'insecure-http' ? new InsecureEndpointError(endpoint, message) : new ConfigurationError(message);
}

/** The settings a client is made with besides its endpoint: a client made with others is replaced. */
function optionsOf(s: ConnectionSettings): string {
  return `${s.requestTimeoutMs}|${s.allowInsecureHttp}`;
}

/** The outcome of checking a key against an endpoint. */
export type KeyCheck = { ok: true; tools: ToolInfo[] } | { ok: false; state: ConnectionState; message: string };

/** The connection service. One per extension host. */
export class Connection implements vscode.Disposable {
  private readonly stateEmitter = new vscode.EventEmitter<ConnectionState>();
  /** Fires when the connection state changes. */
  readonly onDidChangeState = this.stateEmitter.event;
  private current: { id: string; key: string; options: string; client: ShunongClient } | undefined;
  private restClient: { id: string; options: string; client: ShunongRestClient } | undefined;
  private stateValue: ConnectionState = 'checking';
  private lastError: string | undefined;
  private toolsSeen: ToolInfo[] = [];
  private offeredSetKey = false;
  /** Each endpoint's stored key, by secret name, as read from SecretStorage (see {@link getKey}). */
  private readonly keys = new Map<string, Promise<string | undefined>>();
  private readonly keysSeen = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      this.stateEmitter,
      onDidChangeSettings('connection', () => void this.reset()),
      context.secrets.onDidChange((e) => {
        if (e.key.startsWith(SECRET_PREFIX)) void this.secretChanged(e.key);
      }),
    );
  }

  /** `text` with every key this window has read or stored written `***`: what may go to the log. */
  redact(text: string): string {
    let out = text;
    for (const key of this.keysSeen) out = redactSecret(out, key);
    return out;
  }

  /** Remembers a key read or stored, for {@link redact}. */
  private seen(key: string | undefined): string | undefined {
    if (key) this.keysSeen.add(key);
    return key;
  }

  /** The configured endpoint. */
  get endpoint(): string {
    return settings.connection().endpoint;
  }

  /** The current connection state. */
  get state(): ConnectionState {
    return this.stateValue;
  }

  /** The last failure explained to the user, if the state is not connected. */
  get lastErrorMessage(): string | undefined {
    return this.lastError;
  }

  /** The tools the endpoint advertised the last time we asked. */
  get tools(): readonly ToolInfo[] {
    return this.toolsSeen;
  }

  /**
   * Reads the stored key for the configured (or given) endpoint. A SecretStorage read is a round
   * trip to the workbench (tens of milliseconds in a browser), so each endpoint's key is read once
   * and kept in memory until SecretStorage reports a change (from this window or another).
   */
  getKey(endpoint = this.endpoint): Promise<string | undefined> {
    const name = secretName(endpoint);
    return this.keys.get(name) ?? this.readKey(name);
  }

  /** Reads a secret into the in-memory copy (dropped again if the read fails). */
  private readKey(name: string): Promise<string | undefined> {
    const key = Promise.resolve(this.context.secrets.get(name)).then((k) => this.seen(k || undefined));
    this.keys.set(name, key);
    key.catch(() => {
      if (this.keys.get(name) === key) this.keys.delete(name);
    });
    return key;
  }

  /**
   * SecretStorage says a key changed: ours just stored (the event comes back to the window that
   * stored, at a moment of its own choosing), or another window's. Only a key that is really
   * different resets the connection; the same key stored again must not undo a check that has
   * already turned the state to connected, nor close a client in the middle of a call.
   */
  private async secretChanged(name: string): Promise<void> {
    const known = this.keys.get(name);
    const fresh = this.readKey(name);
    const [was, now] = await Promise.all([known?.catch(() => undefined), fresh.catch(() => undefined)]);
    if (known && was === now) return;
    await this.reset();
  }

  /** Stores a key for the configured endpoint (SecretStorage only). */
  async storeKey(key: string, endpoint = this.endpoint): Promise<void> {
    const name = secretName(endpoint);
    // Known before SecretStorage reports the change, so that report is recognised as ours.
    this.keys.set(name, Promise.resolve(this.seen(key)));
    try {
      await this.context.secrets.store(name, key);
    } catch (err) {
      this.keys.delete(name);
      throw err;
    }
    this.offeredSetKey = false;
    await this.reset();
  }

  /** Deletes the key of the configured endpoint. Keys of other endpoints are kept. */
  async clearKey(endpoint = this.endpoint): Promise<void> {
    const name = secretName(endpoint);
    this.keys.set(name, Promise.resolve(undefined));
    try {
      await this.context.secrets.delete(name);
    } catch (err) {
      this.keys.delete(name);
      throw err;
    }
    await this.reset();
  }

  /**
   * Recomputes the idle state after a setting or key change, and closes a client that no longer
   * fits. A client already made for the endpoint, key and settings now in force (a call may have
   * made it between a key being stored and this reset) is kept with its state: closing it would
   * fail that call with "Not connected".
   */
  async reset(): Promise<void> {
    const s = settings.connection();
    const problem = endpointProblem(s.endpoint, s.allowInsecureHttp);
    const key = problem ? undefined : await this.getKey(s.endpoint);
    const fits = (c: { id: string; options: string }) => c.id === endpointId(s.endpoint) && c.options === optionsOf(s);
    const kept = this.current && key !== undefined && this.current.key === key && fits(this.current);
    if (!kept) {
      const old = this.current;
      this.current = undefined;
      if (old) void old.client.close().catch(() => undefined);
    }
    if (this.restClient && (problem || !fits(this.restClient))) this.restClient = undefined;
    if (problem) {
      this.setState('insecure', describeEndpointProblem(problem, s.endpoint));
      return;
    }
    if (kept && (this.stateValue === 'connected' || this.stateValue === 'checking')) return;
    this.setState(key ? 'unchecked' : 'no-key');
  }

  /** Checks a candidate key with a real initialize against the endpoint, without storing it. */
  async verifyKey(key: string, endpoint = this.endpoint, signal?: AbortSignal): Promise<KeyCheck> {
    const s = settings.connection();
    const problem = endpointProblem(endpoint, s.allowInsecureHttp);
    if (problem) return { ok: false, state: 'insecure', message: describeEndpointProblem(problem, endpoint) };
    const client = this.createClient(endpoint, key, s);
    try {
      const tools = await client.connect(signal);
      return { ok: true, tools };
    } catch (err) {
      return {
        ok: false,
        state: stateFromError(err) ?? 'offline',
        message: redactSecret(describeError(err, endpoint), key),
      };
    } finally {
      void client.close().catch(() => undefined);
    }
  }

  /** Asks the endpoint (initialize + tool list) and updates the state. */
  async check(signal?: AbortSignal): Promise<ConnectionState> {
    try {
      this.setState('checking');
      await this.run((c) => c.listTools(signal ? { refresh: true, signal } : { refresh: true }), {
        offerSetKey: false,
      });
    } catch {
      // the state says what happened
    }
    return this.stateValue;
  }

  /**
   * Runs a platform call with the shared client and keeps the state in step with what it reveals.
   * A rejected key offers "Set API Key" once (not once per call) until a new key is stored.
   */
  async run<T>(fn: (client: ShunongClient) => Promise<T>, options: { offerSetKey?: boolean } = {}): Promise<T> {
    const client = await this.getClient();
    try {
      const result = await fn(client);
      this.setState('connected');
      this.toolsSeen = [...(await client.listTools().catch(() => this.toolsSeen))];
      return result;
    } catch (err) {
      const state = stateFromError(err);
      if (state) this.setState(state, describeError(err, client.endpoint));
      if (state === 'key-rejected' && options.offerSetKey !== false) this.offerSetKey();
      throw err;
    }
  }

  /** The shared client for the configured endpoint and stored key; created on first use. */
  async getClient(): Promise<ShunongClient> {
    const s = settings.connection();
    const problem = endpointProblem(s.endpoint, s.allowInsecureHttp);
    if (problem) {
      this.setState('insecure', describeEndpointProblem(problem, s.endpoint));
      throw endpointFailure(problem, s.endpoint);
    }
    const key = await this.getKey(s.endpoint);
    if (!key) {
      this.setState('no-key');
      throw new (loadPlatform().AuthError)('missing-key', missingKeyMessage(s.endpoint));
    }
    const id = endpointId(s.endpoint);
    const options = optionsOf(s);
    const c = this.current;
    if (c && c.id === id && c.key === key && c.options === options) return c.client;
    const old = this.current;
    const client = this.createClient(s.endpoint, key, s);
    this.current = { id, key, options, client };
    if (old) void old.client.close().catch(() => undefined);
    return client;
  }

  /**
   * The REST client (chat completions) for the configured endpoint; created on first use and kept
   * until a connection setting or the key changes. It reads the stored key at each call, and checks
   * the endpoint and the key itself (its failures are the same typed errors as the MCP client's).
   */
  rest(): ShunongRestClient {
    const s = settings.connection();
    const id = endpointId(s.endpoint);
    const options = optionsOf(s);
    if (this.restClient?.id === id && this.restClient.options === options) return this.restClient.client;
    const { ShunongRestClient } = loadPlatform();
    const endpoint = s.endpoint;
    const client = new ShunongRestClient({
      endpoint,
      getKey: () => this.getKey(endpoint),
      timeoutMs: s.requestTimeoutMs,
      allowInsecureHttp: s.allowInsecureHttp,
    });
    this.restClient = { id, options, client };
    return client;
  }

  private createClient(endpoint: string, key: string, s: ConnectionSettings): ShunongClient {
    const { ShunongClient } = loadPlatform();
    const store = this.context.globalState;
    return new ShunongClient({
      endpoint,
      getKey: () => key,
      timeoutMs: s.requestTimeoutMs,
      allowInsecureHttp: s.allowInsecureHttp,
      clientInfo: { name: 'shunong-vscode', version: String(this.context.extension.packageJSON.version ?? '0.0.0') },
      toolStore: {
        load: (ep) => store.get<ToolInfo[]>(TOOLS_PREFIX + endpointId(ep)),
        save: async (ep, tools) => {
          await store.update(TOOLS_PREFIX + endpointId(ep), tools);
        },
      },
      log: (line) => this.output.info(redactSecret(line, key)),
    });
  }

  private offerSetKey(): void {
    if (this.offeredSetKey) return;
    this.offeredSetKey = true;
    const setKey = vscode.l10n.t('Set API Key');
    void vscode.window
      .showWarningMessage(vscode.l10n.t('The Shunong endpoint rejected the API key.'), setKey)
      .then((choice) => (choice === setKey ? vscode.commands.executeCommand('shunong.setApiKey') : undefined));
  }

  private setState(state: ConnectionState, error?: string): void {
    this.lastError = state === 'connected' || state === 'unchecked' || state === 'checking' ? undefined : error;
    if (state === this.stateValue) return;
    this.stateValue = state;
    this.stateEmitter.fire(state);
  }

  dispose(): void {
    if (this.current) void this.current.client.close().catch(() => undefined);
    this.current = undefined;
    this.restClient = undefined;
    for (const d of this.disposables) d.dispose();
  }
}
