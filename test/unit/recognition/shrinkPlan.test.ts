import * as assert from 'node:assert/strict';
import {
  GROW_BELOW,
  MAX_ATTEMPTS,
  MAX_LONG_SIDE,
  ShrinkPlan,
  TARGET_SHARE,
  firstScale,
} from '../../../src/recognition/shrinkPlan';

const MB = 1024 * 1024;
const LIMIT = 4 * MB;

/** Runs a plan against an encoder whose output grows with the pixel count; answers the attempts and the kept one. */
function run(
  width: number,
  height: number,
  inputBytes: number,
  encoded: (w: number, h: number) => number,
): {
  tried: { width: number; height: number; bytes: number }[];
  kept: { width: number; height: number; bytes: number } | undefined;
} {
  const plan = new ShrinkPlan(width, height, inputBytes, LIMIT);
  const tried: { width: number; height: number; bytes: number }[] = [];
  let kept: (typeof tried)[number] | undefined;
  for (let size: { width: number; height: number } | undefined = plan.size; size;) {
    const attempt = { ...size, bytes: encoded(size.width, size.height) };
    tried.push(attempt);
    const verdict = plan.report(attempt.bytes);
    if (verdict.keep) kept = attempt;
    size = verdict.next?.size;
  }
  return { tried, kept };
}

describe('recognition: the shrinking plan', () => {
  it('a 6 MB photo of 4.8 megapixels whose quality-85 JPEG fits is sent at its full resolution, in one attempt', () => {
    // Chromium: 2528 × 1896 at quality 85 → 2.15 MB.
    const { tried, kept } = run(2528, 1896, 6 * MB, (w, h) => (2.15 * MB * (w * h)) / (2528 * 1896));
    assert.equal(tried.length, 1);
    assert.deepEqual(kept && { width: kept.width, height: kept.height }, { width: 2528, height: 1896 });
  });

  it('a 24-megapixel photo of 30 MB: one attempt, near the limit, long side at most 4096', () => {
    // Chromium's quality-85 sizes of the bench photo: 4096 × 3072 → 4.29 MB, 3394 × 2546 → 2.59 MB.
    const encoded = (w: number, h: number): number => (4.29 * MB * (w * h)) / (4096 * 3072);
    const { tried, kept } = run(5657, 4243, 30 * MB, encoded);
    assert.equal(tried.length, 1, JSON.stringify(tried));
    assert.ok(kept);
    assert.ok(kept.bytes <= LIMIT && kept.bytes > GROW_BELOW * LIMIT, `${kept.bytes}`);
    assert.ok(Math.max(kept.width, kept.height) <= MAX_LONG_SIDE);
    assert.ok(Math.abs((kept.width * 4243) / 5657 - kept.height) <= 1, 'aspect within one pixel');
  });

  it('over the limit: smaller, aiming under the target', () => {
    // An encoder 2.5× bigger than the estimate: the first attempt is over.
    const { tried, kept } = run(4000, 3000, 20 * MB, (w, h) => w * h * 1.2);
    assert.ok(tried.length >= 2);
    assert.ok((tried[0]?.bytes ?? 0) > LIMIT);
    assert.ok(kept && kept.bytes <= LIMIT);
    assert.equal(kept, tried.at(-1));
  });

  it('far under the limit at a reduced size: once larger; the larger kept when it fits, the smaller when not', () => {
    // Fits: bytes ∝ pixels, a tenth of the estimate.
    const small = run(4000, 3000, 40 * MB, (w, h) => w * h * 0.05);
    assert.equal(small.tried.length, 2);
    assert.ok((small.tried[1]?.width ?? 0) > (small.tried[0]?.width ?? 0));
    assert.equal(small.kept, small.tried[1]);
    // The larger one is over (a steep encoder): the first is kept, no third attempt.
    let n = 0;
    const steep = run(4000, 3000, 40 * MB, () => (n++ === 0 ? 0.3 * MB : 5 * MB));
    assert.equal(steep.tried.length, 2);
    assert.equal(steep.kept, steep.tried[0]);
  });

  it('never larger than the picture or 4096 on the long side; gives up after the last attempt', () => {
    assert.equal(firstScale(800, 600, 5 * MB, LIMIT), 1);
    assert.equal(firstScale(8192, 6144, 1 * MB, LIMIT), 0.5);
    assert.ok(firstScale(4000, 3000, 40 * MB, LIMIT) < Math.sqrt((TARGET_SHARE * LIMIT) / (40 * MB)) * 2);
    const never = run(4000, 3000, 20 * MB, () => 5 * MB);
    assert.equal(never.tried.length, MAX_ATTEMPTS);
    assert.equal(never.kept, undefined);
  });
});
