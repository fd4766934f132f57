/**
 * One error vocabulary on the VS Code side: every failure of a platform call reaches the UI through
 * {@link describeError} (one message table), and the connection state it reveals through
 * {@link stateFromError}. Failures are recognised by their `kind` ({@link platformErrorKind}), so
 * nothing here loads the platform bundle.
 */
import vscode = require('vscode');
import type { EndpointProblem } from '../../shunong/endpoint';
import { isPlatformError, platformErrorKind, type AnyShunongError, type ShunongErrorKind } from '../../shunong/errors';

export { isPlatformError };

/** What the status bar says about the connection. */
export type ConnectionState =
  | 'unchecked' // a key is stored, nothing asked yet
  | 'checking'
  | 'connected'
  | 'no-key'
  | 'key-rejected'
  | 'offline'
  | 'rate-limited'
  | 'insecure';

/** Maps a failure of a platform call to the connection state it reveals (undefined: says nothing about the connection). */
export function stateFromError(err: unknown): ConnectionState | undefined {
  if (isPlatformError(err, 'auth')) return err.reason === 'missing-key' ? 'no-key' : 'key-rejected';
  switch (platformErrorKind(err)) {
    case 'network':
    case 'timeout':
    case 'server':
      return 'offline';
    case 'rate-limited':
      return 'rate-limited';
    case 'insecure':
      return 'insecure';
    default:
      return undefined;
  }
}

/** A user-facing, localised sentence for an endpoint problem. */
export function describeEndpointProblem(problem: EndpointProblem, endpoint: string): string {
  switch (problem) {
    case 'invalid-url':
      return vscode.l10n.t(
        'The Shunong endpoint "{0}" is not a valid URL. Fix the setting shunong.endpoint.',
        endpoint,
      );
    case 'unsupported-scheme':
      return vscode.l10n.t('The Shunong endpoint "{0}" must start with https://.', endpoint);
    case 'insecure-http':
      return vscode.l10n.t(
        'The API key is not sent over plain http to {0}. Use https, or enable shunong.allowInsecureHttp if you trust this network.',
        endpoint,
      );
  }
}

/** The sentence for a call made while no key is stored for `endpoint`. */
export function missingKeyMessage(endpoint: string): string {
  return vscode.l10n.t('No API key is set for {0}. Run "Shunong: Set API Key".', endpoint);
}

type Describe<K extends ShunongErrorKind> = (err: Extract<AnyShunongError, { kind: K }>, endpoint: string) => string;

/** The message table: a sentence for each kind that has one; the others show their own message. */
const MESSAGES: { readonly [K in ShunongErrorKind]?: Describe<K> } = {
  auth: (e, endpoint) =>
    e.reason === 'missing-key'
      ? missingKeyMessage(endpoint)
      : vscode.l10n.t(
          'The endpoint {0} rejected the API key (invalid or revoked). Run "Shunong: Set API Key" with a valid key.',
          endpoint,
        ),
  network: (_e, endpoint) =>
    vscode.l10n.t('Cannot reach {0}. Check the network or the setting shunong.endpoint.', endpoint),
  timeout: (_e, endpoint) =>
    vscode.l10n.t('{0} did not answer in time. Try again, or raise shunong.requestTimeoutMs.', endpoint),
  server: (e, endpoint) =>
    vscode.l10n.t('{0} had a server error (HTTP {1}). Try again in a moment.', endpoint, String(e.status ?? '')),
  'rate-limited': (_e, endpoint) =>
    vscode.l10n.t('{0} is rate limiting requests. Wait a little and try again.', endpoint),
  insecure: (_e, endpoint) => describeEndpointProblem('insecure-http', endpoint),
  cancelled: () => vscode.l10n.t('Cancelled.'),
};

/**
 * Shows a failure of a platform call as an error message. When the key is missing or rejected it
 * carries a "Set API Key" button that runs `shunong.setApiKey` (then the author retries).
 */
export async function showError(err: unknown, endpoint: string): Promise<void> {
  const message = describeError(err, endpoint);
  if (!isPlatformError(err, 'auth')) {
    await vscode.window.showErrorMessage(message);
    return;
  }
  const setKey = vscode.l10n.t('Set API Key');
  if ((await vscode.window.showErrorMessage(message, setKey)) === setKey) {
    await vscode.commands.executeCommand('shunong.setApiKey');
  }
}

/** A user-facing, localised sentence for any failure of a platform call. Never contains the key. */
export function describeError(err: unknown, endpoint: string): string {
  const kind = platformErrorKind(err);
  const describe = kind && (MESSAGES[kind] as Describe<ShunongErrorKind> | undefined);
  if (describe) return describe(err as AnyShunongError, endpoint);
  const message = (err as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && message ? message : String(err);
}
