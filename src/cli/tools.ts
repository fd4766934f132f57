/** `shunong tools`: the endpoint's tools, one a line: the name, then the first line of its description. */
import { platformErrorKind } from '../shunong/errors';
import { UsageError } from './args';
import { hint, platformClient, type Connection } from './client';
import { cliWords, type CliEnv, type CliIo } from './io';

function firstLine(s: string | undefined): string {
  return (
    (s ?? '')
      .split(/\r?\n/)
      .find((l) => l.trim())
      ?.trim() ?? ''
  );
}

/** Lists the tools; resolves to the exit code (0 listed, 1 a transport failure). */
export async function runTools(args: readonly string[], c: Connection, io: CliIo, env: CliEnv): Promise<number> {
  const words = cliWords(env);
  if (args.length > 0) throw new UsageError(words.t('tools takes no arguments'));
  const client = platformClient(c, io, env);
  try {
    const tools = await client.connect();
    const width = Math.max(0, ...tools.map((t) => t.name.length));
    for (const t of tools) io.stdout(`${t.name.padEnd(width)}  ${firstLine(t.description)}`.trimEnd() + '\n');
    return 0;
  } catch (e) {
    const kind = platformErrorKind(e) ?? 'internal';
    io.stderr(`shunong tools: ${e instanceof Error ? e.message : String(e)}${hint(kind, words)}\n`);
    return 1;
  } finally {
    await client.close();
  }
}
