import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  formatCitation,
  formatDefinition,
  formatInlineCitation,
  parseCitation,
  parseRawCitation,
} from '../../../src/citations';
import { citationKey, isOurLabel, parseDefinitionBody, unescapeMarkdown } from '../../../src/citations/citation';
import { definitionName as escapeDocName } from '../../../src/text/markdown';
import { anyText, flat, source } from './helpers';

describe('citations/citation', () => {
  it('parses doc#idx at the last #', () => {
    assert.deepEqual(parseCitation('茶树农事操作.docx#1'), {
      ok: true,
      citation: { docName: '茶树农事操作.docx', chunkIndex: 1 },
    });
    assert.deepEqual(parseCitation('a#b#0'), { ok: true, citation: { docName: 'a#b', chunkIndex: 0 } });
    for (const bad of ['a.docx', 'a#', 'a#-1', 'a#01', 'a#1.5', '#3', 'a# 1', 'a#99999999999999999999']) {
      assert.equal(parseCitation(bad).ok, false, bad);
    }
  });

  it('formats the definition of DESIGN.md', () => {
    assert.equal(
      formatDefinition('1', {
        docName: '茶树农事操作.docx',
        chunkIndex: 1,
        kbName: '茶树管理',
        kbCode: 'TEA_MANAGER_001',
      }),
      '[^1]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)',
    );
    assert.equal(escapeDocName('a[b]\\c\nd\te'), 'a\\[b\\]\\\\c d e');
    assert.equal(escapeDocName('# h'), '\\# h');
    assert.equal(formatInlineCitation({ docName: 'x|〔y〕', chunkIndex: 2 }), '〔x\\|&#x3014;y&#x3015;#2〕');
  });

  it('escapes Markdown, HTML, bare URLs and bidi controls in every field, and reads them back', () => {
    const cases: [string, string][] = [
      ['2026 _草稿_ 茶树*重点*.docx', '2026 \\_草稿\\_ 茶树\\*重点\\*.docx'],
      ['R&amp;D<br>报告.pdf', 'R\\&amp;D\\<br\\>报告.pdf'],
      ['R&D `x` ~y~ a@b.cn', 'R&D \\`x\\` \\~y\\~ a\\@b.cn'],
      ['https://a.cn www.b.cn', 'https:\\//a.cn www\\.b.cn'],
      ['\u202egnp.exe', '&#x202E;gnp.exe'],
      ['  - x', '&#32;&#32;\\- x'],
    ];
    for (const [name, written] of cases) {
      assert.equal(escapeDocName(name), written);
      assert.deepEqual(parseRawCitation(`${written}#1`), { ok: true, citation: { docName: name, chunkIndex: 1 } });
    }
    const def = formatDefinition('1', { docName: 'a', chunkIndex: 0, kbName: '*茶* <b>', kbCode: 'TEA_MANAGER_001' });
    assert.equal(def, '[^1]: a#0 — \\*茶\\* \\<b\\> (TEA_MANAGER_001)');
  });

  it('a bidi control in kb_name or kb_code keeps the definition ours (its reference holds a `#`)', () => {
    for (const kb of [
      { kbName: 'w\u202e', kbCode: 'w' },
      { kbName: '茶', kbCode: '\u2066TEA' },
    ]) {
      const body = formatDefinition('1', { docName: 'a.docx', chunkIndex: 3, ...kb }).slice('[^1]:'.length);
      const read = parseDefinitionBody(body);
      assert.ok(read, body);
      assert.deepEqual(read.parsed, { ok: true, citation: { docName: 'a.docx', chunkIndex: 3 } });
      assert.deepEqual([read.kbName, read.kbCode], [kb.kbName, kb.kbCode]);
    }
  });

  it('formatCitation → parseRawCitation round-trips any doc name', () => {
    fc.assert(
      fc.property(
        anyText.filter((s) => s.trim() !== ''),
        fc.nat(),
        (docName, chunkIndex) => {
          const r = parseRawCitation(formatCitation({ docName, chunkIndex }));
          assert.ok(r.ok);
          assert.deepEqual(r.citation, { docName: flat(docName), chunkIndex });
          const inline = formatInlineCitation({ docName, chunkIndex });
          const ri = parseRawCitation(inline.slice(1, -1));
          assert.ok(ri.ok);
          assert.deepEqual(ri.citation, { docName: flat(docName), chunkIndex });
        },
      ),
    );
  });

  it('a definition body gives back every field', () => {
    fc.assert(
      fc.property(source, (s) => {
        const line = formatDefinition('3', s);
        const body = parseDefinitionBody(line.slice('[^3]:'.length));
        assert.ok(body && body.parsed.ok);
        assert.deepEqual(body.parsed.citation, { docName: flat(s.docName), chunkIndex: s.chunkIndex });
        assert.equal(body.kbName, flat(s.kbName));
        assert.equal(body.kbCode, flat(s.kbCode));
      }),
    );
  });

  it('bodies of other shapes are the author’s', () => {
    for (const b of [' 作者自己的注释', ' see a.docx#1', ' Smith — 2020 (p. 3)', ' a.docx#1 — kb'])
      assert.equal(parseDefinitionBody(b), undefined, b);
    const bad = parseDefinitionBody(' a.docx#x — kb (K)');
    assert.ok(bad && !bad.parsed.ok);
  });

  it('a failure names its reason, the text it is about, and says it in English', () => {
    assert.deepEqual(parseCitation('a.docx'), {
      ok: false,
      error: 'missing-hash',
      subject: 'a.docx',
      message: '"a.docx" has no "#<chunk_index>"',
    });
    assert.deepEqual(parseCitation(' \u3000#3'), {
      ok: false,
      error: 'empty-doc-name',
      subject: ' \u3000#3',
      message: '" \u3000#3" has an empty doc_name',
    });
    assert.equal((parseCitation('#3') as { error?: string }).error, 'empty-doc-name', 'a # first is the separator');
    assert.deepEqual(parseRawCitation('&#32;#3'), {
      ok: false,
      error: 'empty-doc-name',
      subject: ' #3',
      message: '" #3" has an empty doc_name',
    });
    assert.deepEqual(parseCitation('a#b#01'), {
      ok: false,
      error: 'bad-chunk-index',
      subject: '01',
      message: '"01" is not a non-negative integer chunk_index',
    });
    assert.deepEqual(parseCitation(`a#${Number.MAX_SAFE_INTEGER}`), {
      ok: true,
      citation: { docName: 'a', chunkIndex: Number.MAX_SAFE_INTEGER },
    });
    assert.equal(parseCitation(`a#${Number.MAX_SAFE_INTEGER + 1}`).ok, false, 'past the largest safe integer');
    assert.equal(citationKey({ docName: 'a#b', chunkIndex: 7 }), 'a#b#7');
  });

  it('a backslash escapes exactly the ASCII punctuation characters (CommonMark); before anything else it is kept', () => {
    // CommonMark 0.31, "Backslash escapes": any ASCII punctuation character may be backslash-escaped.
    const punctuation = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
    for (let code = 0; code < 0x80; code++) {
      const ch = String.fromCharCode(code);
      const expected = punctuation.has(ch) ? ch : `\\${ch}`;
      assert.equal(unescapeMarkdown(`\\${ch}x`), `${expected}x`, `U+${code.toString(16)}`);
    }
    for (const other of ['茶', '〔', '\u00a1', '\u2014']) assert.equal(unescapeMarkdown(`\\${other}`), `\\${other}`);
    assert.equal(unescapeMarkdown('a\\'), 'a\\', 'a backslash at the end is itself');
    assert.equal(unescapeMarkdown('\\\\\\*'), '\\*', 'an escaped backslash does not escape what follows');
  });

  it('the character references the escaper writes are read back, the text around them kept; others stay as written', () => {
    assert.equal(unescapeMarkdown('&#32;a&#96;b&#x3014;c&#x3015;d&#x202E;e&#x2066;f'), ' a`b〔c〕d\u202ee\u2066f');
    for (const kept of ['&amp;', '&#33;', '&#x3016;', '&#32', '&#x3014', '&'])
      assert.equal(unescapeMarkdown(`x${kept}y`), `x${kept}y`, kept);
  });

  it('a raw citation splits at its last # that is neither escaped nor inside a character reference', () => {
    assert.deepEqual(parseRawCitation('a\\#b#3'), { ok: true, citation: { docName: 'a#b', chunkIndex: 3 } });
    assert.deepEqual(parseRawCitation('a#b#3'), { ok: true, citation: { docName: 'a#b', chunkIndex: 3 } });
    assert.deepEqual(parseRawCitation('&#x202E;a#3'), { ok: true, citation: { docName: '\u202ea', chunkIndex: 3 } });
    for (const reference of ['&#x202E;', '&#32;', '&#96;', '&#x3014;', '&#x3015;']) {
      const noSeparator = parseRawCitation(`a${reference}`);
      assert.ok(!noSeparator.ok);
      assert.equal(noSeparator.error, 'missing-hash', `the # of ${reference} is not the separator`);
    }
    assert.deepEqual(
      parseRawCitation('a\\#3'),
      { ok: true, citation: { docName: 'a', chunkIndex: 3 } },
      'without an unescaped #, the text as it reads',
    );
    const escaped = parseRawCitation('a#1\\#2');
    assert.ok(!escaped.ok);
    assert.deepEqual(
      [escaped.error, escaped.subject],
      ['bad-chunk-index', '1\\#2'],
      'the chunk index is read as written',
    );
  });

  it('a definition body: where its citation sits, blanks around it, and the parentheses of kb_code', () => {
    const spaced = parseDefinitionBody(' a.docx#1 — kb (K)  ');
    assert.ok(spaced);
    assert.deepEqual(
      [spaced.citationRaw, spaced.citationStart, spaced.citationEnd, spaced.kbName, spaced.kbCode],
      ['a.docx#1', 1, 9, 'kb', 'K'],
    );
    const tight = parseDefinitionBody('a.docx#1 — kb (K)');
    assert.deepEqual([tight?.citationStart, tight?.citationEnd], [0, 8]);
    const nested = parseDefinitionBody(' a#1 — \\*kb\\* (K\\(1\\))');
    assert.deepEqual([nested?.kbName, nested?.kbCode], ['*kb*', 'K(1)']);
    const dashes = parseDefinitionBody(' a — b#1 — kb (K)');
    assert.deepEqual(
      [dashes?.citationRaw, dashes?.kbName],
      ['a — b#1', 'kb'],
      'the separator is the first after the last #',
    );
    for (const notOurs of [
      ' a#1 — kb (K\\)',
      ' a#1 — kb K)',
      ' a#1 — kb(K)',
      '(K)',
      ' a — kb (K)',
      ' a\\#1 — kb (K)',
      ' a#1 — kb (K) x',
      ' a#1 -- kb (K)',
    ])
      assert.equal(parseDefinitionBody(notOurs), undefined, notOurs);
  });

  it('our labels are positive integers of at most nine digits without a leading zero', () => {
    for (const label of ['1', '9', '10', '123456789']) assert.equal(isOurLabel(label), true, label);
    for (const label of ['0', '01', '1234567890', 'a', '1a', 'a1', '', '-1', '1.0', '١'])
      assert.equal(isOurLabel(label), false, label);
  });
});
