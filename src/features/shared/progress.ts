/** Work under a cancellable progress notification: its Cancel button aborts the work's signal. */
import vscode = require('vscode');
import { withSignal } from './signal';

/**
 * Runs `work` under a notification titled `title` with a Cancel button; the work gets an AbortSignal
 * that follows the button (see {@link withSignal}, which also explains `abort`) and the progress to
 * report on.
 */
export function withCancellableProgress<T>(
  title: string,
  work: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>,
  abort?: AbortController,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => withSignal(token, (signal) => work(signal, progress), abort),
  );
}
