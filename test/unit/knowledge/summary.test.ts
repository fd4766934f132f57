import assert from 'node:assert/strict';
import { summarizeCounts } from '../../../src/knowledge/summary';

describe('knowledge/summary', () => {
  it('shows each stage count in pipeline order, then the warnings', () => {
    assert.deepEqual(summarizeCounts({ vector: 32, fulltext: 2, hybrid: 2, rerank: 0 }, ['Rerank 精排已手动关闭']), [
      { key: 'counts.vector', args: [32] },
      { key: 'counts.fulltext', args: [2] },
      { key: 'counts.hybrid', args: [2] },
      { key: 'counts.rerank', args: [0] },
      { key: 'warning.rerankOff', args: [] },
    ]);
  });

  it('skips missing counts; shows unknown warnings verbatim, once', () => {
    assert.deepEqual(summarizeCounts({ hybrid: 5, rerank: null }, ['知识库 X 暂不可用', '知识库 X 暂不可用', '  ']), [
      { key: 'counts.hybrid', args: [5] },
      { key: 'warning.server', args: ['知识库 X 暂不可用'] },
    ]);
    assert.deepEqual(summarizeCounts(undefined, undefined), []);
    assert.deepEqual(summarizeCounts(null, ['rerank disabled']), [{ key: 'warning.rerankOff', args: [] }]);
  });
});
