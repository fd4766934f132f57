/**
 * Pesticide safety in the editor: the Problems of banned and restricted pesticides as the author
 * types, their hover, a quick action that searches the knowledge base for alternatives and one that
 * silences the finding (a comment on the line before it), the station's rules file and "Show
 * Pesticide Rules". The logic is the pure core's (src/safety), reached through the shared
 * SafetyService, which loads its bundle on first use.
 */
import type { CommandRegistry } from '../shared/commands';
import vscode = require('vscode');
import { frontMatter } from '../../bulletin/frontMatter';
import { mentionTopic } from '../../safety/topic';
import type { RuleSet, SafetyFinding, SafetyRule } from '../../safety/types';
import { insertWordsFor } from '../shared/language';
import type { SafetyService } from '../shared/safety';
import { settings } from '../shared/settings';
import { SAFETY_SOURCE, SafetyDiagnostics } from './diagnostics';
import { findingHover, kindLabel, type RuleWords } from './hover';
import { StationRules } from './rules';
import { silenceAction } from './silence';

/** What the feature needs. */
export interface SafetyServices {
  /** The rules in force and the lint (the core loads on first use). */
  safety: SafetyService;
  commands: CommandRegistry;
}

/** Show Pesticide Rules: the rules in force today as a Markdown document, previewed. */
async function showRules(safety: SafetyService): Promise<void> {
  const content = rulesDocument(safety.rules, safety.today(), (r) => safety.describe(r));
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(doc, { preview: true });
  await vscode.commands.executeCommand('markdown.showPreview');
}

/** What the feature registered (used by the integration tests). */
export interface SafetyFeature {
  readonly diagnostics: SafetyDiagnostics;
  readonly rules: StationRules;
}

/**
 * The query of the "search for alternatives" action: the crop, the pest or task the mention's
 * sentence names (its pieces without the pesticide and without quantities), and the word for
 * alternatives, in the document's language.
 */
export function alternativesQuery(doc: vscode.TextDocument, f: SafetyFinding): string {
  const words = insertWordsFor(doc);
  const text = doc.getText();
  const crop = f.crop ?? frontMatter(text).fields['crop'];
  const about = mentionTopic(text, f.offset, f.mention);
  return [crop, ...about, words.t('alternatives')].filter(Boolean).join(' ');
}

/** The rules in force on `date` (and those coming into force later), as a Markdown document. */
export function rulesDocument(rules: RuleSet, date: string, describe: (rule: SafetyRule) => RuleWords): string {
  const lines = [
    `# ${vscode.l10n.t('Pesticide rules in force on {0}', date)}`,
    '',
    vscode.l10n.t('Rules as of {0} (version {1}).', rules.asOf, rules.version),
    '',
    `| ${vscode.l10n.t('Substance')} | ${vscode.l10n.t('Kind')} | ${vscode.l10n.t('Scope')} | ${vscode.l10n.t('Announcement')} | ${vscode.l10n.t('In force from')} |`,
    '| --- | --- | --- | --- | --- |',
  ];
  const cell = (s: string): string => s.replace(/\|/g, '\\|');
  for (const r of [...rules.rules].sort((a, b) => a.effective.localeCompare(b.effective))) {
    const upcoming = r.effective > date;
    const w = describe(r);
    const names = r.names.filter((n) => n !== r.substance).join(vscode.l10n.t(', '));
    lines.push(
      `| ${cell(r.substance)}${names ? ` (${cell(names)})` : ''} | ${kindLabel({ rule: r, upcoming })} | ${cell(w.scope)} | ${cell(w.announcement)} | ${r.effective}${w.note ? ` — ${cell(w.note)}` : ''} |`,
    );
  }
  return lines.join('\n') + '\n';
}

/** Registers the diagnostics, hover, quick actions, rules file and command. */
export function activate(context: vscode.ExtensionContext, services: SafetyServices): SafetyFeature {
  const { safety } = services;
  const md: vscode.DocumentSelector = { language: 'markdown' };
  const diagnostics = new SafetyDiagnostics(safety);
  const rules = new StationRules(safety);
  context.subscriptions.push(
    diagnostics,
    rules,
    ...diagnostics.watch(),
    vscode.languages.registerHoverProvider(md, {
      provideHover: (doc, pos) => {
        const f = diagnostics.at(doc, pos);
        if (!f) return undefined;
        const range = new vscode.Range(doc.positionAt(f.offset), doc.positionAt(f.offset + f.length));
        return findingHover(f, safety.describe(f.rule), range);
      },
    }),
    vscode.languages.registerCodeActionsProvider(
      md,
      {
        // as the citations' quick fixes: only for our Problems at the range, so asking runs no lint
        provideCodeActions: (doc, range, context) =>
          (context.diagnostics.some((d) => d.source === SAFETY_SOURCE) ? diagnostics.current(doc) : [])
            .filter((f) =>
              new vscode.Range(doc.positionAt(f.offset), doc.positionAt(f.offset + f.length)).intersection(range),
            )
            .flatMap((f) => {
              const k = settings.knowledge(doc.uri);
              const action = new vscode.CodeAction(
                vscode.l10n.t('Search the knowledge base for alternatives to {0}', f.rule.substance),
                vscode.CodeActionKind.QuickFix,
              );
              const diagnostic = diagnostics.toDiagnostic(doc, f);
              action.diagnostics = [diagnostic];
              action.command = {
                title: action.title,
                command: 'shunong.searchKnowledge',
                arguments: [
                  {
                    query: alternativesQuery(doc, f),
                    topK: k.topK,
                    scoreThreshold: k.scoreThreshold,
                    useRerank: k.useRerank,
                  },
                ],
              };
              const silence = silenceAction(doc, f, diagnostic, safety);
              return silence ? [action, silence] : [action];
            }),
      },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
  );
  services.commands.register({ id: 'shunong.showPesticideRules', run: () => showRules(safety) });
  if (settings.safety(vscode.workspace.workspaceFolders?.[0]?.uri).rulesFile) void rules.reload();
  // The bulletins already open are read in the next task, not after the typing debounce: nobody is typing in them.
  for (const d of vscode.workspace.textDocuments) if (d.languageId === 'markdown') diagnostics.schedule(d, 0);
  return { diagnostics, rules };
}
