/** The platform client of the commands that talk to the endpoint, and the hint a failure deserves. */
import { DEFAULT_ENDPOINT, ShunongClient } from '../shunong/index';
import type { Words } from '../text/words';
import type { CliEnv, CliIo } from './io';
import { CLI_VERSION } from './version';

/** How to reach the endpoint, from the command line. */
export interface Connection {
  endpoint?: string | undefined;
  timeoutMs?: number | undefined;
  /** Log each HTTP request to stderr (the key masked). */
  verbose?: boolean | undefined;
}

/** A client of the endpoint given, else `SHUNONG_ENDPOINT`, else the default; the key only from `SHUNONG_API_KEY`. */
export function platformClient(c: Connection, io: CliIo, env: CliEnv): ShunongClient {
  const endpoint = c.endpoint ?? (env['SHUNONG_ENDPOINT']?.trim() || DEFAULT_ENDPOINT);
  const options: ConstructorParameters<typeof ShunongClient>[0] = {
    endpoint,
    getKey: () => env['SHUNONG_API_KEY'],
    clientInfo: { name: 'shunong-cli', version: CLI_VERSION },
  };
  if (c.timeoutMs !== undefined) options.timeoutMs = c.timeoutMs;
  if (c.verbose) options.log = (line) => io.stderr(`${line}\n`);
  return new ShunongClient(options);
}

/** What to do about a failure of this kind, as a parenthesis after its message (or nothing). */
export function hint(kind: string, words: Words): string {
  if (kind === 'auth') return ` ${words.t('(set SHUNONG_API_KEY to a valid key)')}`;
  if (kind === 'network') return ` ${words.t('(is the endpoint up? see --endpoint / SHUNONG_ENDPOINT)')}`;
  return '';
}
