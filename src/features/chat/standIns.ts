/**
 * Stand-ins for what VS Code's chat may call before the features have loaded: every language model
 * tool, the `@shunong` participant and the MCP server definition provider the manifest contributes,
 * registered at activation (src/extension.ts, the one way of activating, in every extension mode)
 * where this VS Code has the API. The chat feature takes each over (index.ts) or, when its setting
 * is off, releases it.
 */
import vscode = require('vscode');
import { mcpApi, type McpApi, type McpHttpServerDefinition, type McpServerDefinitionProvider } from './mcpApi';
import { StandIn } from '../shared/standIn';

type Tools = ReadonlyMap<string, vscode.LanguageModelTool<object>>;
type McpProvider = McpServerDefinitionProvider<McpHttpServerDefinition>;

/** The stand-ins, each absent where this VS Code lacks (or refuses) its API. */
export interface ChatStandIns {
  readonly tools?: StandIn<Tools>;
  readonly participant?: StandIn<vscode.ChatRequestHandler>;
  readonly mcpServer?: StandIn<McpProvider>;
}

interface Contributions {
  languageModelTools?: { name: string }[];
  chatParticipants?: { id: string }[];
  mcpServerDefinitionProviders?: { id: string }[];
}

/** A stand-in, or undefined where registering it throws (an API absent or proposed here). */
function attempt<T>(make: () => StandIn<T>): StandIn<T> | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

/** Registers the stand-ins; `load` loads the features (which take them over). */
export function chatStandIns(context: vscode.ExtensionContext, load: () => void): ChatStandIns {
  const contributes = (context.extension.packageJSON as { contributes?: Contributions }).contributes ?? {};
  const toolNames = (contributes.languageModelTools ?? []).map((t) => t.name);
  const participantId = contributes.chatParticipants?.[0]?.id;
  const providerId = contributes.mcpServerDefinitionProviders?.[0]?.id;
  const mcp = providerId ? mcpApi() : undefined;

  const tools =
    typeof vscode.lm?.registerTool === 'function' && toolNames.length
      ? attempt(() => new StandIn<Tools>(load, (current) => registerTools(toolNames, current)))
      : undefined;
  const participant =
    typeof vscode.chat?.createChatParticipant === 'function' && participantId
      ? attempt(
          () =>
            new StandIn<vscode.ChatRequestHandler>(load, (current) =>
              registerParticipant(participantId, context.extensionUri, current),
            ),
        )
      : undefined;
  const mcpServer =
    mcp && providerId
      ? attempt(
          () =>
            new StandIn<McpProvider>(load, (current, taken) => registerMcpProvider(mcp, providerId, current, taken)),
        )
      : undefined;
  const standIns = { tools, participant, mcpServer };
  for (const s of Object.values(standIns)) if (s) context.subscriptions.push(s);
  return {
    ...(tools ? { tools } : {}),
    ...(participant ? { participant } : {}),
    ...(mcpServer ? { mcpServer } : {}),
  };
}

/** The stand-in participant `id`, delegating to the handler the features handed over. */
function registerParticipant(
  id: string,
  extensionUri: vscode.Uri,
  current: () => vscode.ChatRequestHandler,
): vscode.ChatParticipant {
  const chat = vscode.chat.createChatParticipant(id, (...args) => current()(...args));
  chat.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  return chat;
}

/** The stand-in MCP provider `id`, delegating to the features' provider and forwarding its change events. */
function registerMcpProvider(
  mcp: McpApi,
  id: string,
  current: () => McpProvider,
  taken: vscode.Event<McpProvider>,
): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  let forward: vscode.Disposable | undefined;
  const following = taken((p) => {
    forward?.dispose();
    forward = p.onDidChangeMcpServerDefinitions?.(() => changed.fire());
  });
  const parts = vscode.Disposable.from(following, changed, { dispose: () => forward?.dispose() });
  try {
    const registration = mcp.register(id, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: (token) => current().provideMcpServerDefinitions(token),
      resolveMcpServerDefinition: (server, token) => {
        const provider = current();
        return provider.resolveMcpServerDefinition ? provider.resolveMcpServerDefinition(server, token) : server;
      },
    });
    return vscode.Disposable.from(registration, parts);
  } catch (err) {
    parts.dispose();
    throw err;
  }
}

/** One stand-in tool per contributed name, each delegating to the tool of that name. */
function registerTools(names: readonly string[], current: () => Tools): vscode.Disposable {
  const tool = (name: string): vscode.LanguageModelTool<object> => {
    const t = current().get(name);
    if (!t) throw new Error(`no tool ${name}`);
    return t;
  };
  return vscode.Disposable.from(
    ...names.map((name) =>
      vscode.lm.registerTool<object>(name, {
        prepareInvocation: (options, token) => tool(name).prepareInvocation?.(options, token),
        invoke: (options, token) => tool(name).invoke(options, token),
      }),
    ),
  );
}
