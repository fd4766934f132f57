/**
 * Grounded drafting bench (`npx tsx bench/draft.bench.ts`, or `npm run bench -- draft`).
 *
 * Starts its own local endpoint on 127.0.0.1 (default simulated generation speed, 400 tokens/s) and
 * measures, alternating the two modes request by request on the same questions:
 * - time to the first streamed words (first non-empty content delta) of `stream()`;
 * - time to the full non-streamed answer of `complete()`;
 * and prints p50 of each and their ratio (first words / full answer; lower is better), plus the
 * time to the end of the stream. Set BENCH_ROUNDS to change the rounds (default 10). Exits by itself.
 */
import { performance } from 'node:perf_hooks';
import { chatRequest, ShunongRestClient } from '../src/shunong';
import { startEmulator } from '../test/emulator/server';
import { sized } from './smoke.mjs';

const KEY = 'sk_local_demo';
const ROUNDS = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? sized(10, 1)));
const QUESTIONS = [
  '水稻分蘖期如何管理水层',
  '茶树修剪技术要点',
  '小麦拔节期追肥',
  '玉米大豆带状复合种植',
  '茶园病虫害防治',
];

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const emu = await startEmulator();
  const client = new ShunongRestClient({ endpoint: emu.url, getKey: () => KEY });
  const first: number[] = [];
  const streamEnd: number[] = [];
  const full: number[] = [];
  let tokens = 0;
  try {
    // warm-up (index, JIT)
    await client.complete(chatRequest(QUESTIONS[0]!, { knowledge: { query: QUESTIONS[0]! } }));
    for (let r = 0; r < ROUNDS; r++) {
      const q = QUESTIONS[r % QUESTIONS.length]!;
      const req = chatRequest(q, { knowledge: { query: q, topK: 5, useRerank: true } });
      const runStream = async (): Promise<void> => {
        const t0 = performance.now();
        let got = false;
        for await (const ev of client.stream(req)) {
          if (ev.type === 'delta' && !got && ev.content.trim()) {
            got = true;
            first.push(performance.now() - t0);
          }
          if (ev.type === 'done') tokens += ev.result.usage?.completion_tokens ?? 0;
        }
        streamEnd.push(performance.now() - t0);
      };
      const runFull = async (): Promise<void> => {
        const t0 = performance.now();
        await client.complete(req);
        full.push(performance.now() - t0);
      };
      if (r % 2 === 0) {
        await runStream();
        await runFull();
      } else {
        await runFull();
        await runStream();
      }
    }
  } finally {
    await emu.close();
  }
  const f = p50(first);
  const a = p50(full);
  console.log(
    `rounds: ${ROUNDS}; mean answer ${Math.round(tokens / ROUNDS)} completion tokens; local endpoint at 400 tokens/s (simulated generation)`,
  );
  console.log(`time to first streamed words (p50): ${f.toFixed(1)} ms`);
  console.log(`time to the end of the stream (p50): ${p50(streamEnd).toFixed(1)} ms`);
  console.log(`time to the full non-streamed answer (p50): ${a.toFixed(1)} ms`);
  console.log(`ratio first words / full answer: ${(f / a).toFixed(3)}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
