import assert from 'node:assert/strict';
import { formatMessage, messagesEn, msg, type MessageKey } from '../../../src/knowledge/messages';
import { messagesZhCn } from '../../support/knowledgeMessagesZh';

const placeholders = (template: string): number[] =>
  [...new Set([...template.matchAll(/\{(\d+)\}/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);

describe('knowledge/messages', () => {
  it('has every key in both catalogues, with the same placeholders', () => {
    assert.deepEqual(Object.keys(messagesZhCn).sort(), Object.keys(messagesEn).sort());
    for (const key of Object.keys(messagesEn) as MessageKey[]) {
      assert.ok(messagesEn[key].trim() !== '' && messagesZhCn[key].trim() !== '', key);
      assert.deepEqual(placeholders(messagesZhCn[key]), placeholders(messagesEn[key]), key);
      const used = placeholders(messagesEn[key]);
      assert.deepEqual(
        used,
        used.map((_, i) => i),
        `${key}: placeholders are 0..n-1`,
      );
    }
  });

  it('formats args and leaves missing ones visible', () => {
    assert.equal(formatMessage(msg('counts.vector', 32)), 'Vector candidates: 32');
    assert.equal(formatMessage(msg('counts.vector', 32), messagesZhCn), '向量候选：32');
    assert.equal(formatMessage(msg('miss.candidates', 1)), 'Candidates: 1 vector / {1} full-text.');
    const eleven = { key: 'miss.title' as MessageKey, args: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 'ten'] };
    assert.equal(
      formatMessage(eleven, { ...messagesEn, 'miss.title': '{10} {1}' }),
      'ten 1',
      'placeholders of two digits',
    );
  });

  it('never calls an RRF score a percentage or a confidence, except to say it is not one', () => {
    for (const found of ['both', 'one', 'vector', 'fulltext', 'unknown'] as const) {
      assert.ok(!/%|confiden/.test(messagesEn[`score.rrf.${found}`]));
      assert.ok(!/%|置信/.test(messagesZhCn[`score.rrf.${found}`]));
    }
    for (const found of ['both', 'one', 'vector', 'fulltext'] as const) {
      assert.match(messagesEn[`score.rrf.${found}`], /likely/);
      assert.match(messagesZhCn[`score.rrf.${found}`], /可能/);
    }
    assert.match(messagesEn['score.note.rrf'], /not a percentage and not a confidence/);
    assert.match(messagesZhCn['score.note.rrf'], /不是百分比/);
  });
});
