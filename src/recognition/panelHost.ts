/**
 * The host side of the preview's protocol, without `vscode`: the `ready` handshake (the webview is
 * sent `init` and the current state on every (re)load), the state kept for that replay, and the
 * requests for the annotated picture. The panel (src/features/recognition/panel.ts) hands it its
 * webview; tests hand it a fake one.
 */
import {
  SHRINK_PART_BYTES,
  parseWebviewMessage,
  type HostMessage,
  type ShrinkRequest,
  type WebviewMessage,
} from './protocol';
import { realScheduler, type Scheduler, type Timer } from '../time/scheduler';

/** The webview as the host sees it: where its messages go, and how its page is loaded. */
export interface WebviewPort {
  postMessage(m: HostMessage): void;
  /**
   * Loads the page: the first time into the panel's webview (`webview.html`), again into a webview
   * made afresh (the panel opens a new one in its place: src/features/recognition/panel.ts says why).
   * Says whether it loads now, that is whether the webview is shown (a hidden one loads its page
   * when it is shown).
   */
  load(): boolean;
}

/** The messages of the webview's buttons, handled by the feature. */
export type ActionMessage = Extract<WebviewMessage, { type: 'insert' | 'save' | 'retry' | 'rerun' }>;

type Annotated = Extract<WebviewMessage, { type: 'annotated' }>;

/** A picture shrunk by the webview: a JPEG of `width` × `height`. */
export interface WebviewShrunk {
  bytes: Uint8Array;
  width: number;
  height: number;
}

interface PendingShrink {
  /** The request without its bytes, as each delivery of it is sent. */
  header: Omit<ShrinkRequest, 'bytes'> & { byteLength: number; parts: number };
  /** The bytes in parts, each over a buffer of its own ({@link shrinkParts}). */
  parts: Uint8Array[];
  /** How many times the request was sent (each sending is a delivery of its own). */
  deliveries: number;
  /** The deliveries whose parts were sent (once each, after the webview said `shrinking` for it). */
  sentParts: Set<number>;
  settle(m: Extract<WebviewMessage, { type: 'shrunk' }>): void;
  /** Sent before the handshake (to the webview still loading), not yet followed by a `ready`. */
  early: boolean;
  /** The webview said it has the request (`shrinking`). */
  acked: boolean;
  /** The resend planned when an early request is not acknowledged soon after `ready`. */
  recheck?: Timer;
}

/** After `ready`, how long an early shrink request may go unacknowledged before it is sent again. */
const ACK_MS = 1000;

/**
 * How long a shown page may take to say `ready` before it is loaded again: a page whose script
 * never arrived (code-server under load drops a resource request now and then), or a webview whose
 * frame never started (its service worker never took control), stays blank. Each
 * reload doubles the wait ({@link loadWait}): a page that is only slow (a busy machine) is not
 * replaced again and again before it could finish.
 */
export const LOAD_MS = 10_000;

/** How many times a shown page that does not say `ready` is loaded again before the host stops trying. */
export const RELOADS = 3;

/** How long the page loaded after `reloads` reloads may take to say `ready`: {@link LOAD_MS}, doubled per reload. */
export function loadWait(reloads: number): number {
  return LOAD_MS * 2 ** reloads;
}

/** One preview's conversation with its webview. */
export class PreviewHost {
  private ready = false;
  /** The last state message (loading / result / error), replayed after a reload. */
  private lastState: HostMessage | undefined;
  private lastStatus: HostMessage | undefined;
  private readonly waiters = new Map<number, (m: Annotated) => void>();
  /** Requests for the annotated picture made before the handshake: sent on `ready`. */
  private readonly unsent = new Set<number>();
  /**
   * Shrink requests not answered yet. The request (without its bytes) is posted at once, even
   * before the handshake (VS Code delivers what was posted while the webview loads once it has
   * loaded); sent again on every later `ready` (a reload loses the webview's work), and after the
   * first one only if the webview has not said `shrinking` within {@link ACK_MS}. The bytes follow
   * in parts when the webview says `shrinking` for a delivery: they never wait in the queue of a
   * webview still loading, and one that reloads or is sent the request twice gets them once per
   * delivery it started.
   */
  private readonly shrinks = new Map<number, PendingShrink>();
  private nextRequest = 1;
  /** The last picture the webview shrank: its request and the bytes it answered. */
  private lastShrunk: { requestId: number; bytes: Uint8Array } | undefined;
  private closed = false;
  /** The check that the page said `ready` ({@link loadWait}), while it has not. */
  private loadCheck: Timer | undefined;
  private reloads = 0;

  constructor(
    private readonly port: WebviewPort,
    /** The `init` message (the localised strings and the types). */
    private readonly init: () => HostMessage,
    private readonly onAction: (m: ActionMessage) => Promise<void>,
    /** The timers of the deadlines and the resend (a virtual clock in tests). */
    private readonly clock: Pick<Scheduler, 'setTimer'> = realScheduler,
  ) {}

  /**
   * Loads the page, and loads it again while it has not said `ready` within {@link loadWait}: at most
   * {@link RELOADS} times while shown (loads while hidden are not counted, since a hidden page does not run).
   */
  start(): void {
    this.port.load();
    this.checkLoad();
  }

  private checkLoad(): void {
    this.loadCheck = this.clock.setTimer(loadWait(this.reloads), () => {
      this.loadCheck = undefined;
      if (this.ready || this.closed) return;
      if (this.port.load()) this.reloads++;
      if (this.reloads < RELOADS) this.checkLoad();
    });
  }

  /** Handles a message from the webview (untrusted: validated first). */
  async receive(raw: unknown): Promise<void> {
    const m = parseWebviewMessage(raw);
    if (!m) return;
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.loadCheck?.dispose();
        this.loadCheck = undefined;
        this.send(this.init());
        if (this.lastState) this.send(this.lastState);
        if (this.lastStatus) this.send(this.lastStatus);
        for (const requestId of this.unsent) this.send({ type: 'renderAnnotated', requestId });
        this.unsent.clear();
        for (const [requestId, p] of this.shrinks) {
          if (p.early && !p.acked) {
            p.early = false;
            p.recheck?.dispose();
            p.recheck = this.clock.setTimer(ACK_MS, () => {
              if (!p.acked && this.shrinks.get(requestId) === p) this.sendShrink(requestId, p);
            });
          } else {
            p.early = false;
            p.acked = false;
            this.sendShrink(requestId, p);
          }
        }
        return;
      case 'shrinking': {
        const p = this.shrinks.get(m.requestId);
        if (!p || m.delivery < 1 || m.delivery > p.deliveries || p.sentParts.has(m.delivery)) return;
        p.acked = true;
        p.sentParts.add(m.delivery);
        p.parts.forEach((bytes, index) =>
          this.send({ type: 'shrinkPart', requestId: m.requestId, delivery: m.delivery, index, bytes }),
        );
        return;
      }
      case 'shrunk':
        this.shrinks.get(m.requestId)?.settle(m);
        return;
      case 'rendered':
        return;
      case 'annotated': {
        const w = this.waiters.get(m.requestId);
        this.waiters.delete(m.requestId);
        w?.(m);
        return;
      }
      default:
        await this.onAction(m);
    }
  }

  /** Posts a message; state messages are remembered and replayed after a reload. */
  post(m: HostMessage): void {
    if (m.type === 'loading' || m.type === 'result' || m.type === 'error') {
      this.lastState = m;
      this.lastStatus = undefined;
    } else if (m.type === 'status') {
      this.lastStatus = m;
    }
    if (this.ready) this.send(m);
  }

  /** Asks the webview to draw the annotated picture; resolves with the PNG bytes. */
  async annotatedPng(timeoutMs = 20000): Promise<Uint8Array> {
    if (this.closed) throw new Error('the panel is closed');
    const requestId = this.nextRequest++;
    const answer = new Promise<Annotated>((resolve, reject) => {
      const timer = this.clock.setTimer(timeoutMs, () => {
        this.waiters.delete(requestId);
        this.unsent.delete(requestId);
        reject(new Error('the preview did not answer'));
      });
      this.waiters.set(requestId, (m) => {
        timer.dispose();
        resolve(m);
      });
    });
    // Before the handshake the webview cannot draw: the request goes with the `ready` replay.
    if (this.ready) this.send({ type: 'renderAnnotated', requestId });
    else this.unsent.add(requestId);
    const m = await answer;
    if (!m.png) throw new Error(m.error ?? 'no picture');
    return new Uint8Array(Buffer.from(m.png, 'base64'));
  }

  /**
   * Asks the webview to shrink a picture (posted now, even while the webview loads); resolves with
   * the JPEG. Rejects with the webview's reason, when the webview has neither loaded nor said it has
   * the request within `readyMs` or not answered within `timeoutMs`, when the panel closes, or with
   * the signal's reason when `signal` aborts (in those cases the webview is told to stop, and its
   * answer ignored).
   */
  shrink(request: ShrinkRequest, signal?: AbortSignal, timeoutMs = 20000, readyMs = 5000): Promise<WebviewShrunk> {
    if (this.closed) return Promise.reject(new Error('the panel is closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const requestId = this.nextRequest++;
    const { bytes, ...rest } = request;
    const parts = shrinkParts(bytes);
    const header = { ...rest, byteLength: bytes.byteLength, parts: parts.length };
    return new Promise<WebviewShrunk>((resolve, reject) => {
      const end = (): void => {
        timer.dispose();
        loading.dispose();
        pending.recheck?.dispose();
        signal?.removeEventListener('abort', onAbort);
        this.shrinks.delete(requestId);
      };
      const onAbort = (): void => {
        end();
        this.send({ type: 'cancelShrink', requestId });
        reject(signal?.reason);
      };
      const timer = this.clock.setTimer(timeoutMs, () => {
        end();
        this.send({ type: 'cancelShrink', requestId });
        reject(new Error('the preview did not shrink the picture in time'));
      });
      // A webview that does not load soon (hidden, or the workbench busy) is not waited for: jimp does it.
      const loading = this.clock.setTimer(readyMs, () => {
        if (this.ready || pending.acked) return;
        end();
        this.send({ type: 'cancelShrink', requestId });
        reject(new Error('the preview did not load in time'));
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      const pending: PendingShrink = {
        header,
        parts,
        deliveries: 0,
        sentParts: new Set(),
        early: !this.ready,
        acked: false,
        settle: (m) => {
          end();
          if (m.bytes && m.width && m.height) {
            this.lastShrunk = { requestId, bytes: m.bytes };
            resolve({ bytes: m.bytes, width: m.width, height: m.height });
          } else reject(new Error(m.error ?? 'no picture'));
        },
      };
      this.shrinks.set(requestId, pending);
      this.sendShrink(requestId, pending);
    });
  }

  /**
   * The shrink request whose answer `bytes` are (the very array resolved by {@link shrink}), when
   * it is the webview's last one: an `ImageView` of these bytes names it as its `pixels`.
   */
  pixelsOf(bytes: Uint8Array): number | undefined {
    return this.lastShrunk?.bytes === bytes ? this.lastShrunk.requestId : undefined;
  }

  /** The panel closed: nothing more is sent, pending requests fail. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.loadCheck?.dispose();
    this.lastShrunk = undefined;
    for (const p of [...this.shrinks.values()]) p.settle({ type: 'shrunk', requestId: -1, error: 'the panel closed' });
    for (const w of this.waiters.values()) w({ type: 'annotated', requestId: -1, error: 'closed' });
    this.waiters.clear();
    this.unsent.clear();
  }

  /** Sends a shrink request (without its bytes) as a new delivery. */
  private sendShrink(requestId: number, p: PendingShrink): void {
    const delivery = ++p.deliveries;
    this.send({ type: 'shrink', requestId, delivery, ...p.header });
  }

  private send(m: HostMessage): void {
    if (!this.closed) this.port.postMessage(m);
  }
}

/**
 * The bytes of a picture to shrink in parts of `size` bytes, so that the webview decodes while the
 * later parts travel. Each part is a plain `Uint8Array` over a buffer of its own: a Node `Buffer`
 * would be posted as its JSON (`{ type, data }`), and VS Code posts the whole buffer under a typed
 * array, so views into one buffer would each carry all of it.
 */
export function shrinkParts(bytes: Uint8Array, size = SHRINK_PART_BYTES): Uint8Array[] {
  const plain = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < plain.byteLength; at += size) parts.push(plain.slice(at, at + size));
  return parts;
}
