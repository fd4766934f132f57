/**
 * The dose check in the Problems panel (source `shunong-dose`): a cited dose, dilution, interval or
 * product that differs from its passage (`dose-mismatch`), a dilution that does not add up
 * (`dose-arithmetic`) and a fact the passage does not give (`dose-unsupported`) are warnings; a dose
 * recommended without a source (`source-needed`) and a cited passage not at hand
 * (`passage-not-at-hand`) are what `shunong.dose.sourceNeeded` says (a hint, a warning, or nothing).
 * The passages are the citation cache's (a changed one's current text, once verification found it
 * changed); a passage arriving in it re-checks the open bulletins. The
 * check is the safety core's (src/safety/doseCheck.ts, in `dist/safety.js`), debounced as the safety
 * Problems are. Silenced findings are not shown.
 */
import vscode = require('vscode');
import type { DoseChecker, DoseFinding } from '../../safety/doseCheck';
import { bulletinDate } from '../../bulletin/date';
import { realScheduler, type Scheduler } from '../../time/scheduler';
import type { CitationService } from '../shared/citationService';
import { isMisdecodedDocument } from '../shared/decoding';
import { uiLanguage } from '../shared/language';
import { MarkdownDebounce } from '../shared/markdownDebounce';
import type { SafetyService } from '../shared/safety';
import { settings } from '../shared/settings';
import type { SourceOutcomes } from '../shared/sourceOutcomes';
import type { WrongDose } from '../shared/doses';
import { passageLookup } from './passages';

export const DOSE_SOURCE = 'shunong-dose';

/** A Problem with the finding it tells of. */
export interface DoseDiagnostic {
  diagnostic: vscode.Diagnostic;
  finding: DoseFinding;
}

/** The codes whose severity the setting decides. */
const BY_SETTING: ReadonlySet<string> = new Set(['source-needed', 'passage-not-at-hand']);

/** The dose Problems of the open Markdown documents. */
export class DoseDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DOSE_SOURCE);
  private readonly found = new Map<string, DoseDiagnostic[]>();
  private readonly checkers = new Map<string, DoseChecker>();
  private readonly listeners: vscode.Disposable[];
  private readonly debounce: MarkdownDebounce;

  constructor(
    private readonly safety: SafetyService,
    private readonly citations: Pick<CitationService, 'cache' | 'onDidChange'>,
    private readonly outcomes?: Pick<SourceOutcomes, 'get' | 'onDidChange'>,
    clock: Pick<Scheduler, 'setTimer'> = realScheduler,
  ) {
    this.debounce = new MarkdownDebounce(
      (doc) => this.refresh(doc),
      (doc) => this.closed(doc),
      clock,
    );
    const all = (): void => {
      for (const d of vscode.workspace.textDocuments) if (d.languageId === 'markdown') this.schedule(d, 0);
    };
    this.listeners = [
      safety.onDidChangeRules(all),
      // A passage arriving in the cache re-checks the bulletins that may cite it.
      citations.onDidChange(all),
      // A verification that found a passage changed: the bulletin is compared with its current text.
      ...(outcomes ? [outcomes.onDidChange(all)] : []),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('shunong.dose') && all()),
    ];
  }

  /** Checks a document now and publishes its Problems. */
  refresh(doc: vscode.TextDocument): DoseDiagnostic[] {
    const text = doc.languageId === 'markdown' && !isMisdecodedDocument(doc) ? doc.getText() : undefined;
    const level = settings.dose(doc.uri).sourceNeeded;
    const findings =
      text === undefined || !/\d/.test(text)
        ? []
        : this.checkerOf(doc).check(text, {
            rules: this.safety.rules,
            lookup: passageLookup(text, this.citations.cache, this.outcomes),
            date: bulletinDate(text, this.safety.today()).date,
          });
    const shown = findings
      .filter((f) => !f.silenced && !(BY_SETTING.has(f.code) && level === 'off'))
      .map((finding) => ({ finding, diagnostic: this.toDiagnostic(doc, finding, level) }));
    this.found.set(doc.uri.toString(), shown);
    if (shown.length === 0) this.collection.delete(doc.uri);
    else
      this.collection.set(
        doc.uri,
        shown.map((s) => s.diagnostic),
      );
    return shown;
  }

  /** The document's checker, which keeps each block's findings: a keystroke re-checks its block. */
  private checkerOf(doc: vscode.TextDocument): DoseChecker {
    const key = doc.uri.toString();
    let c = this.checkers.get(key);
    if (!c) this.checkers.set(key, (c = new this.safety.core.DoseChecker()));
    return c;
  }

  /**
   * The wrong doses of a document, checked now (not silenced): each one's line and message, for the
   * export to ask about first.
   */
  wrongDoses(doc: vscode.TextDocument): WrongDose[] {
    return this.refresh(doc)
      .filter((d) => this.safety.core.DOSE_PROBLEMS.has(d.finding.code))
      .map((d) => ({ line: d.diagnostic.range.start.line, message: d.diagnostic.message }));
  }

  /** The Problems of a document and their findings, as last checked. */
  at(doc: vscode.TextDocument): readonly DoseDiagnostic[] {
    return this.found.get(doc.uri.toString()) ?? [];
  }

  private toDiagnostic(doc: vscode.TextDocument, f: DoseFinding, level: 'hint' | 'warning' | 'off'): vscode.Diagnostic {
    const range = new vscode.Range(doc.positionAt(f.offset), doc.positionAt(f.offset + f.length));
    const severity =
      BY_SETTING.has(f.code) && level === 'hint' ? vscode.DiagnosticSeverity.Hint : vscode.DiagnosticSeverity.Warning;
    const d = new vscode.Diagnostic(range, this.safety.core.doseMessage(f, uiLanguage()), severity);
    d.source = DOSE_SOURCE;
    d.code = f.code;
    return d;
  }

  /** Schedules a check after the debounce (or `delayMs`); a newer change cancels the pending one. */
  schedule(doc: vscode.TextDocument, delayMs?: number): void {
    this.debounce.schedule(doc, delayMs);
  }

  /** Keeps the Problems in step with opening, typing and closing. */
  watch(): vscode.Disposable[] {
    return this.debounce.watch();
  }

  private closed(doc: vscode.TextDocument): void {
    this.found.delete(doc.uri.toString());
    this.checkers.delete(doc.uri.toString());
    if (doc.isUntitled) this.collection.delete(doc.uri);
  }

  dispose(): void {
    for (const l of this.listeners) l.dispose();
    this.debounce.dispose();
    this.collection.dispose();
  }
}
