/** The words of "Verify Citations" in the display language: outcomes, diagnostics and the run's summary. */
import vscode = require('vscode');
import type { VerifyOutcome, VerifyReport, VerifySource } from '../../citations/index';
import { showBidi } from '../../text/bidi';

/** Diagnostic codes of the source outcomes (the Problems panel shows them beside `shunong`). */
export const SOURCE_CODES = {
  changed: 'source-changed',
  'not-located': 'source-not-located',
  'unknown-kb': 'unknown-knowledge-base',
  unverified: 'source-unverified',
} as const;

/** At most `n` characters of a passage for a message, on one line. */
function excerpt(s: string, n = 160): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return showBidi(flat.length > n ? `${flat.slice(0, n)}…` : flat);
}

/** Where a source was looked for. */
function where(source: VerifySource): string {
  return source.kbCode ?? vscode.l10n.t('all knowledge bases');
}

/** The diagnostic message of a source that is not verified (undefined for a verified one). */
export function outcomeMessage(source: VerifySource, o: VerifyOutcome): string | undefined {
  const cite = showBidi(source.citation);
  switch (o.status) {
    case 'verified':
      return undefined;
    case 'changed':
      return vscode.l10n.t(
        'The passage {0} has changed on the platform since it was cited. Cached: "{1}" Now: "{2}"',
        cite,
        excerpt(o.cached),
        excerpt(o.passage.content),
      );
    case 'not-located':
      return vscode.l10n.t(
        'The passage {0} was not located in {1}: a search for the cited text (top 20, no threshold) did not return it. It may have been renamed or removed; a search cannot prove it does not exist.',
        cite,
        showBidi(where(source)),
      );
    case 'unknown-kb':
      return vscode.l10n.t(
        "The knowledge base {0} is not one of this account's ({1}); {2} could not be looked up there.",
        showBidi(o.kbCode),
        o.known.join(', '),
        cite,
      );
    case 'unverified':
      return vscode.l10n.t('{0} could not be verified: {1}', cite, o.message);
  }
}

/** The severity of an outcome's diagnostic. */
export function outcomeSeverity(o: VerifyOutcome): vscode.DiagnosticSeverity {
  switch (o.status) {
    case 'unknown-kb':
      return vscode.DiagnosticSeverity.Error;
    case 'unverified':
      return vscode.DiagnosticSeverity.Information;
    default:
      return vscode.DiagnosticSeverity.Warning;
  }
}

/** Counts of a report's outcomes. */
function countOutcomes(report: VerifyReport): Record<VerifyOutcome['status'], number> {
  const c = { verified: 0, changed: 0, 'not-located': 0, 'unknown-kb': 0, unverified: 0 };
  for (const r of report.results) c[r.outcome.status]++;
  return c;
}

/** The one-line summary of a run. */
export function summary(report: VerifyReport): string {
  const c = countOutcomes(report);
  const parts = [vscode.l10n.t('{0} of {1} sources verified', c.verified, report.results.length)];
  if (c.changed) parts.push(vscode.l10n.t('{0} changed', c.changed));
  if (c['not-located']) parts.push(vscode.l10n.t('{0} not located', c['not-located']));
  if (c['unknown-kb']) parts.push(vscode.l10n.t('{0} in an unknown knowledge base', c['unknown-kb']));
  if (c.unverified) parts.push(vscode.l10n.t('{0} left unverified', c.unverified));
  const requests =
    report.requests === 0
      ? vscode.l10n.t('nothing asked: all verified today')
      : report.requests === 1
        ? vscode.l10n.t('1 search')
        : vscode.l10n.t('{0} searches', report.requests);
  return `${parts.join(vscode.l10n.t(', '))} (${requests})`;
}
