/**
 * The one way a failure leaves the extension: said to the author in their language (through
 * {@link describeError}, with "Set API Key" where the key is at fault) and written to the one
 * **Shunong** output channel with every key as `***`. A cancellation is neither: the author asked
 * for it. Nothing goes to `console`, which no user sees.
 */
import vscode = require('vscode');
import { describeError, isPlatformError, showError } from './errors';

/** What the failures need of the connection: where calls go, and the keys to hide. */
export interface FailureContext {
  readonly endpoint: string;
  redact(text: string): string;
}

/** Whether a failure is the author's own cancellation (a platform call's, VS Code's or an abort). */
export function isCancellation(err: unknown): boolean {
  return (
    isPlatformError(err, 'cancelled') ||
    err instanceof vscode.CancellationError ||
    (err instanceof Error && err.name === 'AbortError')
  );
}

export class Failures {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly connection: FailureContext,
  ) {}

  /**
   * A failure of `where` (a command's id, or what was being done): logged, and shown as
   * `message` when given (a sentence of the caller's that says more than the failure's own), else
   * as {@link describeError} says it. A cancellation is logged only.
   */
  report(where: string, err: unknown, message?: string): void {
    if (isCancellation(err)) {
      this.log.info(`${where}: cancelled`);
      return;
    }
    this.write(where, err);
    if (message !== undefined) void vscode.window.showErrorMessage(message);
    else void showError(err, this.connection.endpoint);
  }

  /** A failure worth a line in the log and nothing on screen: a fallback taken, a part left out. */
  note(where: string, err: unknown): void {
    this.log.warn(this.connection.redact(`${where}: ${this.detail(err)}`));
  }

  private write(where: string, err: unknown): void {
    const said = describeError(err, this.connection.endpoint);
    const detail = this.detail(err);
    this.log.error(
      this.connection.redact(detail.includes(said) ? `${where}: ${detail}` : `${where}: ${said}\n${detail}`),
    );
  }

  /** The failure as a developer reads it: its stack where it has one. */
  private detail(err: unknown): string {
    return err instanceof Error ? (err.stack ?? err.message) : String(err);
  }
}
