/**
 * Shunong in VS Code's chat: the language model tools, the `@shunong` participant and the
 * platform's MCP server for agent mode, each offered while its `shunong.chat.*` setting is on and
 * its API exists in this VS Code (each is detected at run time; `engines.vscode` stays ^1.100).
 */
import type { CommandRegistry } from '../shared/commands';
import vscode = require('vscode');
import type { SafetyService } from '../shared/safety';
import type { ChatStandIns } from './standIns';
import type { DraftBlock } from '../../citations/draftPlan';
import type { Connection } from '../shared/connection';
import type { KnowledgeStore } from '../shared/knowledgeStore';
import type { PassageDocs } from '../shared/passageDocs';
import { insertAnswerCommand, registerParticipant, ShunongParticipant } from './participant';
import { onDidChangeSettings, settings, type ChatSettings } from '../shared/settings';
import { mcpApi } from './mcpApi';
import { registerMcpProvider, type ShunongMcpProvider } from './mcp';
import { createTools, registerTools, TOOL_NAMES } from './tools';

/** What the chat feature needs. */
export interface ChatServices {
  readonly connection: Connection;
  readonly commands: CommandRegistry;
  /** The workspace's knowledge store (the knowledge bases the search knows). */
  readonly store: KnowledgeStore;
  readonly docs: PassageDocs;
  /** The draft insertion (one edit, one undo step). */
  insertDraft(editor: vscode.TextEditor, blocks: readonly DraftBlock[]): Promise<boolean>;
  /** The rules in force and the core that checks an answer's doses against its passages. */
  readonly safety?: SafetyService;
}

/** What the chat feature exports (the tests' seam). */
export interface ChatFeature {
  /** The tool names, as package.json declares them. */
  readonly toolNames: typeof TOOL_NAMES;
  /** What is registered now (each false when its setting is off or its API is absent). */
  registered(): Readonly<Record<keyof ChatSettings, boolean>>;
  /** A tool's confirmation for `input`, as VS Code would show it before the call. */
  prepare(name: string, input: object): Promise<vscode.PreparedToolInvocation>;
  /** The `@shunong` participant (its handler and answers), registered or not. */
  readonly participant: ShunongParticipant;
  /** The MCP server definition provider while it is registered. */
  mcpProvider(): ShunongMcpProvider | undefined;
}

type Part = keyof ChatSettings;
type Tools = ReadonlyMap<string, vscode.LanguageModelTool<object>>;
/** What registers each part, or returns undefined where this VS Code lacks its API. */
type Registrars = Record<Part, () => vscode.Disposable | undefined>;

/**
 * Registers what the settings turn on, and follows the settings. `standIns`: the registrations
 * activation made for VS Code's chat, taken over here the first time a part is on and released when
 * it is off (standIns.ts).
 */
export function activate(
  context: vscode.ExtensionContext,
  services: ChatServices,
  standIns: ChatStandIns = {},
): ChatFeature {
  const registrations: Partial<Record<Part, vscode.Disposable>> = {};
  const tools = createTools(services);
  const mcp: { provider: ShunongMcpProvider | undefined } = { provider: undefined };
  const participant = new ShunongParticipant(services);
  services.commands.register(insertAnswerCommand(participant));
  const registrars = partRegistrars(context, services, standIns, { tools, participant, mcp });
  const apply = (): void => applySettings(registrars, registrations);
  apply();
  // What the settings leave off is not offered through a stand-in either.
  for (const standIn of Object.values(standIns)) standIn?.dispose();
  context.subscriptions.push(onDidChangeSettings('chat', apply), {
    dispose: () => {
      for (const d of Object.values(registrations)) d.dispose();
    },
  });
  return {
    toolNames: TOOL_NAMES,
    registered: () => ({
      tools: registrations.tools !== undefined,
      participant: registrations.participant !== undefined,
      mcpServer: registrations.mcpServer !== undefined,
    }),
    participant,
    mcpProvider: () => mcp.provider,
    prepare: (name, input) => prepareTool(tools, name, input),
  };
}

/** The registrar of each part, each taking its stand-in over where there is one; `mcp` follows the MCP provider. */
function partRegistrars(
  context: vscode.ExtensionContext,
  services: ChatServices,
  standIns: ChatStandIns,
  parts: { tools: Tools; participant: ShunongParticipant; mcp: { provider: ShunongMcpProvider | undefined } },
): Registrars {
  const { tools, participant, mcp } = parts;
  return {
    tools: () =>
      standIns.tools?.take(tools) ?? (typeof vscode.lm?.registerTool === 'function' ? registerTools(tools) : undefined),
    participant: () =>
      typeof vscode.chat?.createChatParticipant === 'function'
        ? registerParticipant(participant, context.extensionUri, (handler) => standIns.participant?.take(handler))
        : undefined,
    mcpServer: () => {
      const r = registerMcpProvider(services.connection, mcpApi(), context.secrets, (provider) =>
        standIns.mcpServer?.take(provider),
      );
      mcp.provider = r?.provider;
      return r && vscode.Disposable.from(r.registration, { dispose: () => (mcp.provider = undefined) });
    },
  };
}

/** Registers each part the settings turn on and is not registered yet, and removes each they turn off. */
function applySettings(registrars: Registrars, registrations: Partial<Record<Part, vscode.Disposable>>): void {
  const wanted = settings.chat();
  for (const part of Object.keys(registrars) as Part[]) {
    const on = wanted[part];
    if (on && !registrations[part]) {
      try {
        const d = registrars[part]();
        if (d) registrations[part] = d;
      } catch {
        // the API is absent or refused in this VS Code: nothing is offered
      }
    } else if (!on && registrations[part]) {
      registrations[part]!.dispose();
      delete registrations[part];
    }
  }
}

/** A tool's confirmation for `input`, as VS Code would show it before the call. */
async function prepareTool(tools: Tools, name: string, input: object): Promise<vscode.PreparedToolInvocation> {
  const tool = tools.get(name);
  if (!tool?.prepareInvocation) throw new Error(`no tool ${name}`);
  const none = new vscode.CancellationTokenSource();
  try {
    const prepared = await tool.prepareInvocation({ input }, none.token);
    if (!prepared) throw new Error(`${name} prepared nothing`);
    return prepared;
  } finally {
    none.dispose();
  }
}
