/** The byte order mark a file may begin with is dropped; nothing else is. */
import * as assert from 'node:assert/strict';
import { withoutBom } from '../../../src/text/bom';

describe('text: withoutBom', () => {
  it('drops one leading byte order mark and keeps everything else', () => {
    assert.equal(withoutBom('\uFEFF---\ntitle: x\n---\n'), '---\ntitle: x\n---\n');
    assert.equal(withoutBom('\uFEFF\uFEFF# T'), '\uFEFF# T', 'only the first: a second one is text');
    assert.equal(withoutBom('# T\uFEFF'), '# T\uFEFF', 'one elsewhere is text');
    assert.equal(withoutBom('# 标题'), '# 标题');
    assert.equal(withoutBom(''), '');
    assert.equal(withoutBom('\uFEFF'), '');
  });
});
