/**
 * `shunong check --format json|sarif`: the whole report of a check as one document on stdout, for a
 * station's CI. Every checker's findings are there (citations, pesticide safety and a forecast's
 * missing parts), each with its
 * file, 1-based line and column (UTF-16 code units, as the line format counts them) and exclusive
 * end, severity, rule and message (in the CLI's language).
 *
 * - `json`: our own document, `version` 1 (see {@link CheckJson}).
 * - `sarif`: SARIF 2.1.0, one run of the tool `shunong`, the rules used in `tool.driver.rules`, a
 *   silenced finding as a result with an `inSource` suppression. Levels: error → `error`, warning →
 *   `warning`, information → `note`.
 */
import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import type { CheckFinding, CheckReport } from '../citations/check';
import { citationRuleText } from '../citations/problemText';
import { doseRule } from '../safety/doseMessage';
import { forecastRule, frontMatterRule, noteIn, ruleSummary, unreadableDateRule } from '../safety/message';
import { langTag, wordsOf } from '../text/words';
import { CLI_VERSION } from './version';

/** The output formats of `shunong check`. */
export const CHECK_FORMATS = ['line', 'json', 'sarif'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/** One finding in the JSON document. */
export interface JsonFinding {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: CheckFinding['severity'];
  rule: string;
  source: CheckFinding['source'];
  message: string;
  /** A citation finding's footnote label. */
  label?: string;
  silenced: boolean;
}

/** The JSON document of `shunong check --format json`. */
export interface CheckJson {
  version: 1;
  tool: { name: 'shunong'; version: string };
  /** The language of the messages (`en`, `zh-CN`). */
  language: string;
  /** The files given, in order; one that could not be read with why. */
  files: { file: string; error?: string }[];
  findings: JsonFinding[];
  summary: {
    files: number;
    unreadable: number;
    filesWithProblems: number;
    /** Problems: citation problems and bans in force (not the silenced). */
    problems: number;
    /** Notes: warnings and information of the safety lint, a forecast's missing parts (not the silenced). */
    notes: number;
    silenced: number;
    /** With `--online`: the sources looked up, by outcome, and the requests sent. */
    sources?: number;
    outcomes?: Record<string, number>;
    requests?: number;
  };
}

/** The report as the JSON document (an object; {@link checkDocument} writes it). */
export function checkJson(r: CheckReport): CheckJson {
  return {
    version: 1,
    tool: { name: 'shunong', version: CLI_VERSION },
    language: langTag(r.lang),
    files: r.files.map((f) => (f.error === undefined ? { file: f.file } : { file: f.file, error: f.error })),
    findings: r.findings.map((f) => ({
      file: f.file,
      line: f.line,
      column: f.column,
      endLine: f.endLine,
      endColumn: f.endColumn,
      severity: f.severity,
      rule: f.rule,
      source: f.source,
      message: f.message,
      ...(f.label !== undefined ? { label: f.label } : {}),
      silenced: f.silenced === true,
    })),
    summary: {
      files: r.files.length,
      unreadable: r.files.filter((f) => f.error !== undefined).length,
      filesWithProblems: r.filesWithProblems,
      problems: r.problems,
      notes: r.notes,
      silenced: r.silenced,
      ...(r.online
        ? { sources: r.online.sources, outcomes: { ...r.online.outcomes }, requests: r.online.requests }
        : {}),
    },
  };
}

/** The SARIF `$schema`: the OASIS 2.1.0 schema with its errata. */
export const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

const LEVEL = { error: 'error', warning: 'warning', information: 'note' } as const;

/**
 * A file as an `artifactLocation.uri`: a relative path stays relative (each segment percent-encoded,
 * `/` between them), an absolute one becomes a `file:` URI.
 */
export function artifactUri(file: string): string {
  if (isAbsolute(file)) return pathToFileURL(file).href;
  const segments = sep === '\\' ? file.split(/[\\/]/) : file.split('/');
  return segments.map(encodeURIComponent).join('/');
}

/** The rule a finding is reported under, described in the report's language. */
function ruleOf(f: CheckFinding, r: CheckReport): ReportingDescriptor {
  if ('citation' in f.kind)
    return { id: f.rule, shortDescription: { text: citationRuleText(f.kind.citation, wordsOf(r.lang)) } };
  if ('date' in f.kind) return { id: f.rule, shortDescription: { text: unreadableDateRule(r.lang) } };
  if ('forecast' in f.kind) return { id: f.rule, shortDescription: { text: forecastRule(f.kind.forecast, r.lang) } };
  if ('frontMatter' in f.kind) return { id: f.rule, shortDescription: { text: frontMatterRule(r.lang) } };
  if ('dose' in f.kind) return { id: f.rule, shortDescription: { text: doseRule(f.kind.dose, r.lang) } };
  const note = noteIn(f.kind.safety, r.lang);
  return {
    id: f.rule,
    shortDescription: { text: ruleSummary(f.kind.safety, r.lang, r.rules) },
    ...(note ? { fullDescription: { text: note } } : {}),
  };
}

/** The report as a SARIF 2.1.0 log. */
export function checkSarif(r: CheckReport): Log {
  const rules: ReportingDescriptor[] = [];
  const index = new Map<string, number>();
  const results = r.findings.map((f): Result => {
    let i = index.get(f.rule);
    if (i === undefined) {
      index.set(f.rule, (i = rules.length));
      rules.push(ruleOf(f, r));
    }
    return {
      ruleId: f.rule,
      ruleIndex: i,
      level: LEVEL[f.severity],
      message: { text: f.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: artifactUri(f.file) },
            region: { startLine: f.line, startColumn: f.column, endLine: f.endLine, endColumn: f.endColumn },
          },
        },
      ],
      ...(f.silenced ? { suppressions: [{ kind: 'inSource' as const }] } : {}),
    };
  });
  const words = wordsOf(r.lang);
  const unreadable = r.files.filter((f) => f.error !== undefined);
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'shunong', version: CLI_VERSION, rules } },
        invocations: [
          {
            executionSuccessful: unreadable.length === 0,
            ...(unreadable.length
              ? {
                  toolExecutionNotifications: unreadable.map((f) => ({
                    level: 'error' as const,
                    message: { text: words.t('cannot read {0}: {1}', f.file, f.error ?? '') },
                    locations: [{ physicalLocation: { artifactLocation: { uri: artifactUri(f.file) } } }],
                  })),
                }
              : {}),
          },
        ],
        language: langTag(r.lang),
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

/** The report in a document format, as written to stdout (2-space JSON, a final line break). */
export function checkDocument(format: Exclude<CheckFormat, 'line'>, r: CheckReport): string {
  return `${JSON.stringify(format === 'json' ? checkJson(r) : checkSarif(r), null, 2)}\n`;
}
