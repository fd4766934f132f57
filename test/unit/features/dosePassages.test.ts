/**
 * The passages the editor's dose check reads: the citation cache's text, or the current text of a
 * passage Verify Citations found changed (under its definition's knowledge base, or any), said so.
 */
import assert from 'node:assert/strict';
import { CitationCache } from '../../../src/citations/retrievalContext';
import { sourceKey } from '../../../src/citations/sourceKey';
import type { VerifyOutcome } from '../../../src/citations/verifyCache';
import { passageLookup } from '../../../src/features/dose/passages';

const retrieval = (content: string) => ({
  kbCode: 'RICE_001',
  kbName: '水稻',
  query: 'q',
  score: 0.9,
  scoreType: 'rerank',
  retrievedAt: '2026-07-01T00:00:00Z',
  content,
});

describe('features/dose: the passages at hand', () => {
  const cache = new CitationCache();
  cache.put({ citation: '防控#1', ...retrieval('每亩用10毫升。') });
  cache.put({ citation: '防控#2', ...retrieval('每亩用20毫升。') });
  const text = '亩用10毫升[^1]。\n\n[^1]: 防控#1 — 水稻 (RICE_001)\n';

  it('the cache’s text; nothing for a passage it does not hold', () => {
    const lookup = passageLookup(text, cache, undefined);
    assert.deepEqual(lookup('防控#1'), { text: '每亩用10毫升。' });
    assert.equal(lookup('防控#9'), undefined);
  });

  it('the current text of a changed passage, under its definition’s knowledge base or any', () => {
    const outcomes = new Map<string, { outcome: VerifyOutcome; date: string }>([
      [
        sourceKey('RICE_001', '防控#1'),
        { outcome: { status: 'changed', cached: 'x', passage: retrieval('每亩用12毫升。') }, date: '2026-07-01' },
      ],
      [
        sourceKey(undefined, '防控#2'),
        { outcome: { status: 'changed', cached: 'x', passage: retrieval('每亩用25毫升。') }, date: '2026-07-01' },
      ],
    ]);
    const lookup = passageLookup(text, cache, outcomes);
    assert.deepEqual(lookup('防控#1'), { text: '每亩用12毫升。', changed: true });
    assert.deepEqual(lookup('防控#2'), { text: '每亩用25毫升。', changed: true });
  });
});
