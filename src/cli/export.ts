/**
 * `shunong export <file.md> --to docx|wechat|html [-o out] [--force]`: a bulletin published from
 * a terminal, as the command does it in VS Code. Warnings go to stderr, one line each.
 * A bulletin that recommends a pesticide banned on its date (its front matter's `date:`, else today
 * in Beijing by the injected clock), or gives a wrong dose (one its cited passage, from `--cache`,
 * does not give, or a dilution its own rate and water do not add up to), is exported with those
 * findings listed on stderr, or refused with `--refuse-unsafe`.
 * Exit codes: 0 written, 1 refused or failed (an existing file without `--force`, broken citations
 * with `--refuse-broken`, a banned pesticide or a wrong dose with `--refuse-unsafe`, an unreadable
 * bulletin or template), 2 usage error (or a cache file that cannot be used) or a bulletin whose bytes are not UTF-8, UTF-16 (with its byte order
 * mark) or GB18030 text. A bulletin read as GB18030 or UTF-16 says so on stderr; the export is UTF-8.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { insertLanguage } from '../bulletin/language';
import { langOf, langTag, wordsOf, type Lang, type Words } from '../text/words';
import { doseFinding, findingLine, problemFinding, safetyFinding } from '../citations/check';
import { passageLookup } from '../citations/checkOnline';
import { CitationCache } from '../citations/retrievalContext';
import { LineIndex } from '../citations/positions';
import { problemMessageIn } from '../citations/problemText';
import {
  EXPORT_FORMATS,
  EXPORT_LAYOUTS,
  exportBulletin,
  findBrowserHere,
  pdfFailureText,
  printToPdf,
  outputName,
  picturePrefix,
  templateProblemText,
  warningText,
  type ExportFormat,
  type ExportLayout,
  type PrintResult,
} from '../publish/index';
import { SETTING_DEFAULTS } from '../settings/index';

/** The PDF's time limit when `--timeout` is not given: the setting's default. */
const PDF_TIMEOUT_MS = SETTING_DEFAULTS['export.pdfTimeoutMs'];
import type { ImageCandidate } from '../publish/images';
import {
  bulletinDate,
  checkDoses,
  DOSE_PROBLEMS,
  lintSafety,
  partitionSilenced,
  shippedRules,
  type DoseFinding,
  type RuleSet,
} from '../safety/index';
import { beijingDate } from '../time/beijing';
import { optionsOf, timeoutMs, UsageError, type CommandLine } from './args';
import { loadCache } from './cacheFile';
import { cliLang, errorCode, readTextFile, tellEncoding, type CliEnv, type CliIo } from './io';

function exportUsage(words: Words): string {
  return words.t(`usage: shunong export <file.md> --to docx|wechat|html|pdf [-o out] [--force]
  --to <format>          docx (Word, real footnotes), wechat (a WeChat article), html (a standalone page),
                         pdf (printed by Edge, Chrome or Chromium on this machine)
  -o, --output <file>    where to write (default: beside the bulletin, .docx / .wechat.html / .html / .pdf)
  --force                overwrite an existing file
  --citations <how>      footnotes (default) or list (a numbered references list; Word, PDF)
  --template <file.docx> a Word file whose styles the export uses (Word)
  --layout <layout>      standard (default) or official (GB/T 9704-2012: masthead, page numbers; Word, PDF);
                         wins over the bulletin's layout: in its front matter
  --refuse-broken        refuse to export a bulletin with broken citations
  --refuse-unsafe        refuse to export a bulletin that recommends a pesticide banned on its date, or
                         gives a wrong dose (without it: exported, and each listed on stderr; one
                         silenced by <!-- shunong-disable-next-line … --> is neither)
  --cache <file>         the passages shunong check keeps (--cache there): each cited dose is compared
                         with its passage; without it, only a dilution's own arithmetic is checked
  --lang <zh-CN|en>      the language of the export's own words (default: the bulletin's)
  --workspace <dir>      the folder pictures are looked up from (default: the current folder)
  --save-folder <dir>    the recognition copies' folder, inside the workspace (default images/recognition)
  --image-base-url <url> where the station hosts a WeChat article's pictures (default: embedded); the
                         pictures are written beside the article either way, to upload
  --browser <program>    the browser that prints a PDF (default: Edge, Chrome or Chromium where they install)
  --timeout <ms>         how long the browser may take to print a PDF (default 60000)
A bulletin saved as UTF-8, UTF-16 (with its byte order mark) or GB18030/GBK is read as such (said on
stderr); the export is written in UTF-8. The messages follow LC_ALL / LC_MESSAGES / LANG.
exit codes: 0 written, 1 refused or failed, 2 usage error or a bulletin that is none of those encodings`);
}

const OPTIONS = [
  'help',
  'to',
  'output',
  'force',
  'citations',
  'template',
  'layout',
  'refuse-broken',
  'refuse-unsafe',
  'cache',
  'lang',
  'workspace',
  'save-folder',
  'image-base-url',
  'browser',
  'timeout',
] as const;

interface Args {
  file: string;
  to: ExportFormat;
  output?: string | undefined;
  force: boolean;
  citations: 'footnotes' | 'list';
  template?: string | undefined;
  layout?: ExportLayout | undefined;
  refuseBroken: boolean;
  refuseUnsafe: boolean;
  cache?: string | undefined;
  lang?: string | undefined;
  workspace: string;
  saveFolder: string;
  imageBaseUrl?: string | undefined;
  browser?: string | undefined;
  timeoutMs: number;
}

function exportArgs(line: CommandLine, cwd: string, words: Words): Args {
  const o = optionsOf(line, OPTIONS, words);
  const positionals = line.positionals.slice(1);
  if (o.to !== undefined && !(EXPORT_FORMATS as readonly string[]).includes(o.to))
    throw new UsageError(words.t('--to must be docx, wechat, html or pdf, not "{0}"', o.to));
  const citations = o.citations ?? 'footnotes';
  if (citations !== 'footnotes' && citations !== 'list')
    throw new UsageError(words.t('--citations must be footnotes or list, not "{0}"', citations));
  if (o.layout !== undefined && !(EXPORT_LAYOUTS as readonly string[]).includes(o.layout))
    throw new UsageError(words.t('--layout must be standard or official, not "{0}"', o.layout));
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? words.t('one bulletin at a time') : words.t('which bulletin?'));
  if (o.to === undefined) throw new UsageError(words.t('--to is required'));
  return {
    file: positionals[0]!,
    to: o.to as ExportFormat,
    output: o.output,
    force: o.force === true,
    citations,
    template: o.template,
    layout: o.layout as ExportLayout | undefined,
    refuseBroken: o['refuse-broken'] === true,
    refuseUnsafe: o['refuse-unsafe'] === true,
    cache: o.cache,
    lang: o.lang,
    workspace: resolve(cwd, o.workspace ?? '.'),
    saveFolder: o['save-folder'] ?? 'images/recognition',
    imageBaseUrl: o['image-base-url']?.replace(/\/+$/, ''),
    browser: o.browser,
    timeoutMs: o.timeout === undefined ? PDF_TIMEOUT_MS : timeoutMs(o.timeout, words),
  };
}

/** Runs `shunong export`; resolves to the exit code. `now` is the clock (today in Beijing, the file's time). */
export async function runExport(
  line: CommandLine,
  io: CliIo,
  env: CliEnv,
  now: () => number,
  cwd = process.cwd(),
): Promise<number> {
  const ui = cliLang(env);
  const words = wordsOf(ui);
  if (line.help) {
    io.stdout(`${exportUsage(words)}\n`);
    return 0;
  }
  let args: Args;
  try {
    args = exportArgs(line, cwd, words);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`shunong export: ${e.message}\n${exportUsage(words)}\n`);
    return 2;
  }
  const file = resolve(cwd, args.file);
  const read = await readTextFile(file, words);
  if ('error' in read) {
    io.stderr(`shunong export: ${words.t('cannot read {0}: {1}', args.file, read.error)}\n`);
    // Bytes that are no text it knows are refused like a usage error: nothing is written from them.
    return read.undecodable ? 2 : 1;
  }
  tellEncoding(io, args.file, read.encoding, words);
  const text = read.text;
  const unsafe = await unsafeFindings(args, text, { io, ui, now, cwd });
  if (unsafe === undefined) return 2;
  if ((unsafe.bans > 0 || unsafe.doses > 0) && args.refuseUnsafe) {
    if (unsafe.bans > 0)
      io.stderr(
        `shunong export: ${words.t('refused: {0} banned pesticide mention(s) (--refuse-unsafe)', unsafe.bans)}\n`,
      );
    if (unsafe.doses > 0)
      io.stderr(`shunong export: ${words.t('refused: {0} wrong dose(s) (--refuse-unsafe)', unsafe.doses)}\n`);
    return 1;
  }
  let template: Uint8Array | undefined;
  if (args.template && args.to === 'docx') {
    try {
      template = new Uint8Array(await readFile(resolve(cwd, args.template)));
    } catch (err) {
      io.stderr(`shunong export: ${words.t('cannot read the template {0}: {1}', args.template, errorCode(err))}\n`);
      return 1;
    }
  }
  const print = args.to === 'pdf' ? printer(args, io, words) : undefined;
  if (print === null) return 1;
  const setting = args.lang === undefined ? 'auto' : langTag(langOf(args.lang));
  const bases: Record<ImageCandidate['base'], string> = {
    document: dirname(file),
    workspace: args.workspace,
    saveFolder: resolve(args.workspace, args.saveFolder),
  };
  const out = args.output ? resolve(cwd, args.output) : outputName(file, args.to);
  const outcome = await exportBulletin({
    text,
    format: args.to,
    lang: insertLanguage(setting, text, ui),
    citations: args.citations,
    refuseBrokenCitations: args.refuseBroken,
    ...(template ? { template } : {}),
    ...(args.layout ? { layout: args.layout } : {}),
    ...(print ? { print } : {}),
    now: new Date(now()),
    ...(args.to === 'wechat'
      ? {
          picturePrefix: picturePrefix(basename(out)),
          ...(args.imageBaseUrl ? { imageBaseUrl: args.imageBaseUrl } : {}),
        }
      : {}),
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
      for (const p of outcome.broken) io.stderr(`${findingLine(problemFinding(args.file, p, words))}\n`);
      io.stderr(
        `shunong export: ${words.t('refused: {0} broken citation(s) (--refuse-broken)', outcome.broken.length)}\n`,
      );
    } else if (outcome.reason === 'pdf')
      io.stderr(
        `shunong export: ${words.t('the browser could not print the PDF: {0}', pdfFailureText(outcome.failure, words))}\n`,
      );
    else
      io.stderr(
        `shunong export: ${words.t('the template {0} cannot be used: {1}', args.template ?? '', templateProblemText(outcome.error, outcome.where, words))}\n`,
      );
    return 1;
  }
  for (const w of outcome.warnings)
    io.stderr(`${args.file}: ${warningText(w, words, (p) => problemMessageIn(p, words))}\n`);
  // The article, then its pictures beside it in order (to upload in WeChat's editor, or to the
  // station's host), as the editor's export writes them.
  const files = [
    { path: out, bytes: outcome.bytes },
    ...(outcome.pictures ?? []).map((p) => ({ path: join(dirname(out), p.name), bytes: p.bytes })),
  ];
  // Nothing is written when one of the files is there already (without --force): no article without its pictures.
  const taken = args.force ? undefined : files.find((f) => existsSync(f.path));
  if (taken) {
    io.stderr(`shunong export: ${words.t('{0} exists; give --force to overwrite it', taken.path)}\n`);
    return 1;
  }
  for (const f of files) if (!(await written(f.path, f.bytes, args.force, io, words))) return 1;
  for (const f of files) io.stdout(`${f.path}\n`);
  return 0;
}

/** The PDF's printer: the browser of `--browser`, else the one found on this machine; null (said on stderr) when there is none. */
function printer(args: Args, io: CliIo, words: Words): ((page: string) => Promise<PrintResult>) | null {
  const search = findBrowserHere(args.browser);
  if (search.found) {
    const browser = search.found;
    return (page) => printToPdf(page, { browser, timeoutMs: args.timeoutMs });
  }
  io.stderr(
    `shunong export: ${
      search.setting
        ? words.t('no browser at {0} (--browser)', search.setting)
        : words.t(
            'no browser to print the PDF was found on this machine: install Microsoft Edge, Google Chrome or Chromium, or name one with --browser; or export to Word with --to docx',
          )
    }\n`,
  );
  return null;
}

/** Writes a file (its folder made), refusing to overwrite unless `force`; false (said on stderr) when it could not. */
async function written(path: string, bytes: Uint8Array, force: boolean, io: CliIo, words: Words): Promise<boolean> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes, { flag: force ? 'w' : 'wx' });
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    io.stderr(
      `shunong export: ${
        code === 'EEXIST'
          ? words.t('{0} exists; give --force to overwrite it', path)
          : words.t('cannot write {0}: {1}', path, code ?? String(err))
      }\n`,
    );
    return false;
  }
}

/**
 * Lists on stderr what must not reach farmers unseen: the bans in force on the bulletin's date and
 * the wrong doses (`dose-mismatch` against the passages of `--cache`, `dose-arithmetic`), but those
 * a comment silences. Resolves to how many of each, or undefined when the cache file cannot be used
 * (said).
 */
async function unsafeFindings(
  args: Args,
  text: string,
  { io, ui, now, cwd }: { io: CliIo; ui: Lang; now: () => number; cwd: string },
): Promise<{ bans: number; doses: number } | undefined> {
  const passages =
    args.cache === undefined
      ? new CitationCache()
      : (await loadCache('export', args.cache, io, wordsOf(ui), resolve(cwd, args.cache)))?.passages;
  if (!passages) return undefined;
  const rules = shippedRules();
  const today = beijingDate(now());
  // A finding silenced by a comment on the line before is the author's decision: neither listed nor refused.
  const bans = partitionSilenced(lintSafety(text, rules, { today }), text).active.filter((f) => f.severity === 'error');
  const doses = wrongDoses(text, rules, passages, today);
  const lines = new LineIndex(text);
  for (const f of bans) io.stderr(`${findingLine(safetyFinding(args.file, f, lines, { rules, lang: ui }))}\n`);
  for (const f of doses) io.stderr(`${findingLine(doseFinding(args.file, f, lines, ui))}\n`);
  return { bans: bans.length, doses: doses.length };
}

/** The wrong doses of a bulletin, but those silenced. */
function wrongDoses(text: string, rules: RuleSet, passages: CitationCache, today: string): DoseFinding[] {
  const date = bulletinDate(text, today).date;
  return checkDoses(text, { rules, lookup: passageLookup(passages), date }).filter(
    (f) => !f.silenced && DOSE_PROBLEMS.has(f.code),
  );
}
