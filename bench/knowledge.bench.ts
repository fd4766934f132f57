/**
 * Figures for the knowledge layer (`npx tsx bench/knowledge.bench.ts`, or `npm run bench -- knowledge`):
 * 1. search-as-you-type: requests sent for ten keystrokes at realistic typing intervals, on a virtual
 *    clock (ManualScheduler), with a simulated server latency; goal ≤ 2 requests;
 * 2. fusion cost: RRF fusion of 6 lists × 20 passages, against a plain concat-and-sort of the same
 *    passages measured side by side (the baseline).
 */
import { performance } from 'node:perf_hooks';
import { createLatestOnly, fuseLists, type PassageLike, type ResultList } from '../src/knowledge';
import { ManualScheduler } from '../test/support/manual-scheduler';
// The same deterministic generator (mulberry32) the sample pictures use, so every run reports the same figures.
import { rng } from '../test/emulator/make-sample-images';
import { sized } from './smoke.mjs';

const DEBOUNCE_MS = 300;
const SERVER_LATENCY_MS = 250;
/** Typing runs per profile (one seed each), and the fusion timing's warm-up, rounds and calls per round. */
const SEEDS = sized([1, 2, 3, 4, 5], [1]);
const WARMUP = sized(200, 1);
const TIMED_ROUNDS = sized(7, 1);
const ITERATIONS = sized(2000, 10);

interface Profile {
  readonly name: string;
  /** Gap after each of the ten keystrokes, ms. */
  readonly gaps: (rnd: () => number) => number[];
}

const PROFILES: readonly Profile[] = [
  { name: 'fast (80–160 ms)', gaps: (r) => Array.from({ length: 10 }, () => 80 + r() * 80) },
  { name: 'average (150–280 ms)', gaps: (r) => Array.from({ length: 10 }, () => 150 + r() * 130) },
  {
    name: 'one 400 ms pause (in flight)',
    gaps: (r) => Array.from({ length: 10 }, (_, i) => (i === 4 ? 400 : 120 + r() * 160)),
  },
  {
    name: 'one 800 ms pause (answered)',
    gaps: (r) => Array.from({ length: 10 }, (_, i) => (i === 4 ? 800 : 120 + r() * 160)),
  },
];

async function typingFigure(profile: Profile, seed: number): Promise<{ sent: number; aborted: number; ok: number }> {
  const clock = new ManualScheduler();
  // counted here, from outside: the requests the wrapper sent, and those it aborted
  let sent = 0;
  let aborted = 0;
  const search = createLatestOnly(
    (query: string, signal: AbortSignal) =>
      new Promise<string>((resolve, reject) => {
        sent++;
        const reply = clock.setTimer(SERVER_LATENCY_MS, () => resolve(`results for ${query}`));
        signal.addEventListener('abort', () => {
          aborted++;
          reply.dispose();
          reject(signal.reason);
        });
      }),
    { delayMs: DEBOUNCE_MS, scheduler: clock },
  );
  const text = '茶树驻芽期修剪技术要点';
  const calls: Promise<unknown>[] = [];
  const gaps = profile.gaps(rng(seed));
  for (let i = 0; i < 10; i++) {
    calls.push(search(text.slice(0, i + 1)));
    await clock.advance(gaps[i] ?? 0);
  }
  await clock.advance(DEBOUNCE_MS + SERVER_LATENCY_MS);
  const results = (await Promise.all(calls)) as { status: string }[];
  return {
    sent,
    aborted,
    ok: results.filter((r) => r.status === 'ok').length,
  };
}

function makeLists(lists: number, perList: number): ResultList<PassageLike & { content: string }>[] {
  const rnd = rng(42);
  return Array.from({ length: lists }, (_, l) => ({
    id: `KB_${l}`,
    scoreType: l % 2 ? 'cosine_similarity(0~1)' : 'rrf(≈1/(60+rank), 仅用于排序)',
    sources: Array.from({ length: perList }, (_, i) => ({
      // about a third of the passages recur across lists
      doc_name: `文档${Math.floor(rnd() * 40)}.docx`,
      chunk_index: i % 3,
      content: '……',
      score: l % 2 ? 0.9 - i * 0.01 : 1 / (61 + i),
    })),
  }));
}

function timeIt(fn: () => unknown, iterations: number): number {
  for (let i = 0; i < WARMUP; i++) fn(); // warm-up
  const samples: number[] = [];
  for (let round = 0; round < TIMED_ROUNDS; round++) {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) fn();
    samples.push(((performance.now() - start) * 1000) / iterations);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1] ?? Number.NaN; // median, µs per call
}

async function main(): Promise<void> {
  console.log(
    `search-as-you-type: 10 keystrokes, debounce ${DEBOUNCE_MS} ms, server ${SERVER_LATENCY_MS} ms (virtual clock)`,
  );
  let worst = 0;
  for (const profile of PROFILES) {
    const runs = await Promise.all(SEEDS.map((seed) => typingFigure(profile, seed)));
    const sent = runs.map((r) => r.sent);
    worst = Math.max(worst, ...sent);
    const aborted = runs.reduce((n, r) => n + r.aborted, 0);
    const shown = runs.map((r) => r.ok).join(' ');
    console.log(
      `  ${profile.name.padEnd(30)} requests sent per run: ${sent.join(' ')}  (aborted in flight: ${aborted}; results shown per run: ${shown})`,
    );
  }
  console.log(`  worst case: ${worst} request(s) for ten keystrokes (goal ≤ 2): ${worst <= 2 ? 'met' : 'NOT met'}`);

  const lists = makeLists(6, 20);
  const fusedCount = fuseLists(lists).length;
  const fusion = timeIt(() => fuseLists(lists), ITERATIONS);
  const baseline = timeIt(() => lists.flatMap((l) => l.sources).sort((a, b) => b.score - a.score), ITERATIONS);
  console.log(`fusion: 6 lists × 20 passages → ${fusedCount} distinct`);
  console.log(
    `  fuseLists ${fusion.toFixed(1)} µs/call; concat+sort baseline ${baseline.toFixed(1)} µs/call; ratio ${(fusion / baseline).toFixed(1)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
