/**
 * Property tests run from one fixed seed, so `npm test` (and CI) is reproducible: a property that
 * fails, fails every time, with the same counterexample. `npm run test:fuzz` looks for new
 * counterexamples instead: a random seed and 5,000 runs per property (`FC_RUNS` changes that).
 * fast-check prints the seed and path of any failure; `FC_SEED=<seed> npm run test:unit` replays it.
 */
import fc from 'fast-check';

const FIXED_SEED = 20261130;

const fuzz = process.env.npm_lifecycle_event === 'test:fuzz';
const raw = process.env.FC_SEED ?? (fuzz ? 'random' : undefined);
const seed = raw === 'random' ? Math.floor(Math.random() * 0x7fffffff) : raw !== undefined ? Number(raw) : FIXED_SEED;
if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", not "${raw}"`);
if (fuzz) process.env.FC_RUNS ??= '5000';
const numRuns = process.env.FC_RUNS !== undefined ? Number(process.env.FC_RUNS) : undefined;
if (raw !== undefined)
  console.log(`fast-check: seed ${seed}${numRuns !== undefined ? `, ${numRuns} runs per property` : ''}`);
fc.configureGlobal({ seed, ...(numRuns !== undefined ? { numRuns } : {}) });
