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
import { realScheduler, type Scheduler, type Timer } from '../../time/scheduler';
import { isMisdecodedDocument } from '../shared/decoding';
import { uiLanguage } from '../shared/language';
import type { SafetyService } from '../shared/safety';

/** Problems wait this long after the last change of a document, as the safety and citation ones do. */
export const DEBOUNCE_MS = 400;

export const FORECAST_SOURCE = 'shunong-forecast';

/** The missing parts of the Markdown documents that are forecasts. */
export class ForecastDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(FORECAST_SOURCE);
  private readonly timers = new Map<string, Timer>();
  private readonly rulesChanged: vscode.Disposable;

  constructor(
    private readonly safety: SafetyService,
    private readonly clock: Pick<Scheduler, 'setTimer'> = realScheduler,
  ) {
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
  schedule(doc: vscode.TextDocument, delayMs = DEBOUNCE_MS): void {
    const key = doc.uri.toString();
    this.timers.get(key)?.dispose();
    const version = doc.version;
    this.timers.set(
      key,
      this.clock.setTimer(delayMs, () => {
        this.timers.delete(key);
        if (!doc.isClosed && doc.version === version) this.refresh(doc);
      }),
    );
  }

  /** Keeps the Problems in step with opening, typing and closing. */
  watch(): vscode.Disposable[] {
    const markdown = (d: vscode.TextDocument): boolean => d.languageId === 'markdown';
    return [
      vscode.workspace.onDidOpenTextDocument((d) => markdown(d) && this.schedule(d)),
      vscode.workspace.onDidChangeTextDocument(
        (e) => markdown(e.document) && e.contentChanges.length > 0 && this.schedule(e.document),
      ),
      vscode.workspace.onDidCloseTextDocument((d) => this.closed(d)),
    ];
  }

  /** A closed document: its pending check is dropped; an untitled one's Problems go. */
  closed(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    this.timers.get(key)?.dispose();
    this.timers.delete(key);
    if (doc.isUntitled) this.collection.delete(doc.uri);
  }

  dispose(): void {
    this.rulesChanged.dispose();
    for (const t of this.timers.values()) t.dispose();
    this.collection.dispose();
  }
}
