/**
 * Finding a bulletin's pictures for the export (src/publish/images.ts): where each `src` is looked
 * for, in order — beside the bulletin, from the workspace root, the file name in the recognition
 * copies' folder — which `src` are never read (web and other URIs), and what each miss is called.
 */
import * as assert from 'node:assert/strict';
import { loadImages, type ImageCandidate } from '../../../src/publish/images';
import { png } from '../recognition/fixtures';

const PNG = png(3, 2);

/** Loads `srcs` (one per line) with a reader that finds only `found` ("base:path"), recording each ask. */
async function load(srcs: string[], found: Record<string, Uint8Array> = {}) {
  const asked: string[] = [];
  const read = async (c: ImageCandidate): Promise<Uint8Array | undefined> => {
    asked.push(`${c.base}:${c.path}`);
    return found[`${c.base}:${c.path}`];
  };
  const r = await loadImages({ images: srcs.map((src, line) => ({ src, line })) }, read);
  return { ...r, asked };
}

describe('publish: the pictures of a bulletin', () => {
  it('looks beside the bulletin, then from the workspace root, then for the name among the recognition copies', async () => {
    assert.deepEqual((await load(['img/茶园/a.png'])).asked, [
      'document:img/茶园/a.png',
      'workspace:img/茶园/a.png',
      'saveFolder:a.png',
    ]);
    const r = await load(['img/a.png'], { 'workspace:img/a.png': PNG });
    assert.deepEqual(r.asked, ['document:img/a.png', 'workspace:img/a.png'], 'stops at the first found');
    assert.deepEqual(r.images.get('img/a.png'), { bytes: PNG, format: 'png', width: 3, height: 2 });
    assert.deepEqual(r.warnings, []);
  });

  it('a leading / means the workspace root only', async () => {
    assert.deepEqual((await load(['/img/a.png'])).asked, ['workspace:img/a.png', 'saveFolder:a.png']);
    assert.deepEqual((await load(['//img/a.png'])).asked, [], 'but // starts a web address');
  });

  it('reads the path as written: ./ dropped, backslashes as slashes, query and fragment cut, percent-decoded', async () => {
    const first = async (src: string): Promise<string | undefined> => (await load([src])).asked[0];
    assert.equal(await first('./img/a.png'), 'document:img/a.png');
    assert.equal(await first('././a.png'), 'document:a.png');
    assert.equal(await first('img\\a.png'), 'document:img/a.png');
    assert.equal(await first('a.png?v=2#top'), 'document:a.png');
    assert.equal(await first('a.png#x?y'), 'document:a.png');
    assert.equal(await first('%E8%8C%B6%E5%9B%AD.png'), 'document:茶园.png');
    assert.equal(await first('100%.png'), 'document:100%.png', 'a stray % stays as written');
    assert.equal(await first('img/./a.png'), 'document:img/./a.png', 'only a leading ./ is dropped');
    assert.equal(
      await first('photos/a1:b.png'),
      'document:photos/a1:b.png',
      'a colon after the first segment is no scheme',
    );
    assert.equal(await first('x/data:y.png'), 'document:x/data:y.png', 'nor is data: after the start');
    assert.equal(await first('x/data:image/png;base64,AAAA'), 'document:x/data:image/png;base64,AAAA', 'even base64');
    assert.deepEqual(
      (await load(['\\\\server\\a.png'])).asked,
      ['workspace:server/a.png', 'saveFolder:a.png'],
      'a UNC path from the root',
    );
  });

  it('nothing to look for: a src that is only slashes or ./ is a missing picture', async () => {
    for (const src of ['/', './', '?x']) {
      const r = await load([src]);
      assert.deepEqual(r.asked, [], src);
      assert.deepEqual(r.warnings, [{ code: 'image-missing', src, line: 0 }], src);
    }
  });

  it('never reads a web address or another URI: a web picture is remote, any other a missing one', async () => {
    const r = await load([
      'https://example.org/a.png',
      'HTTP://example.org/b.png',
      '//cdn.example/c.png',
      'ftp://x/d.png',
      'file:///e.png',
      'C:\\f.png',
    ]);
    assert.deepEqual(r.asked, []);
    assert.deepEqual(
      r.warnings.map((w) => w.code),
      ['image-remote', 'image-remote', 'image-remote', 'image-missing', 'image-missing', 'image-missing'],
    );
  });

  it('a data: URI carries its own bytes (base64 only)', async () => {
    const uri = `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`;
    const r = await load([uri, uri.replace('data:', 'DATA:').replace('base64', 'BASE64'), 'data:image/svg+xml,<svg/>']);
    assert.deepEqual(r.asked, []);
    assert.equal(r.images.get(uri)?.format, 'png');
    assert.equal(r.images.size, 2, 'the scheme and base64 in any case');
    assert.deepEqual(r.warnings, [{ code: 'image-missing', src: 'data:image/svg+xml,<svg/>', line: 2 }]);
  });

  it('bytes that are no picture it can embed are unsupported, named by the extension in lower case', async () => {
    const text = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const r = await load(['logo.SVG', 'a.tar.gz', 'noext'], {
      'document:logo.SVG': text,
      'document:a.tar.gz': text,
      'document:noext': text,
    });
    assert.deepEqual(
      r.warnings.map((w) => (w.code === 'image-unsupported' ? w.format : w.code)),
      ['svg', 'gz', '?'],
    );
  });

  it('each src is read once and warned about once, however often the bulletin shows it', async () => {
    const r = await load(['a.png', 'gone.png', 'a.png', 'gone.png'], { 'document:a.png': PNG });
    assert.deepEqual(r.asked, ['document:a.png', 'document:gone.png', 'workspace:gone.png', 'saveFolder:gone.png']);
    assert.equal(r.images.size, 1);
    assert.deepEqual(r.warnings, [{ code: 'image-missing', src: 'gone.png', line: 1 }]);
  });
});
