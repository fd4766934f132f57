/**
 * The words of an export's warnings, in the language of a {@link Words} (`vscode.l10n` in the
 * extension, English in the CLI). Lines are 1-based, as editors show them. Pure.
 */
import type { Words } from '../text/words';
import type { Problem } from '../citations/model';
import type { TemplateError } from './docxStyles';
import type { PublishWarning } from './model';
import type { PrintFailure } from '../pdf/index';

/** Why a Word template cannot be used, as the end of a sentence ("… cannot be used: {reason}."). */
export function templateProblemText(
  reason: TemplateError['reason'],
  where: TemplateError['where'],
  words: Words,
): string {
  switch (reason) {
    case 'not-a-docx':
      return words.t('it is not a Word (.docx) file');
    case 'no-document':
      return words.t('it is a zip archive but not a Word document (it has no word/document.xml)');
    case 'no-styles':
      return words.t('it has no styles (word/styles.xml)');
    case 'bad-styles':
      return words.t(
        'its word/styles.xml is not well-formed WordprocessingML (line {0}, column {1}); save it again from Word',
        where?.line ?? 1,
        where?.column ?? 1,
      );
    case 'bad-numbering':
      return words.t(
        'its word/numbering.xml is not well-formed WordprocessingML (line {0}, column {1}); save it again from Word',
        where?.line ?? 1,
        where?.column ?? 1,
      );
  }
}

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
    case 'list-too-deep':
      return words.t(
        'Line {0}: a list nested deeper than two levels, which WeChat does not keep; its items are written at the second level.',
        w.line + 1,
      );
    case 'table-too-wide':
      return words.t(
        'Line {0}: the table has {1} columns, more than a Word table can hold (63); it is written as several tables of at most 63 columns, one below the other.',
        w.line + 1,
        w.columns,
      );
  }
}

/** Why the browser gave no PDF, as the end of a sentence ("… could not print the PDF: {reason}."). */
export function pdfFailureText(failure: PrintFailure, words: Words): string {
  switch (failure.kind) {
    case 'timeout':
      return words.t('it did not finish within {0} s and was stopped', Math.round(failure.ms / 100) / 10);
    case 'start':
      return words.t('it could not be started ({0})', failure.code);
    case 'failed':
      return failure.detail
        ? words.t('it ended ({0}) without writing a PDF: {1}', failure.exit, failure.detail)
        : words.t('it ended ({0}) without writing a PDF', failure.exit);
  }
}
