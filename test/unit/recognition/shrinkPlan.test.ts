/** The shrinking plan shared by both shrinkers: first scale, what each result leads to, the attempts’ limits. */
import * as assert from 'node:assert/strict';
import {
  GROW_BELOW,
  JIMP_BYTES_PER_INPUT_BYTE,
  MAX_ATTEMPTS,
  MAX_LONG_SIDE,
  ShrinkPlan,
  TARGET_SHARE,
  firstScale,
  maxScale,
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

describe('recognition: the shrinking plan’s numbers', () => {
  const close = (actual: number | undefined, expected: number, what = ''): void =>
    assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${what} ${actual} ≠ ${expected}`);

  it('the largest scale keeps the long side at most 4096, whichever side is long, and never enlarges', () => {
    for (const [w, h, scale] of [
      [800, 600, 1],
      [4096, 3072, 1],
      [8192, 4096, 0.5],
      [4096, 8192, 0.5],
      [16384, 100, 0.25],
    ] as const)
      assert.equal(maxScale(w, h), scale, `${w} × ${h}`);
  });

  it('the first scale aims the expected JPEG (a share of the input’s bytes) at 90 % of the limit', () => {
    // 40 MB in, 0.3 byte out per byte in: 12 MB expected at full size; 3.6 / 12 of the pixels.
    close(firstScale(4000, 3000, 40 * MB, LIMIT), Math.sqrt((0.9 * 4) / (40 * 0.3)));
    // jimp's encoder writes larger files: a smaller first attempt.
    close(firstScale(4000, 3000, 40 * MB, LIMIT, JIMP_BYTES_PER_INPUT_BYTE), Math.sqrt((0.9 * 4) / (40 * 0.45)));
    close(firstScale(4000, 3000, 40 * MB, 2 * LIMIT), Math.sqrt((0.9 * 8) / (40 * 0.3)), 'a larger limit');
    close(new ShrinkPlan(4000, 3000, 40 * MB, LIMIT, 0.45).scale, Math.sqrt((0.9 * 4) / (40 * 0.45)), 'the plan');
  });

  it('each attempt’s size is the picture at the scale, each side rounded and at least one pixel', () => {
    const plan = new ShrinkPlan(4000, 3000, 40 * MB, LIMIT);
    const s = Math.sqrt(0.3);
    assert.deepEqual(plan.size, { width: Math.round(4000 * s), height: Math.round(3000 * s) });
    const thin = new ShrinkPlan(4000, 2, 4000 * MB, LIMIT);
    assert.ok(thin.scale < 0.1);
    assert.deepEqual(thin.size, { width: Math.round(4000 * thin.scale), height: 1 });
  });

  it('a result of exactly the limit fits (kept, no more attempts); one byte more does not', () => {
    const exact = new ShrinkPlan(4000, 3000, 20 * MB, LIMIT).report(LIMIT);
    assert.deepEqual(exact, { keep: true, next: undefined });
    const over = new ShrinkPlan(4000, 3000, 20 * MB, LIMIT).report(LIMIT + 1);
    assert.equal(over.keep, false);
    assert.ok(over.next);
  });

  it('over the limit, the next scale aims at the target, and is at least 10 % smaller', () => {
    for (const [outBytes, factor] of [
      [2 * LIMIT, Math.sqrt(0.45)],
      [4 * LIMIT, Math.sqrt(0.225)],
      [LIMIT + 1, 0.9],
    ] as const) {
      const plan = new ShrinkPlan(4000, 3000, 20 * MB, LIMIT);
      const first = plan.scale;
      const { keep, next } = plan.report(outBytes);
      assert.equal(keep, false);
      close(next?.scale, first * factor, `${outBytes}`);
      assert.equal(plan.scale, next?.scale);
      assert.deepEqual(next?.size, {
        width: Math.round(4000 * first * factor),
        height: Math.round(3000 * first * factor),
      });
    }
  });

  it('far under the limit: one larger attempt aiming at the target, never past the largest scale', () => {
    const plan = new ShrinkPlan(4000, 3000, 40 * MB, LIMIT);
    const first = plan.scale;
    const { keep, next } = plan.report(0.3 * LIMIT);
    assert.equal(keep, true);
    close(next?.scale, first * Math.sqrt(0.9 / 0.3));
    // Still far under after growing: no third attempt.
    assert.deepEqual(plan.report(0.3 * LIMIT + 1), { keep: true, next: undefined });
    // A tiny result grows to the largest scale only.
    const tiny = new ShrinkPlan(8192, 6144, 400 * MB, LIMIT);
    assert.deepEqual(tiny.report(1000).next, { scale: 0.5, size: { width: 4096, height: 3072 } });
  });

  it('no larger attempt from 45 % of the limit up, nor when the attempt is within 1 % of the largest scale', () => {
    assert.equal(new ShrinkPlan(4000, 3000, 40 * MB, LIMIT).report(0.45 * LIMIT).next, undefined);
    assert.ok(new ShrinkPlan(4000, 3000, 40 * MB, LIMIT).report(0.45 * LIMIT - 1).next);
    // 10 MB in: 3 MB expected at full size, the first attempt is the whole picture.
    assert.equal(new ShrinkPlan(4000, 3000, 10 * MB, LIMIT).report(1000).next, undefined);
    // First scale 0.995 (aimed from the input's bytes): too close to grow.
    const near = (0.9 * LIMIT) / (0.3 * 0.995 * 0.995);
    const nearPlan = new ShrinkPlan(4000, 3000, near, LIMIT);
    close(nearPlan.scale, 0.995);
    assert.equal(nearPlan.report(1000).next, undefined);
    const farPlan = new ShrinkPlan(4000, 3000, (0.9 * LIMIT) / (0.3 * 0.985 * 0.985), LIMIT);
    assert.ok(farPlan.report(1000).next, 'at 0.985 it grows');
  });

  it('after a larger attempt, the best result is the largest that fits: a smaller or equal one is not kept', () => {
    for (const second of [0.2 * LIMIT, 0.3 * LIMIT]) {
      const plan = new ShrinkPlan(4000, 3000, 40 * MB, LIMIT);
      assert.equal(plan.report(0.3 * LIMIT).keep, true);
      assert.deepEqual(plan.report(second), { keep: false, next: undefined }, `${second}`);
    }
  });

  it('the eighth attempt is the last, even when it fits far under the limit', () => {
    const plan = new ShrinkPlan(4000, 3000, 20 * MB, LIMIT);
    for (let i = 1; i < MAX_ATTEMPTS; i++) assert.ok(plan.report(5 * MB).next, `attempt ${i}`);
    assert.deepEqual(plan.report(0.1 * MB), { keep: true, next: undefined });
  });
});
