/** Shared helpers for the emulator tests: one knowledge index for all suites, raw-HTTP MCP calls. */
import {
  DEFAULT_KNOWLEDGE_DIR,
  RetrievalEngine,
  startEmulator,
  type Emulator,
  type EmulatorOptions,
} from '../../emulator/server';

let engine: RetrievalEngine | undefined;
/** The real knowledge base, indexed once per test process. */
export function sharedEngine(): RetrievalEngine {
  engine ??= RetrievalEngine.fromDirectory(DEFAULT_KNOWLEDGE_DIR);
  return engine;
}

/** Starts an emulator over the shared index. */
export function start(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ engine: sharedEngine(), ...options });
}

export const KEY = 'sk_local_demo';
export const HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  authorization: `Bearer ${KEY}`,
};

/** POSTs one JSON-RPC message. */
export function post(emu: Emulator, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(emu.url, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Runs initialize + notifications/initialized; answers the session id. */
export async function openSession(emu: Emulator): Promise<string> {
  const r = await post(emu, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
  });
  const sid = r.headers.get('mcp-session-id');
  await r.text();
  if (!sid) throw new Error(`no session id (${r.status})`);
  const n = await post(emu, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sid });
  await n.text();
  return sid;
}

/** Parses a body made of SSE events into their data payloads, asserting the vendor's exact framing. */
export function sseEvents(text: string, sid: string): unknown[] {
  const out: unknown[] = [];
  const prefix = `id:${sid}\nevent:message\ndata:`;
  let rest = text;
  while (rest.length > 0) {
    if (!rest.startsWith(prefix)) throw new Error(`bad SSE framing: ${JSON.stringify(rest.slice(0, 80))}`);
    const end = rest.indexOf('\n\n');
    if (end < 0) throw new Error('unterminated SSE event');
    out.push(JSON.parse(rest.slice(prefix.length, end)));
    rest = rest.slice(end + 2);
  }
  return out;
}

let nextId = 100;
/** Sends a request in a session and answers the single JSON-RPC reply of its SSE body. */
export async function rpc(
  emu: Emulator,
  sid: string,
  method: string,
  params: unknown = {},
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const r = await post(emu, { jsonrpc: '2.0', id: nextId++, method, params }, { 'mcp-session-id': sid });
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${await r.text()}`);
  const events = sseEvents(await r.text(), sid);
  if (events.length !== 1) throw new Error(`expected one event, got ${events.length}`);
  return events[0] as { result?: unknown; error?: { code: number; message: string } };
}

/** A tool result's text and isError. */
export interface ToolText {
  text: string;
  isError: boolean;
}

/** Calls a tool; answers content[0].text and isError. */
export async function callTool(
  emu: Emulator,
  sid: string,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolText> {
  const reply = await rpc(emu, sid, 'tools/call', { name, arguments: args });
  if (reply.error) throw new Error(`JSON-RPC error ${reply.error.code}: ${reply.error.message}`);
  const result = reply.result as { content: { type: string; text: string }[]; isError: boolean };
  return { text: result.content[0]?.text ?? '', isError: result.isError };
}

/** Calls a tool that must succeed; answers its double-decoded payload. */
export async function callOk<T = Record<string, unknown>>(
  emu: Emulator,
  sid: string,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const r = await callTool(emu, sid, name, args);
  if (r.isError) throw new Error(`tool failed: ${r.text}`);
  return JSON.parse(r.text) as T;
}
