import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createLatestOnly, SupersededError, type LatestResult } from '../../../src/knowledge/latestOnly';
import { ManualScheduler } from '../../support/manual-scheduler';

interface Request {
  readonly query: string;
  readonly signal: AbortSignal;
  resolve(value: string): void;
  reject(error: unknown): void;
}

/** A fake search whose requests the test settles by hand. */
function fakeSearch(): { fn: (q: string, signal: AbortSignal) => Promise<string>; requests: Request[] } {
  const requests: Request[] = [];
  const fn = (query: string, signal: AbortSignal): Promise<string> =>
    new Promise<string>((resolve, reject) => requests.push({ query, signal, resolve, reject }));
  return { fn, requests };
}

/** Types `text` one character at a time, `intervalMs` apart, collecting each call's promise. */
async function type(
  clock: ManualScheduler,
  search: (q: string) => Promise<LatestResult<string>>,
  text: string,
  intervalMs: number,
): Promise<Promise<LatestResult<string>>[]> {
  const calls: Promise<LatestResult<string>>[] = [];
  for (let i = 1; i <= text.length; i++) {
    calls.push(search(text.slice(0, i)));
    await clock.advance(intervalMs);
  }
  return calls;
}

describe('knowledge/latestOnly', () => {
  it('ten quick keystrokes send one request, for the last text', async () => {
    const clock = new ManualScheduler();
    const { fn, requests } = fakeSearch();
    const search = createLatestOnly(fn, { delayMs: 300, scheduler: clock });
    const calls = await type(clock, search, '茶树驻芽期修剪技术要点', 120);
    await clock.advance(300);
    assert.deepEqual(
      requests.map((r) => r.query),
      ['茶树驻芽期修剪技术要点'],
    );
    requests[0]?.resolve('hits');
    const results = await Promise.all(calls);
    assert.deepEqual(results.at(-1), { status: 'ok', value: 'hits' });
    assert.ok(results.slice(0, -1).every((r) => r.status === 'superseded'));
    assert.equal(requests.length, 1, 'one request sent');
    assert.ok(!requests.some((r) => r.signal.aborted), 'none aborted');
    assert.equal(results.filter((r) => r.status === 'superseded').length, 10, 'ten calls dropped unsent');
  });

  it('ten keystrokes with one pause send two requests; the first is aborted and never resolves a value', async () => {
    const clock = new ManualScheduler();
    const { fn, requests } = fakeSearch();
    const search = createLatestOnly(fn, { delayMs: 300, scheduler: clock });
    const first = await type(clock, search, '茶树修剪', 150);
    await clock.advance(400); // a pause: the first request goes out
    assert.equal(requests.length, 1);
    const second = await type(clock, search, '茶树修剪技术要点', 150);
    await clock.advance(300);
    assert.equal(requests.length, 2);
    const [stale, fresh] = requests;
    assert.ok(stale?.signal.aborted && stale.signal.reason instanceof SupersededError);
    assert.equal(fresh?.signal.aborted, false);
    stale?.resolve('stale hits'); // the server answers late: ignored
    fresh?.resolve('fresh hits');
    const results = await Promise.all([...first, ...second]);
    assert.deepEqual(
      results.filter((r) => r.status === 'ok'),
      [{ status: 'ok', value: 'fresh hits' }],
    );
    assert.ok(!results.some((r) => r.status === 'ok' && r.value === 'stale hits'));
    assert.equal(requests.length, 2);
    assert.equal(requests.filter((r) => r.signal.aborted).length, 1);
  });

  it('property: any typing rhythm of ten keystrokes sends at most (pauses + 1) requests and only the last call can succeed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 20, max: 1000 }), { minLength: 10, maxLength: 10 }), async (gaps) => {
        const clock = new ManualScheduler();
        const { fn, requests } = fakeSearch();
        const delayMs = 300;
        const search = createLatestOnly(fn, { delayMs, scheduler: clock });
        const calls: Promise<LatestResult<string>>[] = [];
        for (let i = 0; i < gaps.length; i++) {
          calls.push(search(`q${i}`));
          await clock.advance(gaps[i] ?? 0);
        }
        await clock.advance(delayMs);
        const pauses = gaps.slice(0, -1).filter((g) => g >= delayMs).length;
        assert.equal(requests.length, pauses + 1);
        requests.forEach((r, i) => {
          assert.equal(r.signal.aborted, i < requests.length - 1);
          r.resolve(r.query);
        });
        const results = await Promise.all(calls);
        assert.deepEqual(
          results.map((r) => r.status),
          [...Array<string>(9).fill('superseded'), 'ok'],
        );
        assert.deepEqual(results[9], { status: 'ok', value: 'q9' });
      }),
      { numRuns: 50 },
    );
  });

  it('with the realistic gaps of the figure (no pause) ten keystrokes send exactly one request, for the last text', async () => {
    const clock = new ManualScheduler();
    const { fn, requests } = fakeSearch();
    const search = createLatestOnly(fn, { delayMs: 300, scheduler: clock });
    const gaps = [180, 140, 260, 90, 210, 160, 240, 120, 200, 150];
    for (const [i, gap] of gaps.entries()) {
      void search(`q${i}`);
      await clock.advance(gap);
    }
    assert.equal(requests.length, 0, 'nothing is sent while every gap is under the debounce');
    await clock.advance(300);
    assert.deepEqual(
      requests.map((r) => r.query),
      ['q9'],
    );
    assert.ok(!requests.some((r) => r.signal.aborted), 'none aborted');
  });

  it('now() sends at once and supersedes a waiting call; cancel() ends everything as cancelled', async () => {
    const clock = new ManualScheduler();
    const { fn, requests } = fakeSearch();
    const search = createLatestOnly(fn, { delayMs: 300, scheduler: clock });
    const waiting = search('茶');
    const enter = search.now('茶树');
    assert.deepEqual(
      requests.map((r) => r.query),
      ['茶树'],
    );
    assert.deepEqual(await waiting, { status: 'superseded' });
    assert.equal(clock.pending, 0);
    search.cancel();
    assert.deepEqual(await enter, { status: 'cancelled' });
    assert.equal(requests[0]?.signal.aborted, true);
    const later = search('水稻');
    search.cancel();
    assert.deepEqual(await later, { status: 'cancelled' });
    await clock.advance(1000);
    assert.equal(requests.length, 1);
  });

  it("rejects with the latest request's own error only; errors of superseded requests are swallowed", async () => {
    const clock = new ManualScheduler();
    const { fn, requests } = fakeSearch();
    const search = createLatestOnly(fn, { delayMs: 0, scheduler: clock });
    const a = search.now('a');
    const b = search.now('b');
    requests[0]?.reject(new Error('aborted'));
    requests[1]?.reject(new Error('boom'));
    assert.deepEqual(await a, { status: 'superseded' });
    await assert.rejects(b, /boom/);
    const throwing = createLatestOnly<string, string>(
      () => {
        throw new Error('sync');
      },
      { delayMs: 0, scheduler: clock },
    );
    await assert.rejects(throwing.now('x'), /sync/);
  });

  it('validates delayMs and defaults to the real clock', async () => {
    assert.throws(() => createLatestOnly(async () => 1, { delayMs: -1 }), /^RangeError: delayMs must be ≥ 0, got -1$/);
    const real = createLatestOnly(async (q: string) => q.length, { delayMs: 0 });
    assert.deepEqual(await real('abc'), { status: 'ok', value: 3 });
  });

  it('a superseded request that settles late (ignoring its abort) leaves the newer one in charge: cancel still aborts it', async () => {
    for (const settle of ['resolve', 'reject'] as const) {
      const clock = new ManualScheduler();
      const { fn, requests } = fakeSearch();
      const search = createLatestOnly(fn, { delayMs: 0, scheduler: clock });
      const old = search.now('茶');
      const newer = search.now('茶树');
      assert.deepEqual(await old, { status: 'superseded' });
      assert.equal(requests[0]?.signal.reason instanceof SupersededError, true);
      assert.equal((requests[0]?.signal.reason as Error).name, 'SupersededError');
      if (settle === 'resolve') requests[0]?.resolve('late');
      else requests[0]?.reject(new Error('late'));
      await new Promise((r) => setImmediate(r));
      search.cancel();
      assert.equal(requests[1]?.signal.aborted, true, settle);
      assert.deepEqual(await newer, { status: 'cancelled' });
    }
  });
});
