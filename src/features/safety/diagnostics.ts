/**
 * The safety findings of Markdown bulletins in the Problems panel (source `shunong-safety`, code =
 * the rule's id), but those a `shunong-disable-next-line` comment silences, linted incrementally by
 * one linter per document and debounced while typing like the citation diagnostics; the timers come
 * from an injected scheduler so tests run on a virtual clock.
 */
import vscode = require('vscode');
import { MarkdownDebounce } from '../shared/markdownDebounce';
import type { SafetyLinter } from '../../safety/lint';
import type { SafetyFinding } from '../../safety/types';
import { realScheduler, type Scheduler } from '../../time/scheduler';
import {
  firstMisdecoded,
  forgetMisdecoded,
  isMisdecodedDocument,
  notDecodedMessage,
  tellMisdecoded,
} from '../shared/decoding';
import { uiLanguage } from '../shared/language';
import type { SafetyService } from '../shared/safety';

export const SAFETY_SOURCE = 'shunong-safety';

/** The code of the Problem on a document whose text was not decoded, so it was not linted. */
export const NOT_DECODED = 'not-decoded';

const SEVERITY: Record<SafetyFinding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

/** The findings and Problems of Markdown documents. */
export class SafetyDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(SAFETY_SOURCE);
  private readonly linters = new Map<string, SafetyLinter>();
  private readonly findings = new Map<string, { version: number; items: SafetyFinding[] }>();
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
    this.rulesChanged = safety.onDidChangeRules(() => this.relint());
  }

  /** New rules (the station file changed): every linter starts afresh and open bulletins are linted again. */
  private relint(): void {
    this.linters.clear();
    this.findings.clear();
    for (const d of vscode.workspace.textDocuments) if (d.languageId === 'markdown') this.refresh(d);
  }

  /** Lints a document now and publishes its diagnostics. */
  refresh(doc: vscode.TextDocument): SafetyFinding[] {
    const key = doc.uri.toString();
    if (doc.languageId !== 'markdown') {
      this.collection.delete(doc.uri);
      return [];
    }
    if (isMisdecodedDocument(doc)) return this.notDecoded(doc);
    let linter = this.linters.get(key);
    if (!linter) {
      linter = new this.safety.core.SafetyLinter(this.safety.rules);
      if (!doc.isClosed) this.linters.set(key, linter);
    }
    const text = doc.getText();
    // a finding silenced by a comment on the line before it is not a Problem (nor hovered, nor fixed)
    const items = this.safety.core.partitionSilenced(linter.lint(text, { today: this.safety.today() }), text).active;
    if (!doc.isClosed) this.findings.set(key, { version: doc.version, items });
    const date = this.dateDiagnostic(text);
    this.collection.set(doc.uri, [
      ...this.frontMatterDiagnostics(doc, text),
      ...(date ? [date] : []),
      ...items.map((f) => this.toDiagnostic(doc, f)),
    ]);
    return items;
  }

  /** The front matter lines YAML cannot read or refuses: a warning on each, saying what was read. */
  private frontMatterDiagnostics(doc: vscode.TextDocument, text: string): vscode.Diagnostic[] {
    const core = this.safety.core;
    return core.frontMatter(text).problems.map((p) => {
      const at = new vscode.Position(p.line, p.character);
      const d = new vscode.Diagnostic(
        new vscode.Range(at, doc.lineAt(p.line).range.end),
        core.frontMatterMessage(p, uiLanguage()),
        vscode.DiagnosticSeverity.Warning,
      );
      d.source = SAFETY_SOURCE;
      d.code = core.FRONT_MATTER_RULE;
      return d;
    });
  }

  /** A front matter `date:` that is not a day: a warning on it, saying the rules were applied on today's date. */
  private dateDiagnostic(text: string): vscode.Diagnostic | undefined {
    const core = this.safety.core;
    const { date, unreadable } = core.bulletinDate(text, this.safety.today());
    if (!unreadable) return undefined;
    const start = new vscode.Position(unreadable.line, unreadable.character);
    const d = new vscode.Diagnostic(
      new vscode.Range(start, start.translate(0, unreadable.value.length)),
      core.unreadableDateMessage(unreadable.value, date, uiLanguage()),
      vscode.DiagnosticSeverity.Warning,
    );
    d.source = SAFETY_SOURCE;
    d.code = core.DATE_RULE;
    return d;
  }

  /**
   * A document VS Code did not decode in its encoding is not linted: one Problem says so where the
   * first undecoded character is, and the author is told once with "Reopen with Encoding".
   */
  private notDecoded(doc: vscode.TextDocument): SafetyFinding[] {
    const d = new vscode.Diagnostic(
      firstMisdecoded(doc),
      notDecodedMessage(doc, 'check'),
      vscode.DiagnosticSeverity.Warning,
    );
    d.source = SAFETY_SOURCE;
    d.code = NOT_DECODED;
    this.collection.set(doc.uri, [d]);
    this.findings.delete(doc.uri.toString());
    void tellMisdecoded(doc);
    return [];
  }

  /** Schedules a lint after the debounce (or `delayMs`); a newer change cancels the pending one. */
  schedule(doc: vscode.TextDocument, delayMs?: number): void {
    this.debounce.schedule(doc, delayMs);
  }

  /** The findings of a document at its current version (linted now when none are published). */
  current(doc: vscode.TextDocument): SafetyFinding[] {
    const hit = this.findings.get(doc.uri.toString());
    return hit && hit.version === doc.version ? hit.items : this.refresh(doc);
  }

  /** The finding whose mention covers `pos`. */
  at(doc: vscode.TextDocument, pos: vscode.Position): SafetyFinding | undefined {
    const offset = doc.offsetAt(pos);
    return this.current(doc).find((f) => offset >= f.offset && offset < f.offset + f.length);
  }

  /** The diagnostic of a finding. */
  toDiagnostic(doc: vscode.TextDocument, f: SafetyFinding): vscode.Diagnostic {
    const range = new vscode.Range(doc.positionAt(f.offset), doc.positionAt(f.offset + f.length));
    const d = new vscode.Diagnostic(range, this.safety.message(f), SEVERITY[f.severity]);
    d.source = SAFETY_SOURCE;
    d.code = f.rule.id;
    return d;
  }

  /** Keeps the Problems in step with opening, typing and closing. */
  watch(): vscode.Disposable[] {
    return this.debounce.watch();
  }

  /** A closed document (its pending lint already dropped): its linter and findings are forgotten; an untitled one's Problems go. */
  private closed(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    this.linters.delete(key);
    this.findings.delete(key);
    forgetMisdecoded(doc);
    if (doc.isUntitled) this.collection.delete(doc.uri);
  }

  dispose(): void {
    this.rulesChanged.dispose();
    this.debounce.dispose();
    this.collection.dispose();
  }
}
