/**
 * `shunong`: the platform from a terminal — a thin face over `src/shunong/`.
 *
 *   shunong tools [--endpoint url] [--timeout ms]
 *   shunong call <tool> [json-args] [--timeout ms] [--endpoint url]
 *   shunong check <files…> [--online [--cache file] [--refresh]]
 *   shunong export <file.md> --to docx|wechat|html [-o out] [--force]
 *
 * `call` prints exactly one JSON envelope on stdout; everything else goes to stderr.
 * Exit codes: 0 success, 1 tool or transport failure, 2 usage error.
 * Endpoint from --endpoint or SHUNONG_ENDPOINT; the key only from SHUNONG_API_KEY.
 */
import { DEFAULT_ENDPOINT, ShunongClient } from './shunong/index';
import { platformErrorKind } from './shunong/errors';
import { redactSecret } from './shunong/redact';

/** Where the CLI writes (strings carry their own line breaks). */
export interface CliIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

/** The environment variables the CLI reads. */
export type CliEnv = Record<string, string | undefined>;

export const USAGE = `usage: shunong <command> [options]

commands:
  tools                         list the endpoint's tools (one per line: name, first line of description)
  call <tool> [json-args]       call a tool; prints one JSON envelope on stdout
                                <tool>: exact name, shunong_<name>, shunong.<name>, method name or unique part
  check <files…>                check citations in Markdown bulletins (offline)
  check --online <files…>       also look each cited source up on the platform
        [--cache <file>] [--refresh]   keep passages and outcomes in <file>; --refresh asks again
  export <file.md> --to <fmt>   publish a bulletin: docx (Word, real footnotes), wechat, html
                                (shunong export --help for its options)

options (before or after the arguments):
  --endpoint <url>              MCP endpoint (default: $SHUNONG_ENDPOINT or ${DEFAULT_ENDPOINT})
  --timeout <ms>                per-call timeout in milliseconds (default 30000)
  --verbose                     log each HTTP request to stderr (the key is masked)
  -h, --help                    show this help

environment:
  SHUNONG_API_KEY               the API key (never passed on the command line)
  SHUNONG_ENDPOINT              the endpoint, when --endpoint is not given

exit codes: 0 success, 1 tool or transport failure, 2 usage error
  check: 0 clean, 1 problems (or a changed, not-located source or unknown knowledge base),
         3 (--online) some sources could only be left unverified, 2 usage error
`;

class UsageError extends Error {}

interface Parsed {
  positionals: string[];
  endpoint?: string;
  timeoutMs?: number;
  verbose: boolean;
  help: boolean;
}

function parseArgv(argv: readonly string[]): Parsed {
  const out: Parsed = { positionals: [], verbose: false, help: false };
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (onlyPositionals || !a.startsWith('-') || a === '-') {
      out.positionals.push(a);
      continue;
    }
    if (a === '--') {
      onlyPositionals = true;
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      if (eq >= 0) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '-h':
      case '--help':
        out.help = true;
        break;
      case '--verbose':
        out.verbose = true;
        break;
      case '--endpoint': {
        const v = value();
        if (!v) throw new UsageError('--endpoint needs a URL');
        out.endpoint = v;
        break;
      }
      case '--timeout': {
        const v = value();
        const n = Number(v);
        if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n <= 0)
          throw new UsageError(`--timeout needs a positive number of milliseconds, not "${v}"`);
        out.timeoutMs = n;
        break;
      }
      default:
        throw new UsageError(`unknown option ${name}`);
    }
  }
  return out;
}

function firstLine(s: string | undefined): string {
  return (
    (s ?? '')
      .split(/\r?\n/)
      .find((l) => l.trim())
      ?.trim() ?? ''
  );
}

function makeClient(p: Parsed, io: CliIo, env: CliEnv): ShunongClient {
  const endpoint = p.endpoint ?? (env['SHUNONG_ENDPOINT']?.trim() || DEFAULT_ENDPOINT);
  const options: ConstructorParameters<typeof ShunongClient>[0] = {
    endpoint,
    getKey: () => env['SHUNONG_API_KEY'],
    clientInfo: { name: 'shunong-cli', version: '0.1.0' },
  };
  if (p.timeoutMs !== undefined) options.timeoutMs = p.timeoutMs;
  if (p.verbose) options.log = (line) => io.stderr(`${line}\n`);
  return new ShunongClient(options);
}

function hint(kind: string): string {
  if (kind === 'auth') return ' (set SHUNONG_API_KEY to a valid key)';
  if (kind === 'network') return ' (is the endpoint up? see --endpoint / SHUNONG_ENDPOINT)';
  return '';
}

async function runTools(p: Parsed, io: CliIo, env: CliEnv): Promise<number> {
  if (p.positionals.length > 1) throw new UsageError('tools takes no arguments');
  const client = makeClient(p, io, env);
  try {
    const tools = await client.connect();
    const width = Math.max(0, ...tools.map((t) => t.name.length));
    for (const t of tools) io.stdout(`${t.name.padEnd(width)}  ${firstLine(t.description)}`.trimEnd() + '\n');
    return 0;
  } catch (e) {
    const kind = platformErrorKind(e) ?? 'internal';
    io.stderr(`shunong tools: ${e instanceof Error ? e.message : String(e)}${hint(kind)}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

async function runCall(p: Parsed, io: CliIo, env: CliEnv): Promise<number> {
  const [, tool, json, ...rest] = p.positionals;
  if (!tool) throw new UsageError('call needs a tool name');
  if (rest.length)
    throw new UsageError(`unexpected argument "${rest[0] ?? ''}" (pass the arguments as one JSON object)`);
  let args: Record<string, unknown> = {};
  if (json !== undefined && json.trim()) {
    let v: unknown;
    try {
      v = JSON.parse(json);
    } catch (e) {
      throw new UsageError(`the arguments are not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new UsageError('the arguments must be a JSON object');
    args = v as Record<string, unknown>;
  }
  const client = makeClient(p, io, env);
  try {
    const env2 = await client.callTool(tool, args, { raiseOnError: false });
    io.stdout(`${JSON.stringify(env2)}\n`);
    if (env2.success) return 0;
    const kind = env2.data.kind;
    io.stderr(`shunong call: ${env2.message}${hint(kind)}\n`);
    return kind === 'unknown-tool' || kind === 'ambiguous-tool' || kind === 'invalid-arguments' ? 2 : 1;
  } finally {
    await client.close();
  }
}

async function runCheckOnline(argv: readonly string[], io: CliIo, env: CliEnv, now: () => number): Promise<number> {
  const { parseCheckArgs, runOnlineCheck, CHECK_ONLINE_USAGE } = await import('./citations/checkOnline');
  let args: ReturnType<typeof parseCheckArgs>;
  try {
    args = parseCheckArgs(argv);
  } catch (e) {
    io.stderr(`shunong check: ${e instanceof Error ? e.message : String(e)}\n${CHECK_ONLINE_USAGE}\n`);
    return 2;
  }
  const p: Parsed = { positionals: [], verbose: false, help: false };
  if (args.endpoint !== undefined) p.endpoint = args.endpoint;
  if (args.timeoutMs !== undefined) p.timeoutMs = args.timeoutMs;
  const client = makeClient(p, io, env);
  const key = env['SHUNONG_API_KEY'];
  // The client redacts the key from what it reports; this guards every line once more.
  const guard = (s: string): string => (key ? redactSecret(s, key) : s);
  try {
    return await runOnlineCheck(
      args,
      { stdout: (s) => io.stdout(guard(s)), stderr: (s) => io.stderr(guard(s)) },
      {
        search: (a, signal) => client.knowledgeSearch(a, signal ? { signal } : {}),
        now,
        describe: (e) => `${e instanceof Error ? e.message : String(e)}${hint(platformErrorKind(e) ?? '')}`,
      },
    );
  } finally {
    await client.close();
  }
}

/**
 * Runs the command line in-process.
 * @param argv the arguments after the program name
 * @param now the clock (the Beijing date `check --online` keeps its outcomes by)
 * @returns the exit code (0 success, 1 tool or transport failure, 2 usage error; `check --online` also 3)
 */
export async function main(
  argv: readonly string[],
  io: CliIo,
  env: CliEnv,
  now: () => number = () => Date.now(),
): Promise<number> {
  const cmdIndex = argv.findIndex((a) => !a.startsWith('-'));
  if (argv[cmdIndex] === 'check') {
    // `check` works offline and parses its own arguments.
    const rest = argv.slice(cmdIndex + 1);
    if (!rest.includes('--online')) {
      const { runCheck } = await import('./citations/check');
      return runCheck(rest, io);
    }
    return runCheckOnline(rest, io, env, now);
  }
  if (argv[cmdIndex] === 'export') {
    // `export` works offline and parses its own arguments.
    const { runExport, EXPORT_USAGE } = await import('./publish/cli');
    const rest = argv.slice(cmdIndex + 1);
    if (rest.includes('-h') || rest.includes('--help')) {
      io.stdout(`${EXPORT_USAGE}\n`);
      return 0;
    }
    return runExport(rest, io, env);
  }
  let p: Parsed;
  try {
    p = parseArgv(argv);
  } catch (e) {
    io.stderr(`shunong: ${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`);
    return 2;
  }
  const cmd = p.positionals[0];
  if (p.help || cmd === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  try {
    if (cmd === 'tools') return await runTools(p, io, env);
    if (cmd === 'call') return await runCall(p, io, env);
    io.stderr(cmd === undefined ? USAGE : `shunong: unknown command "${cmd}"\n\n${USAGE}`);
    return 2;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`shunong ${cmd ?? ''}: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr(`shunong: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

if (typeof require !== 'undefined' && require.main === module) {
  main(
    process.argv.slice(2),
    { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) },
    process.env,
  ).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`shunong: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
