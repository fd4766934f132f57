import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  formatCitation,
  formatDefinition,
  formatInlineCitation,
  parseCitation,
  parseRawCitation,
} from '../../../src/citations';
import { parseDefinitionBody } from '../../../src/citations/citation';
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
});
