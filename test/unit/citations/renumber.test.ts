import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runs } from '../fast-check-seed';
import { analyzeDocument, applyEdits, lint, renumber } from '../../../src/citations';
import { deleteLines } from '../../../src/citations/renumber';
import { LineIndex } from '../../../src/citations/positions';
import { bulletin, skeleton } from './helpers';

const doc = [
  'Intro [^3] and [^a] then [^1], again [^3], and [^5] `[^9]`.',
  '',
  '```',
  '[^4] in code',
  '```',
  '',
  '[^a]: author note',
  '[^2]: author two',
  '',
  '## 参考资料',
  '',
  '[^1]: a.docx#1 — kb (K)',
  '[^3]: b.docx#2 — kb (K)',
  '[^4]: c.docx#7 — kb (K)',
  '[^5]: a.docx#1 — kb (K)',
  '',
].join('\n');

describe('citations/renumber', () => {
  it('numbers by first use, skips author labels, sorts definitions, merges duplicates, reports unused', () => {
    const r = renumber(doc);
    assert.deepEqual(r.unused, ['4']);
    assert.deepEqual(r.mapping, { '1': '3', '3': '1', '4': '4', '5': '3' });
    const out = applyEdits(doc, r.edits);
    assert.equal(
      out,
      doc
        .replace(
          'Intro [^3] and [^a] then [^1], again [^3], and [^5]',
          'Intro [^1] and [^a] then [^3], again [^1], and [^3]',
        )
        .replace(
          '[^1]: a.docx#1 — kb (K)\n[^3]: b.docx#2 — kb (K)\n[^4]: c.docx#7 — kb (K)\n[^5]: a.docx#1 — kb (K)\n',
          '[^1]: b.docx#2 — kb (K)\n[^3]: a.docx#1 — kb (K)\n[^4]: c.docx#7 — kb (K)\n',
        ),
    );
    assert.deepEqual(renumber(out).edits, []);
    const removed = applyEdits(doc, renumber(doc, { removeUnused: true }).edits);
    assert.ok(!removed.includes('c.docx#7'));
  });

  it('removes an unused definition on the last line of a file without a final line break (LF and CRLF)', () => {
    for (const eol of ['\n', '\r\n']) {
      const kept = '[^1]: a.docx#1 — kb (K)';
      const text = ['正文[^1]。', '', '## 参考资料', '', kept, '[^2]: b.docx#2 — kb (K)'].join(eol);
      const r = renumber(text, { removeUnused: true });
      assert.deepEqual(r.unused, ['2']);
      assert.equal(
        applyEdits(text, r.edits),
        ['正文[^1]。', '', '## 参考资料', '', kept].join(eol),
        JSON.stringify(eol),
      );
      const fix = lint(text).find((p) => p.code === 'unused-definition')!.fix!;
      assert.equal(
        applyEdits(text, fix.edits),
        ['正文[^1]。', '', '## 参考资料', '', kept].join(eol),
        JSON.stringify(eol),
      );
    }
  });

  it('removes several unused definitions ending a file without a final line break in one go (found by a rendering property)', () => {
    for (const eol of ['\n', '\r\n']) {
      const text = ['正文[^3]。', '', '## 参考资料', '', '[^1]: d0.docx#0 — kb (K)', '[^2]: d1.docx#1 — kb (K)'].join(
        eol,
      );
      const withUsed = `${text}${eol}[^3]: d3.docx#3 — kb (K)${eol}[^4]: d4.docx#4 — kb (K)`;
      assert.equal(
        applyEdits(text, renumber(text, { removeUnused: true }).edits),
        ['正文[^3]。', '', '## 参考资料', ''].join(eol),
      );
      assert.equal(
        applyEdits(withUsed, renumber(withUsed, { removeUnused: true }).edits),
        ['正文[^1]。', '', '## 参考资料', '', '[^1]: d3.docx#3 — kb (K)'].join(eol),
      );
      // merged duplicates at the end go the same way
      const dup = [
        '正文[^1][^2][^3]。',
        '',
        '[^1]: a.docx#1 — kb (K)',
        '[^2]: a.docx#1 — kb (K)',
        '[^3]: a.docx#1 — kb (K)',
      ].join(eol);
      assert.equal(
        applyEdits(dup, renumber(dup).edits),
        ['正文[^1][^1][^1]。', '', '[^1]: a.docx#1 — kb (K)'].join(eol),
      );
    }
  });

  it('deletes whole lines, line breaks included, adjacent ones in one edit, in any order given', () => {
    const cases: [string, number[], string][] = [
      ['a\nb\nc\nd\ne\nf\n', [4, 1, 2, 4, 5], 'a\nd\n'],
      ['a\nb\nc', [0], 'b\nc'],
      ['a\nb\nc', [2], 'a\nb'],
      ['a\nb\nc', [1, 2], 'a'],
      ['a', [0], ''],
      ['a\nb', [0, 1], ''],
    ];
    for (const [text, lines, want] of cases) {
      const edits = deleteLines(new LineIndex(text), lines);
      assert.equal(applyEdits(text, edits), want, `${JSON.stringify(text)} − ${lines}`);
      const runs = [...new Set(lines)].sort((x, y) => x - y).filter((l, i, all) => all[i - 1] !== l - 1).length;
      assert.equal(edits.length, runs, `one edit per run of adjacent lines: ${lines}`);
    }
  });

  it('merges our definitions of one source into the lowest number, whose line it keeps', () => {
    const text = '甲[^2]乙[^1]。\n\n[^2]: a.docx#1 — 旧库 (K)\n[^1]: a.docx#1 — 新库 (K)\n';
    const r = renumber(text);
    assert.deepEqual(r.mapping, { '1': '1', '2': '1' });
    assert.equal(applyEdits(text, r.edits), '甲[^1]乙[^1]。\n\n[^1]: a.docx#1 — 新库 (K)\n');
  });

  it('a label defined twice: references cite the first; the second is dropped when it repeats a source, else kept as unused', () => {
    const same = '正文[^3]。\n\n[^3]: a.docx#1 — kb (K)\n[^3]: a.docx#1 — kb (K)\n';
    const r1 = renumber(same);
    assert.deepEqual([r1.mapping, r1.unused], [{ '3': '1' }, []]);
    assert.equal(applyEdits(same, r1.edits), '正文[^1]。\n\n[^1]: a.docx#1 — kb (K)\n');
    const other = '正文[^3]。\n\n[^3]: a.docx#1 — kb (K)\n[^3]: b.docx#2 — kb (K)\n';
    const r2 = renumber(other);
    assert.deepEqual([r2.mapping, r2.unused], [{ '3': '1' }, ['3']]);
    assert.equal(applyEdits(other, r2.edits), '正文[^1]。\n\n[^1]: a.docx#1 — kb (K)\n[^2]: b.docx#2 — kb (K)\n');
  });

  it('maps no label whose definition is removed: an unused one and those merged into it', () => {
    const text = '正文。\n\n[^1]: a.docx#1 — kb (K)\n[^2]: a.docx#1 — kb (K)\n';
    const r = renumber(text, { removeUnused: true });
    assert.deepEqual([r.mapping, r.unused], [{}, ['1']]);
    assert.equal(applyEdits(text, r.edits), '正文。\n\n');
  });

  it('property: renumbering keeps every other byte, and twice changes nothing', () => {
    const ours = fc.array(fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 5 })), { maxLength: 8 });
    fc.assert(
      fc.property(bulletin, ours, fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 8 }), (base, defs, uses) => {
        const seen = new Set<number>();
        const lines = defs
          .filter(([l]) => !seen.has(l) && seen.add(l))
          .map(([l, c]) => `[^${l}]: d${c}.docx#${c} — kb (K)`);
        const text = `${base}\n\n正文${uses.map((u) => `[^${u}]`).join('，')}。\n\n## 参考资料\n\n${lines.join('\n')}\n`;
        const before = analyzeDocument(text);
        const r = renumber(text, { mergeDuplicates: false });
        const out = applyEdits(text, r.edits);
        const after = analyzeDocument(out);
        assert.equal(skeleton(out, after), skeleton(text, before));
        // the author's footnotes keep their labels (their text is covered by the skeleton; our references inside them may change)
        assert.deepEqual(
          after.authorDefinitions.map((d) => d.label),
          before.authorDefinitions.map((d) => d.label),
        );
        assert.deepEqual(
          after.references.filter((x) => !x.ours).map((x) => x.label),
          before.references.filter((x) => !x.ours).map((x) => x.label),
        );
        assert.deepEqual(renumber(out, { mergeDuplicates: false }).edits, []);
        const merged = applyEdits(text, renumber(text).edits);
        assert.deepEqual(renumber(merged).edits, []);
        // every used citation still points at the same source
        const src = (m: typeof before, label: string): string | undefined =>
          m.definitions.find((d) => d.label === label && !d.duplicateLabel)?.citationRaw;
        assert.deepEqual(
          after.references.filter((x) => x.ours).map((x) => src(after, x.label)),
          before.references.filter((x) => x.ours).map((x) => src(before, x.label)),
        );
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('citations/lint', () => {
  it('reports every kind of problem with fixes that resolve them', () => {
    const t =
      '甲[^1]乙[^2]丙[^9]丁〔x.docx#y〕\n\n## 参考资料\n\n[^1]: a.docx#1 — k (K)\n[^2]: a.docx#1 — k (K)\n[^3]: b.docx#007 — k (K)\n[^4]: c.docx#4 — k (K)\n';
    const d = lint(t);
    assert.deepEqual(
      d.map((x) => [x.code, x.label ?? null, x.range.line]),
      [
        ['undefined-reference', '9', 0],
        ['malformed-citation', null, 0],
        ['duplicate-source', '2', 5],
        ['unused-definition', '3', 6],
        ['malformed-citation', '3', 6],
        ['unused-definition', '4', 7],
      ],
    );
    assert.equal(d[0]!.messageKey, 'citations.undefinedReference');
    assert.deepEqual(d[0]!.args, ['9']);
    assert.equal(d[0]!.failure, undefined);
    // A malformed citation carries its failure, so the UI can word its reason (its last argument).
    const chunk = (subject: string) => ({
      ok: false,
      error: 'bad-chunk-index',
      subject,
      message: `"${subject}" is not a non-negative integer chunk_index`,
    });
    assert.deepEqual(
      [d[1]!.messageKey, d[1]!.args, d[1]!.failure, d[1]!.message],
      [
        'citations.malformedInline',
        ['x.docx#y', chunk('y').message],
        chunk('y'),
        `Malformed inline citation "x.docx#y": ${chunk('y').message}`,
      ],
    );
    assert.deepEqual(
      [d[4]!.messageKey, d[4]!.args, d[4]!.failure],
      ['citations.malformedDefinition', ['b.docx#007', '3', chunk('007').message], chunk('007')],
    );
    const merge = d[2]!.fix!;
    assert.equal(merge.title, 'Merge [^2] into [^1]');
    const merged = applyEdits(t, merge.edits);
    assert.ok(merged.startsWith('甲[^1]乙[^1]丙') && !merged.includes('[^2]:'));
    const fixed = applyEdits(t, d[4]!.fix!.edits);
    assert.ok(fixed.includes('[^3]: b.docx#7 — k (K)'));
    assert.equal(d[1]!.fix, undefined);
    const removed = applyEdits(t, d[5]!.fix!.edits);
    assert.ok(!removed.includes('c.docx#4'));
  });

  it('a chunk index written with zeros or blanks is fixed to its number, where the citation then reads', () => {
    const fixedTo = (t: string): [string | undefined, string | undefined] => {
      const fix = lint(t).find((p) => p.code === 'malformed-citation')?.fix;
      return [fix?.title, fix && applyEdits(t, fix.edits)];
    };
    assert.deepEqual(fixedTo('x〔a.docx#007〕'), ['Write the chunk index as 7', 'x〔a.docx#7〕']);
    assert.deepEqual(fixedTo('x〔a.docx# 7 〕'), ['Write the chunk index as 7', 'x〔a.docx#7〕']);
    assert.deepEqual(fixedTo('x〔\\#b#00〕'), ['Write the chunk index as 0', 'x〔\\#b#0〕']);
    assert.deepEqual(fixedTo('x[^1]\n\n[^1]: a.docx#010 — k (K)\n'), [
      'Write the chunk index as 10',
      'x[^1]\n\n[^1]: a.docx#10 — k (K)\n',
    ]);
    for (const none of ['x〔a.docx#1\\#2〕', 'x〔a.docx#-1〕', 'x〔a.docx#1.0〕', 'x〔 #007〕', 'x〔a.docx#x〕']) {
      assert.ok(
        lint(none).some((p) => p.code === 'malformed-citation'),
        `${none} is malformed`,
      );
      assert.deepEqual(fixedTo(none), [undefined, undefined], none);
    }
  });
});
