/**
 * A passage as the editor side cites it (src/citations/passage.ts): which values are passages (a
 * command argument or a drop payload is untrusted), its citation source, and its cache record
 * there and back.
 */
import * as assert from 'node:assert/strict';
import {
  PASSAGE_MIME,
  contextOf,
  isCitedPassage,
  passageOfContext,
  sourceOf,
  type CitedPassage,
} from '../../../src/citations/passage';

const passage: CitedPassage = {
  docName: '茶园管理手册#2025版',
  chunkIndex: 12,
  content: '春茶采摘前 20 天停止使用农药。',
  kbCode: 'tea',
  kbName: '茶叶知识库',
  query: '春茶 采摘 农药',
  score: 0.0325,
  scoreType: 'rrf',
  retrievedAt: '2026-12-04T08:00:00.000Z',
};

describe('citations: a cited passage', () => {
  it('travels as its own MIME type', () => {
    assert.equal(PASSAGE_MIME, 'application/vnd.shunong.passage+json');
  });

  it('a value with every field of the right type is a passage; chunk 0 is one', () => {
    assert.equal(isCitedPassage(passage), true);
    assert.equal(isCitedPassage({ ...passage, chunkIndex: 0 }), true);
    assert.equal(isCitedPassage(JSON.parse(JSON.stringify(passage))), true, 'as it arrives in a drop');
  });

  it('anything else is not: each field missing, of another type, or out of range', () => {
    for (const v of [undefined, null, 'tea#1', 12, []]) assert.equal(isCitedPassage(v), false, String(v));
    const keys = Object.keys(passage) as (keyof CitedPassage)[];
    for (const key of keys) {
      const { [key]: _gone, ...rest } = passage;
      assert.equal(isCitedPassage(rest), false, `without ${key}`);
      const other = typeof passage[key] === 'string' ? 1 : '1';
      assert.equal(isCitedPassage({ ...passage, [key]: other }), false, `${key} of another type`);
    }
    assert.equal(isCitedPassage({ ...passage, docName: '' }), false, 'an empty document name');
    assert.equal(isCitedPassage({ ...passage, chunkIndex: -1 }), false, 'a negative chunk');
    assert.equal(isCitedPassage({ ...passage, chunkIndex: 1.5 }), false, 'a fractional chunk');
  });

  it('its source names the document, the chunk and the knowledge base', () => {
    assert.deepEqual(sourceOf(passage), {
      docName: '茶园管理手册#2025版',
      chunkIndex: 12,
      kbName: '茶叶知识库',
      kbCode: 'tea',
    });
  });

  it('its cache record is keyed by doc_name#chunk_index and keeps the retrieval context', () => {
    assert.deepEqual(contextOf(passage), {
      citation: '茶园管理手册#2025版#12',
      kbCode: 'tea',
      kbName: '茶叶知识库',
      query: '春茶 采摘 农药',
      score: 0.0325,
      scoreType: 'rrf',
      retrievedAt: '2026-12-04T08:00:00.000Z',
      content: '春茶采摘前 20 天停止使用农药。',
    });
  });

  it('comes back from its cache record whole, a "#" in the document name included (the last "#" splits)', () => {
    assert.deepEqual(passageOfContext(contextOf(passage)), passage);
    assert.deepEqual(passageOfContext(contextOf({ ...passage, chunkIndex: 0 }))?.chunkIndex, 0);
  });

  it('a record whose citation has no document name, or no canonical chunk index, gives no passage', () => {
    const record = contextOf(passage);
    for (const citation of [
      '#12',
      ' #12',
      'tea',
      'tea#',
      'tea# 1',
      'tea#0x1',
      'tea#1e1',
      'tea#-1',
      'tea#1.5',
      'tea#x',
      'tea#07',
    ]) {
      assert.equal(passageOfContext({ ...record, citation }), undefined, citation);
    }
  });
});
