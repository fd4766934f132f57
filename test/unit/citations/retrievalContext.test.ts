import assert from 'node:assert/strict';
import { CitationCache, type CitationContext } from '../../../src/citations';

const ctx = (retrievedAt: string, score = 0.9): CitationContext => ({
  citation: '茶树农事操作.docx#1',
  kbCode: 'TEA_MANAGER_001',
  kbName: '茶树管理',
  query: '春茶 修剪',
  score,
  scoreType: 'rerank',
  retrievedAt,
  content: '春茶采摘后及时修剪。',
});

describe('citations/context cache', () => {
  it('keeps the latest retrieval per doc#idx and round-trips through JSON', () => {
    const c = new CitationCache();
    c.put(ctx('2026-03-01T08:00:00+08:00', 0.8));
    c.put(ctx('2026-02-01T08:00:00+08:00', 0.5));
    assert.equal(c.get('茶树农事操作.docx#1')?.score, 0.8);
    const back = CitationCache.fromJSON(JSON.parse(JSON.stringify(c.toJSON())));
    assert.deepEqual(back.toJSON(), c.toJSON());
    back.retain([]);
    assert.equal(back.size, 0);
  });

  it('drops malformed persisted entries instead of throwing', () => {
    const c = CitationCache.fromJSON({ version: 1, entries: [{ citation: 'a#1' }, ctx('2026-01-01T00:00:00Z'), null] });
    assert.equal(c.size, 1);
    assert.equal(CitationCache.fromJSON('garbage').size, 0);
  });
});
