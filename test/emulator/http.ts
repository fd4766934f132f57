/** Small helpers over node:http used by the emulator. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Reads a request body up to `limit` bytes; rejects with `Error('too large')` beyond it. */
export function readBody(req: IncomingMessage, limit = 16 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error('too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Sends a JSON body (serialized exactly once, no trailing newline). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Sends a plain-text body. */
export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A JSON-RPC error body not tied to a request (id null), as the SDK's HTTP transports word them. */
export function rpcErrorBody(code: number, message: string, id: string | number | null = null): unknown {
  return { jsonrpc: '2.0', error: { code, message }, id };
}

/** True for loopback peers. */
export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/** Resolves after `ms` milliseconds (0 resolves on the next tick). */
export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * The vendor's Bearer check (shared by `/mcp` and `/api/v1/chat/completions`): answers 401 with the
 * vendor's bodies and returns false when the key is missing or unknown.
 */
export function checkBearer(req: IncomingMessage, res: ServerResponse, keys: ReadonlySet<string>): boolean {
  const auth = req.headers.authorization;
  const m = auth === undefined ? null : /^Bearer\s+(.+)$/i.exec(auth.trim());
  if (!m) {
    sendJson(res, 401, { error: 'missing api key, header: Authorization: Bearer<api key>' });
    return false;
  }
  if (!keys.has((m[1] ?? '').trim())) {
    sendJson(res, 401, { error: 'invalid api key' });
    return false;
  }
  return true;
}
