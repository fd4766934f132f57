/**
 * The outcomes of "Verify Citations" in this window, by source key (`sourceKey` of
 * src/citations/verifySources.ts): the verify feature writes them, the citation hover reads them.
 * Unverified outcomes are kept here too (with their reason) until the next run.
 */
import vscode = require('vscode');
import type { VerifyOutcome } from '../../citations/verifyCache';

/** One source's last outcome and its Beijing date. */
export interface SourceOutcome {
  outcome: VerifyOutcome;
  date: string;
}

/** The outcomes by source key, with a change event. */
export class SourceOutcomes implements vscode.Disposable {
  private readonly map = new Map<string, SourceOutcome>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after outcomes were set. */
  readonly onDidChange = this.changed.event;

  /** The last outcome of a source, if it was looked up in this window. */
  get(key: string): SourceOutcome | undefined {
    return this.map.get(key);
  }

  /** Sets outcomes (one change event for all of them). */
  set(entries: Iterable<[string, SourceOutcome]>): void {
    for (const [k, v] of entries) this.map.set(k, v);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
