/** The rows of a guided step: typed value used, Back, grouping (src/knowledge/guidedRows.ts). */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  answerOf,
  entryFinds,
  guidedRows,
  reopen,
  stageEntries,
  type GuidedRow,
} from '../../../src/knowledge/guidedRows';
import { builtinVocabulary, findCrop, loadVocabulary, type VocabularyEntry } from '../../../src/knowledge/vocabulary';

const vocab = builtinVocabulary();
const rice = findCrop(vocab, '水稻');
const describeRow = (r: GuidedRow<VocabularyEntry>): string =>
  r.kind === 'entry'
    ? r.entry.labels['zh-CN']
    : r.kind === 'typed'
      ? `Use ${r.value}`
      : r.kind === 'group'
        ? `# ${r.labels['zh-CN']}`
        : 'Skip';

describe('knowledge/guidedRows', () => {
  it('typing 分蘖期 at the rice stage step finds Tillering first; Enter uses it, never Skip', () => {
    assert.ok(rice);
    const { rows, active } = guidedRows(stageEntries(vocab, rice), '分蘖期');
    assert.deepEqual(rows.slice(0, 2).map(describeRow), ['分蘖期', 'Use 分蘖期']);
    assert.equal(active, 0);
    assert.deepEqual(answerOf(rows[active], '分蘖期'), { entry: rice.stages.find((s) => s.id === 'tillering') });
    assert.equal(rows.at(-1)?.kind, 'skip', 'Skip stays, last');
  });

  it('a name of neither language nor alias: Use "…" is first and active, and means the text typed', () => {
    const { rows, active } = guidedRows(stageEntries(vocab, rice), '  晒田期 ');
    assert.deepEqual(rows[0], { kind: 'typed', value: '晒田期' });
    assert.equal(active, 0);
    assert.deepEqual(answerOf(rows[0], '晒田期'), { typed: '晒田期' });
    assert.ok(rows.slice(1, -1).every((r) => r.kind === 'entry' && !r.matched));
  });

  it('Enter on typed text never skips: Skip, nothing or a separator accepted with text typed is the text', () => {
    const rows = guidedRows(stageEntries(vocab, rice), '').rows;
    const skip = rows.find((r) => r.kind === 'skip');
    assert.deepEqual(answerOf(skip, '晒田'), { typed: '晒田' });
    assert.deepEqual(answerOf(undefined, '晒田'), { typed: '晒田' });
    assert.deepEqual(answerOf({ kind: 'group', labels: { 'zh-CN': '水稻', en: 'Rice' } }, '晒田'), { typed: '晒田' });
    assert.equal(answerOf(skip, '   '), undefined, 'Skip with nothing typed skips');
  });

  it('matches Chinese and English names, ids and aliases whatever the UI language, and the vocabulary additions', () => {
    const tillering = rice?.stages.find((s) => s.id === 'tillering');
    assert.ok(tillering);
    for (const t of ['分蘖', 'tiller', 'TILLERING', 'tillering']) assert.ok(entryFinds(tillering, t), t);
    assert.ok(!entryFinds(tillering, ''));
    const corn = findCrop(vocab, 'maize');
    assert.ok(corn && entryFinds(corn, '包谷'), 'an alias');
    const extended = loadVocabulary({
      stages: { 水稻: [{ 'zh-CN': '晒田期', en: 'Field drying', aliases: ['烤田'] }] },
    });
    const ext = findCrop(extended.vocabulary, '水稻');
    const { rows } = guidedRows(stageEntries(extended.vocabulary, ext), '烤田');
    assert.equal(describeRow(rows[0] as GuidedRow<VocabularyEntry>), '晒田期');
  });

  it('without a crop, stages are grouped by crop under headings, Skip first and active', () => {
    const { rows, active } = guidedRows(stageEntries(vocab), '');
    assert.equal(rows[0]?.kind, 'skip');
    assert.equal(active, 0);
    const headings = rows.filter((r) => r.kind === 'group').map(describeRow);
    assert.deepEqual(
      headings,
      vocab.crops.filter((c) => c.stages.length).map((c) => `# ${c.labels['zh-CN']}`),
    );
    // Each stage sits under its own crop's heading.
    let crop = '';
    for (const r of rows) {
      if (r.kind === 'group') crop = r.labels['zh-CN'];
      if (r.kind === 'entry') assert.equal(r.group?.labels['zh-CN'], crop);
    }
    assert.equal(rows.filter((r) => r.kind === 'entry').length, vocab.crops.flatMap((c) => c.stages).length);
  });

  it('with a crop, its stages only, in order, Skip last; a preselected entry is active', () => {
    assert.ok(rice);
    const pre = rice.stages[3];
    const { rows, active } = guidedRows(stageEntries(vocab, rice), '', pre);
    assert.deepEqual(
      rows.filter((r) => r.kind === 'entry').map(describeRow),
      rice.stages.map((s) => s.labels['zh-CN']),
    );
    assert.equal(rows.at(-1)?.kind, 'skip');
    assert.ok(!rows.some((r) => r.kind === 'group'));
    assert.equal(rows[active]?.kind === 'entry' && rows[active].entry, pre);
  });

  it('every entry is shown once; only what the typed text finds is marked as found; one Skip', () => {
    assert.ok(rice);
    const entries = stageEntries(vocab, rice);
    for (const typed of ['', '分蘖', '晒田期']) {
      const { rows } = guidedRows(entries, typed);
      const shown = rows.filter((r) => r.kind === 'entry');
      assert.equal(shown.length, entries.length, `each stage once (${typed})`);
      assert.equal(rows.filter((r) => r.kind === 'skip').length, 1);
      for (const r of shown) assert.equal(r.matched, typed !== '' && entryFinds(r.entry, typed), r.entry.id);
    }
    assert.notEqual(guidedRows(entries, '').rows[0]?.kind, 'skip', 'Skip is last when not grouped');
  });

  it('Back keeps what was chosen: a typed answer comes back as the text, an entry as the active row', () => {
    const tillering = rice?.stages.find((s) => s.id === 'tillering');
    assert.ok(rice && tillering);
    assert.deepEqual(reopen({ typed: '晒田期' }), { value: '晒田期' });
    const again = reopen({ entry: tillering });
    assert.deepEqual(again, { value: '', active: tillering });
    const { rows, active } = guidedRows(stageEntries(vocab, rice), again.value, again.active);
    assert.deepEqual(answerOf(rows[active], again.value), { entry: tillering });
    const typedAgain = reopen<VocabularyEntry>({ typed: '晒田期' });
    const shown = guidedRows(stageEntries(vocab, rice), typedAgain.value, typedAgain.active);
    assert.deepEqual(answerOf(shown.rows[shown.active], typedAgain.value), { typed: '晒田期' });
    assert.deepEqual(reopen(undefined), { value: '' });
  });

  it('property: whatever is typed, the active row answers with an entry it finds or the text itself', () => {
    const entries = stageEntries(vocab);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom('期', 'ti', '分蘖', 'Seedling', '一芽')), (typed) => {
        const { rows, active } = guidedRows(entries, typed);
        const a = answerOf(rows[active], typed);
        if (typed.trim() === '') assert.equal(a, undefined);
        else if (a && 'entry' in a) assert.ok(entryFinds(a.entry, typed));
        else assert.deepEqual(a, { typed: typed.trim() });
        assert.equal(rows.filter((r) => r.kind === 'skip').length, 1);
        assert.ok(rows[active]?.kind !== 'group');
      }),
    );
  });
});
