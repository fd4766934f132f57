/**
 * Work on a Markdown document, debounced while it is typed in: the citation, safety and forecast
 * Problems each keep one. A change schedules the work after the delay and cancels what was pending
 * for that document; the work runs only if the document is still open at the version it was
 * scheduled for. The timers come from an injected scheduler, so tests run on a virtual clock.
 */
import vscode = require('vscode');
import { realScheduler, type Scheduler, type Timer } from '../../time/scheduler';

/** How long the Problems wait after a keystroke. */
export const DEBOUNCE_MS = 400;

export class MarkdownDebounce implements vscode.Disposable {
  private readonly timers = new Map<string, Timer>();

  /**
   * @param work what runs on a document once it has settled
   * @param closed what else to forget when a document closes (its pending work is dropped here)
   */
  constructor(
    private readonly work: (doc: vscode.TextDocument) => void,
    private readonly closed: (doc: vscode.TextDocument) => void = () => undefined,
    private readonly clock: Pick<Scheduler, 'setTimer'> = realScheduler,
  ) {}

  /** Schedules the work after `delayMs`; a newer change cancels the pending one. */
  schedule(doc: vscode.TextDocument, delayMs = DEBOUNCE_MS): void {
    const key = doc.uri.toString();
    this.timers.get(key)?.dispose();
    const version = doc.version;
    this.timers.set(
      key,
      this.clock.setTimer(delayMs, () => {
        this.timers.delete(key);
        if (!doc.isClosed && doc.version === version) this.work(doc);
      }),
    );
  }

  /** Drops a document's pending work. */
  cancel(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    this.timers.get(key)?.dispose();
    this.timers.delete(key);
  }

  /** Follows opening, typing and closing Markdown documents. */
  watch(): vscode.Disposable[] {
    const markdown = (d: vscode.TextDocument): boolean => d.languageId === 'markdown';
    return [
      vscode.workspace.onDidOpenTextDocument((d) => markdown(d) && this.schedule(d)),
      vscode.workspace.onDidChangeTextDocument(
        (e) => markdown(e.document) && e.contentChanges.length > 0 && this.schedule(e.document),
      ),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.cancel(d);
        this.closed(d);
      }),
    ];
  }

  dispose(): void {
    for (const t of this.timers.values()) t.dispose();
    this.timers.clear();
  }
}
