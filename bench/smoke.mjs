// Smoke mode of the benches (`npm run bench:smoke`, or `npm run bench -- --smoke`): bench/index.ts
// sets SHUNONG_BENCH_SMOKE=1 in each bench's environment, and every bench reads it here, the .ts
// benches and the plain-JavaScript ones (activation.mjs, search-ui.mjs) alike. In smoke mode a bench
// runs one round at its smallest meaningful size and prints its lines as usual: the figures are not
// judged, the bench only has to run to its end and exit 0. The env knobs a bench has (BENCH_ROUNDS,
// BENCH_CALLS, SHUNONG_BENCH_STARTS, SHUNONG_BENCH_ROUNDS) still win: smoke mode changes defaults.

/** Whether this bench runs in smoke mode. */
export const SMOKE = process.env.SHUNONG_BENCH_SMOKE === '1';

/** `full` in a measuring run, `smoke` in smoke mode. */
export function sized(full, smoke) {
  return SMOKE ? smoke : full;
}
