/**
 * The client's MCP sessions: one live session per key, created on first use (single flight for
 * concurrent calls), replaced when the key changes or the server forgets it, and closed together.
 */
import { ConfigurationError, ProtocolError, TimeoutError, type ShunongError } from './errors';
import { classify, SessionExpired, type ClassifyScope } from './failures';
import { newRequestContext } from './fetch';
import { Session } from './session';
import type { ToolCatalog } from './tools';
import type { Scheduler } from './types';

/** The reason a timeout timer is stopped with: a plain value, as abort() without one builds a DOMException (and its stack) per call. */
export const DISARMED = Symbol('disarmed');

/** The SDK's own request timer is only a backstop behind ours (which also aborts the HTTP request). */
const SDK_TIMEOUT_SLACK_MS = 60_000;

/** The SDK's timeout for a request whose own budget is `timeoutMs`. */
export function sdkTimeout(timeoutMs: number): number {
  return Math.min(timeoutMs + SDK_TIMEOUT_SLACK_MS, 2_147_483_647);
}

/** Settles like `p`, or rejects with the signal's reason when it aborts first. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}

/** What a {@link SessionPool} needs from its client. */
export interface SessionPoolOptions {
  endpoint: string;
  url: URL | undefined;
  configError: ShunongError | undefined;
  baseFetch: typeof fetch;
  log: ((line: string) => void) | undefined;
  scheduler: Scheduler;
  timeoutMs: number;
  clientInfo: { name: string; version: string };
  tools: ToolCatalog;
}

/** The sessions of one client. Also the scope its failures are classified in. */
export class SessionPool implements ClassifyScope {
  readonly endpoint: string;
  readonly timeoutMs: number;
  /** True while {@link close} runs. */
  closed = false;
  private current: Session | undefined;
  private pending: { key: string; promise: Promise<Session> } | undefined;
  private readonly sessions = new Set<Session>();
  private everConnected = false;

  constructor(private readonly o: SessionPoolOptions) {
    this.endpoint = o.endpoint;
    this.timeoutMs = o.timeoutMs;
  }

  /** The live session for `key`: the current one, the one being created, or a new one. */
  acquire(key: string, signal: AbortSignal): Promise<Session> {
    const cur = this.current;
    if (cur && cur.key === key && !cur.retired) return Promise.resolve(cur);
    return raceAbort(this.start(key), signal);
  }

  /** Single-flight re-initialize after `stale` expired; calls still running on `stale` finish first. */
  recover(stale: Session, key: string, signal: AbortSignal): Promise<Session> {
    stale.retire(); // a retired current session is replaced by the next acquire
    return this.acquire(key, signal);
  }

  /** Closes every session. A later call opens a new one. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = this.pending?.promise;
    this.pending = undefined;
    this.current = undefined;
    // a session made meanwhile is retired as superseded, and is in the set closed below
    if (pending) await pending.catch(() => undefined);
    await Promise.all([...this.sessions].map((s) => s.close()));
    this.sessions.clear();
    this.closed = false;
  }

  private start(key: string): Promise<Session> {
    if (this.pending && this.pending.key === key) return this.pending.promise;
    const cur = this.current;
    if (cur) {
      this.current = undefined;
      cur.retire();
    }
    const refreshList = this.everConnected;
    const promise: Promise<Session> = this.create(key, refreshList).then(
      (s) => {
        if (this.pending?.promise === promise) {
          this.pending = undefined;
          this.current = s;
          this.everConnected = true;
        } else {
          s.retire(); // superseded meanwhile (key changed or client closed)
        }
        return s;
      },
      (e: unknown) => {
        if (this.pending?.promise === promise) this.pending = undefined;
        throw e;
      },
    );
    this.pending = { key, promise };
    return promise;
  }

  /** initialize + initialized (+ tools/list when needed), re-done once with a new transport and Client if the session expires meanwhile. */
  private async create(key: string, refreshList: boolean): Promise<Session> {
    const { url, tools, scheduler, timeoutMs } = this.o;
    if (!url) throw this.o.configError ?? new ConfigurationError('No endpoint.');
    const needList = refreshList || !(await tools.cached());
    // Stryker disable next-line UpdateOperator: only round 0 is told apart, so counting down ends a second expiry the same
    for (let round = 0; ; round++) {
      const session = new Session({
        url,
        key,
        baseFetch: this.o.baseFetch,
        log: this.o.log,
        now: () => scheduler.now(),
        clientInfo: this.o.clientInfo,
        onToolsChanged: (s) => {
          if (s === this.current) tools.refreshFrom(s);
        },
        onClosed: (s) => this.sessions.delete(s),
      });
      this.sessions.add(session);
      const ctl = new AbortController();
      const timer = new AbortController();
      scheduler.sleep(timeoutMs, timer.signal).then(
        () => ctl.abort(new TimeoutError(timeoutMs)),
        () => undefined,
      );
      const ctx = newRequestContext(ctl);
      try {
        await session.open(ctx, sdkTimeout(timeoutMs));
        if (needList) await tools.fetch(session, ctx);
        return session;
      } catch (e) {
        const err = classify(e, ctx, ctl.signal, undefined, key, this);
        void session.close();
        if (err instanceof SessionExpired) {
          if (round === 0) {
            this.o.log?.(`note: session expired during initialization (HTTP ${err.status}); initializing again`);
            continue;
          }
          throw new ProtocolError('The session expired again while initializing.', err.status);
        }
        throw err;
      } finally {
        timer.abort(DISARMED);
      }
    }
  }
}
