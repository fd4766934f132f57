/**
 * CLI: `npm run emulator -- [--port N] [--keys k1,k2] [--rate-limit N/s]`.
 * Default port 7331 (`--port 0` = any free port). Prints `SHUNONG_ENDPOINT=…` and
 * `SHUNONG_API_KEY=…` once listening, logs one line per request to stderr, and stops
 * cleanly on SIGINT / SIGTERM.
 */
import { DEFAULT_KEY, startEmulator, type EmulatorOptions } from './server';

/** Default CLI port. */
export const DEFAULT_PORT = 7331;

/** Parses the CLI arguments; throws with a usage message on bad input. */
export function parseArgs(argv: string[]): EmulatorOptions {
  const opts: EmulatorOptions = { port: DEFAULT_PORT };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--port') {
      const p = Number(value());
      if (!Number.isInteger(p) || p < 0 || p > 65535) throw new Error('--port must be 0-65535');
      opts.port = p;
    } else if (flag === '--keys') {
      const keys = value()
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k.length > 0);
      if (keys.length === 0) throw new Error('--keys needs at least one key');
      opts.keys = keys;
    } else if (flag === '--rate-limit') {
      const m = /^(\d+(?:\.\d+)?)(?:\/s)?$/.exec(value());
      if (!m || Number(m[1]) <= 0) throw new Error('--rate-limit must look like 5/s');
      opts.rateLimitPerSec = Number(m[1]);
    } else if (flag === '--help' || flag === '-h') {
      throw new Error('usage: npm run emulator -- [--port N] [--keys k1,k2] [--rate-limit N/s]');
    } else {
      throw new Error(`unknown argument: ${a}`);
    }
  }
  return opts;
}

async function main(): Promise<void> {
  let opts: EmulatorOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
  const emulator = await startEmulator({ ...opts, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`SHUNONG_ENDPOINT=${emulator.url}\nSHUNONG_API_KEY=${opts.keys?.[0] ?? DEFAULT_KEY}\n`);
  const stop = (): void => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
