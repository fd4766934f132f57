import assert from 'node:assert/strict';
import { analyzeDocument } from '../../../src/citations';
import { formatMessage, MESSAGES } from '../../../src/citations/problems';

const doc = [
  '见 http://a.cn/x〔a.docx#1〕与 http://b.cn/y[^3]，又[^9]〔b.docx#x〕',
  '',
  '[^3]: a.docx#1 — k (K)',
  '[^1]: a.docx#1 — k (K)',
  '[^2]: c.docx#1 — k (K)',
  // a label's second definition counts for nothing: not even as a second use of a source
  '[^2]: a.docx#1 — k (K)',
  '[^5]: e.docx#-1 — k (K)',
  '[^a]: 注',
  '[^a]: 注二',
  '',
].join('\n');

describe('citations/problems', () => {
  it('each problem has its code, severity, label (only when it concerns one), key and arguments, in document order', () => {
    const chunk = (s: string): string => `"${s}" is not a non-negative integer chunk_index`;
    assert.deepEqual(
      analyzeDocument(doc).problems.map((p) => [
        p.range.line,
        p.code,
        p.severity,
        'label' in p ? p.label : 'no label',
        p.messageKey,
        p.args,
        'failure' in p ? p.failure?.error : 'no failure',
      ]),
      [
        [0, 'glued-to-url', 'warning', 'no label', 'citations.gluedToUrl', ['〔a.docx#1〕'], 'no failure'],
        [0, 'glued-to-url', 'warning', '3', 'citations.gluedToUrl', ['[^3]'], 'no failure'],
        [0, 'undefined-reference', 'error', '9', 'citations.undefinedReference', ['9'], 'no failure'],
        [
          0,
          'malformed-citation',
          'error',
          'no label',
          'citations.malformedInline',
          ['b.docx#x', chunk('x')],
          'bad-chunk-index',
        ],
        // the source's first citation is the one of the lowest number, wherever it is
        [2, 'duplicate-source', 'warning', '3', 'citations.duplicateSource', ['3', '1', 'a.docx#1'], 'no failure'],
        [3, 'unused-definition', 'warning', '1', 'citations.unusedDefinition', ['1', 'a.docx#1'], 'no failure'],
        [4, 'unused-definition', 'warning', '2', 'citations.unusedDefinition', ['2', 'c.docx#1'], 'no failure'],
        [5, 'duplicate-label', 'error', '2', 'citations.duplicateLabel', ['2'], 'no failure'],
        [6, 'unused-definition', 'warning', '5', 'citations.unusedDefinition', ['5', 'e.docx#-1'], 'no failure'],
        [
          6,
          'malformed-citation',
          'error',
          '5',
          'citations.malformedDefinition',
          ['e.docx#-1', '5', chunk('-1')],
          'bad-chunk-index',
        ],
        [8, 'duplicate-label', 'error', 'a', 'citations.duplicateLabel', ['a'], 'no failure'],
      ],
    );
  });

  it('a message is its template with the arguments filled in; a missing argument or template shows as written', () => {
    for (const p of analyzeDocument(doc).problems) {
      const want = MESSAGES[p.messageKey]!.replace(/\{(\d+)\}/g, (_m, n: string) => p.args[Number(n)]!);
      assert.equal(p.message, want);
      // a message names what it is about
      assert.ok(p.message.includes(p.args[0]!), p.message);
    }
    assert.equal(
      formatMessage('citations.duplicateSource', ['3']),
      'Citation [^3] cites the same source as [^{1}] ({2}).',
    );
    assert.equal(formatMessage('citations.noSuchKey', ['3']), 'citations.noSuchKey');
  });
});
