import * as assert from 'node:assert/strict';
import { groundParagraph, ParagraphBuffer, runsOf } from '../../../src/chat/grounding';

const allowed = new Set(['小麦栽培技术规程.pdf#3', 'a#b.md#0']);

describe('chat grounding', () => {
  it('keeps a citation the tools returned and removes an invented one, with its space', () => {
    const g = groundParagraph('拔节期追施氮肥〔小麦栽培技术规程.pdf#3〕，并浇水 〔编造的文献.pdf#9〕。', allowed);
    assert.equal(g.text, '拔节期追施氮肥〔小麦栽培技术规程.pdf#3〕，并浇水。');
    assert.deepEqual(g.kept, ['小麦栽培技术规程.pdf#3']);
    assert.deepEqual(g.removed, ['〔编造的文献.pdf#9〕']);
  });

  it('reads a key split at its last #, with spaces or a full-width ＃ normalised', () => {
    const g = groundParagraph('A〔 a#b.md＃0 〕 B〔a#b.md#1〕', allowed);
    assert.equal(g.text, 'A〔a#b.md#0〕 B');
    assert.deepEqual(g.kept, ['a#b.md#0']);
    assert.deepEqual(g.removed, ['〔a#b.md#1〕']);
  });

  it('removes footnote references and definitions (not the syntax the model is given)', () => {
    const g = groundParagraph('追肥[^1]。\n[^1]: 小麦栽培技术规程.pdf#3', allowed);
    assert.equal(g.text, '追肥。');
    assert.deepEqual(g.removed, ['[^1]: 小麦栽培技术规程.pdf#3', '[^1]']);
  });

  it('removes footnotes whatever their label: letters and words are held to the rule numbers are', () => {
    const g = groundParagraph(
      '追肥[^a]，浇水[^note-1]，中耕[^茶]。\n[^a]: 小麦栽培技术规程.pdf#3\n[^note-1]: 编造的文献.pdf#9',
      allowed,
    );
    assert.equal(g.text, '追肥，浇水，中耕。');
    assert.deepEqual(g.kept, []);
    assert.deepEqual(g.removed, [
      '[^a]: 小麦栽培技术规程.pdf#3',
      '[^note-1]: 编造的文献.pdf#9',
      '[^a]',
      '[^note-1]',
      '[^茶]',
    ]);
  });

  it('with nothing returned this turn, every citation goes', () => {
    const g = groundParagraph('X〔小麦栽培技术规程.pdf#3〕', new Set());
    assert.equal(g.text, 'X');
    assert.equal(g.removed.length, 1);
  });

  it('buffers whole paragraphs: a citation split across fragments is checked whole', () => {
    const b = new ParagraphBuffer();
    assert.deepEqual(b.push('第一段〔小麦栽培'), []);
    assert.deepEqual(b.push('技术规程.pdf#3〕。\n'), []);
    assert.deepEqual(b.push('\n第二段'), ['第一段〔小麦栽培技术规程.pdf#3〕。']);
    assert.deepEqual(b.push('还在写\r\n\r\n\n'), ['第二段还在写']);
    assert.deepEqual(b.flush(), []);
    b.push('尾巴');
    assert.deepEqual(b.flush(), ['尾巴']);
  });

  it('splits a grounded paragraph into runs, each with the keys cited after it', () => {
    assert.deepEqual(runsOf('甲〔k#1〕〔k#2〕乙\n丙〔k#3〕丁'), [
      { text: '甲', keys: ['k#1', 'k#2'] },
      { text: '乙 丙', keys: ['k#3'] },
      { text: '丁', keys: [] },
    ]);
    assert.deepEqual(runsOf('没有引用'), [{ text: '没有引用', keys: [] }]);
  });
});
