/**
 * The host's side of the citation lint's worker thread. `lint(text, options)` posts the text to
 * the worker (src/lintWorker/main.ts) and resolves with the same diagnostics `lint` of
 * src/citations returns; the thread that asks only copies the text and the answer, so neither
 * activation nor typing waits on markdown-it. The worker starts on the first lint, answers in the
 * order it was asked and does not keep the process alive. If it cannot start or stops, the lints
 * it owed and every later one run on the calling thread through `fallback`, the same library: the
 * Problems are the same, only no longer off the thread. Plain Node (no vscode).
 */
import { SHARE_ENV, Worker } from 'node:worker_threads';
import type { CitationOptions, Diagnostic } from '../citations/index';

/** A request to the worker. */
export interface LintRequest {
  readonly id: number;
  readonly text: string;
  readonly options: CitationOptions;
}

/** The worker's answer to request `id`: its diagnostics, or the message of what the lint threw. */
export type LintReply =
  { readonly id: number; readonly items: Diagnostic[] } | { readonly id: number; readonly error: string };

/** What the worker is given when it starts (`workerData`). */
export interface LintWorkerData {
  /** The module the worker requires for `lint`: dist/citations.js, the host's own copy. */
  readonly library: string;
}

/** Where the worker runs from and what it runs. */
export interface LintWorkerOptions {
  /** The worker's script (dist/lintWorker.js). */
  readonly script: string;
  /** The citation library the worker loads (see {@link LintWorkerData}). */
  readonly library: string;
  /** The same lint on the calling thread, for when the worker cannot serve. */
  readonly fallback: () => (text: string, options: CitationOptions) => Diagnostic[];
}

interface Pending {
  readonly request: LintRequest;
  resolve(items: Diagnostic[]): void;
  reject(e: Error): void;
}

/** The citation lint, run in a worker thread. */
export class LintWorker {
  private worker: Worker | undefined;
  /** Set once the worker could not start or stopped: lints run on the calling thread from then on. */
  private broken = false;
  private disposed = false;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly options: LintWorkerOptions) {}

  /** True while lints go to the worker thread (before the first lint: while they will). */
  get offThread(): boolean {
    return !this.broken;
  }

  /** The diagnostics of `text`, as `lint` of src/citations gives them. Rejects once disposed. */
  lint(text: string, options: CitationOptions = {}): Promise<Diagnostic[]> {
    if (this.disposed) return Promise.reject(stopped());
    const worker = this.start();
    const request: LintRequest = { id: this.nextId++, text, options };
    if (!worker) return this.onThread(request);
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { request, resolve, reject });
      worker.postMessage(request);
    });
  }

  /** Stops the worker; lints still owed reject, and so does every later one. */
  dispose(): void {
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    for (const p of this.takePending()) p.reject(stopped());
    void worker?.terminate();
  }

  private start(): Worker | undefined {
    if (this.worker || this.broken) return this.worker;
    try {
      const data: LintWorkerData = { library: this.options.library };
      // The worker shares this process's environment instead of a copy, and its stdio is not
      // piped here (it writes nothing; what it throws comes as 'error'): less to set up on this
      // thread when it starts.
      const worker = new Worker(this.options.script, { workerData: data, env: SHARE_ENV, stdout: true, stderr: true });
      worker.unref();
      worker.on('message', (reply: LintReply) => this.answered(reply));
      worker.on('error', () => this.lost(worker));
      worker.on('exit', () => this.lost(worker));
      this.worker = worker;
    } catch {
      this.broken = true;
    }
    return this.worker;
  }

  private answered(reply: LintReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if ('error' in reply) p.reject(new Error(reply.error));
    else p.resolve(reply.items);
  }

  /** The worker failed or exited: what it owed is linted here, and so is everything after. */
  private lost(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.broken = true;
    for (const p of this.takePending()) this.onThread(p.request).then(p.resolve, p.reject);
  }

  private onThread(request: LintRequest): Promise<Diagnostic[]> {
    return new Promise((resolve) => resolve(this.options.fallback()(request.text, request.options)));
  }

  private takePending(): Pending[] {
    // A Map keeps insertion order: the order the lints were asked in.
    const all = [...this.pending.values()];
    this.pending.clear();
    return all;
  }
}

function stopped(): Error {
  return new Error('The citation lint has stopped.');
}
