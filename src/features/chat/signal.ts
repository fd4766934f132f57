/** A CancellationToken as an AbortSignal, for the platform client's calls. */
import type * as vscode from 'vscode';

/** An AbortSignal that follows a CancellationToken. */
export function signalOf(token: vscode.CancellationToken): AbortSignal {
  const abort = new AbortController();
  if (token.isCancellationRequested) abort.abort();
  token.onCancellationRequested(() => abort.abort());
  return abort.signal;
}
