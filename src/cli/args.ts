/**
 * The command line read once, by `node:util.parseArgs`, for every command.
 *
 * parseArgs must know which options take a value to tell a value from a positional, so it is
 * given every command's options; each command then accepts only its own ({@link optionsOf}).
 * It runs non-strict and its tokens are checked here, so the messages are the CLI's own
 * (`unknown option --x`, `--cache needs a value`, in the CLI's language) rather than parseArgs' and
 * name the option as typed. Options go before or after the positionals; `--` ends the options; the last of a
 * repeated option wins.
 */
import { parseArgs } from 'node:util';
import type { Words } from '../text/words';

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  endpoint: { type: 'string' },
  timeout: { type: 'string' },
  verbose: { type: 'boolean' },
  online: { type: 'boolean' },
  cache: { type: 'string' },
  refresh: { type: 'boolean' },
  format: { type: 'string' },
  to: { type: 'string' },
  output: { type: 'string', short: 'o' },
  force: { type: 'boolean' },
  citations: { type: 'string' },
  template: { type: 'string' },
  layout: { type: 'string' },
  'refuse-broken': { type: 'boolean' },
  'refuse-unsafe': { type: 'boolean' },
  rules: { type: 'string' },
  lang: { type: 'string' },
  workspace: { type: 'string' },
  'save-folder': { type: 'string' },
  'image-base-url': { type: 'string' },
  browser: { type: 'string' },
} as const;

/** An option some command takes. */
export type OptionName = keyof typeof OPTIONS;

type Values<N extends OptionName> = {
  [K in N]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : true;
};

/** A problem with the command line: the command prints it with its usage and exits 2. */
export class UsageError extends Error {}

/** The command line as parseArgs read it. */
export interface CommandLine {
  /** The positionals; the first is the command. */
  positionals: string[];
  /** Whether `-h` / `--help` was given. */
  help: boolean;
  tokens: ReturnType<typeof parseArgs>['tokens'] & {};
}

/** Reads the command line (never throws: an option's problems are reported by {@link optionsOf}). */
export function readCommandLine(argv: readonly string[]): CommandLine {
  const { positionals, tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return {
    positionals,
    help: tokens.some((t) => t.kind === 'option' && t.name === 'help'),
    tokens,
  };
}

/**
 * The values of a command's options; throws {@link UsageError} (in the CLI's words) for any other
 * option or a missing value.
 */
export function optionsOf<N extends OptionName>(line: CommandLine, allowed: readonly N[], words: Words): Values<N> {
  const values: Record<string, string | true> = {};
  for (const t of line.tokens) {
    if (t.kind !== 'option') continue;
    if (!(allowed as readonly string[]).includes(t.name))
      throw new UsageError(words.t('unknown option {0}', t.rawName));
    if (OPTIONS[t.name as N].type === 'string') {
      if (!t.value) throw new UsageError(words.t('{0} needs a value', t.rawName));
      values[t.name] = t.value;
    } else {
      if (t.value !== undefined) throw new UsageError(words.t('{0} takes no value', t.rawName));
      values[t.name] = true;
    }
  }
  return values as Values<N>;
}

/** A `--timeout` value in milliseconds. */
export function timeoutMs(v: string, words: Words): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n <= 0)
    throw new UsageError(words.t('--timeout needs a positive number of milliseconds, not "{0}"', v));
  return n;
}
