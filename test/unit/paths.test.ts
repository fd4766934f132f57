import * as assert from 'node:assert/strict';
import { insideFolder } from '../../src/paths';

describe('insideFolder (a path that must stay inside the workspace folder)', () => {
  it('keeps relative paths inside, normalised with / separators', () => {
    assert.equal(insideFolder('images/recognition'), 'images/recognition');
    assert.equal(insideFolder('./a/./b/'), 'a/b/');
    assert.equal(insideFolder('a/../b.docx'), 'b.docx', 'a .. that stays inside');
    assert.equal(insideFolder('images\\tea.jpg'), 'images/tea.jpg', 'Windows separators');
    assert.equal(insideFolder('..hidden/x.png'), '..hidden/x.png', 'a name that starts with two dots');
    assert.equal(insideFolder('.'), '.');
  });

  it('refuses what climbs out, even through a folder inside', () => {
    for (const p of ['..', '../x', 'a/../../x', 'a\\..\\..\\x', '../ws-other/tea.jpg'])
      assert.equal(insideFolder(p), undefined, p);
  });

  it('refuses absolute paths, drive letters and UNC shares', () => {
    for (const p of ['/etc/passwd', '\\x', 'C:\\Users\\x', 'c:x', 'D:/x', '\\\\server\\share\\x'])
      assert.equal(insideFolder(p), undefined, p);
  });
});
