/**
 * A forecast's missing parts in the Problems panel (source `shunong-forecast`, code
 * `forecast-missing-<part>`, a warning each on the front matter's `type:` line), checked as the
 * author types, debounced like the safety and citation diagnostics on an injected scheduler. The
 * check is the safety core's (src/safety/forecast.ts, in `dist/safety.js`), reached through the
 * shared SafetyService with the rules in force; a document without a `type:` is not a forecast and
 * never asks the core.
 */
import vscode = require('vscode');
import { frontMatter } from '../../bulletin/frontMatter';
import type { MissingForecastPart } from '../../safety/forecast';
import { realScheduler, type Scheduler } from '../../time/scheduler';
import { isMisdecodedDocument } from '../shared/decoding';
import { uiLanguage } from '../shared/language';
import { MarkdownDebounce } from '../shared/markdownDebounce';
import type { SafetyService } from '../shared/safety';

export const FORECAST_SOURCE = 'shunong-forecast';

/** The missing parts of the Markdown documents that are forecasts. */
export class ForecastDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(FORECAST_SOURCE);
  private readonly rulesChanged: vscode.Disposable;
  private readonly debounce: MarkdownDebounce;

  constructor(
    private readonly safety: SafetyService,
    clock: Pick<Scheduler, 'setTimer'> = realScheduler,
  ) {
    this.debounce = new MarkdownDebounce(
      (doc) => this.refresh(doc),
      (doc) => this.closed(doc),
      clock,
    );
    // The rules' dictionary tells which pesticides a recommendation names: new rules, a new reading.
    this.rulesChanged = safety.onDidChangeRules(() => {
      for (const d of vscode.workspace.textDocuments) if (d.languageId === 'markdown') this.refresh(d);
    });
  }

  /**
   * Checks a document now and publishes its Problems. A document VS Code did not decode is not
   * checked (the safety Problems say so, and tell the author once).
   */
  refresh(doc: vscode.TextDocument): MissingForecastPart[] {
    const text = doc.languageId === 'markdown' && !isMisdecodedDocument(doc) ? doc.getText() : undefined;
    const missing =
      text !== undefined && frontMatter(text).fields['type'] !== undefined
        ? this.safety.core.missingForecastParts(text, this.safety.rules, { today: this.safety.today() })
        : [];
    if (missing.length === 0) this.collection.delete(doc.uri);
    else
      this.collection.set(
        doc.uri,
        missing.map((m) => this.toDiagnostic(doc, m)),
      );
    return missing;
  }

  /** The Problem of a missing part: a warning on the `type:` line, in the UI's language. */
  private toDiagnostic(doc: vscode.TextDocument, m: MissingForecastPart): vscode.Diagnostic {
    const range = new vscode.Range(doc.positionAt(m.offset), doc.positionAt(m.offset + m.length));
    const d = new vscode.Diagnostic(
      range,
      this.safety.core.forecastMessage(m.part, uiLanguage()),
      vscode.DiagnosticSeverity.Warning,
    );
    d.source = FORECAST_SOURCE;
    d.code = m.code;
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

  /** A closed document (its pending check already dropped): an untitled one's Problems go. */
  private closed(doc: vscode.TextDocument): void {
    if (doc.isUntitled) this.collection.delete(doc.uri);
  }

  dispose(): void {
    this.rulesChanged.dispose();
    this.debounce.dispose();
    this.collection.dispose();
  }
}
