/**
 * `shunong export <file.md> --to docx|wechat|html [-o out] [--force]`: a bulletin published from
 * a terminal, as the command does it in VS Code. Warnings go to stderr, one line each.
 * Exit codes: 0 written, 1 refused or failed (an existing file without `--force`, broken citations
 * with `--refuse-broken`, an unreadable bulletin or template), 2 usage error.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { insertLanguage } from '../bulletin/language';
import { wordsOf } from '../text/words';
import { formatProblemLine, readBulletinText } from '../citations/check';
import { EXPORT_FORMATS, exportBulletin, outputName, warningText, type ExportFormat } from './index';
import type { ImageCandidate } from './images';

/** Where the command writes. */
export interface ExportIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

export const EXPORT_USAGE = `usage: shunong export <file.md> --to docx|wechat|html [-o out] [--force]
  --to <format>          docx (Word, real footnotes), wechat (a WeChat article), html (a standalone page)
  -o, --output <file>    where to write (default: beside the bulletin, .docx / .wechat.html / .html)
  --force                overwrite an existing file
  --citations <how>      footnotes (default) or list (a numbered references list; Word)
  --template <file.docx> a Word file whose styles the export uses (Word)
  --refuse-broken        refuse to export a bulletin with broken citations
  --lang <zh-CN|en>      the language of the export's own words (default: the bulletin's)
  --workspace <dir>      the folder pictures are looked up from (default: the current folder)
  --save-folder <dir>    the recognition copies' folder, inside the workspace (default images/recognition)`;

interface Args {
  file: string;
  to: ExportFormat;
  output?: string;
  force: boolean;
  citations: 'footnotes' | 'list';
  template?: string;
  refuseBroken: boolean;
  lang?: string;
  workspace: string;
  saveFolder: string;
}

class Usage extends Error {}

function parse(argv: readonly string[], cwd: string): Args {
  const positionals: string[] = [];
  const a: Partial<Args> = { force: false, citations: 'footnotes', refuseBroken: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      const v = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (v === undefined || v === '') throw new Usage(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '--to': {
        const v = value();
        if (!(EXPORT_FORMATS as readonly string[]).includes(v))
          throw new Usage(`--to must be docx, wechat or html, not "${v}"`);
        a.to = v as ExportFormat;
        break;
      }
      case '-o':
      case '--output':
        a.output = value();
        break;
      case '--force':
        a.force = true;
        break;
      case '--citations': {
        const v = value();
        if (v !== 'footnotes' && v !== 'list') throw new Usage(`--citations must be footnotes or list, not "${v}"`);
        a.citations = v;
        break;
      }
      case '--template':
        a.template = value();
        break;
      case '--refuse-broken':
        a.refuseBroken = true;
        break;
      case '--lang':
        a.lang = value();
        break;
      case '--workspace':
        a.workspace = value();
        break;
      case '--save-folder':
        a.saveFolder = value();
        break;
      default:
        throw new Usage(`unknown option ${name}`);
    }
  }
  if (positionals.length !== 1) throw new Usage(positionals.length ? 'one bulletin at a time' : 'which bulletin?');
  if (!a.to) throw new Usage('--to is required');
  return {
    ...(a as Args),
    file: positionals[0]!,
    workspace: resolve(cwd, a.workspace ?? '.'),
    saveFolder: a.saveFolder ?? 'images/recognition',
  };
}

/** Runs `shunong export`; resolves to the exit code. */
export async function runExport(
  argv: readonly string[],
  io: ExportIo,
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
): Promise<number> {
  let args: Args;
  try {
    args = parse(argv, cwd);
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    io.stderr(`shunong export: ${e.message}\n${EXPORT_USAGE}\n`);
    return 2;
  }
  const file = resolve(cwd, args.file);
  const read = await readBulletinText(file);
  if ('error' in read) {
    io.stderr(`shunong export: cannot read ${args.file}: ${read.error}\n`);
    return 1;
  }
  const text = read.text;
  let template: Uint8Array | undefined;
  if (args.template && args.to === 'docx') {
    try {
      template = new Uint8Array(await readFile(resolve(cwd, args.template)));
    } catch (err) {
      io.stderr(
        `shunong export: cannot read the template ${args.template}: ${(err as NodeJS.ErrnoException).code ?? String(err)}\n`,
      );
      return 1;
    }
  }
  const ui = (env.LC_ALL || env.LC_MESSAGES || env.LANG || '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
  const setting = args.lang === undefined ? 'auto' : args.lang.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
  const bases: Record<ImageCandidate['base'], string> = {
    document: dirname(file),
    workspace: args.workspace,
    saveFolder: resolve(args.workspace, args.saveFolder),
  };
  const outcome = await exportBulletin({
    text,
    format: args.to,
    lang: insertLanguage(setting, text, ui),
    citations: args.citations,
    refuseBrokenCitations: args.refuseBroken,
    ...(template ? { template } : {}),
    now: new Date(),
    readImage: async (c) => {
      try {
        return new Uint8Array(await readFile(join(bases[c.base], ...c.path.split('/'))));
      } catch {
        return undefined;
      }
    },
  });
  if (!outcome.ok) {
    if (outcome.reason === 'broken-citations') {
      for (const p of outcome.broken) io.stderr(`${formatProblemLine(args.file, p)}\n`);
      io.stderr(`shunong export: refused: ${outcome.broken.length} broken citation(s) (--refuse-broken)\n`);
    } else
      io.stderr(
        `shunong export: the template ${args.template} cannot be used: ${outcome.error === 'not-a-docx' ? 'not a .docx file' : 'it has no word/styles.xml'}\n`,
      );
    return 1;
  }
  const words = wordsOf('en');
  for (const w of outcome.warnings) io.stderr(`${args.file}: ${warningText(w, words)}\n`);
  const out = args.output ? resolve(cwd, args.output) : outputName(file, args.to);
  try {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, outcome.bytes, { flag: args.force ? 'w' : 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    io.stderr(
      code === 'EEXIST'
        ? `shunong export: ${out} exists; give --force to overwrite it\n`
        : `shunong export: cannot write ${out}: ${code ?? String(err)}\n`,
    );
    return 1;
  }
  io.stdout(`${out}\n`);
  return 0;
}
