/** The hover of a flagged mention: the substance, why it is flagged, its scope, announcement, date and note. */
import * as vscode from 'vscode';
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

/** The scope of a rule as one line ('' when it has none). */
export function scopeLine(f: SafetyFinding): string {
  const s = f.rule.scope;
  if (!s) return '';
  const parts = [...(s.crops ?? []), ...(s.uses ?? [])].join(vscode.l10n.t(', '));
  const except = s.except?.length ? ' ' + vscode.l10n.t('(except {0})', s.except.join(vscode.l10n.t(', '))) : '';
  return parts + except;
}

/** The hover's Markdown. */
export function findingHover(f: SafetyFinding, message: string, range: vscode.Range): vscode.Hover {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${plainForMarkdown(f.rule.substance)}** — ${plainForMarkdown(kindLabel(f))}\n\n`);
  md.appendMarkdown(`${plainForMarkdown(message)}\n\n`);
  const scope = scopeLine(f);
  if (scope) md.appendMarkdown(`- ${vscode.l10n.t('Scope: {0}', plainForMarkdown(scope))}\n`);
  if (f.crop) md.appendMarkdown(`- ${vscode.l10n.t('Crop: {0}', plainForMarkdown(f.crop))}\n`);
  md.appendMarkdown(`- ${vscode.l10n.t('Announcement: {0}', plainForMarkdown(f.rule.announcement))}\n`);
  md.appendMarkdown(`- ${vscode.l10n.t('In force from: {0}', f.rule.effective)}\n`);
  if (f.rule.note) md.appendMarkdown(`- ${vscode.l10n.t('Note: {0}', plainForMarkdown(f.rule.note))}\n`);
  return new vscode.Hover(md, range);
}
