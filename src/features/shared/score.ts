/** How a retrieval score reads in the UI (hovers, the passage viewer, the knowledge browser). */
import * as vscode from 'vscode';
import type { CitationContext } from '../../citations/index';
import { scoreKind } from '../../knowledge/score';

/** A score read by its type: RRF values only rank; cosine values are similarities. */
export function scoreLine(ctx: Pick<CitationContext, 'score' | 'scoreType'>): string {
  switch (scoreKind(ctx.scoreType)) {
    case 'rrf':
      return vscode.l10n.t('Rank score {0} (RRF: orders results only, not a confidence)', ctx.score.toFixed(4));
    case 'cosine':
      return vscode.l10n.t('Similarity {0} (cosine, 0–1)', ctx.score.toFixed(2));
    default:
      return vscode.l10n.t('Score {0} ({1}; read as rank only)', String(ctx.score), ctx.scoreType || '?');
  }
}
