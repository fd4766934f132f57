/**
 * One page printed to PDF by a browser on this machine: the page and a fresh profile in a new
 * temporary folder (where the browser's sandbox lets it read, for a Snap or a Flatpak), the browser
 * run with `args.ts`'s command line, stopped when it outlasts the time limit or the caller cancels,
 * and the folder removed whatever happened. The browser and every process it started are killed
 * before the answer is given. Plain Node: it runs a program and writes only its own temporary files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { printArgs } from './args';
import { findBrowser, workRoot, type Browser, type SearchResult } from './browsers';

/** Why a print gave no PDF. */
export type PrintFailure =
  /** It ran past the time limit and was stopped. */
  | { kind: 'timeout'; ms: number }
  /** It could not be started (`code`: the system's error code). */
  | { kind: 'start'; code: string }
  /** It ended without writing a PDF (`exit`: its exit code or signal; `detail`: the end of what it said). */
  | { kind: 'failed'; exit: string; detail: string };

/** What a print gives. */
export type PrintResult = { ok: true; bytes: Uint8Array } | { ok: false; failure: PrintFailure };

/** How to print. */
export interface PrintOptions {
  browser: Browser;
  /** The time limit (`export.pdfTimeoutMs`). */
  timeoutMs: number;
  /** Cancels the print: the browser is stopped and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** How long to wait for a killed browser to be gone before the folder is removed anyway. */
const EXIT_GRACE_MS = 5000;

/** Finds the browser on this machine (`setting`: `export.browserPath`). */
export function findBrowserHere(setting = ''): SearchResult {
  return findBrowser({ platform: process.platform, env: process.env, exists: runnable, setting });
}

function runnable(path: string): boolean {
  try {
    accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Prints `html` (a whole page) to PDF. Rejects only when cancelled. */
export async function printToPdf(html: string, options: PrintOptions): Promise<PrintResult> {
  options.signal?.throwIfAborted();
  const root = workRoot(options.browser.packaging, process.env, tmpdir());
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(join(root, 'shunong-pdf-'));
  try {
    const page = join(dir, 'page.html');
    const output = join(dir, 'page.pdf');
    await writeFile(page, html);
    const args = printArgs({
      profile: join(dir, 'profile'),
      page: pathToFileURL(page).href,
      output,
      root: process.getuid?.() === 0,
    });
    const ran = await run(options.browser.path, args, options);
    if (ran.kind !== 'exited') return { ok: false, failure: ran };
    const bytes = await readFile(output).catch(() => undefined);
    if (bytes && bytes.subarray(0, 5).toString('latin1') === '%PDF-') return { ok: true, bytes: new Uint8Array(bytes) };
    return { ok: false, failure: { kind: 'failed', exit: ran.exit, detail: ran.detail } };
  } finally {
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

type Ran = { kind: 'exited'; exit: string; detail: string } | Exclude<PrintFailure, { kind: 'failed' }>;

/** Runs the browser to its end, or stops it at the time limit or on cancel; settles once it is gone. */
function run(program: string, args: string[], options: PrintOptions): Promise<Ran> {
  return new Promise<Ran>((resolve, reject) => {
    let child: ChildProcess;
    try {
      // its own process group, so that the whole tree can be stopped at once
      child = spawn(program, args, { detached: process.platform !== 'win32', stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (err) {
      resolve({ kind: 'start', code: (err as NodeJS.ErrnoException).code ?? String(err) });
      return;
    }
    let said = '';
    child.stderr?.on('data', (d: Buffer) => (said = (said + d.toString('utf8')).slice(-4000)));
    let stopped: (() => void) | undefined;
    const stop = (then: () => void): void => {
      if (stopped) return;
      stopped = then;
      killTree(child);
      // a process that does not go within the grace period is left to the system; the answer is not held back
      setTimeout(() => finish(), EXIT_GRACE_MS).unref();
    };
    const timer = setTimeout(() => stop(() => resolve({ kind: 'timeout', ms: options.timeoutMs })), options.timeoutMs);
    const onAbort = (): void => stop(() => reject(options.signal!.reason));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let done = false;
    const finish = (exit?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (stopped) stopped();
      else resolve({ kind: 'exited', exit: exit ?? '?', detail: lastLines(said) });
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (stopped) stopped();
      else resolve({ kind: 'start', code: err.code ?? err.message });
    });
    child.on('exit', (code, signal) => {
      // the browser's own children (its renderer, its helpers) go with it; on Windows they end with it
      if (process.platform !== 'win32') killTree(child);
      finish(code === null ? String(signal) : String(code));
    });
  });
}

/** Kills a process and the processes it started: its process group on POSIX, its tree on Windows. */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32')
      spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on(
        'error',
        () => undefined,
      );
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The end of what the browser said, without the noise of a machine with no desktop bus. */
function lastLines(text: string): string {
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim() && !/dbus|Fontconfig|unexpected operator/i.test(l))
    .slice(-3)
    .join('\n');
}
