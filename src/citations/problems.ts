/**
 * Problems found by one analysis. Messages are English; `messageKey` + `args` let the extension
 * localise them (`{0}`-style placeholders, as `vscode.l10n.t` uses).
 */
import { citationKey } from './citation';
import type { CitationError, DocumentModel, Problem, ProblemCode } from './model';
import type { SourceRange } from './types';

/** The English templates, by message key. */
export const MESSAGES: Record<string, string> = {
  'citations.undefinedReference': 'Footnote [^{0}] has no definition.',
  'citations.unusedDefinition': 'Citation [^{0}] ({1}) is defined but never used.',
  'citations.duplicateSource': 'Citation [^{0}] cites the same source as [^{1}] ({2}).',
  'citations.malformedDefinition': 'Malformed citation "{0}" in [^{1}]: {2}',
  'citations.malformedInline': 'Malformed inline citation "{0}": {1}',
  'citations.duplicateLabel': 'Footnote [^{0}] is defined more than once; only the first definition counts.',
  'citations.gluedToUrl':
    // Stryker disable next-line StringLiteral: held by test/unit/extension/l10n.test.ts (the UI words each template the same), which Stryker cannot run: it reads src/ as written
    'Citation {0} follows a bare URL without a space: previews and GitHub read it as part of the link, and the footnote disappears.',
};

/** Fills `{0}`, `{1}`… in a template. */
export function formatMessage(key: string, args: readonly string[]): string {
  // Stryker disable next-line Regex: no message has ten placeholders or more
  return (MESSAGES[key] ?? key).replace(/\{(\d+)\}/g, (m, n: string) => args[Number(n)] ?? m);
}

function problem(
  code: ProblemCode,
  severity: Problem['severity'],
  messageKey: string,
  args: string[],
  range: SourceRange,
  label?: string,
  failure?: CitationError,
): Problem {
  return {
    code,
    severity,
    ...(label !== undefined ? { label } : {}),
    message: formatMessage(messageKey, args),
    messageKey,
    args,
    ...(failure !== undefined ? { failure } : {}),
    range,
  };
}

/** Every problem of a model, in document order. */
export function collectProblems(model: DocumentModel): Problem[] {
  const out: Problem[] = [];
  const used = new Set(model.references.map((r) => r.label));
  for (const r of model.references) {
    if (!r.defined)
      out.push(problem('undefined-reference', 'error', 'citations.undefinedReference', [r.label], r.range, r.label));
  }
  const firstByKey = new Map<string, string>();
  const sorted = [...model.definitions].filter((d) => !d.duplicateLabel).sort((a, b) => a.number - b.number);
  for (const d of sorted) {
    if (!d.citation) continue;
    const key = citationKey(d.citation);
    const first = firstByKey.get(key);
    if (first === undefined) firstByKey.set(key, d.label);
    else
      out.push(
        problem('duplicate-source', 'warning', 'citations.duplicateSource', [d.label, first, key], d.range, d.label),
      );
  }
  for (const d of model.definitions) {
    if (d.duplicateLabel) {
      out.push(problem('duplicate-label', 'error', 'citations.duplicateLabel', [d.label], d.range, d.label));
      continue;
    }
    if (d.error) {
      out.push(
        problem(
          'malformed-citation',
          'error',
          'citations.malformedDefinition',
          [d.citationRaw, d.label, d.error.message],
          d.citationRange,
          d.label,
          d.error,
        ),
      );
    }
    if (!used.has(d.label)) {
      out.push(
        problem(
          'unused-definition',
          'warning',
          'citations.unusedDefinition',
          [d.label, d.citationRaw],
          d.range,
          d.label,
        ),
      );
    }
  }
  for (const d of model.authorDefinitions) {
    if (d.duplicateLabel)
      out.push(problem('duplicate-label', 'error', 'citations.duplicateLabel', [d.label], d.range, d.label));
  }
  for (const c of [...model.references, ...model.inlineCitations]) {
    if (c.gluedToUrl) {
      const written = 'label' in c ? `[^${c.label}]` : `〔${c.raw}〕`;
      out.push(
        problem(
          'glued-to-url',
          'warning',
          'citations.gluedToUrl',
          [written],
          c.range,
          'label' in c ? c.label : undefined,
        ),
      );
    }
  }
  for (const c of model.inlineCitations) {
    if (c.error)
      out.push(
        problem(
          'malformed-citation',
          'error',
          'citations.malformedInline',
          [c.raw, c.error.message],
          c.range,
          undefined,
          c.error,
        ),
      );
  }
  // Stryker disable next-line ArithmeticOperator: problems that start together end together (one definition's, reference's or inline citation's range), and V8's sort weighs a later one against an earlier, so a positive tie keeps their order as a zero does
  return out.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
}
