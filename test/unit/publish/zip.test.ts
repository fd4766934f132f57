/** The ZIP writer of the Word export, read back by JSZip with its CRC check on. */
import * as assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import fc from 'fast-check';
import JSZip from 'jszip';
import { tableCrc32, zip } from '../../../src/publish/zip';

describe('publish: ZIP archives', () => {
  it('round-trips any entries, deflated or stored, with UTF-8 names and the given time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.record({
            path: fc.stringMatching(/^[a-z茶园_]{1,8}(\/[a-z0-9]{1,8}\.xml)?$/),
            data: fc.oneof(fc.string(), fc.uint8Array({ maxLength: 3000 })),
            store: fc.boolean(),
          }),
          { selector: (e) => e.path, maxLength: 6 },
        ),
        async (entries) => {
          const bytes = await zip(entries, new Date('2026-12-01T08:30:10Z'));
          const back = await JSZip.loadAsync(bytes, { checkCRC32: true });
          const files = Object.values(back.files).filter((f) => !f.dir);
          assert.deepEqual(
            files.map((f) => f.name),
            entries.map((e) => e.path),
          );
          for (const e of entries) {
            const f = back.file(e.path)!;
            if (typeof e.data === 'string') assert.equal(await f.async('string'), e.data);
            else assert.deepEqual(await f.async('uint8array'), e.data);
            assert.equal(f.date.toISOString(), '2026-12-01T08:30:10.000Z');
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('deflates text and stores pictures', async () => {
    const text = '<w:p>春茶开采前后注意病虫害防治。</w:p>'.repeat(2000);
    const picture = new Uint8Array(5000).map((_, i) => (i * 7919) % 251);
    const bytes = await zip(
      [
        { path: 'word/document.xml', data: text },
        { path: 'word/media/image1.jpeg', data: picture, store: true },
      ],
      new Date(0),
    );
    assert.ok(bytes.length < picture.length + new TextEncoder().encode(text).length / 10, `${bytes.length} bytes`);
    const back = await JSZip.loadAsync(bytes, { checkCRC32: true });
    assert.equal(await back.file('word/document.xml')!.async('string'), text);
    assert.equal(new Date(back.file('word/media/image1.jpeg')!.date).getUTCFullYear(), 1980, 'no DOS date before 1980');
  });

  it('computes the CRC-32 without zlib the same as zlib (property)', () => {
    if (typeof zlib.crc32 !== 'function') return; // nothing to compare with on this Node
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (data) => tableCrc32(data) === zlib.crc32(data) >>> 0));
  });
});
