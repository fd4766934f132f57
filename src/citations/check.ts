/**
 * The offline citation check of bulletins (`shunong check <files…>`), for content teams' CI.
 *
 * Every checker's findings become {@link CheckFinding}s: the citation problems and the pesticide
 * safety findings (src/safety) of each bulletin, in document order, files in the order given. They
 * reach stdout as one line each (the default) or as one document of the whole report (the caller's
 * `document`: JSON, SARIF). A line reads `file:line:col [^label] message` for a citation problem
 * (1-based line and column, column in UTF-16 characters as editors count them; the ` [^label]` part
 * omitted when the problem has no footnote label, as for an inline `〔…〕` citation) and
 * `file:line:col severity [rule-id] message` for a safety finding: a ban in force (`error`) is a
 * problem, a scope ban where no crop is named (`warning`) and a coming ban or restricted use
 * (`information`) are notes, which do not change the exit code. A finding silenced by a
 * `<!-- shunong-disable-next-line … -->` comment (src/safety/silence.ts) is listed as `silenced` and
 * counts as neither. A forecast (front matter `type: forecast`, 预报, 病虫情报, 警报) that does not
 * state a part the 2021 forecast rules require gets a `warning` on its `type:` line for each, read as
 * a safety finding (`file:line:col warning [forecast-missing-area] message`) and counted as a note;
 * so is a front matter line YAML cannot read or refuses (`bulletin/front-matter`, src/bulletin/frontMatter.ts).
 * A one-line summary goes to stderr. The messages are in the check's language
 * (the l10n bundle's words); the severities and `silenced` are keywords, the same in every language.
 * The bulletins are read by the caller's reader, so this module touches no file.
 */
import { bulletinDate } from '../bulletin/date';
import {
  checkDoses,
  DOSE_PROBLEMS,
  doseMessage,
  type DoseCode,
  type DoseFinding,
  type PassageText,
} from '../safety/index';
import {
  DATE_RULE,
  findingMessage,
  forecastMessage,
  frontMatter,
  frontMatterMessage,
  FRONT_MATTER_RULE,
  lintSafety,
  missingForecastParts,
  partitionSilenced,
  type ForecastPart,
  type FrontMatterProblem,
  type MissingForecastPart,
  type RuleSet,
  type SafetyFinding,
  type SafetyRule,
  unreadableDateMessage,
} from '../safety/index';
import { wordsOf, type Lang, type Words } from '../text/words';
import { analyzeDocument } from './analyze';
import type { DocumentModel, Problem } from './model';
import { LineIndex } from './positions';
import { citationRuleId, problemMessageIn, type CitationFindingKind } from './problemText';
import type { VerifyStatus } from './verifyCache';

/** Where the check writes. */
export interface CheckIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

/** Reads a bulletin: its text, or why it cannot be read (`ENOENT`, …). */
export type ReadBulletin = (file: string) => Promise<{ text: string } | { error: string }>;

/** The safety lint a check runs beside the citations': the rules in force, and today in Beijing (YYYY-MM-DD). */
export interface SafetyCheck {
  rules: RuleSet;
  today: string;
}

/**
 * One finding of a check, as every output format reports it. Lines and columns are 1-based, columns
 * in UTF-16 code units; the end (`endLine`, `endColumn`) is exclusive, as in SARIF.
 */
export interface CheckFinding {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Every citation finding but an unverified source is an error: it counts as a problem. */
  severity: 'error' | 'warning' | 'information';
  /**
   * The safety rule's id (`carbofuran-736`), the citation rule's (`citations/undefined-reference`),
   * or the forecast part's (`forecast-missing-area`).
   */
  rule: string;
  source: 'citations' | 'safety' | 'forecast' | 'dose';
  message: string;
  /** A citation finding's footnote label (the line format's ` [^label]`). */
  label?: string | undefined;
  /** Silenced by a comment on the line before: listed, counted as neither a problem nor a note. */
  silenced?: true | undefined;
  /** The kind of a citation finding, or the safety rule of a safety finding (the formats describe their rules by it). */
  kind:
    | { citation: CitationFindingKind }
    | { safety: SafetyRule }
    | { date: string }
    | { forecast: ForecastPart }
    | { frontMatter: FrontMatterProblem['kind'] }
    | { dose: DoseCode };
  /** UTF-16 offset in its file: the order of a file's findings. */
  offset: number;
}

/** One file given to the check: read, or why not. */
export interface CheckedFile {
  file: string;
  error?: string | undefined;
}

/** What the online check adds to a report: the sources looked up, by outcome, and the requests made. */
export interface OnlineSummary {
  sources: number;
  outcomes: Partial<Record<VerifyStatus, number>>;
  requests: number;
}

/** What a check found, for the output formats. */
export interface CheckReport {
  files: CheckedFile[];
  /** Files in the order given, each in document order. */
  findings: CheckFinding[];
  problems: number;
  notes: number;
  silenced: number;
  filesWithProblems: number;
  online?: OnlineSummary | undefined;
  /** The language of the messages. */
  lang: Lang;
  /** The rules the safety findings were judged by (their crops' English names). */
  rules: RuleSet;
}

/** How a check reports: in which language, and where the whole report goes as one document. */
export interface CheckOptions {
  safety: SafetyCheck;
  lang: Lang;
  /** The whole report as one document on stdout (JSON, SARIF); without it, one line per finding. */
  document?: ((report: CheckReport) => string) | undefined;
  /** The cited passages at hand (`doc#idx` → its text), for the dose check; none: each is not at hand. */
  passageText?: ((citation: string) => PassageText | undefined) | undefined;
}

/** One finding as a line of the default format (without line break). */
export function findingLine(f: CheckFinding): string {
  const at = `${f.file}:${f.line}:${f.column}`;
  if (f.source !== 'citations') return `${at} ${f.silenced ? 'silenced' : f.severity} [${f.rule}] ${f.message}`;
  return `${at}${f.label !== undefined ? ` [^${f.label}]` : ''} ${f.message}`;
}

/** A report with nothing in it yet, in the check's language. */
export function emptyReport(options: Pick<CheckOptions, 'safety' | 'lang'>): CheckReport {
  return {
    files: [],
    findings: [],
    problems: 0,
    notes: 0,
    silenced: 0,
    filesWithProblems: 0,
    lang: options.lang,
    rules: options.safety.rules,
  };
}

/** A citation problem as a finding. */
export function problemFinding(file: string, p: Problem, words: Words): CheckFinding {
  const r = p.range;
  return {
    file,
    line: r.line + 1,
    column: r.character + 1,
    endLine: r.endLine + 1,
    endColumn: r.endCharacter + 1,
    severity: 'error',
    rule: citationRuleId(p.code),
    source: 'citations',
    message: problemMessageIn(p, words),
    label: p.label,
    kind: { citation: p.code },
    offset: r.start,
  };
}

/** A safety finding as a finding; `lines` is its text's line index (for where it ends). */
export function safetyFinding(
  file: string,
  f: SafetyFinding,
  lines: LineIndex,
  options: { rules: RuleSet; lang: Lang; silenced?: boolean },
): CheckFinding {
  const end = lines.positionAt(f.offset + f.length);
  return {
    file,
    line: f.line + 1,
    column: f.character + 1,
    endLine: end.line + 1,
    endColumn: end.character + 1,
    severity: f.severity,
    rule: f.rule.id,
    source: 'safety',
    message: findingMessage(f, options.lang, options.rules),
    ...(options.silenced ? { silenced: true as const } : {}),
    kind: { safety: f.rule },
    offset: f.offset,
  };
}

/** A front matter `date:` that is not a calendar day, as a note on its line (the rules were applied on today's date). */
function dateFinding(
  file: string,
  text: string,
  options: Pick<CheckOptions, 'safety' | 'lang'>,
): CheckFinding | undefined {
  const { date, unreadable } = bulletinDate(text, options.safety.today);
  if (!unreadable) return undefined;
  const offset = new LineIndex(text).offsetAt(unreadable);
  return {
    file,
    line: unreadable.line + 1,
    column: unreadable.character + 1,
    endLine: unreadable.line + 1,
    endColumn: unreadable.character + 1 + unreadable.value.length,
    severity: 'warning',
    rule: DATE_RULE,
    source: 'safety',
    message: unreadableDateMessage(unreadable.value, date, options.lang),
    kind: { date },
    offset,
  };
}

/** The front matter lines a YAML reader finds wrong, each as a note on its line (what was read, and what not). */
function frontMatterFindings(file: string, text: string, lang: Lang): CheckFinding[] {
  const lines = new LineIndex(text);
  return frontMatter(text).problems.map((p) => ({
    file,
    line: p.line + 1,
    column: p.character + 1,
    endLine: p.line + 1,
    endColumn: p.character + 1,
    severity: 'warning',
    rule: FRONT_MATTER_RULE,
    source: 'safety',
    message: frontMatterMessage(p, lang),
    kind: { frontMatter: p.kind },
    offset: lines.offsetAt(p),
  }));
}

/** A part a forecast does not state, as a warning on its front matter's `type:` line. */
export function forecastFinding(file: string, m: MissingForecastPart, lang: Lang): CheckFinding {
  return {
    file,
    line: m.line + 1,
    column: m.character + 1,
    endLine: m.line + 1,
    endColumn: m.character + 1 + m.length,
    severity: 'warning',
    rule: m.code,
    source: 'forecast',
    message: forecastMessage(m.part, lang),
    kind: { forecast: m.part },
    offset: m.offset,
  };
}

/** A dose finding as a finding: a mismatch, an arithmetic error or an unsupported fact a warning, the rest information. */
export function doseFinding(file: string, f: DoseFinding, lines: LineIndex, lang: Lang): CheckFinding {
  const end = lines.positionAt(f.offset + f.length);
  const warning = DOSE_PROBLEMS.has(f.code) || f.code === 'dose-unsupported';
  return {
    file,
    line: f.line + 1,
    column: f.character + 1,
    endLine: end.line + 1,
    endColumn: end.character + 1,
    severity: warning ? 'warning' : 'information',
    rule: f.code,
    source: 'dose',
    message: doseMessage(f, lang),
    ...(f.silenced ? { silenced: true as const } : {}),
    kind: { dose: f.code },
    offset: f.offset,
  };
}

/** The dose findings of one bulletin (`date`: the bulletin's), with how many are problems, notes and silenced. */
export function reportDoses(
  file: string,
  text: string,
  date: string,
  options: Pick<CheckOptions, 'safety' | 'lang' | 'passageText'>,
): BulletinReport {
  const lookup = options.passageText ?? (() => undefined);
  const found = checkDoses(text, { rules: options.safety.rules, lookup, date });
  const lines = new LineIndex(text);
  const active = found.filter((f) => !f.silenced);
  const problems = active.filter((f) => DOSE_PROBLEMS.has(f.code)).length;
  return {
    findings: found.map((f) => doseFinding(file, f, lines, options.lang)),
    problems,
    notes: active.length - problems,
    silenced: found.length - active.length,
  };
}

/** What a check reports of one bulletin: its findings in document order, how many are problems, notes, silenced. */
export interface BulletinReport {
  findings: CheckFinding[];
  problems: number;
  notes: number;
  silenced: number;
}

/**
 * The citation problems, safety findings and a forecast's missing parts of one bulletin (`model` is
 * its citation analysis), a safety finding its comments silence among them, marked so.
 */
export function reportBulletin(
  file: string,
  text: string,
  model: DocumentModel,
  options: Pick<CheckOptions, 'safety' | 'lang' | 'passageText'> & { skipDoses?: boolean },
): BulletinReport {
  const { rules, today } = options.safety;
  const { active, silenced } = partitionSilenced(lintSafety(text, rules, { today }), text);
  const bans = active.filter((f) => f.severity === 'error').length;
  const lines = new LineIndex(text);
  const words = wordsOf(options.lang);
  const date = dateFinding(file, text, options);
  const forecast = missingForecastParts(text, rules, { today }).map((m) => forecastFinding(file, m, options.lang));
  const yaml = frontMatterFindings(file, text, options.lang);
  const doses = options.skipDoses ? undefined : reportDoses(file, text, bulletinDate(text, today).date, options);
  const findings = [
    ...yaml,
    ...(date ? [date] : []),
    ...forecast,
    ...model.problems.map((p) => problemFinding(file, p, words)),
    ...active.map((f) => safetyFinding(file, f, lines, { rules, lang: options.lang })),
    ...silenced.map((f) => safetyFinding(file, f, lines, { rules, lang: options.lang, silenced: true })),
    ...(doses?.findings ?? []),
  ].sort((a, b) => a.offset - b.offset);
  return {
    findings,
    problems: model.problems.length + bans + (doses?.problems ?? 0),
    notes: active.length - bans + (date ? 1 : 0) + forecast.length + yaml.length + (doses?.notes ?? 0),
    silenced: silenced.length + (doses?.silenced ?? 0),
  };
}

/** `{0} problem` or `{0} problems`, in words. */
export function problemsText(n: number, words: Words): string {
  return n === 1 ? words.t('{0} problem', n) : words.t('{0} problems', n);
}

/** The `; 2 notes` and `; 1 silenced` tail of a summary ('' for none). */
export function notesText(notes: number, silenced: number, words: Words): string {
  let tail = '';
  if (notes > 0) tail += words.t('; {0}', notes === 1 ? words.t('{0} note', notes) : words.t('{0} notes', notes));
  if (silenced > 0) tail += words.t('; {0}', words.t('{0} silenced', silenced));
  return tail;
}

/** The summary line of an offline check (without `shunong check: ` and line break), or undefined when there is nothing to say. */
function summaryText(r: CheckReport, words: Words): string | undefined {
  const tail = notesText(r.notes, r.silenced, words);
  if (r.problems > 0) {
    const files = r.files.length === 1 ? words.t('{0} file', 1) : words.t('{0} files', r.files.length);
    return words.t('{0} in {1} of {2}', problemsText(r.problems, words), r.filesWithProblems, files) + tail;
  }
  return tail ? words.t('no problems') + tail : undefined;
}

/**
 * Checks the given bulletins; resolves to the exit code: 0 clean, 1 problems found, 2 a file
 * could not be read (the readable ones are still checked and reported).
 */
export async function checkBulletins(
  files: readonly string[],
  read: ReadBulletin,
  io: CheckIo,
  options: CheckOptions,
): Promise<number> {
  const words = wordsOf(options.lang);
  const report = emptyReport(options);
  for (const file of files) {
    const got = await read(file);
    if ('error' in got) {
      io.stderr(`shunong check: ${words.t('cannot read {0}: {1}', file, got.error)}\n`);
      report.files.push({ file, error: got.error });
      continue;
    }
    report.files.push({ file });
    const one = reportBulletin(file, got.text, analyzeDocument(got.text), options);
    if (one.problems > 0) report.filesWithProblems++;
    report.problems += one.problems;
    report.notes += one.notes;
    report.silenced += one.silenced;
    report.findings.push(...one.findings);
    // The lines of a file go out as soon as it is checked.
    if (!options.document) for (const f of one.findings) io.stdout(`${findingLine(f)}\n`);
  }
  if (options.document) io.stdout(options.document(report));
  const summary = summaryText(report, words);
  if (summary !== undefined) io.stderr(`shunong check: ${summary}\n`);
  if (report.files.some((f) => f.error !== undefined)) return 2;
  return report.problems > 0 ? 1 : 0;
}
