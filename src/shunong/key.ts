/**
 * The API key as both clients (MCP and REST) read it for a call: from the provider, without the
 * blanks around it. A provider that fails, or gives no key, is {@link AuthError} `missing-key`; a
 * failure is named by its kind only, since its text may hold the key.
 */
import { AuthError } from './errors';
import type { KeyProvider } from './types';

/** The key for one call, or AuthError `missing-key`. */
export async function readKey(getKey: KeyProvider): Promise<string> {
  let key: string | undefined;
  try {
    key = await getKey();
  } catch (e) {
    throw new AuthError('missing-key', `The API key could not be read (${e instanceof Error ? e.name : 'error'}).`);
  }
  key = key?.trim();
  if (!key) throw new AuthError('missing-key');
  return key;
}
