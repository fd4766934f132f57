/**
 * The host side of the preview's protocol, without `vscode`: the `ready` handshake (the webview is
 * sent `init` and the current state on every (re)load), the state kept for that replay, and the
 * requests for the annotated picture. The panel (src/features/recognition/panel.ts) hands it its
 * webview; tests hand it a fake one.
 */
import { parseWebviewMessage, type HostMessage, type WebviewMessage } from './protocol';

/** Where messages to the webview go (the panel's `webview.postMessage`). */
export interface WebviewPort {
  postMessage(m: HostMessage): void;
}

/** The messages of the webview's buttons, handled by the feature. */
export type ActionMessage = Extract<WebviewMessage, { type: 'insert' | 'save' | 'retry' | 'rerun' }>;

type Annotated = Extract<WebviewMessage, { type: 'annotated' }>;

/** One preview's conversation with its webview. */
export class PreviewHost {
  private ready = false;
  /** The last state message (loading / result / error), replayed after a reload. */
  private lastState: HostMessage | undefined;
  private lastStatus: HostMessage | undefined;
  private readonly waiters = new Map<number, (m: Annotated) => void>();
  /** Requests for the annotated picture made before the handshake: sent on `ready`. */
  private readonly unsent = new Set<number>();
  private nextRequest = 1;
  private closed = false;

  constructor(
    private readonly port: WebviewPort,
    /** The `init` message (the localised strings and the types). */
    private readonly init: () => HostMessage,
    private readonly onAction: (m: ActionMessage) => Promise<void>,
  ) {}

  /** Handles a message from the webview (untrusted: validated first). */
  async receive(raw: unknown): Promise<void> {
    const m = parseWebviewMessage(raw);
    if (!m) return;
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.send(this.init());
        if (this.lastState) this.send(this.lastState);
        if (this.lastStatus) this.send(this.lastStatus);
        for (const requestId of this.unsent) this.send({ type: 'renderAnnotated', requestId });
        this.unsent.clear();
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
      const timer = setTimeout(() => {
        this.waiters.delete(requestId);
        this.unsent.delete(requestId);
        reject(new Error('the preview did not answer'));
      }, timeoutMs);
      this.waiters.set(requestId, (m) => {
        clearTimeout(timer);
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

  /** The panel closed: nothing more is sent, pending requests fail. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.waiters.values()) w({ type: 'annotated', requestId: -1, error: 'closed' });
    this.waiters.clear();
    this.unsent.clear();
  }

  private send(m: HostMessage): void {
    if (!this.closed) this.port.postMessage(m);
  }
}
