/** `shunong call <tool> [json-args]`: one tool call, its envelope as one JSON line on stdout. */
import { UsageError } from './args';
import { hint, platformClient, type Connection } from './client';
import { cliWords, type CliEnv, type CliIo } from './io';
import type { Words } from '../text/words';

/** The tool's arguments: one JSON object, or none. */
function toolArguments(json: string | undefined, words: Words): Record<string, unknown> {
  if (json === undefined || !json.trim()) return {};
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch (e) {
    throw new UsageError(words.t('the arguments are not valid JSON: {0}', e instanceof Error ? e.message : String(e)));
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new UsageError(words.t('the arguments must be a JSON object'));
  return v as Record<string, unknown>;
}

/**
 * Calls the tool; resolves to the exit code: 0 success, 1 the tool or the transport failed,
 * 2 no such tool (or an ambiguous name) or arguments it refuses.
 */
export async function runCall(args: readonly string[], c: Connection, io: CliIo, env: CliEnv): Promise<number> {
  const words = cliWords(env);
  const [tool, json, ...rest] = args;
  if (!tool) throw new UsageError(words.t('call needs a tool name'));
  if (rest.length)
    throw new UsageError(words.t('unexpected argument "{0}" (pass the arguments as one JSON object)', rest[0] ?? ''));
  const input = toolArguments(json, words);
  const client = platformClient(c, io, env);
  try {
    const envelope = await client.callTool(tool, input, { raiseOnError: false });
    io.stdout(`${JSON.stringify(envelope)}\n`);
    if (envelope.success) return 0;
    const kind = envelope.data.kind;
    io.stderr(`shunong call: ${envelope.message}${hint(kind, words)}\n`);
    return kind === 'unknown-tool' || kind === 'ambiguous-tool' || kind === 'invalid-arguments' ? 2 : 1;
  } finally {
    await client.close();
  }
}
