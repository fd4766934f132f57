/** Endpoint checks shared by the account commands (no vscode import: unit-testable). */

/** Normalises an endpoint URL for use as a key in SecretStorage (one key per endpoint). */
export function endpointId(endpoint: string): string {
  try {
    const u = new URL(endpoint.trim());
    u.hash = '';
    let s = u.toString();
    if (s.endsWith('/')) s = s.slice(0, -1);
    return s;
  } catch {
    return endpoint.trim();
  }
}

/** Loopback hosts to which the key may go over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

export type EndpointProblem = 'invalid-url' | 'unsupported-scheme' | 'insecure-http';

/** Says whether the key may be sent to this endpoint; undefined when it may. */
export function endpointProblem(endpoint: string, allowInsecureHttp: boolean): EndpointProblem | undefined {
  let u: URL;
  try {
    u = new URL(endpoint.trim());
  } catch {
    return 'invalid-url';
  }
  if (u.protocol === 'https:') return undefined;
  if (u.protocol !== 'http:') return 'unsupported-scheme';
  if (isLoopbackHost(u.hostname) || allowInsecureHttp) return undefined;
  return 'insecure-http';
}
