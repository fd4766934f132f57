import assert from 'node:assert/strict';
import { checkBulletins, notesText } from '../../../src/citations/check';
import { shippedRules } from '../../../src/safety/index';
import { wordsOf } from '../../../src/text/words';

/** Two restricted-use pesticides in a rice bulletin: two notes, no problem. */
const NOTES = '---\ndate: 2026-12-02\ncrop: 水稻\n---\n\n可用毒死蜱防治稻纵卷叶螟。\n\n可用毒死蜱防治稻飞虱。\n';

async function check(files: Record<string, string | undefined>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await checkBulletins(
    Object.keys(files),
    async (file) => {
      const text = files[file];
      return text === undefined ? { error: 'ENOENT' } : { text };
    },
    { stdout: (s) => (out += s), stderr: (s) => (err += s) },
    { safety: { rules: shippedRules(), today: '2026-12-02' }, lang: 'en' },
  );
  return { code, out, err };
}

describe('citations/check', () => {
  it('the summary counts notes, one or more, after the problems', async () => {
    assert.deepEqual(
      [0, 1, 2].map((n) => notesText(n, 0, wordsOf('en'))),
      ['', '; 1 note', '; 2 notes'],
    );
    assert.equal(notesText(2, 1, wordsOf('en')), '; 2 notes; 1 silenced');
    assert.equal(notesText(0, 3, wordsOf('zh')), '；3 条已静默');
    const notes = await check({ 'a.md': NOTES });
    assert.equal(notes.err, 'shunong check: no problems; 2 notes\n');
    assert.equal(notes.code, 0);
    assert.equal(notes.out.split('\n').filter((l) => l.includes(' information [')).length, 2);
    const both = await check({ 'a.md': NOTES, 'b.md': '甲[^1]乙[^2]\n' });
    assert.equal(both.err, 'shunong check: 2 problems in 1 of 2 files; 2 notes\n');
    assert.equal(both.code, 1);
  });

  it('an unreadable file is said and makes the exit 2, even with problems in the others', async () => {
    const r = await check({ 'gone.md': undefined, 'b.md': '甲[^1]\n' });
    assert.equal(r.err, 'shunong check: cannot read gone.md: ENOENT\nshunong check: 1 problem in 1 of 2 files\n');
    assert.equal(r.out, 'b.md:1:2 [^1] Footnote [^1] has no definition.\n');
    assert.equal(r.code, 2);
    const alone = await check({ 'gone.md': undefined });
    assert.equal(alone.err, 'shunong check: cannot read gone.md: ENOENT\n');
    assert.equal(alone.code, 2);
  });
});
