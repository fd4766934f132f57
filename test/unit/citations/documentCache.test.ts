import assert from 'node:assert/strict';
import { DocumentCache } from '../../../src/citations/documentCache';

describe('citations/documentCache (per-document values, bounded)', () => {
  it('answers only for the version it was computed from', () => {
    const c = new DocumentCache<string>();
    c.set('file:///a.md', 1, 'model-1');
    assert.equal(c.get('file:///a.md', 1), 'model-1');
    assert.equal(c.get('file:///a.md', 2), undefined, 'another version is a miss');
    c.set('file:///a.md', 2, 'model-2');
    assert.equal(c.get('file:///a.md', 1), undefined, 'the older version is replaced');
    assert.equal(c.get('file:///a.md', 2), 'model-2');
    assert.equal(c.size, 1, 'one entry per document');
  });

  it('keeps at most `limit` documents, dropping the least recently used', () => {
    const c = new DocumentCache<number>(3);
    for (const [i, k] of ['a', 'b', 'c'].entries()) c.set(k, 1, i);
    assert.equal(c.get('a', 1), 0, 'reading "a" makes it the most recent');
    c.set('d', 1, 3);
    assert.equal(c.size, 3);
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].filter((k) => c.has(k)),
      ['a', 'c', 'd'],
      '"b", the least recently used, went',
    );
    c.set('c', 2, 4);
    c.set('e', 1, 5);
    assert.deepEqual(
      ['a', 'c', 'd', 'e'].filter((k) => c.has(k)),
      ['c', 'd', 'e'],
      'writing "c" again made it recent; "a" went',
    );
    for (let i = 0; i < 1000; i++) c.set(`file:///many/${i}.md`, 1, i);
    assert.equal(c.size, 3, 'never more than the limit');
  });

  it('forgets a document, or a deleted folder and everything under it', () => {
    const c = new DocumentCache<number>();
    for (const k of ['file:///w/a.md', 'file:///w/docs/b.md', 'file:///w/docs/sub/c.md', 'file:///w/docs-old/d.md'])
      c.set(k, 1, 0);
    assert.equal(c.delete('file:///w/a.md'), true);
    assert.equal(c.delete('file:///w/a.md'), false, 'already gone');
    assert.equal(c.deleteUnder('file:///w/docs'), 2);
    assert.deepEqual(
      ['file:///w/docs/b.md', 'file:///w/docs/sub/c.md', 'file:///w/docs-old/d.md'].map((k) => c.has(k)),
      [false, false, true],
      'a sibling whose name only starts the same is kept',
    );
    assert.equal(c.deleteUnder('file:///w/docs-old/d.md'), 1, 'a file is its own folder');
    assert.equal(c.size, 0);
  });

  it('a folder given with its final slash: what lies under it', () => {
    const c = new DocumentCache<number>();
    for (const k of ['file:///w/docs/b.md', 'file:///w/docs-old/d.md']) c.set(k, 1, 0);
    assert.equal(c.deleteUnder('file:///w/docs/'), 1);
    assert.deepEqual([c.has('file:///w/docs/b.md'), c.has('file:///w/docs-old/d.md')], [false, true]);
  });

  it('refuses a limit below 1, saying what it was given; a limit of 1 keeps one document', () => {
    assert.throws(() => new DocumentCache(0), { name: 'RangeError', message: 'limit must be at least 1, got 0' });
    const one = new DocumentCache<number>(1);
    one.set('file:///a.md', 1, 1);
    one.set('file:///b.md', 1, 2);
    assert.deepEqual([one.has('file:///a.md'), one.get('file:///b.md', 1)], [false, 2]);
  });
});
