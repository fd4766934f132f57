/** `npm run emulator -- …`: the printed lines, per-request log on stderr, clean stop on SIGTERM. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from '../../emulator/main';

describe('emulator CLI', () => {
  it('parses --port, --keys and --rate-limit N/s; default port 7331', () => {
    assert.deepEqual(parseArgs([]), { port: 7331 });
    assert.deepEqual(parseArgs(['--port', '0', '--keys', 'k1,k2', '--rate-limit', '5/s']), {
      port: 0,
      keys: ['k1', 'k2'],
      rateLimitPerSec: 5,
    });
    assert.deepEqual(parseArgs(['--port=8080', '--rate-limit=2']), { port: 8080, rateLimitPerSec: 2 });
    assert.throws(() => parseArgs(['--rate-limit', 'fast']), /--rate-limit/);
    assert.throws(() => parseArgs(['--bogus']), /unknown argument/);
  });

  it('prints SHUNONG_ENDPOINT and SHUNONG_API_KEY, logs requests without the key, stops on SIGTERM', async function () {
    this.timeout(30_000);
    const root = join(__dirname, '..', '..', '..');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'test/emulator/main.ts'), '--port', '0', '--keys', 'sk_cli_one,sk_cli_two'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      while (!/SHUNONG_API_KEY=.*\n/.test(out)) {
        if (child.exitCode !== null) throw new Error(`exited: ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const lines = out.trim().split('\n');
      assert.equal(lines.length, 2);
      assert.match(lines[0] ?? '', /^SHUNONG_ENDPOINT=http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      assert.equal(lines[1], 'SHUNONG_API_KEY=sk_cli_one');
      const url = (lines[0] ?? '').slice('SHUNONG_ENDPOINT='.length);
      const r = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: 'Bearer sk_cli_two',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      assert.equal(r.status, 400); // no session
      await r.text();
      while (!/POST \/mcp ping 400 \d+ms/.test(err)) await new Promise((res) => setTimeout(res, 20));
      assert.ok(!err.includes('sk_cli'));
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });
});
