/**
 * How search results read in the UI: localised knowledge-layer messages, a score per its
 * `score_type` (in its list, or kept alone with a citation or pin): RRF as rank and which searches likely
 * found it, never a percentage or a confidence; cosine as similarity against the threshold),
 * the text of the read-only passage document, and copying a passage with its citation.
 */
import vscode = require('vscode');
import type { CitedPassage } from '../../citations/passage';
import { keyOf, type StoredPassage } from '../../knowledge/history';
import { messagesEn, msg, type Message } from '../../knowledge/messages';
import { readRrf } from '../../knowledge/rrfReading';
import { scoreKind, storedScoreText } from '../../knowledge/score';
import { citationText } from '../../knowledge/snippet';

/** "1 passage" / "{n} passages" (one key each: zh-CN has no plural, English does). */
export function passageCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 passage') : vscode.l10n.t('{0} passages', n);
}

/** A knowledge-layer message in the display language: its English template is its l10n key. */
export function localise(message: Message): string {
  return vscode.l10n.t(messagesEn[message.key], ...message.args);
}

/** The score line of a passage in its list, in the display language (see {@link storedScoreText}). */
export function scoreText(s: StoredPassage): string {
  return storedScoreText(s, localise);
}

/** A score kept without its list (a citation, a pin) read by its type: RRF values only rank; cosine values are similarities. */
export function scoreLine(ctx: Pick<CitedPassage, 'score' | 'scoreType'>): string {
  switch (scoreKind(ctx.scoreType)) {
    case 'rrf': {
      const line = vscode.l10n.t('Rank score {0} (RRF: orders results only, not a confidence)', ctx.score.toFixed(4));
      return readRrf(ctx.score) === 'both' ? `${line} · ${localise(msg('score.rrf.bothAlone'))}` : line;
    }
    case 'cosine':
      return vscode.l10n.t('Similarity {0} (cosine, 0–1)', ctx.score.toFixed(2));
    default:
      return vscode.l10n.t('Score {0} ({1}; read as rank only)', String(ctx.score), ctx.scoreType || '?');
  }
}

/** What a list's scores mean (shown once, under the results). */
export function scoreNote(scoreType: string, fused: boolean): string {
  if (fused) return localise(msg('score.note.fused', 60));
  switch (scoreKind(scoreType)) {
    case 'rrf':
      return localise(msg('score.note.rrf'));
    case 'cosine':
      return localise(msg('score.note.cosine'));
    default:
      return localise(msg('score.note.unknown', scoreType));
  }
}

/** The text of the read-only passage document (server text as plain text). */
export function passageDocument(s: StoredPassage | CitedPassage): string {
  const p = 'passage' in s ? s.passage : s;
  const lines = [citationText(p)];
  lines.push(...('passage' in s ? [scoreText(s), scoreNote(p.scoreType, false)] : [scoreLine(p)]));
  lines.push(
    vscode.l10n.t('Retrieved {0} for "{1}"', p.retrievedAt.slice(0, 16).replace('T', ' '), p.query),
    '',
    p.content,
    '',
  );
  return lines.join('\n');
}

/** Copies a passage followed by its citation. */
export async function copyPassage(p: CitedPassage): Promise<void> {
  await vscode.env.clipboard.writeText(`${p.content}\n— ${citationText(p)}`);
  void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', keyOf(p)), 3000);
}
