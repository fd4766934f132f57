import assert from 'node:assert/strict';
import { applyEdits, lint } from '../../../src/citations';

const doc = [
  '甲[^1]乙[^2]丙[^9]丁〔x.docx#007〕见 http://a.cn/x[^1]',
  '',
  '[^1]: a.docx#1 — k (K)',
  '[^2]: a.docx#1 — k (K)',
  '[^3]: b.docx#5 — k (K)',
  '[^1]: c.docx#4 — k (K)',
  '',
].join('\n');

describe('citations/lint fixes', () => {
  it('each quick fix is titled by what it does, in English and as a key with its arguments', () => {
    assert.deepEqual(
      lint(doc).map((d) => [d.code, d.fix?.title, d.fix?.titleKey, d.fix?.args]),
      [
        ['undefined-reference', 'Remove reference [^9]', 'citations.fix.removeReference', ['9']],
        ['malformed-citation', 'Write the chunk index as 7', 'citations.fix.chunkIndex', ['7']],
        ['glued-to-url', 'Put a space before [^1]', 'citations.fix.space', ['[^1]']],
        ['duplicate-source', 'Merge [^2] into [^1]', 'citations.fix.merge', ['2', '1']],
        ['unused-definition', 'Remove unused definition [^3]', 'citations.fix.removeDefinition', ['3']],
        ['duplicate-label', 'Renumber citations', 'citations.fix.renumber', []],
      ],
    );
  });

  it('each fix changes only what resolves its problem', () => {
    const fixed = (code: string): string => applyEdits(doc, lint(doc).find((d) => d.code === code)!.fix!.edits);
    const line0 = doc.split('\n')[0]!;
    assert.equal(fixed('undefined-reference'), doc.replace('丙[^9]丁', '丙丁'));
    assert.equal(fixed('malformed-citation'), doc.replace('〔x.docx#007〕', '〔x.docx#7〕'));
    assert.equal(fixed('glued-to-url'), doc.replace('/x[^1]', '/x [^1]'));
    assert.equal(
      fixed('duplicate-source'),
      doc.replace(line0, line0.replace('乙[^2]', '乙[^1]')).replace('[^2]: a.docx#1 — k (K)\n', ''),
    );
    assert.equal(fixed('unused-definition'), doc.replace('[^3]: b.docx#5 — k (K)\n', ''));
    const renumbered = fixed('duplicate-label');
    assert.ok(!lint(renumbered).some((d) => d.code === 'duplicate-label'), renumbered);
  });

  it('a definition’s chunk index is fixed whatever its document name, one character long too', () => {
    const t = 'x[^1]\n\n[^1]: a#010 — k (K)\n';
    const fix = lint(t).find((d) => d.code === 'malformed-citation')?.fix;
    assert.equal(fix?.title, 'Write the chunk index as 10');
    assert.equal(applyEdits(t, fix.edits), 'x[^1]\n\n[^1]: a#10 — k (K)\n');
  });

  it('a label defined twice by the author gets no fix: renumbering leaves the author’s labels alone', () => {
    const t = '甲[^a]\n\n[^a]: 注\n[^a]: 注二\n';
    const d = lint(t);
    assert.deepEqual(
      d.map((x) => [x.code, x.label, x.fix]),
      [['duplicate-label', 'a', undefined]],
    );
  });
});
