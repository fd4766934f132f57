/** The blocks the safety lint reads (src/safety/blocks.ts): prose only, each under its headings. */
import assert from 'node:assert/strict';
import { blocksOf } from '../../../src/safety/blocks';

/** [text, headings, heading] of each block, after checking that each starts where its text is. */
const blocks = (text: string): [string, readonly string[], boolean][] =>
  blocksOf(text).map((b) => {
    assert.equal(text.slice(b.start, b.start + b.text.length), b.text, `${b.start}`);
    return [b.text, b.headings, b.heading];
  });

describe('safety/blocks: a bulletin cut into blocks, without a Markdown parser', () => {
  it('gives each block the headings above it, outermost first; a heading ends the sections at its level', () => {
    assert.deepEqual(blocks('# 茶园\n\n## 春季\n\n段落一\n续行\n\n### 病虫\n\n- 项一\n\n## 夏季\n\n段落二'), [
      ['# 茶园', [], true],
      ['## 春季', ['茶园'], true],
      ['段落一\n续行', ['茶园', '春季'], false],
      ['### 病虫', ['茶园', '春季'], true],
      ['- 项一', ['茶园', '春季', '病虫'], false],
      ['## 夏季', ['茶园'], true],
      ['段落二', ['茶园', '夏季'], false],
    ]);
    assert.deepEqual(
      blocks('# H1\n### H3\n段\n## H2\n段2'),
      [
        ['# H1', [], true],
        ['### H3', ['H1'], true],
        ['段', ['H1', 'H3'], false],
        ['## H2', ['H1'], true],
        ['段2', ['H1', 'H2'], false],
      ],
      'a skipped level leaves no empty heading',
    );
  });

  it('reads ATX headings of one to six #, with up to three spaces before and closing #s dropped', () => {
    assert.deepEqual(blocks('   ## 三空格 ##  \n段'), [
      ['   ## 三空格 ##  ', [], true],
      ['段', ['三空格'], false],
    ]);
    assert.deepEqual(blocks('#\n段'), [
      ['#', [], true],
      ['段', [], false],
    ]);
    assert.deepEqual(blocks('#B\n####### 七'), [['#B\n####### 七', [], false]], 'no space, or seven: a paragraph');
    assert.deepEqual(blocks('    # 代码'), [], 'four spaces: code');
  });

  it('starts a block at each list item, quote line and table row, even without a blank line', () => {
    assert.deepEqual(blocks('段\n1. 一\n2) 二\n123456789. 长\n+ 加\n* 星\n-不是'), [
      ['段', [], false],
      ['1. 一', [], false],
      ['2) 二', [], false],
      ['123456789. 长', [], false],
      ['+ 加', [], false],
      ['* 星\n-不是', [], false],
    ]);
    assert.deepEqual(blocks('1234567890. 长\n段'), [['1234567890. 长\n段', [], false]], 'ten digits: not a list');
    assert.deepEqual(blocks('> 引用\n> 二'), [
      ['> 引用', [], false],
      ['> 二', [], false],
    ]);
    assert.deepEqual(blocks('| a | b |\n| --- | --- |\n| 克百威 | x |\n续'), [
      ['| a | b |', [], false],
      ['| --- | --- |', [], false],
      ['| 克百威 | x |', [], false],
      ['续', [], false],
    ]);
  });

  it('leaves out fenced code; a fence closes only with its own character, at least as long, alone on its line', () => {
    assert.deepEqual(blocks('```\n克百威\n~~~\n```js\n````\n正文'), [['正文', [], false]]);
    assert.deepEqual(blocks('~~~~\n克百威\n~~~\n~~~~~\n正文\n```\n克百威'), [['正文', [], false]]);
    assert.deepEqual(blocks('正文 ``` 正文\n续'), [['正文 ``` 正文\n续', [], false]], 'backticks inside a line');
  });

  it('starts a block only at a marker at the line start, and reads a table row only from a line starting with |', () => {
    for (const line of ['续 - 行', '续- 行', '续 | 行', '续|行', '续 > 行', '续 1. 行'])
      assert.deepEqual(blocks(`段落\n${line}`), [[`段落\n${line}`, [], false]], line);
    assert.deepEqual(blocks('段落\n  | a |'), [
      ['段落', [], false],
      ['  | a |', [], false],
    ]);
    for (const row of ['甲 | 乙', '甲|乙']) assert.deepEqual(blocks(`${row}\n丙`), [[`${row}\n丙`, [], false]], row);
  });

  it('ends a block at a line of spaces too', () => {
    assert.deepEqual(blocks('段一\n   \n段二'), [
      ['段一', [], false],
      ['段二', [], false],
    ]);
  });

  it('reads a heading without the spaces around it or its closing #s; a higher heading ends a lower one begun first', () => {
    assert.deepEqual(blocks('##  两空格  ##\n段'), [
      ['##  两空格  ##', [], true],
      ['段', ['两空格'], false],
    ]);
    assert.deepEqual(blocks('### 三级\n## 二级\n段'), [
      ['### 三级', [], true],
      ['## 二级', [], true],
      ['段', ['二级'], false],
    ]);
  });

  it('leaves out indented code, but not the continuation of a paragraph', () => {
    assert.deepEqual(blocks('段落\n    续行\n\n    代码\n\n\t代码'), [['段落\n    续行', [], false]]);
  });

  it('keeps the offsets of CRLF text and leaves the \\r out of the text', () => {
    assert.deepEqual(
      blocksOf('a\r\nb\r\n\r\nc\r\n').map((b) => b.start),
      [0, 8],
    );
    assert.deepEqual(blocks('a\r\nb\r\n\r\nc\r\n'), [
      ['a\r\nb', [], false],
      ['c', [], false],
    ]);
    for (const [text] of blocks('# 标题\r\n\r\n段落\r\n')) assert.ok(!text.endsWith('\r'), text);
  });
});
