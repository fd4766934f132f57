/**
 * The local Shunong-compatible MCP endpoint (`startEmulator`). Loopback only (127.0.0.1).
 *
 * Request pipeline for `/mcp`: auth (vendor 401 bodies) → method (POST only; GET 400) →
 * forced 429 / token bucket / forced 5xx / latency (admin controls) → Accept (406) → Content-Type
 * (415) → JSON → `initialize` opens a session, any other message needs a known `mcp-session-id`
 * (400 / 404) → notifications and responses 202 → requests to the SDK `Server` through our transport.
 */
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AdminControls, TokenBucket, type AdminState } from './admin';
import { EmulatorClock } from './clock';
import { checkBearer, delay, isLoopback, readBody, rpcErrorBody, sendJson, sendText } from './http';
import { CHAT_PATH, DEFAULT_TOKENS_PER_SEC, handleChatCompletions } from './rest/chat';
import { ImageStore, serveSample, SAMPLE_ROUTES } from './images';
import { RetrievalEngine } from './retrieval';
import { HttpSessionTransport } from './transport';
import { knowledgeTool } from './tools/knowledge';
import { recognizeTool } from './tools/recognize';
import { timeTool } from './tools/time';
import type { ToolDef } from './tools/types';
import { weatherTool } from './tools/weather';
import { ToolFailure, validateToolInput } from './validation';

export type { AdminState } from './admin';
export { RetrievalEngine, calibrate, CANDIDATES, RRF_K } from './retrieval';

/** Start-up options. */
export interface EmulatorOptions {
  /** 0 = ephemeral (default 0); host is always 127.0.0.1 */
  port?: number;
  /** default ['sk_local_demo'] */
  keys?: string[];
  /** token bucket; undefined = none */
  rateLimitPerSec?: number;
  /** original_image expiry, default 3600_000 */
  imageTtlMs?: number;
  /** default test/emulator/kb */
  knowledgeDir?: string;
  /** replicate the KB N times with generated variants (bench ×60); default 1 */
  scale?: number;
  /** one line per request: method, tool, status, ms — never the key; default: no logging */
  log?: (line: string) => void;
  /** timeout of imageUrl downloads (connect + response), default 10_000 ms */
  downloadTimeoutMs?: number;
  /** monotonic millisecond clock of the token bucket (tests inject one); default performance.now */
  monotonicNow?: () => number;
  /** a prebuilt engine (shares the index between emulators); overrides knowledgeDir/scale */
  engine?: RetrievalEngine;
  /** simulated generation speed of `/api/v1/chat/completions`, tokens per second (default 400) */
  restTokensPerSec?: number;
}

/** One HTTP request as the emulator saw it. */
export interface RequestRecord {
  httpMethod: string;
  path: string;
  rpcMethod?: string;
  tool?: string;
  /** the `tools/call` arguments as sent (a string longer than {@link LOGGED_STRING_MAX} is cut, with its length) */
  arguments?: Record<string, unknown>;
  status: number;
  sessionId?: string;
}

/** A running emulator. */
export interface Emulator {
  /** 'http://127.0.0.1:PORT/mcp' */
  readonly url: string;
  /** 'http://127.0.0.1:PORT' */
  readonly origin: string;
  readonly port: number;
  /** every HTTP request received, in order */
  readonly requests: RequestRecord[];
  /** same as POST /__admin */
  admin(change: AdminState): Promise<AdminState>;
  /** closes server and all sockets */
  close(): Promise<void>;
}

/** Longest string argument the request log keeps whole (an image's base64 is cut). */
export const LOGGED_STRING_MAX = 2000;

/** A copy of `tools/call` arguments for the request log: long strings cut to their start and length. */
export function loggedArguments(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    out[k] = typeof v === 'string' && v.length > LOGGED_STRING_MAX ? `${v.slice(0, 64)}… (${v.length} characters)` : v;
  }
  return out;
}

/** Default key. */
export const DEFAULT_KEY = 'sk_local_demo';
/** Default knowledge directory. */
export const DEFAULT_KNOWLEDGE_DIR = join(__dirname, 'kb');
/** The documented capabilities, in the vendor's order. */
export const CAPABILITIES = {
  completions: {},
  logging: {},
  prompts: { listChanged: true },
  resources: { subscribe: false, listChanged: true },
  tools: { listChanged: true },
};
/** serverInfo */
export const SERVER_INFO = { name: 'agriwis-mcp', version: '1.0.0' };

interface Session {
  server: Server;
  transport: HttpSessionTransport;
}

function toolResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], isError };
}

/** Starts the endpoint on 127.0.0.1. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const keys = new Set(options.keys && options.keys.length > 0 ? options.keys : [DEFAULT_KEY]);
  const clock = new EmulatorClock();
  const sessions = new Map<string, Session>();
  const expireAll = (): void => {
    const all = [...sessions.values()];
    sessions.clear();
    for (const s of all) void s.server.close();
  };
  const controls = new AdminControls(clock, expireAll);
  const bucket =
    options.rateLimitPerSec !== undefined && options.rateLimitPerSec > 0
      ? new TokenBucket(options.rateLimitPerSec, options.monotonicNow)
      : null;
  const engine =
    options.engine ?? RetrievalEngine.fromDirectory(options.knowledgeDir ?? DEFAULT_KNOWLEDGE_DIR, options.scale ?? 1);
  const images = new ImageStore(clock, options.imageTtlMs ?? 3600_000);
  const requests: RequestRecord[] = [];
  const log = options.log;
  let origin = '';

  const tools: ToolDef[] = [
    weatherTool(clock) as unknown as ToolDef,
    knowledgeTool(engine) as unknown as ToolDef,
    recognizeTool({
      images,
      origin: () => origin,
      downloadTimeoutMs: options.downloadTimeoutMs ?? 10_000,
    }) as unknown as ToolDef,
    timeTool(clock) as unknown as ToolDef,
  ];
  const toolByName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: z.toJSONSchema(t.schema, { target: 'draft-7', io: 'input' }) as {
      type: 'object';
      [k: string]: unknown;
    },
  }));

  function newSession(): Session {
    const sessionId = randomUUID();
    const transport = new HttpSessionTransport(sessionId, { shouldCutSse: () => controls.takeCutSse() });
    const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [] }));
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
      const tool = toolByName.get(request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
      const valid = validateToolInput(tool.name, tool.schema, request.params.arguments);
      if (!valid.ok) return toolResult(valid.text, true);
      const token = request.params._meta?.progressToken;
      const progress = async (done: number, total: number, message?: string): Promise<void> => {
        if (token === undefined) return;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: done, total, ...(message !== undefined ? { message } : {}) },
        });
      };
      try {
        const payload = await tool.run(valid.value, { signal: extra.signal, progress });
        return toolResult(JSON.stringify(payload), false);
      } catch (e) {
        const reason = e instanceof ToolFailure ? e.reason : e instanceof Error ? e.message : String(e);
        return toolResult(`Error invoking method: ${tool.method}\n${reason}`, true);
      }
    });
    transport.onclose = () => {
      if (sessions.get(sessionId)?.transport === transport) sessions.delete(sessionId);
    };
    sessions.set(sessionId, { server, transport });
    void server.connect(transport);
    return { server, transport };
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse, rec: RequestRecord): Promise<void> {
    if (!checkBearer(req, res, keys)) return;
    if (req.method === 'GET')
      return sendJson(res, 400, rpcErrorBody(-32000, 'Bad Request: the endpoint only accepts POST'));
    if (req.method !== 'POST')
      return sendJson(res, 405, rpcErrorBody(-32000, 'Method not allowed.'), { allow: 'POST' });
    const forced = controls.takeRateLimit();
    if (forced !== null) return sendJson(res, 429, { error: 'too many requests' }, { 'retry-after': String(forced) });
    const wait = bucket?.take() ?? null;
    if (wait !== null) return sendJson(res, 429, { error: 'too many requests' }, { 'retry-after': String(wait) });
    const failStatus = controls.takeFail5xx();
    if (failStatus !== null) return sendJson(res, failStatus, { error: STATUS_CODES[failStatus] ?? 'server error' });
    const accept = String(req.headers.accept ?? '');
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return sendJson(
        res,
        406,
        rpcErrorBody(-32000, 'Not Acceptable: Client must accept both application/json and text/event-stream'),
      );
    }
    if (!String(req.headers['content-type'] ?? '').includes('application/json')) {
      return sendJson(res, 415, rpcErrorBody(-32000, 'Unsupported Media Type: Content-Type must be application/json'));
    }
    let message: JSONRPCMessage;
    try {
      const parsed: unknown = JSON.parse((await readBody(req)).toString('utf8'));
      if (
        Array.isArray(parsed) ||
        parsed === null ||
        typeof parsed !== 'object' ||
        (parsed as { jsonrpc?: unknown }).jsonrpc !== '2.0'
      ) {
        return sendJson(res, 400, rpcErrorBody(-32600, 'Invalid Request: expected one JSON-RPC 2.0 message'));
      }
      message = parsed as JSONRPCMessage;
    } catch {
      return sendJson(res, 400, rpcErrorBody(-32700, 'Parse error: Invalid JSON'));
    }
    const msg = message as { id?: RequestId; method?: string; params?: { name?: unknown; arguments?: unknown } };
    if (msg.method !== undefined) rec.rpcMethod = msg.method;
    if (msg.method === 'tools/call' && typeof msg.params?.name === 'string') {
      rec.tool = msg.params.name;
      const args = msg.params.arguments;
      if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
        rec.arguments = loggedArguments(args as Record<string, unknown>);
      }
    }
    // After reading the body, so that a request the client gives up on during the wait is still
    // recorded with its method and tool (and status 0: closed before any reply).
    if (controls.latencyMs > 0) {
      let gone = false;
      res.once('close', () => (gone = true));
      await delay(controls.latencyMs);
      if (gone) return;
    }
    if (msg.method === 'initialize' && msg.id !== undefined) {
      const s = newSession();
      rec.sessionId = s.transport.sessionId;
      s.transport.dispatchRequest(message as JSONRPCMessage & { id: RequestId; method: string }, res);
      return;
    }
    const sid = req.headers['mcp-session-id'];
    if (typeof sid !== 'string' || sid.length === 0)
      return sendJson(res, 400, rpcErrorBody(-32000, 'Bad Request: Mcp-Session-Id header is required'));
    rec.sessionId = sid;
    const session = sessions.get(sid);
    if (!session) return sendJson(res, 404, rpcErrorBody(-32001, 'Session not found'));
    if (msg.method !== undefined && msg.id !== undefined) {
      session.transport.dispatchRequest(message as JSONRPCMessage & { id: RequestId; method: string }, res);
      return;
    }
    res.writeHead(202);
    res.end();
    session.transport.dispatchNotification(message);
  }

  async function handleAdmin(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isLoopback(req.socket.remoteAddress)) return sendJson(res, 403, { error: 'loopback only' });
    if (req.method === 'GET') return sendJson(res, 200, controls.state());
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'POST only' }, { allow: 'GET, POST' });
    try {
      const text = (await readBody(req)).toString('utf8').trim();
      const change = (text ? JSON.parse(text) : {}) as AdminState;
      sendJson(res, 200, controls.apply(change));
    } catch (e) {
      sendJson(res, 400, { error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** `GET /__admin/requests`: every request received so far (loopback only), e.g. to count tool calls. */
  function handleRequestLog(req: IncomingMessage, res: ServerResponse): void {
    if (!isLoopback(req.socket.remoteAddress)) return sendJson(res, 403, { error: 'loopback only' });
    if (req.method !== 'GET') return sendJson(res, 405, { error: 'GET only' }, { allow: 'GET' });
    sendJson(res, 200, { requests: requests.filter((r) => r.path !== '/__admin/requests') });
  }

  const http = createServer((req, res) => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rec: RequestRecord = { httpMethod: req.method ?? '', path: url.pathname, status: 0 };
    requests.push(rec);
    res.on('close', () => {
      rec.status = res.headersSent ? res.statusCode : 0;
      log?.(
        `${rec.httpMethod} ${rec.path}${rec.rpcMethod ? ` ${rec.rpcMethod}` : ''}${rec.tool ? ` ${rec.tool}` : ''} ${rec.status} ${Math.round(performance.now() - started)}ms`,
      );
    });
    res.on('finish', () => {
      rec.status = res.statusCode;
    });
    const route = async (): Promise<void> => {
      if (url.pathname === '/mcp') return handleMcp(req, res, rec);
      if (url.pathname === CHAT_PATH)
        return handleChatCompletions(
          req,
          res,
          { keys, controls, bucket, engine, clock, tokensPerSec: options.restTokensPerSec ?? DEFAULT_TOKENS_PER_SEC },
          rec,
        );
      // The test controls close their connection after answering: a test process whose event loop
      // was busy past the idle timeout would otherwise write its next control request onto a socket
      // this server had already closed, and see "other side closed" instead of an answer.
      if (url.pathname.startsWith('/__admin')) res.setHeader('connection', 'close');
      if (url.pathname === '/__admin') return handleAdmin(req, res);
      if (url.pathname === '/__admin/requests') return handleRequestLog(req, res);
      if (url.pathname.startsWith('/__images/')) return images.serve(url, res);
      if (SAMPLE_ROUTES.some((p) => url.pathname.startsWith(p))) return serveSample(url, res);
      sendText(res, 404, 'Not Found');
    };
    route().catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: e instanceof Error ? e.message : String(e) });
      else res.destroy();
    });
  });
  // Idle connections stay open a minute, as common servers keep them, so that a client whose event
  // loop is blocked for a few seconds (a photo being decoded) does not race the server's close.
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/mcp`,
    origin,
    port,
    requests,
    async admin(change) {
      return controls.apply(change);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        expireAll();
        http.close(() => resolve());
        http.closeAllConnections();
      });
      return closing;
    },
  };
}
