/**
 * `shunong`: the platform and the bulletins from a terminal. Every command's front end lives in
 * `src/cli/` (one file a command, the command line read once by `args.ts`); what they run is
 * the domain folders' (`src/shunong/`, `src/citations/`, `src/publish/`).
 *
 *   shunong tools [--endpoint url] [--timeout ms]
 *   shunong call <tool> [json-args] [--timeout ms] [--endpoint url]
 *   shunong check <files…> [--rules file] [--format line|json|sarif] [--online [--cache file] [--refresh]]
 *   shunong export <file.md> --to docx|wechat|html [-o out] [--force]
 *
 * `call` prints exactly one JSON envelope on stdout; everything else goes to stderr.
 * Exit codes: 0 success, 1 tool or transport failure, 2 usage error.
 * Endpoint from --endpoint or SHUNONG_ENDPOINT; the key only from SHUNONG_API_KEY. Every message
 * is in the language of LC_ALL / LC_MESSAGES / LANG (`io.ts`, `cliLang`).
 */
import { DEFAULT_ENDPOINT } from '../shunong/index';
import { optionsOf, readCommandLine, timeoutMs, UsageError } from './args';
import { runCall } from './call';
import type { Connection } from './client';
import { cliWords, type CliEnv, type CliIo } from './io';
import { runTools } from './tools';
import type { Words } from '../text/words';

export type { CliEnv, CliIo } from './io';

/** The usage of every command, in the CLI's words. */
function usage(words: Words): string {
  return words.t(
    `usage: shunong <command> [options]

commands:
  tools                         list the endpoint's tools (one per line: name, first line of description)
  call <tool> [json-args]       call a tool; prints one JSON envelope on stdout
                                <tool>: exact name, shunong_<name>, shunong.<name>, method name or unique part
  check <files…>                check citations and pesticide safety in Markdown bulletins (offline)
        [--rules <file>]               a station's pesticide rules file over the shipped rules
        [--format line|json|sarif]     one line per finding (default), one JSON document, or SARIF 2.1.0
  check --online <files…>       also look each cited source up on the platform
        [--cache <file>] [--refresh]   keep passages and outcomes in <file>; --refresh asks again
  export <file.md> --to <fmt>   publish a bulletin: docx (Word, real footnotes), wechat, html
                                (shunong export --help for its options)

options (before or after the arguments):
  --endpoint <url>              MCP endpoint (default: $SHUNONG_ENDPOINT or {0})
  --timeout <ms>                per-call timeout in milliseconds (default 30000)
  --verbose                     log each HTTP request to stderr (the key is masked)
  -h, --help                    show this help

environment:
  SHUNONG_API_KEY               the API key (never passed on the command line)
  SHUNONG_ENDPOINT              the endpoint, when --endpoint is not given
  LC_ALL, LC_MESSAGES, LANG     the language of the messages: Chinese for zh* (zh_CN.UTF-8), else English

exit codes: 0 success, 1 tool or transport failure, 2 usage error
  check: 0 clean, 1 problems (a banned pesticide, or a changed, not-located source or unknown
         knowledge base), 3 (--online) some sources could only be left unverified,
         2 usage error or unusable rules file (shunong check --help for its options)
`,
    DEFAULT_ENDPOINT,
  );
}

/**
 * Runs the command line in-process.
 * @param argv the arguments after the program name
 * @param now the clock (today in Beijing, which `check` and `export` apply the pesticide rules on
 *   and `check --online` keeps its outcomes by)
 * @returns the exit code (0 success, 1 tool or transport failure, 2 usage error; `check --online` also 3)
 */
export async function main(
  argv: readonly string[],
  io: CliIo,
  env: CliEnv,
  now: () => number = () => Date.now(),
): Promise<number> {
  const line = readCommandLine(argv);
  const [cmd, ...args] = line.positionals;
  const words = cliWords(env);
  if (cmd === 'check') {
    // `check` and `export` load their code on use: `tools` and `call` start without markdown-it
    // or the publishing code.
    const { runCheck } = await import('./check');
    return runCheck(line, io, env, now);
  }
  if (cmd === 'export') {
    const { runExport } = await import('./export');
    return runExport(line, io, env, now);
  }
  if (line.help || cmd === 'help') {
    io.stdout(usage(words));
    return 0;
  }
  let connection: Connection;
  try {
    const o = optionsOf(line, ['help', 'endpoint', 'timeout', 'verbose'], words);
    connection = {
      endpoint: o.endpoint,
      timeoutMs: o.timeout === undefined ? undefined : timeoutMs(o.timeout, words),
      verbose: o.verbose,
    };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`shunong: ${e.message}\n\n${usage(words)}`);
    return 2;
  }
  try {
    if (cmd === 'tools') return await runTools(args, connection, io, env);
    if (cmd === 'call') return await runCall(args, connection, io, env);
    io.stderr(
      cmd === undefined ? usage(words) : `shunong: ${words.t('unknown command "{0}"', cmd)}\n\n${usage(words)}`,
    );
    return 2;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`shunong ${cmd ?? ''}: ${e.message}\n\n${usage(words)}`);
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
