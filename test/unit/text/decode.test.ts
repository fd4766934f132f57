/**
 * A file's bytes read the way Chinese Windows saves them (issue: "Bulletins saved the way Chinese
 * Windows saves them"): UTF-8 with or without a BOM, UTF-16 LE / BE with a BOM, else GB18030;
 * anything else refused. The bytes are written by iconv-lite, an encoder independent of the
 * `TextDecoder` the reader uses.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { decodeText, encodingLabel, isMisdecoded } from '../../../src/text/decode';

const ADVISORY = '---\ntitle: 玉米螟防治意见\n---\n\n# 玉米螟防治意见\n\n亩用40%氧化乐果乳油50毫升兑水喷雾。€\n';

const bytes = (text: string, encoding: string, addBOM = false): Uint8Array =>
  new Uint8Array(iconv.encode(text, encoding, { addBOM }));

describe('text: decodeText', () => {
  it('reads each encoding a station saves in, without its byte order mark', () => {
    const gbk = ADVISORY.replace('€', ''); // GBK, GB18030's older subset, has no euro sign
    const cases: [Uint8Array, string, string, boolean][] = [
      [bytes(ADVISORY, 'utf8'), ADVISORY, 'utf-8', false],
      [bytes(ADVISORY, 'utf8', true), ADVISORY, 'utf-8', true],
      [bytes(ADVISORY, 'utf16le', true), ADVISORY, 'utf-16le', true],
      [bytes(ADVISORY, 'utf16be', true), ADVISORY, 'utf-16be', true],
      [bytes(ADVISORY, 'gb18030'), ADVISORY, 'gb18030', false],
      [bytes(gbk, 'gbk'), gbk, 'gb18030', false],
    ];
    for (const [input, text, encoding, bom] of cases)
      assert.deepEqual(decodeText(input), { ok: true, text, encoding, bom }, encoding);
  });

  it('prefers UTF-8 where the bytes are valid UTF-8 (ASCII, and UTF-8 Chinese)', () => {
    assert.deepEqual(decodeText(bytes('# Rice\n', 'utf8')), {
      ok: true,
      text: '# Rice\n',
      encoding: 'utf-8',
      bom: false,
    });
    assert.deepEqual(decodeText(new Uint8Array()), { ok: true, text: '', encoding: 'utf-8', bom: false });
    assert.equal((decodeText(bytes('稻飞虱', 'utf8')) as { encoding: string }).encoding, 'utf-8');
  });

  it('reads GB18030 whose bytes are also UTF-8 as GB18030 when UTF-8 would spell C1 controls', () => {
    // 聞 is C2 84 in GB18030: valid UTF-8 for U+0084, a control no text holds.
    assert.deepEqual(decodeText(bytes('聞', 'gb18030')), { ok: true, text: '聞', encoding: 'gb18030', bom: false });
    // The price: UTF-8 without a mark that holds nothing but such controls reads as GB18030; with its mark it is UTF-8.
    assert.deepEqual(decodeText(bytes('\u0084', 'utf8')), { ok: true, text: '聞', encoding: 'gb18030', bom: false });
    assert.deepEqual(decodeText(bytes('稻\u0084', 'utf8')), {
      ok: true,
      text: '稻\u0084',
      encoding: 'utf-8',
      bom: false,
    });
    assert.deepEqual(decodeText(bytes('\u0084', 'utf8', true)), {
      ok: true,
      text: '\u0084',
      encoding: 'utf-8',
      bom: true,
    });
  });

  it('takes a byte order mark only whole: text that merely starts with one of its bytes is read as it is', () => {
    // ！ is EF BC 81, ＿ EF BC BF, ﻀ EF BB 80 and 뻿 EB BB BF in UTF-8: some of a UTF-8 mark's bytes, not the mark.
    for (const text of ['！稻飞虱', '＿稻飞虱', '\uFEC0稻飞虱', '\uBEFF稻飞虱'])
      assert.deepEqual(decodeText(bytes(text, 'utf8')), { ok: true, text, encoding: 'utf-8', bom: false }, text);
    // 〓 is A1 FE and 兀 (U+FA0C) is FE 40 in GB18030: a UTF-16 mark's bytes, one of them only.
    for (const text of ['〓稻', '\uFA0C稻'])
      assert.deepEqual(decodeText(bytes(text, 'gb18030')), { ok: true, text, encoding: 'gb18030', bom: false }, text);
    assert.deepEqual(decodeText(new Uint8Array([0x41, 0xff])), { ok: false, reason: 'undecodable' });
  });

  it('reads GB18030 that holds a C1 control (its four-byte form) as GB18030', () => {
    assert.deepEqual(decodeText(bytes('稻\u0085', 'gb18030')), {
      ok: true,
      text: '稻\u0085',
      encoding: 'gb18030',
      bom: false,
    });
  });

  it('drops only the byte order mark: a second one is text', () => {
    const read = decodeText(bytes('\uFEFF# T', 'utf16le', true));
    assert.deepEqual(read, { ok: true, text: '\uFEFF# T', encoding: 'utf-16le', bom: true });
  });

  it('refuses bytes that are neither UTF-8 nor GB18030, and a byte order mark its bytes betray', () => {
    assert.deepEqual(decodeText(new Uint8Array([0x81, 0x20, 0x41])), { ok: false, reason: 'undecodable' });
    assert.deepEqual(decodeText(new Uint8Array([0xff, 0x41])), { ok: false, reason: 'undecodable' });
    // A UTF-8 mark before bytes that are not UTF-8 (GB18030 Chinese) is not read as GB18030.
    const marked = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('稻飞虱', 'gb18030')]);
    assert.deepEqual(decodeText(marked), { ok: false, reason: 'undecodable' });
    // UTF-16 LE with an unpaired surrogate's bytes cut in half.
    assert.deepEqual(decodeText(new Uint8Array([0xff, 0xfe, 0x41])), { ok: false, reason: 'undecodable' });
  });

  it('refuses text with NUL characters: a binary file, or UTF-16 saved without its mark', () => {
    assert.deepEqual(decodeText(bytes('# Rice', 'utf16le')), { ok: false, reason: 'binary' });
    assert.deepEqual(decodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00])), { ok: false, reason: 'binary' });
  });

  it('reads any text written in GB18030 back identically (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        fc.pre(!text.includes('\0') && !text.startsWith('\uFEFF'));
        const read = decodeText(bytes(text, 'gb18030'));
        assert.ok(read.ok, JSON.stringify(text));
        assert.equal(read.text, text);
      }),
    );
  });

  it('reads any text written in UTF-16 with its mark back identically, either byte order (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.constantFrom('utf16le', 'utf16be'), (text, encoding) => {
        fc.pre(!text.includes('\0'));
        const read = decodeText(bytes(text, encoding, true));
        assert.deepEqual(read, {
          ok: true,
          text,
          encoding: encoding === 'utf16le' ? 'utf-16le' : 'utf-16be',
          bom: true,
        });
      }),
    );
  });

  it('names the encodings as a message shows them', () => {
    assert.deepEqual((['utf-8', 'utf-16le', 'utf-16be', 'gb18030'] as const).map(encodingLabel), [
      'UTF-8',
      'UTF-16 LE',
      'UTF-16 BE',
      'GB18030',
    ]);
  });
});

describe('text: isMisdecoded', () => {
  it('tells a text an editor could not decode by its replacement characters', () => {
    assert.equal(isMisdecoded(new TextDecoder('utf-8').decode(bytes('玉米螟', 'gb18030'))), true);
    assert.equal(isMisdecoded('玉米螟'), false);
    assert.equal(isMisdecoded(''), false);
  });
});
