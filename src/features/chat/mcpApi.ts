/**
 * Local declarations of the MCP server definition API (finalized in VS Code 1.101), which
 * `@types/vscode` 1.100 lacks, and its detection at run time: on 1.100 the function is a proposed
 * API that throws for us, and `McpHttpServerDefinition` may be missing.
 */
import vscode = require('vscode');

/** An HTTP (Streamable HTTP) MCP server, as VS Code 1.101+ defines it. */
export interface McpHttpServerDefinition {
  readonly label: string;
  uri: vscode.Uri;
  headers: Record<string, string>;
  version?: string;
}

/** The provider VS Code asks for MCP server definitions. */
export interface McpServerDefinitionProvider<T extends McpHttpServerDefinition> {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<T[]>;
  resolveMcpServerDefinition?(server: T, token: vscode.CancellationToken): vscode.ProviderResult<T>;
}

/** The constructor VS Code exports as `vscode.McpHttpServerDefinition`. */
export type McpHttpServerDefinitionClass = new (
  label: string,
  uri: vscode.Uri,
  headers?: Record<string, string>,
  version?: string,
) => McpHttpServerDefinition;

/** The API where this VS Code has it. */
export interface McpApi {
  readonly Definition: McpHttpServerDefinitionClass;
  register(id: string, provider: McpServerDefinitionProvider<McpHttpServerDefinition>): vscode.Disposable;
}

/** The MCP server definition API, or undefined where this VS Code lacks it. */
export function mcpApi(): McpApi | undefined {
  const lm = vscode.lm as unknown as {
    registerMcpServerDefinitionProvider?: (
      id: string,
      p: McpServerDefinitionProvider<McpHttpServerDefinition>,
    ) => vscode.Disposable;
  };
  const Definition = (vscode as unknown as { McpHttpServerDefinition?: McpHttpServerDefinitionClass })
    .McpHttpServerDefinition;
  const register = lm.registerMcpServerDefinitionProvider;
  if (typeof register !== 'function' || typeof Definition !== 'function') return undefined;
  return { Definition, register: (id, provider) => register.call(vscode.lm, id, provider) };
}
