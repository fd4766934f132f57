/** A bulletin's date as authors write it (src/bulletin/date.ts): read, or reported where it stands. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bulletinDate, readDate } from '../../../src/bulletin/date';

describe('bulletin: the date', () => {
  it('reads a day written with dashes, slashes, dots or 年月日, with or without leading zeros', () => {
    for (const written of [
      '2018-03-15',
      '2018/03/15',
      '2018-3-15',
      '2018.3.15',
      '2018/3/15',
      '2018年3月15日',
      '2018 年 3 月 15 日',
      '2018年03月15号',
    ])
      assert.equal(readDate(written), '2018-03-15', written);
    assert.equal(readDate('2018-03-15T08:00:00+08:00'), '2018-03-15', 'a time after the day');
    assert.equal(readDate('2018-03-15 08:00'), '2018-03-15');
  });

  it('refuses what is not a calendar day', () => {
    for (const written of [
      '2026-02-30',
      '2025-02-29',
      '2018-13-01',
      '2018-00-10',
      '18-03-15',
      '2018-03',
      '二〇一八年三月',
      '2018年3月',
      'next week',
      '',
      '2018-03-155',
    ])
      assert.equal(readDate(written), undefined, written);
    assert.equal(readDate('2024-02-29'), '2024-02-29', 'a leap day');
  });

  it('any real day written as YYYY-M-D, YYYY/MM/DD or YYYY年M月D日 reads back as that day (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }),
        (d) => {
          const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
          const iso = d.toISOString().slice(0, 10);
          for (const written of [
            `${y}-${m}-${day}`,
            `${y}/${String(m).padStart(2, '0')}/${String(day).padStart(2, '0')}`,
            `${y}年${m}月${day}日`,
          ])
            assert.equal(readDate(written), iso, written);
        },
      ),
    );
  });

  it("takes the front matter's date, else today; a date: that is not a day is today's, with its line and column", () => {
    assert.deepEqual(bulletinDate('---\ntitle: t\ndate: 2018年3月15日\n---\n# T\n', '2026-12-02'), {
      date: '2018-03-15',
      from: 'front-matter',
    });
    assert.deepEqual(bulletinDate('# T\n', '2026-12-02'), { date: '2026-12-02', from: 'today' });
    assert.deepEqual(bulletinDate('---\ndate:\n---\n', '2026-12-02'), { date: '2026-12-02', from: 'today' });
    assert.deepEqual(bulletinDate('---\ntitle: t\ndate:   三月中旬\n---\n', '2026-12-02'), {
      date: '2026-12-02',
      from: 'today',
      unreadable: { line: 2, character: 8, value: '三月中旬' },
    });
    assert.deepEqual(bulletinDate('\uFEFF---\ndate: 2026-02-30\n---\n', '2026-12-02').unreadable, {
      line: 1,
      character: 6,
      value: '2026-02-30',
    });
  });
});
