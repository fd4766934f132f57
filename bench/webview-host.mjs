// The recognition bench's stand-in for VS Code's webview hosting, run in its own process (as VS Code
// serves webview resources from the workbench, not from the extension host where the endpoint call
// runs). Two loopback origins, as in VS Code where the webview document and its resources
// (`asWebviewUri`, https://file+.vscode-resource.vscode-cdn.net) are different origins:
//   page origin:      GET /            the webview document, with the panel's CSP and a nonce'd
//                                      stand-in of acquireVsCodeApi
//   resource origin:  GET /media/<f>   media/recognition files (main.js, style.css)
//                     GET /files/<f>   files of the folder given as argv[3] (the photos, the copies)
//                     PUT /files/<f>   writes the body there (the bench's stand-in for the webview
//                                      posting a shrunk JPEG back as binary)
// Resources are answered as VS Code's webview service worker answers them: the file's bytes,
// content type by extension, `Access-Control-Allow-Origin: *` and
// `Cross-Origin-Resource-Policy: cross-origin`, not cached (every picture is a first load).
// Prints {"page": url, "resources": origin} on its first line. Binds 127.0.0.1 only.
import { createServer } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';

const [media, files] = process.argv.slice(2);
const TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
};
const typeOf = (f) => TYPES[f.slice(f.lastIndexOf('.')).toLowerCase()] ?? 'application/octet-stream';

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));

const resources = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const m = /^\/(media|files)\/([^/]+)$/.exec(url.pathname);
  if (!m) return void res.writeHead(404).end();
  const name = basename(decodeURIComponent(m[2]));
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'PUT' }).end();
    return;
  }
  if (req.method === 'PUT' && m[1] === 'files') {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    await writeFile(join(files, name), Buffer.concat(chunks));
    res.writeHead(204, { 'Access-Control-Allow-Origin': '*' }).end();
    return;
  }
  try {
    const body = await readFile(join(m[1] === 'media' ? media : files, name));
    res.writeHead(200, {
      'Content-Type': typeOf(name),
      'Content-Length': body.length,
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Cache-Control': 'no-store',
    });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
const resourceOrigin = await listen(resources);

const page = createServer((req, res) => {
  const nonce = randomBytes(18).toString('base64');
  // The panel's CSP (src/features/recognition/panel.ts) with this resource origin as cspSource.
  const csp = [
    `default-src 'none'`,
    `img-src ${resourceOrigin} data:`,
    `style-src ${resourceOrigin}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="stylesheet" href="${resourceOrigin}/media/style.css"></head>
<body><div id="app"></div>
<script nonce="${nonce}">window.__out=[];window.acquireVsCodeApi=()=>({postMessage:(m)=>window.__out.push(m),getState:()=>undefined,setState:()=>undefined});</script>
<script nonce="${nonce}" src="${resourceOrigin}/media/main.js"></script></body></html>`);
});
const pageOrigin = await listen(page);
process.stdout.write(JSON.stringify({ page: `${pageOrigin}/`, resources: resourceOrigin }) + '\n');
process.on('disconnect', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
