/**
 * Starting the "Shunong" MCP server we provide through VS Code's own MCP client until its tools are
 * listed, shared by the Production suite and the chat bench. The key's change event reaches VS Code's
 * MCP registry asynchronously: a start asked before the server's definition arrived starts nothing,
 * so it is asked again (every 500 ms, up to 90 times) until a tool matching `pattern` is listed.
 */
import * as vscode from 'vscode';

/** The id VS Code gives the server our extension provides. */
export const MCP_SERVER_ID = 'shunong-authors.shunong-vscode/Shunong';

/** The names of VS Code's language model tools matching `pattern` once the server has started ([] if never). */
export async function startMcpUntilListed(pattern: RegExp, server = MCP_SERVER_ID): Promise<string[]> {
  let names: string[] = [];
  for (let i = 0; i < 90 && names.length === 0; i++) {
    await vscode.commands.executeCommand('workbench.mcp.startServer', server, { waitForLiveTools: true });
    names = vscode.lm.tools.map((t) => t.name).filter((n) => pattern.test(n));
    if (names.length === 0) await new Promise((r) => setTimeout(r, 500));
  }
  return names;
}
