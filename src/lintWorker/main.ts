/**
 * The citation lint's worker thread (`dist/lintWorker.js`), started by src/lintWorker/client.ts:
 * it loads the citation library named in `workerData` (dist/citations.js, the host's own copy,
 * so markdown-it is compiled here and never on the extension host's thread for the Problems) and
 * answers each request in turn, with the diagnostics or with the message of what the lint threw.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LintReply, LintRequest, LintWorkerData } from './client';

type CitationsLib = typeof import('../citations/index');

const port = parentPort;
if (!port) throw new Error('src/lintWorker/main.ts runs as a worker thread');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { lint } = require((workerData as LintWorkerData).library) as CitationsLib;

port.on('message', (request: LintRequest) => {
  let reply: LintReply;
  try {
    reply = { id: request.id, items: lint(request.text, request.options) };
  } catch (e) {
    reply = { id: request.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
});
