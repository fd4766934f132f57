/** The unit tests' web server: real HTTP on 127.0.0.1 only, each test's routes its own. */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A loopback server on 127.0.0.1 whose routes each test sets (any other path: 404); it records every request's path and headers. */
export async function loopback(): Promise<{
  origin: string;
  routes: Map<string, Handler>;
  seen: { path: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}> {
  const routes = new Map<string, Handler>();
  const seen: { path: string; headers: http.IncomingHttpHeaders }[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    seen.push({ path, headers: req.headers });
    const route = routes.get(path);
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routes,
    seen,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
