/** Markdown's line rules for line-by-line readers (src/text/lines.ts), as CommonMark states them. */
import * as assert from 'node:assert/strict';
import { closesFence, fenceOf, indentedAsCode } from '../../../src/text/lines';

describe('text/lines: fences and indented code', () => {
  it('opens a fence with three or more backticks or tildes, after up to three spaces', () => {
    assert.equal(fenceOf('```'), '```');
    assert.equal(fenceOf('   ~~~~ info'), '~~~~');
    assert.equal(fenceOf('```js'), '```');
    for (const line of ['``', '~~', '    ```', '正文 ```', '-```']) assert.equal(fenceOf(line), undefined, line);
  });

  it('closes it with the same character, at least as many, alone on the line', () => {
    assert.ok(closesFence('```', '```'));
    assert.ok(closesFence('  `````  ', '````'));
    for (const [line, fence] of [
      ['~~~', '```'],
      ['```', '~~~'],
      ['```', '````'],
      ['```js', '```'],
      ['正文', '```'],
    ])
      assert.equal(closesFence(line!, fence!), false, `${line} after ${fence}`);
  });

  it('reads four spaces or a tab at the start as indented code', () => {
    for (const line of ['    x', '\tx', '     x']) assert.ok(indentedAsCode(line), JSON.stringify(line));
    for (const line of ['   x', 'x    y']) assert.equal(indentedAsCode(line), false, JSON.stringify(line));
  });
});
