/**
 * The pesticide rules in force and the checks every feature makes with them: the Problems of the
 * safety feature, the warning before an insertion brings a banned pesticide into a bulletin, the
 * marks on search results. The core (`dist/safety.js`, with zod) loads on first use, never at
 * activation; the safety feature sets the station's rules here when its file is read.
 */
import vscode = require('vscode');
import { loadSafety, type SafetyLib } from '../../bundles';
import type { RuleSet, SafetyFinding, SafetyRule } from '../../safety/types';
import { beijingDate } from '../../time/beijing';
import { realScheduler, type Scheduler } from '../../time/scheduler';
import { uiLanguage } from './language';

/** The rules in force and the lint, shared by the features. */
export class SafetyService implements vscode.Disposable {
  private coreValue: SafetyLib | undefined;
  private rulesValue: RuleSet | undefined;
  private readonly changed = new vscode.EventEmitter<RuleSet>();
  /** Fires when the rules in force change (the station's file was read). */
  readonly onDidChangeRules = this.changed.event;

  constructor(
    private readonly load: () => SafetyLib = loadSafety,
    private readonly clock: Pick<Scheduler, 'now'> = realScheduler,
  ) {}

  /** The pure core, loaded once. */
  get core(): SafetyLib {
    return (this.coreValue ??= this.load());
  }

  /** The rules in force: the shipped ones until the station's file is read. */
  get rules(): RuleSet {
    return (this.rulesValue ??= this.core.shippedRules());
  }

  setRules(rules: RuleSet): void {
    this.rulesValue = rules;
    this.changed.fire(rules);
  }

  /** Today in Beijing, the date of a bulletin that gives none. */
  today(): string {
    return beijingDate(this.clock.now());
  }

  /** A finding's message in the UI language. */
  message(f: SafetyFinding): string {
    return this.core.findingMessage(f, uiLanguage(), this.rules);
  }

  /** A rule's substance, scope, announcement and note in the UI language. */
  describe(rule: SafetyRule): { substance: string; scope: string; announcement: string; note: string | undefined } {
    const lang = uiLanguage();
    return {
      substance: this.core.substanceIn(rule, lang),
      scope: this.core.scopeIn(rule, lang, this.rules),
      // In English the ministry's own title follows its number, so the announcement can be looked up.
      announcement: ((en) => (en === rule.announcement ? en : `${en} (${rule.announcement})`))(
        this.core.announcementIn(rule.announcement, lang),
      ),
      note: this.core.noteIn(rule, lang),
    };
  }

  /** The bans in force (severity error) in a text, but those a `shunong-disable-next-line` comment silences. */
  bans(text: string): SafetyFinding[] {
    const found = this.core.lintSafety(text, this.rules, { today: this.today() });
    return this.core.partitionSilenced(found, text).active.filter((f) => f.severity === 'error');
  }

  /**
   * The bans an edit would bring into a bulletin: those of the text after it that the text before it
   * does not have as often (by rule and mention), so an author's own earlier finding does not count twice.
   */
  newBans(before: string, after: string): SafetyFinding[] {
    const key = (f: SafetyFinding): string => `${f.rule.id}\u0000${f.mention}`;
    const had = new Map<string, number>();
    for (const f of this.bans(before)) had.set(key(f), (had.get(key(f)) ?? 0) + 1);
    return this.bans(after).filter((f) => {
      const n = had.get(key(f)) ?? 0;
      if (n > 0) had.set(key(f), n - 1);
      return n === 0;
    });
  }

  /**
   * Asks before an insertion that brings banned pesticides in; resolves true to go on (nothing to
   * ask, or "Insert Anyway"). The author decides: the passage may be quoted to be refuted.
   */
  async confirmInsertion(before: string, after: string): Promise<boolean> {
    const found = this.newBans(before, after);
    if (found.length === 0) return true;
    const anyway = vscode.l10n.t('Insert Anyway');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('This passage recommends a banned pesticide. Insert it anyway?'),
      { modal: true, detail: found.map((f) => this.message(f)).join('\n') },
      anyway,
    );
    return choice === anyway;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
