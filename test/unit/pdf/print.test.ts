/**
 * One print, with stand-in browsers (shell scripts) that hang, fail or never start: the time limit,
 * cancelling, the browser and what it started always killed, the temporary folder always removed.
 * A real browser prints in test/unit/publish/pdf.test.ts.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printToPdf, type Browser } from '../../../src/pdf/index';

const posix = process.platform !== 'win32';

/** Whether a process runs (a zombie, killed and waiting for a parent that does not reap it, does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
}

/**
 * Whether a process is gone, or goes within a few seconds: a process killed with its group may
 * still be listed for a moment on a loaded machine before its state turns.
 */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe('printing a page with a browser that misbehaves', function () {
  let dir: string;
  before(function () {
    if (!posix) this.skip(); // the stand-ins are shell scripts
    dir = mkdtempSync(join(tmpdir(), 'shunong-print-test-'));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A stand-in browser: writes its arguments and pids to `<name>.log`, then runs `body`. */
  function standIn(name: string, body: string): { browser: Browser; log: () => string[] } {
    const path = join(dir, `${name}.sh`);
    const log = join(dir, `${name}.log`);
    writeFileSync(
      path,
      `#!/bin/sh\nfor a in "$@"; do echo "arg $a" >> '${log}'; done\necho "pid $$" >> '${log}'\n${body}\n`,
    );
    chmodSync(path, 0o755);
    return {
      browser: { path, name: 'custom', packaging: { kind: 'native' } },
      log: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
    };
  }

  const pids = (lines: string[]): number[] => lines.filter((l) => l.startsWith('pid ')).map((l) => Number(l.slice(4)));
  const profile = (lines: string[]): string =>
    lines.find((l) => l.startsWith('arg --user-data-dir='))!.slice('arg --user-data-dir='.length);

  it('stops a browser that hangs at the time limit, with what it started, and removes the temporary folder', async () => {
    const { browser, log } = standIn('hang', `sleep 300 &\necho "pid $!" >> '${join(dir, 'hang.log')}'\nsleep 300`);
    const r = await printToPdf('<!DOCTYPE html><p>x</p>', { browser, timeoutMs: 700 });
    assert.deepEqual(r, { ok: false, failure: { kind: 'timeout', ms: 700 } });
    const lines = log();
    assert.equal(pids(lines).length, 2, 'the browser and its child');
    for (const pid of pids(lines)) assert.ok(await gone(pid), `process ${pid} is gone`);
    const folder = join(profile(lines), '..');
    assert.ok(!existsSync(folder), 'the temporary folder is removed');
    assert.match(folder, /shunong-pdf-/);
  });

  it('stops the browser when the export is cancelled, and rejects with the reason', async () => {
    const { browser, log } = standIn('cancel', 'sleep 300');
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('cancelled by the user')), 400);
    await assert.rejects(printToPdf('<p>x</p>', { browser, timeoutMs: 60_000, signal: abort.signal }), /cancelled/);
    const lines = log();
    for (const pid of pids(lines)) assert.ok(await gone(pid), `process ${pid} is gone`);
    assert.ok(!existsSync(join(profile(lines), '..')));
  });

  it('says why a browser that ends without a PDF failed: its exit code and the end of what it said', async () => {
    const { browser, log } = standIn(
      'fail',
      'echo "[1:2:ERROR:dbus/bus.cc] Failed to connect to the bus" >&2\necho "Cannot open display" >&2\nexit 3',
    );
    const r = await printToPdf('<p>x</p>', { browser, timeoutMs: 10_000 });
    assert.deepEqual(r, { ok: false, failure: { kind: 'failed', exit: '3', detail: 'Cannot open display' } });
    assert.ok(!existsSync(join(profile(log()), '..')));
  });

  it('a browser that exits well but writes no PDF, or something else, has failed', async () => {
    const out = (lines: string[]): string => lines.find((l) => l.startsWith('arg --print-to-pdf='))!.slice(19);
    const none = standIn('none', 'exit 0');
    assert.deepEqual(await printToPdf('<p>x</p>', { browser: none.browser, timeoutMs: 10_000 }), {
      ok: false,
      failure: { kind: 'failed', exit: '0', detail: '' },
    });
    const junk = standIn(
      'junk',
      `for a in "$@"; do case "$a" in --print-to-pdf=*) echo nope > "\${a#--print-to-pdf=}";; esac; done`,
    );
    const r = await printToPdf('<p>x</p>', { browser: junk.browser, timeoutMs: 10_000 });
    assert.equal(r.ok, false);
    assert.ok(out(junk.log()).endsWith('page.pdf'));
    const good = standIn(
      'good',
      `for a in "$@"; do case "$a" in --print-to-pdf=*) printf '%%PDF-1.4 x' > "\${a#--print-to-pdf=}";; esac; done`,
    );
    const ok = await printToPdf('<p>x</p>', { browser: good.browser, timeoutMs: 10_000 });
    assert.ok(ok.ok && Buffer.from(ok.bytes).toString('latin1') === '%PDF-1.4 x');
  });

  it('a browser that cannot be started: its error code', async () => {
    const r = await printToPdf('<p>x</p>', {
      browser: { path: join(dir, 'no-such-browser'), name: 'custom', packaging: { kind: 'native' } },
      timeoutMs: 10_000,
    });
    assert.deepEqual(r, { ok: false, failure: { kind: 'start', code: 'ENOENT' } });
  });

  it('an export already cancelled starts nothing', async () => {
    const { browser, log } = standIn('never', 'exit 0');
    await assert.rejects(printToPdf('<p>x</p>', { browser, timeoutMs: 1000, signal: AbortSignal.abort() }));
    assert.deepEqual(log(), []);
  });
});
