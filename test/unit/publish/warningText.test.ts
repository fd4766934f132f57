/**
 * The words of an export's warnings and of an unusable Word template, in both languages: each code
 * its own sentence, lines counted from 1 as editors show them (the model's are 0-based), the
 * position of a malformed part named, line and column 1 when the parser gave none.
 */
import * as assert from 'node:assert/strict';
import { pdfFailureText, templateProblemText, warningText } from '../../../src/publish/index';
import type { Problem } from '../../../src/citations/model';
import type { PublishWarning } from '../../../src/publish/model';
import { wordsOf } from '../../../src/text/words';

const en = wordsOf('en');
const zh = wordsOf('zh');

describe('publish: the words of the export’s warnings', () => {
  const cases: [PublishWarning, string, string][] = [
    [{ code: 'html-left-out', line: 0 }, 'Line 1: raw HTML left out of the export.', '第 1 行：HTML 代码未导出。'],
    [
      { code: 'image-missing', line: 6, src: 'missing.png' },
      'Line 7: picture not found, left out: missing.png',
      '第 7 行：找不到图片，已略去：missing.png',
    ],
    [
      { code: 'image-remote', line: 2, src: 'https://example.org/a.png' },
      'Line 3: picture on the web, left out (only workspace pictures are embedded): https://example.org/a.png',
      '第 3 行：网络图片已略去（只嵌入工作区中的图片）：https://example.org/a.png',
    ],
    [
      { code: 'image-unsupported', line: 9, src: 'a.tiff', format: 'TIFF' },
      'Line 10: picture format TIFF cannot go into this export, left out: a.tiff',
      '第 10 行：图片格式 TIFF 无法放入此导出，已略去：a.tiff',
    ],
  ];
  for (const [w, english, chinese] of cases)
    it(`${w.code}: its own sentence, the line counted from 1`, () => {
      assert.equal(warningText(w, en), english);
      assert.equal(warningText(w, zh), chinese);
    });

  it('list-too-deep and table-too-wide name the line, and the columns of the table', () => {
    assert.match(warningText({ code: 'list-too-deep', line: 4 }, en), /^Line 5: a list nested deeper than two levels/);
    assert.match(
      warningText({ code: 'table-too-wide', line: 11, columns: 70 }, en),
      /^Line 12: the table has 70 columns/,
    );
    assert.match(warningText({ code: 'table-too-wide', line: 11, columns: 70 }, zh), /^第 12 行/);
    assert.match(warningText({ code: 'table-too-wide', line: 11, columns: 70 }, zh), /70/);
  });

  it('a broken citation is worded by the caller (its message by default), on the line of its range', () => {
    const problem: Problem = {
      code: 'undefined-reference',
      severity: 'error',
      label: '2',
      message: 'The footnote [^2] has no definition.',
      messageKey: 'The footnote [^{0}] has no definition.',
      args: ['2'],
      range: { start: 40, end: 44, line: 3, character: 5, endLine: 3, endCharacter: 9 },
    };
    const w: PublishWarning = { code: 'broken-citation', problem };
    assert.equal(warningText(w, en), 'Line 4: broken citation: The footnote [^2] has no definition.');
    assert.equal(
      warningText(w, zh, () => '脚注 [^2] 没有定义。'),
      '第 4 行：失效引用：脚注 [^2] 没有定义。',
    );
  });
});

describe('publish: why a Word template cannot be used', () => {
  it('each reason its own words', () => {
    assert.equal(templateProblemText('not-a-docx', undefined, en), 'it is not a Word (.docx) file');
    assert.equal(templateProblemText('not-a-docx', undefined, zh), '它不是 Word（.docx）文件');
    assert.equal(
      templateProblemText('no-document', undefined, en),
      'it is a zip archive but not a Word document (it has no word/document.xml)',
    );
    assert.equal(templateProblemText('no-styles', undefined, en), 'it has no styles (word/styles.xml)');
    assert.equal(templateProblemText('no-styles', undefined, zh), '其中没有样式（word/styles.xml）');
  });

  it('a malformed part is named, with the line and column the parser gave, else 1 and 1', () => {
    assert.equal(
      templateProblemText('bad-styles', { line: 3, column: 17 }, en),
      'its word/styles.xml is not well-formed WordprocessingML (line 3, column 17); save it again from Word',
    );
    assert.equal(
      templateProblemText('bad-numbering', { line: 8, column: 2 }, zh),
      '其 word/numbering.xml 不是格式正确的 WordprocessingML（第 8 行第 2 列）；请在 Word 中重新保存',
    );
    assert.match(templateProblemText('bad-numbering', undefined, en), /word\/numbering\.xml .*\(line 1, column 1\)/);
    assert.match(templateProblemText('bad-styles', undefined, en), /word\/styles\.xml .*\(line 1, column 1\)/);
  });
});

describe('publish: why the browser gave no PDF', () => {
  it('says each failure in both languages: the time limit in seconds, the start error, the exit and its last words', () => {
    assert.equal(pdfFailureText({ kind: 'timeout', ms: 60_000 }, en), 'it did not finish within 60 s and was stopped');
    assert.equal(pdfFailureText({ kind: 'timeout', ms: 1500 }, zh), '它未在 1.5 秒内完成，已被停止');
    assert.equal(pdfFailureText({ kind: 'start', code: 'EACCES' }, en), 'it could not be started (EACCES)');
    assert.equal(
      pdfFailureText({ kind: 'failed', exit: '21', detail: 'Cannot open display' }, en),
      'it ended (21) without writing a PDF: Cannot open display',
    );
    assert.equal(
      pdfFailureText({ kind: 'failed', exit: 'SIGSEGV', detail: '' }, zh),
      '它已结束（SIGSEGV），但没有写出 PDF',
    );
  });
});
