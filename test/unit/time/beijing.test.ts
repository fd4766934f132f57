import * as assert from 'node:assert/strict';
import { beijingDate, msToBeijingMidnight } from '../../../src/time/beijing';

const at = (iso: string): number => Date.parse(iso);

describe('the Beijing calendar (UTC+8, no daylight saving time)', () => {
  it('turns the date at 16:00 UTC, whatever the machine’s time zone', () => {
    assert.equal(beijingDate(at('2026-10-25T15:59:59Z')), '2026-10-25');
    assert.equal(beijingDate(at('2026-10-25T16:00:00Z')), '2026-10-26');
    assert.equal(beijingDate(at('2026-12-31T16:00:00Z')), '2027-01-01', 'the year turns with it');
  });

  it('counts the milliseconds to the next Beijing midnight (a whole day at midnight itself)', () => {
    assert.equal(msToBeijingMidnight(at('2026-10-25T15:00:00Z')), 3_600_000);
    assert.equal(msToBeijingMidnight(at('2026-10-25T16:00:00Z')), 86_400_000);
    assert.equal(msToBeijingMidnight(at('1969-12-31T15:00:00Z')), 3_600_000, 'before the epoch too');
  });
});
