/**
 * The one fast-check configuration of the unit suite (loaded by .mocharc.json before any test).
 *
 * Every property runs from fast-check's own random seed, a new one each run, so every run of the
 * suite (and of CI) looks for counterexamples no earlier run tried: a fixed seed replays the same
 * cases forever and hides what they miss. No test passes its own `seed`. A failing property's error,
 * which mocha prints, names its `seed` and `path`; replay it, shrunk straight to the counterexample,
 * with `FC_SEED=<seed> FC_PATH=<path> npx mocha <its file> --grep "<its title>"` (the path belongs to
 * that one property), then keep the counterexample as a fixed example test next to the property.
 *
 * `npm run test:fuzz` runs every property 5,000 times instead of its usual count (`FC_RUNS=<n>` sets
 * another count, for the suite or one file): the tests read `FC_RUNS` through {@link runs}.
 */
import fc from 'fast-check';

function integer(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, not "${raw}"`);
  return n;
}

if (process.env.npm_lifecycle_event === 'test:fuzz') process.env.FC_RUNS ??= '5000';
const seed = integer('FC_SEED');
const path = process.env.FC_PATH || undefined;
if (path !== undefined && seed === undefined) throw new Error('FC_PATH replays a failure only with its FC_SEED');
const numRuns = integer('FC_RUNS');
if (numRuns !== undefined && numRuns < 1) throw new Error(`FC_RUNS must be at least 1, not ${numRuns}`);

fc.configureGlobal({
  ...(seed !== undefined ? { seed } : {}),
  ...(path !== undefined ? { path } : {}),
  ...(numRuns !== undefined ? { numRuns } : {}),
});
if (seed !== undefined || numRuns !== undefined)
  console.log(
    `fast-check: ${seed !== undefined ? `seed ${seed}${path !== undefined ? ` path ${path}` : ''}` : 'random seeds'}` +
      `${numRuns !== undefined ? `, ${numRuns} runs per property` : ''}`,
  );

/** How many runs a property makes: `FC_RUNS` when set (`npm run test:fuzz` sets 5,000), else `usual`. */
export function runs(usual: number): number {
  return numRuns ?? usual;
}
