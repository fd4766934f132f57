/** A passage on one line: its first line, the rest as a snippet, its citation text; in plain Node. */
import * as assert from 'node:assert/strict';
import { citationText, firstLine, snippetRest } from '../../../src/knowledge/snippet';

const passage = {
  docName: '茶园管理.docx',
  chunkIndex: 3,
  content: '\n  夏季修剪  \n\n修剪在春茶后进行，剪去树冠面 3–5 cm。\n',
  kbCode: 'TEA_MANAGER_001',
  kbName: '茶树管理',
  query: '茶树修剪',
  score: 0.0325,
  scoreType: 'rrf',
  retrievedAt: '2026-10-25T13:06:13Z',
};

describe('passage snippets', () => {
  it('the citation names the chunk, then the base by name and code', () => {
    assert.equal(citationText(passage), '茶园管理.docx#3 — 茶树管理 (TEA_MANAGER_001)');
  });

  it('the first line is the first non-empty one, trimmed, cut with an ellipsis', () => {
    assert.equal(firstLine(passage.content), '夏季修剪');
    assert.equal(firstLine('\n\n'), '');
    assert.equal(firstLine('abcdefghij', 5), 'abcd…');
    assert.equal(firstLine('abcde', 5), 'abcde');
  });

  it('the rest follows the first line on one line, cut to its length', () => {
    assert.equal(snippetRest(passage.content), '修剪在春茶后进行，剪去树冠面 3–5 cm。');
    assert.equal(snippetRest('one line only'), '');
    assert.equal(snippetRest('abcdefghij klm', 5), 'efghij klm');
    assert.equal(snippetRest(`head\n${'x'.repeat(200)}`, 80, 10), `${'x'.repeat(9)}…`);
    assert.equal(snippetRest(`head\n${'x'.repeat(10)}`, 80, 10), 'x'.repeat(10), 'exactly its length: not cut');
    assert.equal(snippetRest('head\nab  \t cd'), 'ab cd', 'runs of spaces are one');
    assert.equal(snippetRest('等等…其他\n下文'), '下文', 'an ellipsis inside the first line is its own text');
  });
});
