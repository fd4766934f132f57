/**
 * The endpoint rules every part of the program shares (the MCP and REST clients, the CLI and the
 * VS Code connection): the default endpoint, its normalised id, which hosts are loopback, and
 * whether the API key may be sent to an endpoint at all. No dependencies: the features bundle
 * imports it without loading the platform.
 */

/** The platform's public endpoint. */
export const DEFAULT_ENDPOINT = 'https://ai.agriwis.com/mcp';

/** Normalises an endpoint URL for use as a key (one API key and one tool list per endpoint). */
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

/**
 * True when `host` (a URL's hostname, IPv6 with or without brackets) is a loopback name or address,
 * to which the key may go over plain http: `localhost` and any `*.localhost` name (reserved for
 * loopback by RFC 6761, and resolved to it by Node and the browsers), `127.0.0.0/8` and `::1`.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/[[\]]/g, '').toLowerCase(); // an IPv6 literal's brackets
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Why the key may not be sent to an endpoint. */
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
