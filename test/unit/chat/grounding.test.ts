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

  it('a footnote definition is a line that starts with its label; `[^a]:` inside a line is a reference and a colon', () => {
    const g = groundParagraph('比例为1:2，见[^a]: 这是说明', allowed);
    assert.equal(g.text, '比例为1:2，见: 这是说明');
    assert.deepEqual(g.removed, ['[^a]']);
    assert.deepEqual(groundParagraph('正文\n  [^1]: 来源  ', allowed).removed, ['[^1]: 来源'], 'listed trimmed');
  });

  it('a key cited twice is kept once; what is removed leaves one blank line between paragraphs and no trailing blanks', () => {
    const g = groundParagraph('甲〔a#b.md#0〕乙〔a#b.md#0〕', allowed);
    assert.deepEqual(g.kept, ['a#b.md#0']);
    assert.equal(groundParagraph('第一段\n\n[^1]: 来源\n\n第二段', allowed).text, '第一段\n\n第二段');
    assert.equal(groundParagraph('一行 [^1]  \n下一行', allowed).text, '一行\n下一行', 'a single line break stays one');
  });

  it('the paragraph buffer: a leading blank line, several blank lines and blank-only paragraphs give nothing of their own', () => {
    assert.deepEqual(new ParagraphBuffer().push('\n\n段落一\n\n'), ['段落一']);
    assert.deepEqual(new ParagraphBuffer().push('a\n\n\n\nb\n\n'), ['a', 'b']);
    assert.deepEqual(
      new ParagraphBuffer().push('a\n\nb\nc\n\n'),
      ['a', 'b\nc'],
      'a line break inside a paragraph stays',
    );
    assert.deepEqual(new ParagraphBuffer().push('a\n\n  \n\nb\n\n'), ['a', 'b']);
    const rest = new ParagraphBuffer();
    rest.push('a\n\n  \n');
    assert.deepEqual(rest.flush(), [], 'blanks at the end are no paragraph');
  });

  it('runs: trimmed, none for blank text, and citations separated only by blanks are one group', () => {
    assert.deepEqual(runsOf('   '), []);
    assert.deepEqual(runsOf(' 茶树修剪 〔a#1〕'), [{ text: '茶树修剪', keys: ['a#1'] }]);
    assert.deepEqual(runsOf('修剪〔a#1〕 〔b#2〕。'), [
      { text: '修剪', keys: ['a#1', 'b#2'] },
      { text: '。', keys: [] },
    ]);
    assert.deepEqual(runsOf('无引用的文字'), [{ text: '无引用的文字', keys: [] }]);
  });
});
