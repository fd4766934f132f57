// Starts the local Shunong-compatible endpoint (test/emulator) as a child process for the harness:
// `node --import tsx test/emulator/main.ts --port 0 [--keys …]`, which prints `SHUNONG_ENDPOINT=…`
// and `SHUNONG_API_KEY=…` once listening. It runs in its own process group and is stopped by the
// Cleanup. Its request log goes to test-output/logs/<name>.log, never to our output.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { OUTPUT_DIR, REPO, addSecret, childLog, log, redact, tailOf } from './code-server.mjs';

/**
 * Starts the emulator. Returns { url, origin, port, apiKey, admin(change), proc }.
 * Options: { keys?: string[], logName?: string, timeoutMs?: number }.
 */
export async function startEndpoint(cleanup, { keys, logName = 'endpoint', timeoutMs = 60_000 } = {}) {
  const main = join(REPO, 'test', 'emulator', 'main.ts');
  if (!existsSync(main)) throw new Error(`the local endpoint ${main} does not exist yet`);
  const args = ['--import', 'tsx', main, '--port', '0', ...(keys?.length ? ['--keys', keys.join(',')] : [])];
  const logDir = join(OUTPUT_DIR, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${logName}.log`);
  const logText = childLog(cleanup, logFile);
  const proc = spawn(process.execPath, args, { cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanup.addProcess(proc, 'local endpoint');
  proc.stderr.on('data', (b) => logText(redact(b)));

  const found = await new Promise((resolve, reject) => {
    let buf = '';
    const vars = {};
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `the local endpoint printed no SHUNONG_ENDPOINT within ${timeoutMs / 1000} s; log: ${logFile}\n${tailOf(logFile)}`,
          ),
        ),
      timeoutMs,
    );
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the local endpoint exited (${code}) before listening; log: ${logFile}\n${tailOf(logFile)}`));
    });
    proc.stdout.on('data', (b) => {
      buf += b.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        const m = /^(SHUNONG_ENDPOINT|SHUNONG_API_KEY)=(.*)$/.exec(line);
        if (m) {
          vars[m[1]] = m[2];
          if (m[1] === 'SHUNONG_API_KEY') addSecret(m[2]);
          logText(`${redact(line)}\n`);
        } else if (line) logText(`${redact(line)}\n`);
        if (vars.SHUNONG_ENDPOINT && vars.SHUNONG_API_KEY) {
          clearTimeout(timer);
          resolve(vars);
        }
      }
    });
  });

  const url = found.SHUNONG_ENDPOINT;
  const origin = new URL(url).origin;
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(url))
    throw new Error(`the local endpoint is not on loopback: ${url}`);
  log(`local endpoint at ${url}`);
  return {
    url,
    origin,
    port: Number(new URL(url).port),
    apiKey: found.SHUNONG_API_KEY,
    proc,
    logFile,
    /** POST /__admin with a JSON change; answers the emulator's current state. */
    async admin(change) {
      const r = await fetch(`${origin}/__admin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(change),
      });
      if (!r.ok) throw new Error(`admin ${r.status}`);
      return r.json();
    },
  };
}
