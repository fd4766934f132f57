/**
 * The words of an export's warnings, in the language of a {@link Words} (`vscode.l10n` in the
 * extension, English in the CLI). Lines are 1-based, as editors show them. Pure.
 */
import type { Words } from '../text/words';
import type { Problem } from '../citations/model';
import type { PublishWarning } from './model';

/** One warning as a line of text; `problem` words a broken citation (its English message by default). */
export function warningText(
  w: PublishWarning,
  words: Words,
  problem: (p: Problem) => string = (p) => p.message,
): string {
  switch (w.code) {
    case 'broken-citation':
      return words.t('Line {0}: broken citation: {1}', w.problem.range.line + 1, problem(w.problem));
    case 'html-left-out':
      return words.t('Line {0}: raw HTML left out of the export.', w.line + 1);
    case 'image-missing':
      return words.t('Line {0}: picture not found, left out: {1}', w.line + 1, w.src);
    case 'image-remote':
      return words.t(
        'Line {0}: picture on the web, left out (only workspace pictures are embedded): {1}',
        w.line + 1,
        w.src,
      );
    case 'image-unsupported':
      return words.t(
        'Line {0}: picture format {1} cannot go into this export, left out: {2}',
        w.line + 1,
        w.format,
        w.src,
      );
  }
}
