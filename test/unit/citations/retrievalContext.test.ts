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

describe('citations/context cache: what is kept', () => {
  it('a retrieval as recent as the one kept replaces it; an older one does not', () => {
    const c = new CitationCache();
    c.put(ctx('2026-03-01T00:00:00Z', 0.5));
    c.put(ctx('2026-03-01T08:00:00+08:00', 0.7));
    assert.equal(c.get('茶树农事操作.docx#1')?.score, 0.7, 'the same instant: the later put wins');
    c.put(ctx('2026-02-28T23:59:59Z', 0.1));
    assert.equal(c.get('茶树农事操作.docx#1')?.score, 0.7);
  });

  it('a kept retrieval whose date cannot be read is replaced; a new one whose date cannot be read is not kept over a dated one', () => {
    const c = new CitationCache();
    c.put(ctx('not a date', 0.2));
    assert.equal(
      c.get('茶树农事操作.docx#1')?.score,
      0.2,
      'the first retrieval of a passage is kept whatever its date',
    );
    c.put(ctx('2020-01-01T00:00:00Z', 0.3));
    assert.equal(c.get('茶树农事操作.docx#1')?.score, 0.3);
    c.put(ctx('still not a date', 0.4));
    assert.equal(c.get('茶树农事操作.docx#1')?.score, 0.3);
  });

  it('keeps a copy: changing the context put afterwards changes nothing kept', () => {
    const c = new CitationCache();
    const x = ctx('2026-03-01T00:00:00Z');
    c.put(x);
    x.content = '改了';
    assert.equal(c.get(x.citation)?.content, '春茶采摘后及时修剪。');
  });

  it('has, delete and retain work per doc#idx', () => {
    const c = new CitationCache();
    c.put(ctx('2026-03-01T00:00:00Z'));
    c.put({ ...ctx('2026-03-01T00:00:00Z'), citation: 'b.docx#2' });
    assert.equal(c.has('b.docx#2'), true);
    assert.equal(c.has('c.docx#3'), false);
    c.retain(['b.docx#2', 'c.docx#3']);
    assert.equal(c.size, 1);
    assert.equal(c.has('茶树农事操作.docx#1'), false);
    assert.equal(c.delete('c.docx#3'), false);
    assert.equal(c.delete('b.docx#2'), true);
    assert.equal(c.size, 0);
  });

  it('the file is versioned and lists the entries sorted by doc#idx', () => {
    const c = new CitationCache();
    for (const citation of ['m.docx#1', 'b.docx#0', 'z.pdf#3', 'a.txt#9', 'q.md#2'])
      c.put({ ...ctx('2026-03-01T00:00:00Z'), citation });
    const data = c.toJSON();
    assert.equal(data.version, 1);
    assert.deepEqual(
      data.entries.map((e) => e.citation),
      ['a.txt#9', 'b.docx#0', 'm.docx#1', 'q.md#2', 'z.pdf#3'],
    );
  });

  it('an entry missing any text field, or whose score is not a finite number, is dropped', () => {
    const good = ctx('2026-01-01T00:00:00Z');
    const bad: unknown[] = [];
    for (const k of ['citation', 'kbCode', 'kbName', 'query', 'scoreType', 'retrievedAt', 'content'] as const) {
      bad.push({ ...good, [k]: undefined }, { ...good, [k]: 1 });
    }
    bad.push(
      { ...good, score: undefined },
      { ...good, score: '0.9' },
      { ...good, score: NaN },
      { ...good, score: Infinity },
    );
    for (const e of bad) assert.equal(CitationCache.fromJSON({ entries: [e] }).size, 0, JSON.stringify(e));
    assert.equal(CitationCache.fromJSON({ entries: [...bad, good] }).size, 1);
  });

  it('a file that is not an object, or whose entries are not a list, gives an empty cache', () => {
    for (const data of [undefined, null, 42, {}, { entries: {} }, { entries: 'abc' }])
      assert.equal(CitationCache.fromJSON(data).size, 0, JSON.stringify(data));
  });
});
