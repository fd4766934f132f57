/**
 * The scheduler moved to `src/time/scheduler.ts` (one interface for the whole extension); this
 * re-export keeps the old import path compiling until its last importer moves.
 */
export type { Scheduler, Timer } from '../time/scheduler';
