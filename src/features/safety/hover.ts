/** The hover of a flagged mention: the substance, why it is flagged, its scope, announcement, date and note. */
import vscode = require('vscode');
import { plainForMarkdown } from '../../text/plain';
import type { SafetyFinding } from '../../safety/types';

/** The kind of a rule, in the UI language. */
export function kindLabel(f: Pick<SafetyFinding, 'rule' | 'upcoming'>): string {
  if (f.upcoming) return vscode.l10n.t('Banned soon');
  switch (f.rule.kind) {
    case 'banned':
      return vscode.l10n.t('Banned');
    case 'scope':
      return vscode.l10n.t('Banned within a scope');
    default:
      return vscode.l10n.t('Restricted use');
  }
}

/** How a rule reads in the UI language (SafetyService.describe). */
export interface RuleWords {
  substance: string;
  scope: string;
  announcement: string;
  note: string | undefined;
}

/** The scope of a rule as one line, with what it excepts ('' when it has none). */
export function scopeLine(f: SafetyFinding, words: RuleWords): string {
  const except = f.rule.scope?.except ?? [];
  return (
    words.scope +
    (words.scope && except.length ? ' ' + vscode.l10n.t('(except {0})', except.join(vscode.l10n.t(', '))) : '')
  );
}

/** The hover's Markdown: what the Problem's own hover (its message) does not say. */
export function findingHover(f: SafetyFinding, words: RuleWords, range: vscode.Range): vscode.Hover {
  const md = new vscode.MarkdownString();
  const line = (text: string): void => void md.appendMarkdown(`- ${plainForMarkdown(text)}\n`);
  md.appendMarkdown(`**${plainForMarkdown(f.rule.substance)}** — ${plainForMarkdown(kindLabel(f))}\n\n`);
  const scope = scopeLine(f, words);
  if (scope) line(vscode.l10n.t('Scope: {0}', scope));
  if (f.crop) line(vscode.l10n.t('Crop: {0}', f.crop));
  line(vscode.l10n.t('Announcement: {0}', words.announcement));
  line(vscode.l10n.t('In force from: {0}', f.rule.effective));
  if (words.note) line(vscode.l10n.t('Note: {0}', words.note));
  return new vscode.Hover(md, range);
}
