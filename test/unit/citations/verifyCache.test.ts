/** What "Verify Citations" remembers between runs, and how it reads its persisted file (pure). */
import { strict as assert } from 'node:assert';
import { VerifyCache, type VerifyOutcome } from '../../../src/citations/verifyCache';
import type { Retrieval } from '../../../src/citations/retrievalContext';

const PASSAGE: Retrieval = {
  kbCode: 'TEA_MANAGER_001',
  kbName: '茶树管理',
  query: '修剪',
  score: 0.9,
  scoreType: 'rerank',
  retrievedAt: '2026-12-01T01:00:00.000Z',
  content: '春茶采摘后及时修剪。',
};

const DAY = '2026-12-01';

/** The cache read back from its JSON file. */
function reread(c: VerifyCache): VerifyCache {
  return VerifyCache.fromJSON(JSON.parse(JSON.stringify(c.toJSON())));
}

describe('citations: verify cache (pure)', () => {
  it('every outcome but unverified is remembered with its date, and survives the file', () => {
    const outcomes: [string, VerifyOutcome][] = [
      ['a', { status: 'verified', passage: PASSAGE }],
      ['b', { status: 'changed', cached: '旧文本。', passage: PASSAGE }],
      ['c', { status: 'not-located' }],
      ['d', { status: 'unknown-kb', kbCode: 'X', known: ['Y'] }],
      ['e', { status: 'unverified', reason: 'network', message: 'offline' }],
    ];
    const c = new VerifyCache();
    for (const [k, o] of outcomes) c.put(k, DAY, o);
    const back = reread(c);
    assert.equal(back.size, 4);
    for (const [k, o] of outcomes.slice(0, 4)) assert.deepEqual(back.get(k), { key: k, date: DAY, outcome: o });
    assert.equal(back.get('e'), undefined);
  });

  it("an outcome is today's only on the date it was found; get returns it whatever the date", () => {
    const c = new VerifyCache();
    c.put('k', DAY, { status: 'not-located' });
    assert.equal(c.onDate('k', DAY)?.outcome.status, 'not-located');
    assert.equal(c.onDate('k', '2026-12-02'), undefined);
    assert.equal(c.onDate('other', DAY), undefined);
    assert.equal(c.get('k')?.date, DAY);
    assert.equal(c.get('other'), undefined);
  });

  it('a later outcome of a source replaces the earlier one; a deleted source is asked again', () => {
    const c = new VerifyCache();
    c.put('k', DAY, { status: 'not-located' });
    c.put('k', '2026-12-02', { status: 'verified', passage: PASSAGE });
    assert.equal(c.size, 1);
    assert.equal(c.get('k')?.outcome.status, 'verified');
    c.put('k', '2026-12-03', { status: 'unverified', reason: 'auth', message: 'rejected' });
    assert.equal(c.get('k')?.date, '2026-12-02', 'an unverified outcome does not replace what was known');
    c.delete('k');
    assert.equal(c.get('k'), undefined);
    assert.equal(c.size, 0);
  });

  it('the knowledge bases are known only on the day they were learned, and kept as they were given', () => {
    const c = new VerifyCache();
    assert.equal(c.knowledgeBases(DAY), undefined);
    const given = [{ code: 'A', name: '甲库' }];
    c.setKnowledgeBases(DAY, given);
    given[0]!.name = '改了';
    given.push({ code: 'B', name: '乙库' });
    assert.deepEqual(c.knowledgeBases(DAY), [{ code: 'A', name: '甲库' }]);
    assert.equal(c.knowledgeBases('2026-12-02'), undefined);
    assert.deepEqual(reread(c).knowledgeBases(DAY), [{ code: 'A', name: '甲库' }]);
  });

  it('the file is versioned, lists outcomes sorted by key, and names no knowledge bases when none are known', () => {
    const c = new VerifyCache();
    for (const k of ['m', 'b', 'z', 'a', 'q']) c.put(k, DAY, { status: 'not-located' });
    const data = c.toJSON();
    assert.equal(data.version, 1);
    assert.deepEqual(
      data.outcomes.map((o) => o.key),
      ['a', 'b', 'm', 'q', 'z'],
    );
    assert.ok(!('knowledgeBases' in data));
    assert.deepEqual(new VerifyCache().toJSON(), { version: 1, outcomes: [] });
  });

  it('a file that is not an object, or whose outcomes are not a list, gives an empty cache', () => {
    for (const data of [undefined, null, 'nonsense', 42, {}, { outcomes: {} }, { outcomes: 'abc' }]) {
      const c = VerifyCache.fromJSON(data);
      assert.equal(c.size, 0, JSON.stringify(data));
      assert.deepEqual(c.toJSON(), { version: 1, outcomes: [] }, JSON.stringify(data));
    }
  });

  it('a malformed outcome is dropped, the well-formed ones beside it are kept', () => {
    const good = { key: 'good', date: DAY, outcome: { status: 'not-located' } };
    const bad: unknown[] = [
      null,
      'verified',
      { date: DAY, outcome: { status: 'not-located' } },
      { key: 1, date: DAY, outcome: { status: 'not-located' } },
      { key: 'k', outcome: { status: 'not-located' } },
      { key: 'k', date: 20261201, outcome: { status: 'not-located' } },
      { key: 'k', date: DAY },
      { key: 'k', date: DAY, outcome: null },
      { key: 'k', date: DAY, outcome: 'verified' },
      { key: 'k', date: DAY, outcome: {} },
      { key: 'k', date: DAY, outcome: { status: 'bogus' } },
      { key: 'k', date: DAY, outcome: { status: 'unverified', reason: 'network', message: 'offline' } },
    ];
    const c = VerifyCache.fromJSON({ outcomes: [...bad, good] });
    assert.equal(c.size, 1);
    assert.deepEqual(c.get('good'), good);
  });

  it('a verified or changed outcome without a passage that has its text and knowledge base is dropped', () => {
    const { content, kbCode, ...rest } = PASSAGE;
    for (const status of ['verified', 'changed'] as const) {
      const bad: unknown[] = [undefined, null, 'text', {}, { ...rest, kbCode }, { ...rest, content }].map(
        (passage) => ({ key: 'k', date: DAY, outcome: { status, cached: '旧', passage } }),
      );
      assert.equal(VerifyCache.fromJSON({ outcomes: bad }).size, 0, status);
      const good = { key: 'k', date: DAY, outcome: { status, cached: '旧', passage: PASSAGE } };
      assert.equal(VerifyCache.fromJSON({ outcomes: [good] }).get('k')?.outcome.status, status);
    }
  });

  it('the knowledge bases of a file: only entries with a code, each with its name as text', () => {
    const c = VerifyCache.fromJSON({
      outcomes: [],
      knowledgeBases: {
        date: DAY,
        bases: [
          null,
          'A',
          { name: '无代码' },
          { code: 7 },
          { code: 'A', name: '甲库', extra: 1 },
          { code: 'B' },
          { code: 'C', name: 3 },
        ],
      },
    });
    assert.deepEqual(c.knowledgeBases(DAY), [
      { code: 'A', name: '甲库' },
      { code: 'B', name: '' },
      { code: 'C', name: '3' },
    ]);
  });

  it('knowledge bases without a date, or not a list, are not known', () => {
    for (const knowledgeBases of [
      null,
      'x',
      { bases: [{ code: 'A', name: '甲' }] },
      { date: 1, bases: [] },
      { date: DAY },
      { date: DAY, bases: 'AB' },
    ]) {
      const c = VerifyCache.fromJSON({ outcomes: [], knowledgeBases });
      assert.equal(c.knowledgeBases(DAY), undefined, JSON.stringify(knowledgeBases));
      assert.ok(!('knowledgeBases' in c.toJSON()), JSON.stringify(knowledgeBases));
    }
  });
});
