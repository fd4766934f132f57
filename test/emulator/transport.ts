/**
 * Our own SDK `Transport` for one MCP session over node:http, writing the vendor's frames:
 * the reply to `initialize` as `application/json` with the `mcp-session-id` header, every other
 * reply as SSE, exactly `id:<session-id>\nevent:message\ndata:<json>\n\n`, one event per reply,
 * without keep-alive or priming events. Progress notifications for a request that carries a
 * `progressToken` are written as extra events on that request's stream before its reply.
 */
import type { ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { SseCut } from './admin';

/** The protocol version the endpoint always answers. */
export const PROTOCOL_VERSION = '2025-06-18';

/** Hooks the HTTP layer gives the transport. */
export interface TransportHooks {
  /** Called before an SSE reply is written: how to cut it (see {@link SseCut}), or undefined to send it whole. */
  shouldCutSse(): SseCut | undefined;
}

interface Pending {
  res: ServerResponse;
  mode: 'json' | 'sse';
  isInitialize: boolean;
  started: boolean;
}

/** Serializes a JSON-RPC message with its keys in the vendor's order (jsonrpc, id, result/error; jsonrpc, method, params). */
export function serializeMessage(message: JSONRPCMessage): string {
  const m = message as Record<string, unknown>;
  const out: Record<string, unknown> = { jsonrpc: '2.0' };
  if ('id' in m) out.id = m.id;
  if ('method' in m) out.method = m.method;
  if ('params' in m && m.params !== undefined) out.params = m.params;
  if ('result' in m) out.result = m.result;
  if ('error' in m) out.error = m.error;
  return JSON.stringify(out);
}

/** Builds one SSE event exactly as the vendor frames it. */
export function sseFrame(sessionId: string, json: string): string {
  return `id:${sessionId}\nevent:message\ndata:${json}\n\n`;
}

/** One session's transport. The HTTP handler feeds it messages with their response objects. */
export class HttpSessionTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  private readonly pending = new Map<RequestId, Pending>();
  private closed = false;

  constructor(
    readonly sessionId: string,
    private readonly hooks: TransportHooks,
  ) {}

  /** Nothing to start: messages arrive through `dispatchRequest` / `dispatchNotification`. */
  async start(): Promise<void> {}

  /** Ends every pending reply and reports the close. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending.values()) if (!p.res.writableEnded) p.res.destroy();
    this.pending.clear();
    this.onclose?.();
  }

  /** Hands a JSON-RPC request to the server; its reply is written to `res` (JSON for initialize, SSE otherwise). */
  dispatchRequest(message: JSONRPCMessage & { id: RequestId; method: string }, res: ServerResponse): void {
    const isInitialize = message.method === 'initialize';
    this.pending.set(message.id, { res, mode: isInitialize ? 'json' : 'sse', isInitialize, started: false });
    // A client that goes away before its reply cancels the work (the tool's AbortSignal fires).
    res.on('close', () => {
      const p = this.pending.get(message.id);
      if (p && p.res === res) {
        this.pending.delete(message.id);
        this.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: message.id, reason: 'client disconnected' },
        });
      }
    });
    this.onmessage?.(message);
  }

  /** Hands notifications or responses to the server. A `notifications/cancelled` also ends the cancelled request's open reply without an event. */
  dispatchNotification(message: JSONRPCMessage): void {
    const m = message as { method?: string; params?: { requestId?: RequestId } };
    if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) {
      const p = this.pending.get(m.params.requestId);
      this.onmessage?.(message);
      if (p) {
        this.pending.delete(m.params.requestId);
        if (!p.started) p.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        p.res.end();
      }
      return;
    }
    this.onmessage?.(message);
  }

  /** Writes a server message onto the HTTP reply of the request it belongs to. Messages with no open request are dropped (there is no GET stream). */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as { id?: RequestId; method?: string; result?: Record<string, unknown> };
    const isResponse = m.method === undefined && m.id !== undefined;
    const key = isResponse ? m.id : options?.relatedRequestId;
    if (key === undefined) return;
    const p = this.pending.get(key);
    if (!p || p.res.destroyed) return;
    if (isResponse) {
      this.pending.delete(key);
      if (p.isInitialize && m.result && typeof m.result === 'object') m.result.protocolVersion = PROTOCOL_VERSION;
    }
    const json = serializeMessage(message);
    if (p.mode === 'json') {
      if (!isResponse) return; // initialize emits no notifications
      p.res.writeHead(200, {
        'content-type': 'application/json',
        'mcp-session-id': this.sessionId,
        'content-length': Buffer.byteLength(json),
      });
      p.res.end(json);
      return;
    }
    const frame = sseFrame(this.sessionId, json);
    if (!p.started) {
      p.started = true;
      const cut = this.hooks.shouldCutSse();
      if (cut) {
        p.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        if (cut === 'destroy') {
          const bytes = Buffer.from(frame);
          p.res.write(bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))), () => p.res.socket?.destroy());
        } else {
          p.res.end(
            cut === 'garbage' ? sseFrame(this.sessionId, json.slice(0, Math.floor(json.length / 2))) : undefined,
          );
        }
        this.pending.delete(key);
        return;
      }
      p.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    }
    if (isResponse) p.res.end(frame);
    else p.res.write(frame);
  }
}
