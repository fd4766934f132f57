/**
 * A CancellationToken as an AbortSignal, for as long as some work runs: the platform client's calls
 * take a signal, VS Code hands a token. The token's listener is disposed when the work settles, so a
 * token that outlives the work (a long chat request, a progress notification still closing) keeps
 * no callback of ours. Only a type is imported from vscode: no runtime dependency on it.
 */
import type * as vscode from 'vscode';

/**
 * Runs `work` with a signal that aborts when `token` is cancelled (at once if it already is).
 * `abort`: the controller to abort, when something else may abort the same work (a newer run, a
 * closed picker); a new one by default.
 */
export async function withSignal<T>(
  token: Pick<vscode.CancellationToken, 'isCancellationRequested' | 'onCancellationRequested'>,
  work: (signal: AbortSignal) => Promise<T>,
  abort: AbortController = new AbortController(),
): Promise<T> {
  if (token.isCancellationRequested) abort.abort();
  const listener = token.onCancellationRequested(() => abort.abort());
  try {
    return await work(abort.signal);
  } finally {
    listener.dispose();
  }
}
